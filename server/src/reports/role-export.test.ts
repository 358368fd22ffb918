import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse, buildPassedResult } from '../../test/learning-factories';
import { pdfText } from '../../test/pdf-text';

/**
 * Issue 33 §5: the role report gets an export. POST /reports/role with `format` answers the page's rows as XLSX (17)
 * or PDF (16), the filters named in its header in the organisation's words and date format.
 */

let h: Harness;
let org: { id: number };
let site: { id: number };
let manager: { id: number };
let noFiles: { id: number };
let outsider: { id: number };

beforeAll(async () => {
  h = await createHarness();
  org = await buildEntity(h.db, {
    level: 'A',
    settings: {
      whitelabel: JSON.stringify({ entityAltName: 'Service', primaryComplianceAltName: 'Essential' }),
      date_format: 'YYYY-MM-DD',
    },
  });
  site = await buildEntity(h.db, { parentId: org.id, name: 'Willow Court' });
  const carer = await buildRole(h.db, org.id, { name: 'Carer' });
  const cook = await buildRole(h.db, org.id, { name: 'Cook' });
  const course = await buildCourse(h.db, org.id, { title: 'Food hygiene' });
  await h.db
    .insertInto('compliance_rules')
    .values([
      { entity_id: org.id, role_id: carer.id, course_id: course.id, type: 'primary', validity_months: 12 },
      { entity_id: org.id, role_id: cook.id, course_id: course.id, type: 'primary', validity_months: 12 },
    ])
    .execute();
  const ann = await buildUser(h.db, { entityId: site.id, roleId: carer.id, name: 'Ann Carer' });
  await buildPassedResult(h.db, { userId: ann.id, entityId: site.id, courseId: course.id });
  await buildUser(h.db, { entityId: org.id, roleId: cook.id, name: 'Cal Cook' });
  manager = await buildUser(h.db, { entityId: org.id, permissions: [13, 16, 17] });
  noFiles = await buildUser(h.db, { entityId: org.id, permissions: [13] });
  outsider = await buildUser(h.db, { permissions: [13, 16, 17] });
});
afterAll(async () => h?.close());

describe('POST /reports/role with format (issue 33 §5)', () => {
  it('answers an XLSX of the rows the page shows, the filters named above the table', async () => {
    const as = await clientFor(h.app, h.db, manager.id);
    const json = await as('POST', '/api/reports/role', { entities: [site.id] });
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json().data.map((r: { name: string }) => r.name)).toEqual(['Carer']);
    const res = await as('POST', '/api/reports/role', { entities: [site.id], format: 'xlsx' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="roles-.*\.xlsx"/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as never);
    const ws = wb.getWorksheet('Roles');
    if (!ws) throw new Error('no sheet');
    const text = (n: number) => String(ws.getRow(n).getCell(1).value);
    expect(text(1)).toBe('Role report · Willow Court');
    expect(text(2)).toBe(
      'Filters: Compliance type: Essential · Service: Willow Court · New starters: included',
    );
    expect(text(3)).toMatch(/^Generated \d{4}-\d\d-\d\d \d\d:\d\d by .* · 1 role$/);
    expect(ws.getRow(4).getCell(1).value).toBe('Role');
    expect(ws.getRow(5).getCell(1).value).toBe('Carer');
    expect(ws.getRow(5).getCell(3).value).toBe(1);
    expect(ws.rowCount).toBe(5);
  });

  it('answers a PDF with the same rows and filters', async () => {
    const as = await clientFor(h.app, h.db, manager.id);
    const res = await as('POST', '/api/reports/role', {
      format: 'pdf',
      compliance_type: 'all',
    });
    expect(res.statusCode, res.body).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Carer');
    expect(text).toContain('Cook');
    expect(text).toContain('Compliance type: Essential and Required');
    expect(text).toContain('Service: All');
    expect(text).toContain('New starters: included');
    expect(text).toMatch(/Generated \d{4}-\d\d-\d\d \d\d:\d\d/);
  });

  it('answers 404 for another organisation, 403 without the file permission, 422 for an unknown format', async () => {
    const out = await clientFor(h.app, h.db, outsider.id);
    expect((await out('POST', '/api/reports/role', { entities: [org.id], format: 'xlsx' })).statusCode).toBe(
      404,
    );
    const plain = await clientFor(h.app, h.db, noFiles.id);
    expect((await plain('POST', '/api/reports/role', { format: 'xlsx' })).statusCode).toBe(403);
    expect((await plain('POST', '/api/reports/role', {})).statusCode).toBe(200);
    const as = await clientFor(h.app, h.db, manager.id);
    expect((await as('POST', '/api/reports/role', { format: 'csv' })).statusCode).toBe(422);
    // A filter the page cannot send: 422 in the {message, errors} envelope, naming the field.
    const bad = await as('POST', '/api/reports/role', { format: 'xlsx', compliance_type: 'some' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({
      message: expect.any(String),
      errors: { compliance_type: expect.any(Array) },
    });
  });
});
