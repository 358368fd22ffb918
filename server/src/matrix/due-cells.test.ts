import { calendarDay, courseStatusText, formatDate } from '@cc/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildRole, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse } from '../../test/learning-factories';
import { pdfText } from '../../test/pdf-text';
import { computeScore } from '../compliance/scores';
import { recordResult } from '../results/service';

/**
 * Issue 33 §4 in the matrix: a never-done course due by a date ahead (the one status 'due': a new requirement's
 * grace period, a new starter's period) reads "Due by <date>" in the cell, the JSON, the XLSX and the PDF; a new
 * requirement's cell inside its grace period is left out of every tally and score, so the matrix's figures equal
 * the compliance figures (computeScore, countedSql). On PostgreSQL.
 */
const NOW = new Date();
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);
const OLD_START = at(-400).toISOString().slice(0, 10);

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  h.deps.clock = () => NOW;
});
afterAll(async () => h?.close());

async function world() {
  const org = await buildEntity(h.db, {
    level: 'A',
    name: 'Due Care',
    settings: { new_requirement_days: 30 },
  });
  const carer = await buildRole(h.db, org.id, { name: 'Carer' });
  const fire = await buildCourse(h.db, org.id, { title: 'Fire safety' });
  const food = await buildCourse(h.db, org.id, { title: 'Food hygiene' });
  // Fire safety has been required for long (due at once); Food hygiene is required from today, with 30 days.
  await h.db
    .insertInto('compliance_rules')
    .values({
      entity_id: org.id,
      role_id: carer.id,
      course_id: fire.id,
      type: 'primary',
      validity_months: 12,
    })
    .execute();
  const manager = await buildUser(h.db, { entityId: org.id, permissions: [12, 14, 15, 68, 49] });
  const headers = await bearer(h.db, manager.id);
  const ann = await buildUser(h.db, {
    entityId: org.id,
    roleId: carer.id,
    startDate: OLD_START,
    name: 'Ann Able',
  });
  const bob = await buildUser(h.db, {
    entityId: org.id,
    roleId: carer.id,
    startDate: OLD_START,
    name: 'Bob Best',
  });
  // A new starter (started 10 days ago, the default 90-day period): Fire safety due by the end of it.
  const nina = await buildUser(h.db, {
    entityId: org.id,
    roleId: carer.id,
    startDate: at(-10).toISOString().slice(0, 10),
    name: 'Nina New',
  });
  await h.db.transaction().execute((trx) =>
    recordResult(
      trx,
      {
        userId: ann.id,
        entityId: org.id,
        courseId: fire.id,
        contentId: null,
        type: 'elearning',
        passed: true,
        score: 90,
        completedAt: at(-10),
        attemptId: null,
        createdBy: null,
      },
      NOW,
    ),
  );
  const rule = await h.app.inject({
    method: 'POST',
    url: '/api/compliance',
    headers,
    payload: { entity: org.slug, roleId: carer.id, courseId: food.id, type: 'primary', validity: null },
  });
  expect(rule.statusCode, rule.body).toBe(201);
  return { org, fire, food, ann, bob, nina, headers };
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
      due_by: calendarDay(at(80)),
      counted: false,
    });
    // The new starter's Fire safety: due by the end of her period, and counted (as the compliance figures count it).
    expect(cellOf(data.cells, w.nina.id, w.fire.id)).toMatchObject({
      status: 'missing',
      due_by: calendarDay(at(80)),
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
      courseStatusText({ status: 'due', date: calendarDay(at(80)), attempted: false }),
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
      due_by: calendarDay(at(80)),
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
