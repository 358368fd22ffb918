import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildRole, buildType, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse, buildExemption, buildPassedResult } from '../../test/learning-factories';
import { pdfText } from '../../test/pdf-text';

/**
 * Issue 33 §5: an export follows the screen. POST /reports/matrix with `view` (the page's search, "Show" filter and
 * sort) writes only the people the page lists, in its order, and its header names every filter in the
 * organisation's words (white-label labels, its date format).
 */

let h: Harness;
let manager: { id: number };
let org: { id: number };
let role: { id: number; name: string };
let course: { id: number };
let outsider: { id: number };
/** A second organisation of BIG_STAFF people, more than the first block holds (FIRST_BLOCK_USERS = 50). */
let big: { id: number };
let bigManager: { id: number };
const BIG_STAFF = 64;
const TITLE_ROWS = 3;

beforeAll(async () => {
  h = await createHarness();
  org = await buildEntity(h.db, {
    level: 'A',
    settings: {
      whitelabel: JSON.stringify({ entityAltName: 'Service', primaryComplianceAltName: 'Essential' }),
      date_format: 'YYYY-MM-DD',
    },
  });
  role = await buildRole(h.db, org.id, { name: 'Carer' });
  course = await buildCourse(h.db, org.id, { title: 'Moving and handling' });
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
  const person = (name: string) => buildUser(h.db, { entityId: org.id, roleId: role.id, name });
  const able = await person('Ann Able');
  await buildPassedResult(h.db, { userId: able.id, entityId: org.id, courseId: course.id });
  for (const name of ['Bob Exempt', 'Cara Exempt']) {
    const u = await person(name);
    await buildExemption(h.db, { userId: u.id, entityId: org.id, courseId: course.id });
  }
  await person('Dan Missing');
  manager = await buildUser(h.db, { entityId: org.id, permissions: [12, 14, 15], name: 'Mia Manager' });
  outsider = await buildUser(h.db, { permissions: [12, 14, 15], name: 'Olly Outsider' });

  // The big organisation: Staff 01..64 in id order; Staff 07 and Staff 57 (first and second block) are exempt.
  big = await buildEntity(h.db, { level: 'A' });
  const bigRole = await buildRole(h.db, big.id);
  const bigCourse = await buildCourse(h.db, big.id, { title: 'Fire safety' });
  await h.db
    .insertInto('compliance_rules')
    .values({ entity_id: big.id, role_id: bigRole.id, course_id: bigCourse.id, type: 'primary' })
    .execute();
  const type = await buildType(h.db, big.id);
  const staff = await insertPeople(
    { entityId: big.id, roleId: bigRole.id, typeId: type.id },
    Array.from({ length: BIG_STAFF }, (_, i) => `Staff ${String(i + 1).padStart(2, '0')}`),
  );
  for (const u of staff.filter((x) => x.name === 'Staff 07' || x.name === 'Staff 57'))
    await buildExemption(h.db, { userId: u.id, entityId: big.id, courseId: bigCourse.id });
  bigManager = await buildUser(h.db, { entityId: big.id, permissions: [12, 14, 15], name: 'Zed Manager' });
});
afterAll(async () => h?.close());

/** People of one role in one organisation, in one statement (ids in the order of `names`). */
function insertPeople(at: { entityId: number; roleId: number; typeId: number }, names: string[]) {
  return h.db
    .insertInto('users')
    .values(
      names.map((name, i) => ({
        name,
        email: `person-${i}-${at.entityId}@example.test`,
        password_hash: 'x',
        email_verified_at: new Date(),
        primary_entity_id: at.entityId,
        role_id: at.roleId,
        type_id: at.typeId,
        password_changed_at: new Date(),
        user_preferences: '{}',
      })),
    )
    .returning(['id', 'name'])
    .execute();
}

async function xlsx(view: Record<string, unknown>, who = manager) {
  const as = await clientFor(h.app, h.db, who.id);
  const res = await as('POST', '/api/reports/matrix', { directFormat: 'file', format: 'xlsx', view });
  expect(res.statusCode, res.body).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as never);
  const ws = wb.worksheets[0];
  if (!ws) throw new Error('no sheet');
  const header = ws.getRows(1, TITLE_ROWS)?.map((r) => String(r.getCell(1).value)) ?? [];
  const people: string[] = [];
  /** Per person: their first course column, as the file says it (Exempt, Missing, a date). */
  const firstCourse: string[] = [];
  ws.eachRow((row, n) => {
    if (n <= TITLE_ROWS + 1) return;
    people.push(String(row.getCell(1).value));
    const v = row.getCell(5).value;
    firstCourse.push(v instanceof Date ? 'date' : String(v));
  });
  return {
    header,
    people,
    firstCourse,
    columns: ws.getRow(TITLE_ROWS + 1),
    legend: wb.getWorksheet('Legend'),
  };
}

describe('matrix exports follow the screen (issue 33 §5)', () => {
  it('XLSX: only the exempt people, in the chosen order, with the filters named in its header', async () => {
    const { header, people, columns, legend } = await xlsx({ status: 'exempt', sort: 'name_desc' });
    expect(people).toEqual(['Cara Exempt', 'Bob Exempt']);
    expect(columns.getCell(1).value).toBe('User');
    expect(columns.getCell(3).value).toBe('Service');
    expect(header[0]).toMatch(/^Compliance matrix · /);
    expect(header[1]).toBe(
      'Filters: Compliance type: Essential · Service: All · New starters: included · Show: Exempt · Sort by: Name (Z to A)',
    );
    // The organisation's date format (YYYY-MM-DD) and the number of people in the file.
    expect(header[2]).toMatch(/^Generated \d{4}-\d\d-\d\d \d\d:\d\d · 2 people$/);
    const lines = legend?.getSheetValues().map((r) => (Array.isArray(r) ? r.slice(1).join(': ') : ''));
    expect(lines).toContain(`Filters: ${header[1]?.slice('Filters: '.length)}`);
  });

  it('XLSX: the search narrows it, and without a view everyone is there by name', async () => {
    const searched = await xlsx({ search: '  CARA ' });
    expect(searched.people).toEqual(['Cara Exempt']);
    expect(searched.header[1]).toContain('Search: “CARA”');
    const gaps = await xlsx({ status: 'gaps' });
    expect(gaps.people).toEqual(['Dan Missing']);
    expect(gaps.header[1]).toContain('Show: Expired or missing only');
    const as = await clientFor(h.app, h.db, manager.id);
    const res = await as('POST', '/api/reports/matrix', { directFormat: 'file', format: 'xlsx' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as never);
    const everyone: string[] = [];
    wb.worksheets[0]?.eachRow((row, n) => {
      if (n > TITLE_ROWS + 1) everyone.push(String(row.getCell(1).value));
    });
    expect(everyone).toEqual(['Ann Able', 'Bob Exempt', 'Cara Exempt', 'Dan Missing', 'Mia Manager']);
  });

  it('PDF: only the filtered people, the filters named on the page', async () => {
    const as = await clientFor(h.app, h.db, manager.id);
    const res = await as('POST', '/api/reports/matrix', {
      directFormat: 'file',
      format: 'pdf',
      view: { status: 'exempt', sort: 'score_asc' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Bob Exempt');
    expect(text).toContain('Cara Exempt');
    expect(text).not.toContain('Ann Able');
    expect(text).not.toContain('Dan Missing');
    expect(text).toContain('Show: Exempt');
    expect(text).toContain('Sort by: Score (lowest first)');
    expect(text).toContain('Compliance type: Essential');
    expect(text).toMatch(/Generated \d{4}-\d\d-\d\d \d\d:\d\d · 2 people/);
  });

  it('XLSX and PDF: a "Show" filter and a search together keep only the people matching both, both named', async () => {
    const { header, people } = await xlsx({ status: 'exempt', search: 'bob' });
    expect(people).toEqual(['Bob Exempt']);
    expect(header[1]).toBe(
      'Filters: Compliance type: Essential · Service: All · New starters: included · Show: Exempt · Search: “bob” · Sort by: Name (A to Z)',
    );
    expect(header[2]).toMatch(/ · 1 person$/);
    const as = await clientFor(h.app, h.db, manager.id);
    const res = await as('POST', '/api/reports/matrix', {
      directFormat: 'file',
      format: 'pdf',
      entities: [org.id],
      view: { status: 'exempt', search: 'cara' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Cara Exempt');
    for (const other of ['Bob Exempt', 'Ann Able', 'Dan Missing', 'Mia Manager'])
      expect(text).not.toContain(other);
    expect(text).toContain('Show: Exempt');
    expect(text).toContain('Search: “cara”');
    expect(text).toMatch(/Service: [^·]+ · New starters: included/);
    expect(text).not.toContain('Service: All');
  });

  it('filters across blocks: the kept people of every block, in the chosen order', async () => {
    const exempt = await xlsx({ status: 'exempt', sort: 'name_desc' }, bigManager);
    expect(exempt.people).toEqual(['Staff 57', 'Staff 07']);
    // Each kept row carries its own cells (the block was cut down to it), and its score.
    expect(exempt.firstCourse).toEqual(['Exempt', 'Exempt']);
    const searched = await xlsx({ search: 'staff 5', sort: 'name' }, bigManager);
    expect(searched.people).toEqual([
      'Staff 50',
      'Staff 51',
      'Staff 52',
      'Staff 53',
      'Staff 54',
      'Staff 55',
      'Staff 56',
      'Staff 57',
      'Staff 58',
      'Staff 59',
    ]);
    const gaps = await xlsx({ status: 'gaps', sort: 'name_desc' }, bigManager);
    expect(gaps.people).toHaveLength(BIG_STAFF - 2);
    expect(gaps.people[0]).toBe('Staff 64');
    expect(gaps.people).not.toContain('Staff 57');
    expect(gaps.people).not.toContain('Zed Manager');
    // Never done: a new starter's reads "Due by <date>" (the one status, issue 33 §4) and still counts as a gap, as
    // the compliance figures count it; the others Missing.
    for (const text of gaps.firstCourse) expect(text).toMatch(/^(Missing|Due by \d\d\/\d\d\/\d{4})$/);
  });

  it('names the filters only an API caller or a preset sets (job role, course, cell statuses) when they narrow it', async () => {
    const as = await clientFor(h.app, h.db, manager.id);
    const res = await as('POST', '/api/reports/matrix', {
      directFormat: 'file',
      format: 'xlsx',
      roles: [role.id],
      courses: [course.id],
      includeStatusTypes: ['exempt', 'missing'],
      view: { status: 'gaps' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as never);
    expect(String(wb.worksheets[0]?.getRow(2).getCell(1).value)).toBe(
      'Filters: Compliance type: Essential · Service: All · Job role: Carer · Courses: Moving and handling · ' +
        'New starters: included · Cells shown: Missing, Exempt · Show: Expired or missing only · Sort by: Name (A to Z)',
    );
  });

  it('e-mails a file that follows the view too (the job keeps it)', async () => {
    const as = await clientFor(h.app, h.db, manager.id);
    const res = await as('POST', '/api/reports/matrix', {
      emailFormat: 'xlsx',
      view: { status: 'exempt', search: 'cara' },
    });
    expect(res.statusCode, res.body).toBe(202);
    const { runDueJobs } = await import('../jobs/queue');
    expect(await runDueJobs(h.deps, new Date(Date.now() + 1000))).toMatchObject({ failed: 0 });
    const mail = await h.db
      .selectFrom('mail_outbox')
      .innerJoin('mail_attachments', 'mail_attachments.mail_id', 'mail_outbox.id')
      .select(['mail_attachments.content'])
      .where('mail_outbox.template', '=', 'matrix_report')
      .orderBy('mail_attachments.id', 'desc')
      .executeTakeFirstOrThrow();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(mail.content) as never);
    const ws = wb.worksheets[0];
    expect(String(ws?.getRow(2).getCell(1).value)).toContain('Show: Exempt · Search: “cara”');
    const people: string[] = [];
    ws?.eachRow((row, n) => {
      if (n > TITLE_ROWS + 1) people.push(String(row.getCell(1).value));
    });
    expect(people).toEqual(['Cara Exempt']);
  });

  it('answers 422 in the {message, errors} envelope for a view it does not know', async () => {
    const as = await clientFor(h.app, h.db, manager.id);
    for (const view of [{ status: 'nobody' }, { sort: 'age' }, { search: 'x'.repeat(201) }, 'exempt']) {
      const res = await as('POST', '/api/reports/matrix', { directFormat: 'file', format: 'xlsx', view });
      expect(res.statusCode, JSON.stringify(view)).toBe(422);
      const body = res.json();
      expect(typeof body.message).toBe('string');
      expect(
        Object.keys(body.errors ?? {}).some((k) => k.startsWith('view')),
        JSON.stringify(body),
      ).toBe(true);
    }
  });

  it('keeps the tenant scope: another organisation is a 404 whatever the view', async () => {
    const out = await clientFor(h.app, h.db, outsider.id);
    for (const format of ['xlsx', 'pdf']) {
      const res = await out('POST', '/api/reports/matrix', {
        directFormat: 'file',
        format,
        entities: [org.id],
        view: { status: 'exempt', search: 'bob' },
      });
      expect(res.statusCode, res.body).toBe(404);
    }
    // Without an organisation named, the outsider's file holds only their own people.
    const own = await xlsx({ status: 'all' }, outsider);
    expect(own.people).toEqual(['Olly Outsider']);
  });

  it('streams a view ordered by name over several blocks: every person once, in its order, each with their own cells (issue 36 §2)', async () => {
    // More people than a block holds (MATRIX_BLOCK_USERS = 500), named in the reverse of their id order, two by
    // each name: the file's order is the name's, ties in id order, and each row carries that person's cells.
    const many = await buildEntity(h.db, { level: 'A' });
    const manyRole = await buildRole(h.db, many.id);
    const manyCourse = await buildCourse(h.db, many.id, { title: 'Infection control' });
    await h.db
      .insertInto('compliance_rules')
      .values({ entity_id: many.id, role_id: manyRole.id, course_id: manyCourse.id, type: 'primary' })
      .execute();
    const type = await buildType(h.db, many.id);
    const count = 1_060;
    const label = (i: number) => `Person ${String(Math.floor((count - i) / 2)).padStart(4, '0')}`;
    const people = await insertPeople(
      { entityId: many.id, roleId: manyRole.id, typeId: type.id },
      Array.from({ length: count }, (_, i) => label(i)),
    );
    const exempt = new Set(people.filter((_, i) => i % 97 === 3).map((u) => u.id));
    for (const id of exempt)
      await buildExemption(h.db, { userId: id, entityId: many.id, courseId: manyCourse.id });
    const manyManager = await buildUser(h.db, {
      entityId: many.id,
      permissions: [12, 14, 15],
      name: 'A Manager',
    });
    const all = [...people, { id: manyManager.id, name: 'A Manager' }];
    const byName = [...all].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
    const ascending = await xlsx({ sort: 'name' }, manyManager);
    expect(ascending.header[2]).toContain(`${count + 1} people`);
    expect(ascending.people).toEqual(byName.map((u) => u.name));
    const exemptRows = ascending.firstCourse.flatMap((v, k) => (v === 'Exempt' ? [k] : []));
    expect(exemptRows.map((k) => byName[k]?.id).sort()).toEqual([...exempt].sort());
    const descending = await xlsx({ sort: 'name_desc' }, manyManager);
    // Ties reversed too: the exact reverse (matrixViewRows' name_desc).
    expect(descending.people).toEqual([...ascending.people].reverse());
    // The same order as the whole-matrix path gives it (a "Show" filter that keeps everyone with a requirement).
    const gaps = await xlsx({ status: 'gaps', sort: 'name' }, manyManager);
    expect(gaps.people).toEqual(
      byName.filter((u) => !exempt.has(u.id) && u.id !== manyManager.id).map((u) => u.name),
    );
  });
});
