import {
  MATRIX_BLOCK_USERS,
  MATRIX_CELLS_COLUMNS,
  MATRIX_DUE_COLUMNS,
  MATRIX_STATUSES,
  MATRIX_TYPES,
  MATRIX_USERS_COLUMNS,
  MATRIX_WS_PATH,
  RESTART_CLOSE_CODE,
} from '@cc/contracts';

/**
 * The matrix websocket in the OpenAPI document's description (issue 38 §3): GET /api/ws is no REST operation, so
 * its messages and the columnar `users` and `matrix_cells` arrays are told here, in the document's own
 * description, from the same constants the server and the web client use (contracts matrix.ts).
 */

const codes = (list: readonly string[]) => list.map((name, code) => `${code} ${name}`).join(', ');

const columns = (list: readonly { name: string; what: string }[], from = 0) =>
  [
    '| index | column | each entry |',
    '| --- | --- | --- |',
    ...list.map((c, i) => `| ${from + i} | \`${c.name}\` | ${c.what} |`),
  ].join('\n');

export const REALTIME_DESCRIPTION = [
  `## Realtime: the matrix websocket (\`GET ${MATRIX_WS_PATH}\`)`,
  '',
  `\`${MATRIX_WS_PATH}\` upgrades to a websocket (it is not a REST call, so it is not listed below). Every`,
  'message is a JSON text frame.',
  '',
  '**Signing in.** A browser: the session cookie of the upgrade request (the Origin must be this site), and',
  '`?actingAs=<slug>` to act as another organisation. An integration or the app: no cookie; the first message is',
  '`{"type":"auth","token":"<bearer token>","actingAs":"<slug>"}` (actingAs optional), answered',
  '`{"type":"authenticated"}`; messages sent before that answer wait for it and are then handled in order.',
  '',
  '**Messages from the client.** `{"type":"subscribe","channel":"matrix","id":"m1","filters":{…}}` with the',
  'filters of `POST /api/reports/matrix` (entities, roles, courses, users, pathways, compliance_type,',
  'new_starters_filter, includeStatusTypes, deep); `{"type":"unsubscribe","id":"m1"}` stops it;',
  '`{"type":"ping"}` is answered `{"type":"pong"}`. At most 4 subscriptions run at once.',
  '',
  '**Messages from the server**, each carrying the subscription\'s `id`: `{"type":"subscribed","id":"m1"}` at once;',
  '`{"type":"progress","id":"m1","progress":0.4}` (0 to 1); `{"type":"fetch_data","id":"m1","kind":…,"data":…}`;',
  '`{"type":"error","id":"m1","status":404,"message":"…"}` with the status the REST call would answer (401 not',
  'signed in, 403 without permission 12, 404 outside your organisations, 422 bad filters, 429 too many).',
  '',
  '**Order.** progress 0; fetch_data `roles` (`[{id, name, entity_id}]`) and `entities`',
  `(\`[{id, name, parent_id, level}]\`); then per block of up to ${MATRIX_BLOCK_USERS} people: \`courses\``,
  '(`[{id, title}]`, the ones not sent before, always before the cells that use them), `users` and `matrix_cells`',
  '(both with `"block": n`), progress; at the end `aggregate` (per organisation), `top_level_aggregate`, and',
  'progress 1: everything has arrived.',
  '',
  '**Columnar blocks.** To keep a matrix of a million cells small, `users` and `matrix_cells` carry no field',
  'names: `data` is an array of columns, each an array with one entry per person (or per cell), so the k-th',
  "person's (cell's) values are at index k of every column.",
  '',
  '`users`:',
  '',
  columns(MATRIX_USERS_COLUMNS),
  '',
  '`matrix_cells`:',
  '',
  columns(MATRIX_CELLS_COLUMNS),
  '',
  `Type codes: ${codes(MATRIX_TYPES)} (primary is Mandatory, secondary Required).`,
  `Status codes: ${codes(MATRIX_STATUSES)}.`,
  'A day number is whole days since 1970-01-01 (UTC): day 20500 is 2026-02-16.',
  'Decoded, a cell is the spec\'s "Matrix cell" as `POST /api/reports/matrix` answers it: `primary_entity_id` and',
  "`role_id` are its person's (from the users block), `in_date_passed` is true for in_date, expiring and exempt,",
  '`in_expiry_warning_period` is true for expiring, and dates are `YYYY-MM-DD`. For example',
  '',
  '```json',
  '{"type":"fetch_data","id":"m1","kind":"matrix_cells","block":0,',
  ' "data":[[7,7],[12,13],[1,2],[0,3],[901,null],[20500,null],[20865,null],[1,0]]}',
  '```',
  '',
  'is two cells of person 7: course 12, Mandatory, in date, result 901 completed 2026-02-16 and expiring',
  '2027-02-16, one result; course 13, Required, missing, no result.',
  '',
  '**Due cells** (issue 33 §4). After those eight columns come four more that list only the cells never done and',
  "due by a date still ahead (a new starter's period, or a new requirement's grace period): their status stays 3",
  '(missing) and they read "Due by <date>"; `left_out` 1 means the cell is left out of every score and figure until',
  'then, as the compliance report leaves it out. Columns of the due cells:',
  '',
  columns(MATRIX_DUE_COLUMNS, MATRIX_CELLS_COLUMNS.length),
  '',
  // 4401 is realtime/socket-registry.ts SIGNED_OUT_CLOSE_CODE (http, a lower layer, imports no capability).
  '**Closing.** 4401: not signed in, or the sign-in ended (signed out elsewhere, expired).',
  `${RESTART_CLOSE_CODE}: the server is restarting; connect again and subscribe again.`,
].join('\n');
