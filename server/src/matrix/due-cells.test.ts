import { calendarDay, courseStatusText, formatDate } from '@cc/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGracePeriodWorld, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { pdfText } from '../../test/pdf-text';
import { computeScore } from '../compliance/scores';

/**
 * Issue 33 §4 in the matrix: a never-done course due by a date ahead (the one status 'due': a new requirement's
 * grace period, a new starter's period) reads "Due by <date>" in the cell, the JSON, the XLSX and the PDF; a new
 * requirement's cell inside its grace period is left out of every tally and score, so the matrix's figures equal
 * the compliance figures (computeScore, countedSql). On PostgreSQL.
 */
const NOW = new Date();
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);
/**
 * The new starter's start date and the end of her 90-day period, as calendar days: the period ends 90 days after
 * the start date, not on the UK day of now + 80 days, which is a day later from 23:00 UTC in summer time.
 */
const NINA_START = at(-10).toISOString().slice(0, 10);
const NINA_DUE = new Date(Date.parse(`${NINA_START}T00:00:00Z`) + 90 * DAY).toISOString().slice(0, 10);

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  h.deps.clock = () => NOW;
});
afterAll(async () => h?.close());

async function world() {
  const w = await buildGracePeriodWorld(h.db, NOW, { name: 'Due Care', permissions: [12, 14, 15, 68, 49] });
  // A new starter (started 10 days ago, the default 90-day period): Fire safety due by the end of it.
  const nina = await buildUser(h.db, {
    entityId: w.org.id,
    roleId: w.carer.id,
    startDate: NINA_START,
    name: 'Nina New',
  });
  // Food hygiene is required from today, with the organisation's 30 days.
  const rule = await h.app.inject({
    method: 'POST',
    url: '/api/compliance',
    headers: w.headers,
    payload: { entity: w.org.slug, roleId: w.carer.id, courseId: w.food.id, type: 'primary', validity: null },
  });
  expect(rule.statusCode, rule.body).toBe(201);
  return { ...w, nina };
}
let w: Awaited<ReturnType<typeof world>>;
beforeAll(async () => {
  w = await world();
});

const matrix = async (body: Record<string, unknown> = {}) =>
  h.app.inject({
    method: 'POST',
    url: '/api/reports/matrix',
    headers: w.headers,
    payload: { entities: [w.org.id], compliance_type: 'primary', ...body },
  });

interface Cell {
  user_id: number;
  course_id: number;
  status: string;
  due_by: string | null;
  counted: boolean;
  in_date_passed: boolean;
}
const json = async () => {
  const res = await matrix({ directFormat: 'json' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    cells: Cell[];
    breakdown: { top_level: { required: number; in_date: number; missing: number; score: number } };
    primary_scores: { user_id: number; score: number }[];
  };
};
const cellOf = (cells: Cell[], userId: number, courseId: number) =>
  cells.find((c) => c.user_id === userId && c.course_id === courseId);

describe('a due cell in the matrix', () => {
  it('is due by its date, left out of the figures inside its grace period, as the compliance figures leave it out', async () => {
    const data = await json();
    const graceDay = calendarDay(at(30));
    for (const u of [w.ann, w.bob])
      expect(cellOf(data.cells, u.id, w.food.id)).toMatchObject({
        status: 'missing',
        due_by: graceDay,
        counted: false,
        in_date_passed: false,
      });
    // The new starter's: due by the later of her period's end and the requirement's date.
    expect(cellOf(data.cells, w.nina.id, w.food.id)).toMatchObject({
      due_by: NINA_DUE,
      counted: false,
    });
    // The new starter's Fire safety: due by the end of her period, and counted (as the compliance figures count it).
    expect(cellOf(data.cells, w.nina.id, w.fire.id)).toMatchObject({
      status: 'missing',
      due_by: NINA_DUE,
      counted: true,
    });
    // Bob's Fire safety is out of date: no due date.
    expect(cellOf(data.cells, w.bob.id, w.fire.id)).toMatchObject({
      status: 'missing',
      due_by: null,
      counted: true,
    });

    // The figures: three Fire safety cells (Ann in date, Bob and Nina missing); the three Food hygiene ones left out.
    const figures = await computeScore({ db: h.db, now: NOW }, w.org.id, 'primary', false, 'include');
    expect(figures).toMatchObject({ required: 3, in_date: 1, missing: 2 });
    expect(data.breakdown.top_level).toMatchObject({
      required: figures.required,
      in_date: figures.in_date,
      missing: figures.missing,
      score: figures.score,
    });
    const scores = new Map(data.primary_scores.map((s) => [s.user_id, s.score]));
    expect(scores.get(w.ann.id)).toBe(100);
    expect(scores.get(w.bob.id)).toBe(0);
    // Under a "Show" filter the blocks tally in their statement, otherwise from the cells they send: the same.
    const shown = await matrix({ directFormat: 'json', includeStatusTypes: ['missing'] });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().data.breakdown.top_level).toEqual(data.breakdown.top_level);
  });

  it('the XLSX and the PDF say "Due by <date>" where the screen does, and Missing where it is out of date', async () => {
    const due = courseStatusText({ status: 'due', date: calendarDay(at(30)), attempted: false });
    expect(due).toBe(`Due by ${formatDate(calendarDay(at(30)))}`);
    const xlsx = await matrix({ directFormat: 'file', format: 'xlsx' });
    expect(xlsx.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as never);
    const ws = wb.worksheets[0];
    if (!ws) throw new Error('no sheet');
    const header = ws.getRow(4).values as unknown[];
    const col = (title: string) => header.indexOf(title);
    const rowOf = (name: string) => {
      let found: ExcelJS.Row | undefined;
      ws.eachRow((r) => {
        if (r.getCell(1).value === name) found = r;
      });
      if (!found) throw new Error(`no row ${name}`);
      return found;
    };
    expect(rowOf('Ann Able').getCell(col('Food hygiene')).value).toBe(due);
    expect(rowOf('Bob Best').getCell(col('Food hygiene')).value).toBe(due);
    expect(rowOf('Bob Best').getCell(col('Fire safety')).value).toBe('Missing');
    expect(rowOf('Nina New').getCell(col('Fire safety')).value).toBe(
      courseStatusText({ status: 'due', date: NINA_DUE, attempted: false }),
    );
    // Scores as the figures: Ann 100 (her Food hygiene is left out), Bob 0.
    expect(rowOf('Ann Able').getCell(4).value).toBe(100);
    expect(rowOf('Bob Best').getCell(4).value).toBe(0);

    const pdf = await matrix({ directFormat: 'file', format: 'pdf' });
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain(formatDate(calendarDay(at(30))));
    expect(text).toMatch(/Due( by)? /);
    expect(text).toContain('Due by (date): not done yet');

    // "Expired or missing only" keeps Bob and Nina (Fire safety) but not Ann, whose only gap is not due yet.
    const gaps = await matrix({
      directFormat: 'file',
      format: 'xlsx',
      view: { search: '', status: 'gaps', sort: 'name' },
    });
    const gwb = new ExcelJS.Workbook();
    await gwb.xlsx.load(gaps.rawPayload as never);
    const names: string[] = [];
    gwb.worksheets[0]?.eachRow((r, n) => {
      if (n > 4) names.push(String(r.getCell(1).value));
    });
    expect(names).toEqual(['Bob Best', 'Nina New']);
  });

  it('past the due date the cell is missing and counted, as everywhere else', async () => {
    // The requirement's due date passed yesterday.
    await h.db
      .updateTable('compliance_rules')
      .set({ due_at: at(-1) })
      .where('course_id', '=', w.food.id)
      .execute();
    const data = await json();
    expect(cellOf(data.cells, w.ann.id, w.food.id)).toMatchObject({
      status: 'missing',
      due_by: null,
      counted: true,
    });
    // The new starter's is still due by the end of her period, and counted from now on.
    expect(cellOf(data.cells, w.nina.id, w.food.id)).toMatchObject({
      due_by: NINA_DUE,
      counted: true,
    });
    const figures = await computeScore({ db: h.db, now: NOW }, w.org.id, 'primary', false, 'include');
    expect(figures.required).toBe(6);
    expect(data.breakdown.top_level).toMatchObject({
      required: 6,
      in_date: figures.in_date,
      missing: figures.missing,
      score: figures.score,
    });
  });
});
