import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse, buildPassedResult } from '../../test/learning-factories';
import { pdfText } from '../../test/pdf-text';
import { runDueJobs } from '../jobs/queue';
import { registerAllJobs } from '../register-jobs';

/**
 * Matrix presets end to end (spec 2 §3 "Report preset": report_type certificate or matrix; issue 10 §5): a saved
 * matrix preset runs through POST /report (json and files) and through a schedule that e-mails the real matrix
 * export, with the preset's filters, permissions and tenant scope.
 */
let h: Harness;
let org: Awaited<ReturnType<typeof buildEntity>>;
let site: Awaited<ReturnType<typeof buildEntity>>;
let fire: { id: number; title: string };
let food: { id: number; title: string };
let ann: { id: number };
let bob: { id: number };
let manager: Awaited<ReturnType<typeof buildUser>>;

const YEAR = 365 * 86_400_000;

beforeAll(async () => {
  registerAllJobs();
  h = await createHarness();
  org = await buildEntity(h.db, { level: 'A' });
  site = await buildEntity(h.db, { level: 'B', parentId: org.id, name: 'Oak site' });
  const carer = await buildRole(h.db, org.id, { name: 'Carer' });
  fire = await buildCourse(h.db, org.id, { title: 'Fire safety' });
  food = await buildCourse(h.db, org.id, { title: 'Food hygiene' });
  await h.db
    .insertInto('compliance_rules')
    .values([
      { entity_id: org.id, role_id: carer.id, course_id: fire.id, type: 'primary', validity_months: 12 },
      { entity_id: org.id, role_id: carer.id, course_id: food.id, type: 'secondary', validity_months: 12 },
    ])
    .execute();
  ann = await buildUser(h.db, { entityId: site.id, roleId: carer.id, name: 'Ann Learner' });
  bob = await buildUser(h.db, { entityId: site.id, roleId: carer.id, name: 'Bob Learner' });
  // Ann: fire in date, food expired (two years ago). Bob: nothing (missing).
  await buildPassedResult(h.db, { userId: ann.id, entityId: site.id, courseId: fire.id });
  await buildPassedResult(h.db, {
    userId: ann.id,
    entityId: site.id,
    courseId: food.id,
    completedAt: new Date(Date.now() - 2 * YEAR),
  });
  manager = await buildUser(h.db, { entityId: org.id, permissions: [12, 14, 15, 117], name: 'Jane Smith' });
});
afterAll(async () => h?.close());

const cellsOf = (res: { json: () => { data: { cells: { user_id: number; course_id: number }[] } } }) =>
  res
    .json()
    .data.cells.map((c) => `${c.user_id}:${c.course_id}`)
    .sort();

describe('POST /report with report_type matrix', () => {
  it('answers the matrix response of the preset fields (json)', async () => {
    const as = await clientFor(h.app, h.db, manager.id);
    const all = await as('POST', '/api/report', { report_type: 'matrix', compliance_type: 'all' });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data).toMatchObject({ pathway_allocations: [] });
    expect(cellsOf(all)).toEqual(
      [`${ann.id}:${fire.id}`, `${ann.id}:${food.id}`, `${bob.id}:${fire.id}`, `${bob.id}:${food.id}`].sort(),
    );
    // The preset's default compliance type is primary (Mandatory); primary_only narrows "all" to it.
    const primary = await as('POST', '/api/report', { report_type: 'matrix' });
    expect(cellsOf(primary)).toEqual([`${ann.id}:${fire.id}`, `${bob.id}:${fire.id}`].sort());
    const primaryOnly = await as('POST', '/api/report', {
      report_type: 'matrix',
      compliance_type: 'all',
      primary_only: true,
    });
    expect(cellsOf(primaryOnly)).toEqual(cellsOf(primary));
    // Statuses, users and courses of the preset.
    const expired = await as('POST', '/api/report', {
      report_type: 'matrix',
      compliance_type: 'all',
      includeStatusTypes: ['expired'],
    });
    expect(cellsOf(expired)).toEqual([`${ann.id}:${food.id}`]);
    const bobsFire = await as('POST', '/api/report', {
      report_type: 'matrix',
      compliance_type: 'all',
      users: [bob.id],
      courses: [fire.id],
    });
    expect(cellsOf(bobsFire)).toEqual([`${bob.id}:${fire.id}`]);
  });

  it('answers the matrix export as XLSX and PDF', async () => {
    const as = await clientFor(h.app, h.db, manager.id);
    const xlsx = await as('POST', '/api/report', {
      report_type: 'matrix',
      format: 'XLSX',
      compliance_type: 'all',
    });
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    expect(xlsx.headers['content-disposition']).toMatch(
      /^attachment; filename="matrix-Jane-Smith-\d\d-\d\d-\d{4}\.xlsx"$/,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as never);
    const ws = wb.worksheets[0]!;
    // Three title rows (what it covers, its filters, when) sit above the header row (issue 33 §5).
    const header = (ws.getRow(4).values as unknown[]).slice(1);
    expect(header).toEqual(expect.arrayContaining(['Fire safety', 'Food hygiene']));
    const names = ws.getRows(5, ws.rowCount - 4)!.map((r) => r.getCell(1).value);
    expect(names).toEqual(expect.arrayContaining(['Ann Learner', 'Bob Learner']));

    const pdf = await as('POST', '/api/report', { report_type: 'matrix', format: 'PDF' });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Ann Learner');
    expect(text).toContain('Fire safety');
  });

  it('checks the matrix permissions (12, 14 / 15), the scope (404) and the report type (422)', async () => {
    const viewer = await clientFor(
      h.app,
      h.db,
      (await buildUser(h.db, { entityId: org.id, permissions: [12] })).id,
    );
    expect((await viewer('POST', '/api/report', { report_type: 'matrix' })).statusCode).toBe(200);
    expect((await viewer('POST', '/api/report', { report_type: 'matrix', format: 'XLSX' })).statusCode).toBe(
      403,
    );
    expect((await viewer('POST', '/api/report', { report_type: 'matrix', format: 'PDF' })).statusCode).toBe(
      403,
    );
    const certificatesOnly = await clientFor(
      h.app,
      h.db,
      (await buildUser(h.db, { entityId: org.id, permissions: [7] })).id,
    );
    expect((await certificatesOnly('POST', '/api/report', { report_type: 'matrix' })).statusCode).toBe(403);

    const outsider = await clientFor(h.app, h.db, (await buildUser(h.db, { permissions: [12, 14, 15] })).id);
    expect(
      (await outsider('POST', '/api/report', { report_type: 'matrix', entities: [org.id] })).statusCode,
    ).toBe(404);
    // The outsider's own matrix never shows this organisation's people.
    const own = await outsider('POST', '/api/report', { report_type: 'matrix', compliance_type: 'all' });
    expect(own.statusCode).toBe(200);
    expect(own.json().data.users.map((u: { id: number }) => u.id)).not.toContain(ann.id);

    const bad = await clientFor(h.app, h.db, manager.id);
    const res = await bad('POST', '/api/report', { report_type: 'table' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.report_type).toEqual(['The report type must be certificate or matrix.']);
    expect(
      (await bad('POST', '/api/report', { report_type: 'matrix', includeStatusTypes: ['late'] })).statusCode,
    ).toBe(422);
  });
});

describe('a scheduled matrix preset', () => {
  it('e-mails the real matrix export with the preset filters, rendered as the owner for the preset entity', async () => {
    const as = await clientFor(h.app, h.db, manager.id);
    const preset = await as('POST', '/api/reports/presets', {
      name: 'Oak expired',
      report_type: 'matrix',
      acting_as_id: site.id,
      compliance_type: 'all',
      includeStatusTypes: ['expired', 'missing'],
    });
    expect(preset.statusCode, preset.body).toBe(201);
    const schedule = await as('POST', '/api/reports/schedules', {
      preset_id: preset.json().data.id,
      frequency: 'daily',
      time: '07:30',
      recipients: ['oak.manager@example.test'],
      format: 'XLSX',
    });
    expect(schedule.statusCode, schedule.body).toBe(201);
    const id = schedule.json().data.id;
    expect((await as('POST', `/api/reports/schedules/${id}/run`)).statusCode).toBe(202);
    await runDueJobs(h.deps, new Date(Date.now() + 5_000));
    expect((await as('GET', `/api/reports/schedules/${id}`)).json().data).toMatchObject({
      last_status: 'sent',
      last_error: null,
    });

    const mail = await h.db
      .selectFrom('mail_outbox')
      .select(['id', 'subject'])
      .where('to_address', '=', 'oak.manager@example.test')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Oak expired: scheduled matrix report');
    const attachment = await h.db
      .selectFrom('mail_attachments')
      .select(['filename', 'content_type', 'content'])
      .where('mail_id', '=', mail.id)
      .executeTakeFirstOrThrow();
    expect(attachment.filename).toMatch(/^matrix-Jane-Smith-\d\d-\d\d-\d{4}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(attachment.content as never);
    const ws = wb.worksheets[0]!;
    const rows = ws.getRows(5, ws.rowCount - 4) ?? [];
    const byName = new Map(rows.map((r) => [String(r.getCell(1).value), r]));
    expect([...byName.keys()]).toEqual(expect.arrayContaining(['Ann Learner', 'Bob Learner']));
    // Only expired and missing cells are filled in: Ann's in-date fire cell is left out by the preset.
    const col = (title: string) => (ws.getRow(4).values as unknown[]).indexOf(title);
    expect(byName.get('Ann Learner')?.getCell(col('Fire safety')).value ?? null).toBeNull();
    // An expired cell is its expiry date (a real date, in the past) on the status fill; the Legend sheet names it.
    const expired = byName.get('Ann Learner')?.getCell(col('Food hygiene'));
    const expiry = expired?.value;
    expect(expiry).toBeInstanceOf(Date);
    expect(expiry instanceof Date && expiry.getTime() < Date.now()).toBe(true);
    expect(expired?.fill).toMatchObject({ type: 'pattern', pattern: 'solid' });
    // Bob joined today and has never done it: inside his new-starter period the one status says when it is due.
    expect(String(byName.get('Bob Learner')?.getCell(col('Fire safety')).value)).toMatch(
      /^Due by \d\d\/\d\d\/\d{4}$/,
    );
  });
});
