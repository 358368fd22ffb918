import { z } from 'zod';
// MATRIX_TAKING_LONG_MS (15 s, spec 2 §9) lives in constants.ts.
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants';
import { CELL_STATUSES, type CellStatus, cellCountsAsCompliant } from './course-status';
import { MatrixView } from './matrix-view';
import type { MatrixPathwayAllocation } from './pathways';
import { NEW_STARTERS_FILTERS, PRESET_COMPLIANCE_TYPES } from './presets';

/**
 * The compliance matrix (spec 2 §3 "Matrix cell" / "Matrix response", §4 matrix progress, §7 websocket channel and
 * POST /reports/matrix, §9 subscribe retries and column span). Permissions: 12 matrix report, 14 PDF, 15 Excel.
 *
 * The matrix is big (10,000 users × 200 courses ≈ 1.3M cells), so the websocket sends it COMPACT, in blocks of about
 * MATRIX_BLOCK_USERS users, and the browser builds the grid. Wire encoding (ours; the spec shows no payloads; the
 * column lists MATRIX_USERS_COLUMNS and MATRIX_CELLS_COLUMNS below, and the OpenAPI description, say the same):
 *
 * - users block (fetch_data kind 'users'): columnar arrays
 *     [ids[], names[], primary_entity_ids[], role_ids (null: none)[], new_starter (0|1)[]]
 * - cells block (fetch_data kind 'matrix_cells'): columnar arrays, one entry per cell
 *     [user_ids[], course_ids[], type codes[], status codes[], latest_result_ids (null)[],
 *      completed day numbers (null)[], expiry day numbers (null)[], result_counts[]]
 *   type code: 0 none, 1 primary, 2 secondary (MATRIX_TYPE_CODES); status code: 0 in_date, 1 expiring, 2 expired,
 *   3 missing, 4 exempt (the index in MATRIX_STATUSES); a day number is whole days since 1970-01-01 UTC (the date of
 *   the timestamp in UTC). in_date_passed = the status counts as compliant (in_date, expiring or exempt);
 *   in_expiry_warning_period = status expiring; the cell's
 *   primary_entity_id and role_id are its user's. decodeCells() gives back the spec's MatrixCell objects.
 * - due cells (issue 33 §4): after the eight columns, four more list only the cells that are never done and due by
 *   a date still ahead (contracts courseStatus 'due': a new starter's period, or a new requirement's grace period):
 *     [due user_ids[], due course_ids[], due-by day numbers[], left_out (0|1)[]]
 *   (MATRIX_DUE_COLUMNS). Their status code stays 3 (missing: the cell status, as in every tally), and the cell says
 *   "Due by <date>" (courseStatusText). left_out 1: a new requirement's cell inside its grace period, left out of
 *   every score and figure (compliance/queries.ts countedSql), as the compliance report leaves it out; 0: a new
 *   starter's course, counted as the compliance figures count it (the new-starters filter takes them out).
 *   Absent (a block of no users, an older server): no cell is due.
 * - A cell exists for every (user, course) that the user's role requires in their primary entity (type primary or
 *   secondary, through effective_compliance_rules: level B inherits level A) and, with compliance type 'all', for
 *   every other course the user has a latest result for (type 'none'). Statuses are computed by the server with the
 *   compliance core (cellStatusSql), so the matrix and the compliance reports agree.
 */

/** spec 2 §6: matrix report 12, matrix PDF 14, matrix Excel 15. */
export const MatrixPerm = { report: 12, pdf: 14, xlsx: 15 } as const;

export const MATRIX_BLOCK_USERS = 500;
/** Above this many cells, POST /reports/matrix with directFormat json answers 500 "too large" (use the websocket). */
export const MATRIX_JSON_CELL_LIMIT = 200_000;
/** spec 2 §9: subscribe is retried up to 5 times, waiting 1000 ms × attempt² for the acknowledgement. */
export const MATRIX_SUBSCRIBE_RETRIES = 5;
export const matrixSubscribeWait = (attempt: number) => 1000 * attempt * attempt;
/** spec 2 §9: the matrix column span is the course count plus 4 (user, role, entity, score). */
export const matrixColumnSpan = (courseCount: number) => courseCount + 4;
export const MATRIX_WS_PATH = '/api/ws';
/**
 * A stopping server closes every live connection with 1012 "Service Restart" and this reason (issue 12 §3); the
 * client says so and reconnects, waiting matrixReconnectWait(n) before try n, at most MATRIX_RECONNECT_TRIES times.
 */
export const RESTART_CLOSE_CODE = 1012;
export const RESTART_CLOSE_REASON = 'The server is restarting';
export const MATRIX_RECONNECT_TRIES = 8;
export const matrixReconnectWait = (attempt: number) => Math.min(500 * 2 ** (attempt - 1), 8000);

export const MatrixMessages = {
  emailFailed: 'Failed to request emailed matrix. Please contact support.',
  emailQueued: 'The matrix will be e-mailed to you shortly.',
  tooLarge: 'The matrix is too large to show here. Narrow the filters, or export it to PDF or Excel.',
  takingLong: 'The matrix is taking longer than usual to load. Large organisations can take a while.',
  failed: 'Failed to fetch report. Please contact support',
  notConnected: 'The live connection could not be opened. Please try again.',
  restarting: 'The server is restarting — reconnecting…',
  notBack: 'The server has not come back yet. Reload the page to try again.',
} as const;

export const MATRIX_TYPES = ['none', 'primary', 'secondary'] as const;
export type MatrixCellType = (typeof MATRIX_TYPES)[number];
export const MATRIX_TYPE_CODES: Record<MatrixCellType, number> = { none: 0, primary: 1, secondary: 2 };
/** The wire's status codes are indexes in this list (compliance.ts CELL_STATUSES: 4 is exempt). */
export const MATRIX_STATUSES = CELL_STATUSES;
export type MatrixStatus = CellStatus;

const dbId = z.number().int().positive().max(2147483647);
const ids = z.array(dbId).max(5000);

/** Filters of the matrix (websocket subscribe and POST /reports/matrix); empty lists mean "no limit". */
export const MatrixFilters = z.object({
  /** Entities to cover (each must be in the caller's scope, else 404), with their descendants when deep. */
  entities: ids.default([]),
  roles: ids.default([]),
  courses: ids.default([]),
  users: ids.default([]),
  /**
   * Pathways (issue 17): columns limited to their backing courses and their current steps' courses (added to
   * `courses`), rows to the people allocated one of them (within `users`); 404 for one outside the scope.
   */
  pathways: ids.default([]),
  /** primary = Mandatory, secondary = Required, all = both plus courses with a result that are not required. */
  compliance_type: z.enum(PRESET_COMPLIANCE_TYPES).default('primary'),
  new_starters_filter: z.enum(NEW_STARTERS_FILTERS).default('include_new_starters'),
  /** Only cells with these statuses (empty: all). Scores and aggregates always count every required cell. */
  includeStatusTypes: z.array(z.enum(CELL_STATUSES)).max(CELL_STATUSES.length).default([]),
  deep: z.boolean().default(true),
});
export type MatrixFilters = z.infer<typeof MatrixFilters>;
export type MatrixFiltersInput = z.input<typeof MatrixFilters>;

export const MatrixReportBody = MatrixFilters.extend({
  directFormat: z.enum(['json', 'file']).optional(),
  format: z.enum(['pdf', 'xlsx']).optional(),
  emailFormat: z.enum(['pdf', 'xlsx']).optional(),
  /**
   * Ours (issue 33 §5): the page's search, "Show" filter and sort (matrix-view.ts), so a file or e-mailed export
   * holds the people on the screen in the screen's order. Absent: everyone, by name. JSON answers ignore it.
   */
  view: MatrixView.optional(),
});
export type MatrixReportBody = z.input<typeof MatrixReportBody>;

/** GraphQL `matrix` (paged by users): the matrix filters plus `page` and `per_page` (the resolver's `first`). */
export const MatrixPageQuery = MatrixFilters.extend({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});
export type MatrixPageQuery = z.infer<typeof MatrixPageQuery>;

/** spec 2 §3 "Matrix cell". Dates are ISO 'YYYY-MM-DD' (UTC day) or null. */
export interface MatrixCell {
  course_id: number;
  in_date_passed: boolean;
  in_expiry_warning_period: boolean;
  latest_result_completed: string | null;
  latest_result_expires: string | null;
  latest_result_id: number | null;
  primary_entity_id: number;
  result_count: number;
  role_id: number | null;
  type: MatrixCellType;
  user_id: number;
  /** Ours: the status the core computed (in_date, expiring, expired, missing, exempt). */
  status: MatrixStatus;
  /**
   * Ours (issue 33 §4): never done and due by this date, still ahead ('YYYY-MM-DD'; the one status 'due', "Due by
   * <date>"); null otherwise. Its status stays missing.
   */
  due_by: string | null;
  /** Ours: false for a new requirement's cell inside its grace period, left out of every score and figure. */
  counted: boolean;
}

export interface MatrixUser {
  id: number;
  name: string;
  primary_entity_id: number;
  role_id: number | null;
  new_starter: boolean;
}
export interface MatrixCourse {
  id: number;
  title: string;
}
export interface MatrixRole {
  id: number;
  name: string;
  entity_id: number;
}
export interface MatrixEntity {
  id: number;
  name: string;
  parent_id: number | null;
  level: 'A' | 'B';
}

export interface ComplianceTally {
  users: number;
  required: number;
  in_date: number;
  expiring: number;
  expired: number;
  missing: number;
  /** Cells whose latest result is an exemption that has not ended: compliant, and counted apart from in_date. */
  exempt: number;
}
/** Per entity: its own users (own) and its own plus its descendants' (deep), by compliance type; score = deep. */
export interface MatrixAggregate {
  entity_id: number;
  name: string;
  parent_id: number | null;
  own: { primary: ComplianceTally; secondary: ComplianceTally };
  deep: { primary: ComplianceTally; secondary: ComplianceTally };
  /** scoreOf(in_date + expiring + exempt, required) over the deep figures of the filtered compliance type(s). */
  score: number;
}
export interface MatrixTopLevelAggregate extends ComplianceTally {
  /** Users in the matrix (after filters). */
  total_users: number;
  score: number;
  primary: ComplianceTally;
  secondary: ComplianceTally;
}

/**
 * The columns of the socket's columnar blocks, in wire order, with what each holds (issue 38: the OpenAPI
 * description documents the wire from these, server/src/http/openapi/realtime.ts; decodeUsers and decodeCells read
 * the same order, and server/src/matrix/routes.test.ts decodes a live block by these names against the REST cells).
 */
export const MATRIX_USERS_COLUMNS = [
  { name: 'id', what: 'user id' },
  { name: 'name', what: 'full name' },
  { name: 'primary_entity_id', what: 'id of their primary organisation or site' },
  { name: 'role_id', what: 'job role id, or null for none' },
  { name: 'new_starter', what: '1 for a new starter, else 0' },
] as const;
export const MATRIX_CELLS_COLUMNS = [
  { name: 'user_id', what: 'user id (one of the users block)' },
  { name: 'course_id', what: 'course id (one of a courses message)' },
  { name: 'type', what: 'type code (below)' },
  { name: 'status', what: 'status code (below)' },
  { name: 'latest_result_id', what: 'id of the latest result, or null' },
  { name: 'latest_result_completed', what: 'day number of its completion, or null' },
  { name: 'latest_result_expires', what: 'day number of its expiry, or null' },
  { name: 'result_count', what: 'how many results the person has for the course' },
] as const;

/** The four sparse columns of the due cells after MATRIX_CELLS_COLUMNS (see the wire's description above). */
export const MATRIX_DUE_COLUMNS = [
  { name: 'due_user_id', what: 'user id of a cell that is due (never done, due by a date still ahead)' },
  { name: 'due_course_id', what: 'its course id' },
  { name: 'due_by', what: 'day number of the date it is due by' },
  {
    name: 'left_out',
    what: '1 when it is left out of the scores (a new requirement in its grace period), else 0',
  },
] as const;

export type UsersWire = [number[], string[], number[], (number | null)[], number[]];
export type CellsWire = [
  number[],
  number[],
  number[],
  number[],
  (number | null)[],
  (number | null)[],
  (number | null)[],
  number[],
  number[]?,
  number[]?,
  number[]?,
  number[]?,
];

/** The due cells of a block (its sparse columns), by `<user id>:<course id>`: due-by day number and left out. */
export function dueCellsOf(wire: CellsWire): Map<string, { day: number; leftOut: boolean }> {
  const out = new Map<string, { day: number; leftOut: boolean }>();
  const [, , , , , , , , users = [], courses = [], days = [], leftOut = []] = wire;
  for (let i = 0; i < users.length; i++)
    out.set(`${users[i]}:${courses[i]}`, { day: days[i] as number, leftOut: leftOut[i] === 1 });
  return out;
}

/** Server → client messages of the websocket channel. */
export type ServerMessage =
  | { type: 'subscribed'; id: string }
  | { type: 'unsubscribed'; id: string }
  | { type: 'progress'; id: string; progress: number }
  | { type: 'error'; id?: string; status?: number; message: string }
  | { type: 'fetch_data'; id: string; kind: 'roles'; data: MatrixRole[] }
  | { type: 'fetch_data'; id: string; kind: 'entities'; data: MatrixEntity[] }
  | { type: 'fetch_data'; id: string; kind: 'courses'; data: MatrixCourse[] }
  | { type: 'fetch_data'; id: string; kind: 'users'; block: number; data: UsersWire }
  | { type: 'fetch_data'; id: string; kind: 'matrix_cells'; block: number; data: CellsWire }
  | { type: 'fetch_data'; id: string; kind: 'top_level_aggregate'; data: MatrixTopLevelAggregate }
  | { type: 'fetch_data'; id: string; kind: 'aggregate'; data: MatrixAggregate[] };

/** Client → server messages: auth (mobile mode: bearer token as the first message), subscribe, unsubscribe. */
export const ClientMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('auth'),
    token: z.string().min(1).max(500),
    actingAs: z.string().max(200).optional(),
  }),
  z.object({
    type: z.literal('subscribe'),
    channel: z.literal('matrix'),
    id: z.string().min(1).max(100),
    filters: z.unknown().optional(),
  }),
  z.object({ type: z.literal('unsubscribe'), id: z.string().min(1).max(100) }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof ClientMessage>;

const DAY_MS = 86_400_000;
export const dayNumberToIso = (day: number | null) =>
  day === null ? null : new Date(day * DAY_MS).toISOString().slice(0, 10);
export const isoToDayNumber = (iso: string) =>
  Math.floor(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / DAY_MS);

export function decodeUsers(wire: UsersWire): MatrixUser[] {
  const [idList, names, entities, roles, starters] = wire;
  return idList.map((id, i) => ({
    id,
    name: names[i] ?? '',
    primary_entity_id: entities[i] ?? 0,
    role_id: roles[i] ?? null,
    new_starter: starters[i] === 1,
  }));
}

/** The spec's MatrixCell objects of a block (needs the block's users for primary_entity_id and role_id). */
export function decodeCells(wire: CellsWire, users: ReadonlyMap<number, MatrixUser>): MatrixCell[] {
  const [userIds, courseIds, types, statuses, resultIds, completed, expires, counts] = wire;
  const due = dueCellsOf(wire);
  const out: MatrixCell[] = new Array(userIds.length);
  for (let i = 0; i < userIds.length; i++) {
    const user = users.get(userIds[i] as number);
    const status = MATRIX_STATUSES[statuses[i] as number] ?? 'missing';
    const d = due.size ? due.get(`${userIds[i]}:${courseIds[i]}`) : undefined;
    out[i] = {
      course_id: courseIds[i] as number,
      in_date_passed: cellCountsAsCompliant(status),
      in_expiry_warning_period: status === 'expiring',
      latest_result_completed: dayNumberToIso(completed[i] ?? null),
      latest_result_expires: dayNumberToIso(expires[i] ?? null),
      latest_result_id: resultIds[i] ?? null,
      primary_entity_id: user?.primary_entity_id ?? 0,
      result_count: counts[i] ?? 0,
      role_id: user?.role_id ?? null,
      type: MATRIX_TYPES[types[i] as number] ?? 'none',
      user_id: userIds[i] as number,
      status,
      due_by: d ? dayNumberToIso(d.day) : null,
      counted: !d?.leftOut,
    };
  }
  return out;
}

/**
 * spec 2 §3 "Matrix response" of POST /reports/matrix (directFormat json): breakdown (per-entity aggregates and the
 * top level), cells, users, results (the latest result of each cell that has one), primary_scores (per user, whole
 * percent) and pathway_allocations (every live or completed allocation of its users; only the filter's pathways when
 * it names some).
 */
export interface MatrixResponse {
  breakdown: { top_level: MatrixTopLevelAggregate; entities: MatrixAggregate[] };
  cells: MatrixCell[];
  users: MatrixUser[];
  courses: MatrixCourse[];
  roles: MatrixRole[];
  results: {
    id: number;
    user_id: number;
    course_id: number;
    completed: string | null;
    expires: string | null;
  }[];
  primary_scores: { user_id: number; score: number }[];
  pathway_allocations: MatrixPathwayAllocation[];
}
