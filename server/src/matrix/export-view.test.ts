import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
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
const TITLE_ROWS = 3;

beforeAll(async () => {
  h = await createHarness();
  const org = await buildEntity(h.db, {
    level: 'A',
    settings: {
      whitelabel: JSON.stringify({ entityAltName: 'Service', primaryComplianceAltName: 'Essential' }),
      date_format: 'YYYY-MM-DD',
    },
  });
  const role = await buildRole(h.db, org.id);
  const course = await buildCourse(h.db, org.id, { title: 'Moving and handling' });
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
});
afterAll(async () => h?.close());

async function xlsx(view: Record<string, unknown>) {
  const as = await clientFor(h.app, h.db, manager.id);
  const res = await as('POST', '/api/reports/matrix', { directFormat: 'file', format: 'xlsx', view });
  expect(res.statusCode, res.body).toBe(200);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.rawPayload as never);
  const ws = wb.worksheets[0];
  if (!ws) throw new Error('no sheet');
  const header = ws.getRows(1, TITLE_ROWS)?.map((r) => String(r.getCell(1).value)) ?? [];
  const people: string[] = [];
  ws.eachRow((row, n) => {
    if (n > TITLE_ROWS + 1) people.push(String(row.getCell(1).value));
  });
  return { header, people, columns: ws.getRow(TITLE_ROWS + 1), legend: wb.getWorksheet('Legend') };
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

  it('answers 422 for a view it does not know', async () => {
    const as = await clientFor(h.app, h.db, manager.id);
    const res = await as('POST', '/api/reports/matrix', {
      directFormat: 'file',
      format: 'xlsx',
      view: { status: 'nobody' },
    });
    expect(res.statusCode).toBe(422);
  });
});
