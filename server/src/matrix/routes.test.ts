import {
  DEFAULT_WHITELABEL,
  dayNumberToIso,
  MATRIX_CELLS_COLUMNS,
  MATRIX_DUE_COLUMNS,
  MATRIX_STATUSES,
  MATRIX_TYPES,
  MATRIX_USERS_COLUMNS,
} from '@cc/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { bearer, buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse, buildExemption, buildPassedResult } from '../../test/learning-factories';
import { pdfText } from '../../test/pdf-text';

let h: Harness;
let org: { id: number };
let manager: { id: number };
let outsider: { id: number };
let learner: { id: number };
let exempted: { id: number };
let course: { id: number; title: string };
beforeAll(async () => {
  h = await createHarness();
  org = await buildEntity(h.db, { level: 'A' });
  const role = await buildRole(h.db, org.id);
  course = await buildCourse(h.db, org.id, { title: 'Fire safety' });
  await h.db
    .insertInto('compliance_rules')
    .values({
      entity_id: org.id,
      role_id: role.id,
      course_id: course.id,
      type: 'primary',
      validity_months: 12,
    })
    .execute();
  learner = await buildUser(h.db, { entityId: org.id, roleId: role.id, name: 'Ann Learner' });
  await buildPassedResult(h.db, { userId: learner.id, entityId: org.id, courseId: course.id });
  // issue 10 §4: an exemption without an end is its own status, not "In date <its start>".
  exempted = await buildUser(h.db, { entityId: org.id, roleId: role.id, name: 'Eve Exempt' });
  await buildExemption(h.db, { userId: exempted.id, entityId: org.id, courseId: course.id });
  manager = await buildUser(h.db, { entityId: org.id, permissions: [12, 14, 15] });
  outsider = await buildUser(h.db, { permissions: [12, 14, 15] });
});
afterAll(async () => h?.close());

describe('POST /api/reports/matrix', () => {
  it('answers the matrix response as json', async () => {
    const as = await clientFor(h.app, h.db, manager.id);
    const res = await as('POST', '/api/reports/matrix', { directFormat: 'json' });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const cell = data.cells.find((c: { user_id: number }) => c.user_id === learner.id);
    expect(cell).toMatchObject({
      course_id: course.id,
      type: 'primary',
      in_date_passed: true,
      result_count: 1,
    });
    expect(data.pathway_allocations).toEqual([]);
    expect(data.primary_scores).toContainEqual({ user_id: learner.id, score: 100 });
  });

  it('answers an exempt cell as exempt, compliant in the scores (issue 10 §4)', async () => {
    const as = await clientFor(h.app, h.db, manager.id);
    const res = await as('POST', '/api/reports/matrix', { directFormat: 'json' });
    const data = res.json().data;
    const cell = data.cells.find((c: { user_id: number }) => c.user_id === exempted.id);
    expect(cell).toMatchObject({ status: 'exempt', in_date_passed: true, latest_result_expires: null });
    expect(data.primary_scores).toContainEqual({ user_id: exempted.id, score: 100 });
    const top = data.breakdown.top_level;
    expect(top).toMatchObject({ required: 2, in_date: 1, exempt: 1, score: 100 });
    // The status filter tells exempt cells from in-date ones.
    const only = await as('POST', '/api/reports/matrix', {
      directFormat: 'json',
      includeStatusTypes: ['exempt'],
    });
    expect(only.json().data.cells.map((c: { user_id: number }) => c.user_id)).toEqual([exempted.id]);
  });

  it('streams an XLSX that reads back: dates as real dates in the one format, fills per status, a legend', async () => {
    const as = await clientFor(h.app, h.db, manager.id);
    const res = await as('POST', '/api/reports/matrix', { directFormat: 'file', format: 'xlsx' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/matrix-.*\.xlsx/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as never);
    const ws = wb.worksheets[0]!;
    // Three title rows (title, filters, generated: issue 33 §5), then the column headers.
    expect(ws.getRow(4).getCell(1).value).toBe('User');
    expect(ws.getRow(4).getCell(3).value).toBe(DEFAULT_WHITELABEL.entityAltName);
    expect(ws.getRow(4).getCell(5).value).toBe('Fire safety');
    const row = ws.getRows(5, ws.rowCount - 4)!.find((r) => r.getCell(1).value === 'Ann Learner')!;
    // The expiry as a date (exceljs reads a date-formatted serial back as a Date), DD/MM/YYYY.
    const expiry = row.getCell(5);
    expect(expiry.value).toBeInstanceOf(Date);
    expect(expiry.numFmt).toBe('dd/mm/yyyy');
    expect((expiry.value as Date).getUTCFullYear()).toBeGreaterThanOrEqual(new Date().getUTCFullYear());
    expect(row.getCell(4).value).toBe(100);
    const fill = (c: ExcelJS.Cell) => (c.fill as ExcelJS.FillPattern | undefined)?.fgColor?.argb;
    expect(fill(expiry)).toBe('FF48BB78');
    // issue 10 §4: the exemption says Exempt (no date: it never ends), scores 100, and has a fill of its own.
    const exemptRow = ws.getRows(5, ws.rowCount - 4)!.find((r) => r.getCell(1).value === 'Eve Exempt')!;
    expect(exemptRow.getCell(5).value).toBe('Exempt');
    expect(exemptRow.getCell(4).value).toBe(100);
    expect(fill(exemptRow.getCell(5))).toBe('FF93C5FD');
    // The legend in words, the scope and when it was made.
    const legend = wb.getWorksheet('Legend')!;
    const lines = legend.getSheetValues().map((r) => (Array.isArray(r) ? r.slice(1).join(': ') : ''));
    expect(lines).toContain('Missing: required, not done');
    expect(lines.some((l) => /^Generated: \d\d\/\d\d\/\d{4} \d\d:\d\d$/.test(l))).toBe(true);
  });

  it('streams a PDF with the scope, the generation time, the legend in words, roles and dates in cells', async () => {
    const as = await clientFor(h.app, h.db, manager.id);
    const res = await as('POST', '/api/reports/matrix', { directFormat: 'file', format: 'pdf' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Ann Learner');
    expect(text).toContain('Fire safety');
    expect(text).toMatch(/Generated \d\d\/\d\d\/\d{4} \d\d:\d\d/);
    expect(text).toContain('Expired (dark bar): the date it expired');
    expect(text).toContain('Blank: not required for the role');
    expect(text).toContain('Page 1 of 1');
    // A date in Ann's cell, Exempt in Eve's.
    expect(text).toMatch(/\d\d\/\d\d\/20\d\d/);
    expect(text).toContain('Exempt');
  });

  it('titles the PDF with the home it is filtered to, not the group above it', async () => {
    const home = await buildEntity(h.db, { parentId: org.id, name: 'Oakfield Test Home' });
    const as = await clientFor(h.app, h.db, manager.id);
    const res = await as('POST', '/api/reports/matrix', {
      directFormat: 'file',
      format: 'pdf',
      entities: [home.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await pdfText(res.rawPayload)).toContain('Compliance matrix · Oakfield Test Home');
  });

  it('answers 404 for another organisation, 403 without the permission, 422 without a format', async () => {
    const out = await clientFor(h.app, h.db, outsider.id);
    expect((await out('POST', '/api/reports/matrix', { entities: [org.id] })).statusCode).toBe(404);
    const noPerm = await clientFor(h.app, h.db, learner.id);
    expect((await noPerm('POST', '/api/reports/matrix', {})).statusCode).toBe(403);
    const as = await clientFor(h.app, h.db, manager.id);
    expect((await as('POST', '/api/reports/matrix', { directFormat: 'file' })).statusCode).toBe(422);
  });

  it('queues an e-mailed matrix', async () => {
    const as = await clientFor(h.app, h.db, manager.id);
    const res = await as('POST', '/api/reports/matrix', { emailFormat: 'xlsx' });
    expect(res.statusCode, res.body).toBe(202);
    const { runDueJobs } = await import('../jobs/queue');
    const ran = await runDueJobs(h.deps, new Date(Date.now() + 1000));
    expect(ran).toMatchObject({ failed: 0 });
    const mail = await h.db
      .selectFrom('mail_outbox')
      .innerJoin('mail_attachments', 'mail_attachments.mail_id', 'mail_outbox.id')
      .select(['mail_outbox.template', 'mail_attachments.filename'])
      .where('mail_outbox.template', '=', 'matrix_report')
      .execute();
    expect(mail[0]?.filename).toMatch(/^matrix-.*\.xlsx$/);
  });
});

describe('websocket /api/ws', () => {
  async function session(userId: number, filters: unknown) {
    const headers = await bearer(h.db, userId);
    if (!h.app.server.listening) await h.app.listen({ port: 0, host: '127.0.0.1' });
    const address = h.app.server.address() as { port: number };
    const ws = new WebSocket(`ws://127.0.0.1:${address.port}/api/ws`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const messages: Record<string, unknown>[] = [];
    const done = new Promise<void>((resolve) => {
      ws.on('message', (raw) => {
        const m = JSON.parse(String(raw));
        messages.push(m);
        if (m.type === 'authenticated')
          ws.send(JSON.stringify({ type: 'subscribe', channel: 'matrix', id: 's1', filters }));
        if ((m.type === 'progress' && m.progress >= 1) || m.type === 'error') resolve();
      });
    });
    ws.send(JSON.stringify({ type: 'auth', token: headers.authorization.slice(7) }));
    await done;
    ws.terminate();
    return messages;
  }

  it('acks, reports progress, sends the data and ends at progress 1', async () => {
    const m = await session(manager.id, { compliance_type: 'all' });
    const kinds = m.map((x) => (x.type === 'fetch_data' ? `fetch_data:${x.kind}` : String(x.type)));
    expect(kinds[1]).toBe('subscribed');
    expect(kinds).toContain('progress');
    for (const k of ['roles', 'courses', 'users', 'matrix_cells', 'aggregate', 'top_level_aggregate'])
      expect(kinds).toContain(`fetch_data:${k}`);
    expect(m.at(-1)).toMatchObject({ type: 'progress', progress: 1 });
    const cells = m.find((x) => x.kind === 'matrix_cells')!.data as number[][];
    expect(cells[0]).toContain(learner.id);
  });

  // Issue 38 §3: the blocks carry no names; the OpenAPI description tells the column order (MATRIX_*_COLUMNS).
  // Decoded by those names alone, a live block gives the cells POST /reports/matrix answers.
  it('sends users and matrix_cells as the columns the OpenAPI description names, in that order', async () => {
    const filters = { compliance_type: 'all' };
    const m = await session(manager.id, filters);
    const byName = (columns: readonly { name: string }[], data: unknown[][]) => {
      // The cells' eight columns come first; after them the four sparse columns of the due cells (issue 33 §4).
      expect(data).toHaveLength(
        columns.length + (columns === MATRIX_CELLS_COLUMNS ? MATRIX_DUE_COLUMNS.length : 0),
      );
      return (data[0] ?? []).map((_, k) => Object.fromEntries(columns.map((c, i) => [c.name, data[i]?.[k]])));
    };
    const users = m
      .filter((x) => x.kind === 'users')
      .flatMap((x) => byName(MATRIX_USERS_COLUMNS, x.data as unknown[][]));
    const people = new Map(users.map((u) => [u.id, u]));
    expect(people.get(learner.id)).toMatchObject({ name: 'Ann Learner', new_starter: expect.any(Number) });
    const cells = m
      .filter((x) => x.kind === 'matrix_cells')
      .flatMap((x) => byName(MATRIX_CELLS_COLUMNS, x.data as unknown[][]))
      .map((c) => ({
        user_id: c.user_id,
        course_id: c.course_id,
        type: MATRIX_TYPES[c.type as number],
        status: MATRIX_STATUSES[c.status as number],
        latest_result_id: c.latest_result_id,
        latest_result_completed: dayNumberToIso(c.latest_result_completed as number | null),
        latest_result_expires: dayNumberToIso(c.latest_result_expires as number | null),
        result_count: c.result_count,
        primary_entity_id: people.get(c.user_id)?.primary_entity_id,
        role_id: people.get(c.user_id)?.role_id,
      }));
    const as = await clientFor(h.app, h.db, manager.id);
    const rest = (await as('POST', '/api/reports/matrix', { ...filters, directFormat: 'json' })).json().data
      .cells as Record<string, unknown>[];
    const key = (c: Record<string, unknown>) => `${c.user_id}:${c.course_id}`;
    const sorted = (list: Record<string, unknown>[]) => [...list].sort((a, b) => (key(a) < key(b) ? -1 : 1));
    expect(cells.length).toBeGreaterThan(1);
    expect(cells.length).toBe(rest.length);
    expect(sorted(cells)).toEqual(
      sorted(rest).map((c) => Object.fromEntries(Object.keys(cells[0] ?? {}).map((k) => [k, c[k]]))),
    );
    expect(cells.find((c) => c.user_id === learner.id)).toMatchObject({
      type: 'primary',
      status: 'in_date',
      result_count: 1,
    });
  });

  // issue 31 §4: a client that does not wait for `authenticated` (the web client sends both at once) got 401 and
  // a closed socket, because the subscribe arrived while the token was still being looked up.
  it('queues a subscribe sent right behind auth and answers it once authenticated', async () => {
    const headers = await bearer(h.db, manager.id);
    if (!h.app.server.listening) await h.app.listen({ port: 0, host: '127.0.0.1' });
    const address = h.app.server.address() as { port: number };
    const ws = new WebSocket(`ws://127.0.0.1:${address.port}/api/ws`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const messages: Record<string, unknown>[] = [];
    const done = new Promise<number | undefined>((resolve) => {
      ws.on('message', (raw) => {
        const m = JSON.parse(String(raw));
        messages.push(m);
        if ((m.type === 'progress' && m.progress >= 1) || m.type === 'error') resolve(undefined);
      });
      ws.on('close', (code) => resolve(code));
    });
    ws.send(JSON.stringify({ type: 'auth', token: headers.authorization.slice(7) }));
    ws.send(JSON.stringify({ type: 'ping' }));
    ws.send(
      JSON.stringify({ type: 'subscribe', channel: 'matrix', id: 'q1', filters: { compliance_type: 'all' } }),
    );
    const closed = await done;
    ws.terminate();
    expect(closed).toBeUndefined();
    expect(messages.find((x) => x.type === 'error')).toBeUndefined();
    expect(messages.slice(0, 3).map((x) => x.type)).toEqual(['authenticated', 'pong', 'subscribed']);
    const cells = messages.find((x) => x.kind === 'matrix_cells')!.data as number[][];
    expect(cells[0]).toContain(learner.id);
    expect(messages.at(-1)).toMatchObject({ type: 'progress', id: 'q1', progress: 1 });
  });

  it('still refuses a subscribe sent before any auth message', async () => {
    if (!h.app.server.listening) await h.app.listen({ port: 0, host: '127.0.0.1' });
    const address = h.app.server.address() as { port: number };
    const ws = new WebSocket(`ws://127.0.0.1:${address.port}/api/ws`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const messages: Record<string, unknown>[] = [];
    ws.on('message', (raw) => messages.push(JSON.parse(String(raw))));
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    ws.send(JSON.stringify({ type: 'subscribe', channel: 'matrix', id: 'q2', filters: {} }));
    expect(await closed).toBe(4401);
    expect(messages).toEqual([{ type: 'error', status: 401, message: 'Unauthenticated.' }]);
  });

  it("answers another organisation's entity with a 404 error and no data", async () => {
    const m = await session(outsider.id, { entities: [org.id] });
    expect(m.find((x) => x.type === 'error')).toMatchObject({ status: 404 });
    expect(m.some((x) => x.type === 'fetch_data')).toBe(false);
    expect(JSON.stringify(m)).not.toContain('Ann Learner');
  });
});
