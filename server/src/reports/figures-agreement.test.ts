import { CELL_STATUSES, type CellStatus } from '@cc/contracts';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRole, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse, buildExemption, buildPassedResult } from '../../test/learning-factories';
import {
  countsAsPassedSql,
  type NewStartersFilter,
  newStarterSql,
  requirementDueAtSql,
  requirementStatusSql,
} from '../compliance/queries';
import { requirementStatus } from '../compliance/status';
import { emptyTally } from '../compliance/tally';
import { seedDemo } from '../demo/seed';
import {
  type CellFilters,
  courseFigures,
  entityAndCourseFigures,
  entityFigures,
  roleFigures,
} from './queries';

/**
 * The compliance report's figures as the report reads them now (cells by their own organisation, users joined only
 * for a filter that reads them, the grace period as one hashed set, the status as its code) against the formulation
 * they replaced (every cell joined to its user, a due-date lookup per cell, the status as its name), over the demo
 * made mixed: a requirement in its grace period inherited by the sites (some done, some not), a site's override of
 * it already due, exemptions ended (with and without a pass behind them), ending soon and for good, passes expiring
 * within the warning, new starters, a tag. Then the per-organisation figures against the one status rule itself
 * (contracts courseStatus, through compliance/status.ts requirementStatus) over the raw facts.
 */
const NOW = new Date();
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);

let h: Harness;
let entityIds: number[];
let roleIds: number[];
let courseIds: number[];
let tagIds: number[];

type Tally = Record<'required' | CellStatus, number>;
const FIGURES = ['required', ...CELL_STATUSES] as const;
const pick = (r: Record<string, unknown>): Tally =>
  Object.fromEntries(FIGURES.map((k) => [k, Number(r[k])])) as Tally;

beforeAll(async () => {
  h = await createHarness();
  await seedDemo(h.db);
  h.deps.clock = () => NOW;
  await mixTheWorld();
  entityIds = (await h.db.selectFrom('entities').select('id').execute()).map((r) => r.id);
  roleIds = (await h.db.selectFrom('entity_roles').select('id').execute()).map((r) => r.id);
  courseIds = (await h.db.selectFrom('user_requirements').select('course_id').distinct().execute()).map(
    (r) => r.course_id,
  );
  tagIds = (await h.db.selectFrom('tags').select('id').execute()).map((r) => r.id);
}, 180_000);
afterAll(async () => h?.close());

/** The demo's group, one of its sites and a role its sites' people hold, with what makes the facts mixed. */
async function mixTheWorld() {
  const site = await h.db
    .selectFrom('users as u')
    .innerJoin('entities as s', 's.id', 'u.primary_entity_id')
    .select(['s.id', 's.parent_id', 'u.role_id'])
    .where('s.level', '=', 'B')
    .where('u.role_id', 'is not', null)
    .groupBy(['s.id', 's.parent_id', 'u.role_id'])
    .orderBy(sql`count(*)`, 'desc')
    .executeTakeFirstOrThrow();
  const group = site.parent_id as number;
  const roleId = site.role_id as number;
  const people = await h.db
    .selectFrom('users')
    .select(['id', 'primary_entity_id'])
    .where('role_id', '=', roleId)
    .orderBy('id')
    .execute();
  const inSite = people.filter((p) => p.primary_entity_id === site.id);
  expect(inSite.length).toBeGreaterThanOrEqual(4);

  // A requirement in its grace period at the group, inherited by its sites: two of the site's people did it already.
  const course = await buildCourse(h.db, group, { title: 'Oral health' });
  await h.db
    .insertInto('compliance_rules')
    .values({
      entity_id: group,
      role_id: roleId,
      course_id: course.id,
      type: 'primary',
      validity_months: 12,
      due_at: at(20),
    })
    .execute();
  for (const p of inSite.slice(0, 2))
    await buildPassedResult(h.db, {
      userId: p.id,
      entityId: site.id,
      courseId: course.id,
      completedAt: at(-3),
      now: NOW,
    });
  // Another site's own override of it, already due: its people who have not done it count (missing).
  const other = people.find((p) => p.primary_entity_id !== site.id && p.primary_entity_id !== group);
  if (other)
    await h.db
      .insertInto('compliance_rules')
      .values({
        entity_id: other.primary_entity_id as number,
        role_id: roleId,
        course_id: course.id,
        type: 'secondary',
        validity_months: null,
        due_at: at(-5),
      })
      .execute();

  // Exemptions on a course the site's people are required to do: ended over a pass, ended over nothing, ending
  // within the warning, ending later, for good; and a pass that expires within the warning.
  const required = await h.db
    .selectFrom('user_requirements')
    .select(['course_id'])
    .where('user_id', '=', inSite[0].id)
    .where('course_id', '<>', course.id)
    .orderBy('course_id')
    .execute();
  const [c1, c2] = required.map((r) => r.course_id);
  const [a, b, c, d] = inSite;
  await buildPassedResult(h.db, {
    userId: a.id,
    entityId: site.id,
    courseId: c1,
    completedAt: at(-200),
    now: NOW,
  });
  const exemptions: [person: { id: number }, courseId: number, endsAt: Date | null][] = [
    [a, c1, at(-2)],
    [b, c1, at(-2)],
    [c, c1, at(10)],
    [d, c1, at(400)],
    [a, c2, null],
  ];
  for (const [person, courseId, endsAt] of exemptions)
    await buildExemption(h.db, {
      userId: person.id,
      entityId: site.id,
      courseId,
      startedAt: at(-60),
      endsAt,
    });
  await buildPassedResult(h.db, {
    userId: b.id,
    entityId: site.id,
    courseId: c2,
    completedAt: at(-350),
    now: NOW,
  });

  // A new starter in the site with the role, and a tag on some of its people.
  await buildUser(h.db, { entityId: site.id, roleId, startDate: at(-3).toISOString().slice(0, 10) });
  const role = await buildRole(h.db, group, { name: 'Night carer' });
  void role;
  const tag = await h.db
    .insertInto('tags')
    .values({ entity_id: group, name: 'Night shift' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await h.db
    .insertInto('tag_users')
    .values([a, c].map((p) => ({ tag_id: tag.id, user_id: p.id })))
    .execute();
}

// ---- The formulation the report used before (issue 36 §2), kept here as the reference. ----

/** countedSql as it was: a due-date lookup per cell behind an InitPlan. */
const oldCounted = (now: Date) =>
  sql<SqlBool>`(${countsAsPassedSql(now, 'ecr')}
    OR NOT EXISTS (SELECT 1 FROM compliance_rules g WHERE g.due_at > ${now})
    OR coalesce(${requirementDueAtSql('ecr')}, '-infinity'::timestamptz) <= ${now})`;

/** cells() as it was: users ⋈ their primary entity ⋈ user_requirements, filtered on the user's columns. */
function oldCells(f: CellFilters, now: Date): RawBuilder<unknown> {
  const where: RawBuilder<unknown>[] = [
    sql`u.primary_entity_id IN (${sql.join(f.entityIds)})`,
    oldCounted(now),
  ];
  if (f.type) where.push(sql`ecr.type = ${f.type}`);
  if (f.roleIds?.length) where.push(sql`u.role_id IN (${sql.join(f.roleIds)})`);
  if (f.courseIds?.length) where.push(sql`ecr.course_id IN (${sql.join(f.courseIds)})`);
  if (f.tagIds)
    where.push(
      f.tagIds.length
        ? sql`EXISTS (SELECT 1 FROM tag_users tu WHERE tu.user_id = u.id AND tu.tag_id IN (${sql.join(f.tagIds)}))`
        : sql`false`,
    );
  if (f.newStarters === 'exclude_new_starters') where.push(sql`NOT ${newStarterSql(now)}`);
  if (f.newStarters === 'new_starters_only') where.push(newStarterSql(now));
  return sql`FROM users u JOIN entities e ON e.id = u.primary_entity_id
    JOIN user_requirements ecr ON ecr.user_id = u.id WHERE ${sql.join(where, sql` AND `)}`;
}

const oldColumns = (now: Date) => {
  const status = requirementStatusSql(now, 'ecr');
  return sql`count(DISTINCT u.id)::int AS users, count(*)::int AS required,
    ${sql.join(CELL_STATUSES.map((s) => sql`count(*) FILTER (WHERE ${status} = ${sql.lit(s)})::int AS ${sql.id(s)}`))}`;
};

async function oldGrouped(
  f: CellFilters,
  now: Date,
  key: 'u.primary_entity_id' | 'ecr.course_id' | 'u.role_id',
) {
  const { rows } = await sql<
    Record<string, number>
  >`SELECT ${sql.ref(key)} AS k, ${oldColumns(now)} ${oldCells(f, now)}
    GROUP BY ${sql.ref(key)}`.execute(h.db);
  return new Map(rows.map((r) => [r.k, r]));
}

const byKey = <R extends Record<string, unknown>>(rows: R[], key: keyof R, withUsers: boolean) =>
  Object.fromEntries(
    rows.map((r) => [String(r[key]), withUsers ? { users: Number(r.users), ...pick(r) } : pick(r)]),
  );

const filterSets = (): CellFilters[] => {
  const out: CellFilters[] = [];
  const starters: NewStartersFilter[] = ['include_new_starters', 'exclude_new_starters', 'new_starters_only'];
  for (const type of ['primary', 'secondary', null] as const)
    for (const newStarters of starters) out.push({ entityIds, type, newStarters });
  out.push({ entityIds, type: null, newStarters: 'include_new_starters', roleIds: roleIds.slice(0, 2) });
  out.push({
    entityIds,
    type: 'primary',
    newStarters: 'exclude_new_starters',
    courseIds: courseIds.slice(0, 3),
  });
  out.push({ entityIds, type: null, newStarters: 'include_new_starters', tagIds });
  out.push({ entityIds, type: null, newStarters: 'include_new_starters', tagIds: [] });
  out.push({ entityIds: entityIds.slice(1, 3), type: null, newStarters: 'include_new_starters' });
  return out;
};

describe('the compliance figures read now agree with the formulation they replaced', () => {
  it('the world is mixed: every status, a grace period that leaves cells out, tags and new starters', async () => {
    const all: CellFilters = { entityIds, type: null, newStarters: 'include_new_starters' };
    const totals = [...(await oldGrouped(all, NOW, 'u.primary_entity_id')).values()].reduce(
      (t, r) => {
        for (const k of CELL_STATUSES) t[k] += r[k];
        return t;
      },
      { in_date: 0, expiring: 0, expired: 0, missing: 0, exempt: 0 },
    );
    for (const k of CELL_STATUSES) expect(totals[k], k).toBeGreaterThan(0);
    const { rows } = await sql<{ n: number; counted: number }>`SELECT count(*)::int AS n,
        count(*) FILTER (WHERE ${oldCounted(NOW)})::int AS counted FROM user_requirements ecr`.execute(h.db);
    expect(rows[0].counted).toBeLessThan(rows[0].n);
    const starters = await oldGrouped(
      { ...all, newStarters: 'new_starters_only' },
      NOW,
      'u.primary_entity_id',
    );
    expect(starters.size).toBeGreaterThan(0);
    expect((await oldGrouped({ ...all, tagIds }, NOW, 'u.primary_entity_id')).size).toBeGreaterThan(0);
  });

  it('per organisation and per course (the report), per organisation, per course and per role (drill-downs)', async () => {
    for (const f of filterSets()) {
      const entities = await oldGrouped(f, NOW, 'u.primary_entity_id');
      const courses = await oldGrouped(f, NOW, 'ecr.course_id');
      const roles = await oldGrouped(f, NOW, 'u.role_id');
      const old = (m: Map<number, Record<string, number>>, withUsers: boolean) =>
        byKey([...m.values()], 'k', withUsers);

      const report = await entityAndCourseFigures(h.db, f, NOW);
      expect(byKey(report.entities, 'entity_id', false), JSON.stringify(f)).toEqual(old(entities, false));
      expect(byKey(report.courses, 'id', true), JSON.stringify(f)).toEqual(old(courses, true));
      expect(byKey(await entityFigures(h.db, f, NOW), 'entity_id', true)).toEqual(old(entities, true));
      expect(byKey(await courseFigures(h.db, f, NOW), 'id', true)).toEqual(old(courses, true));
      expect(byKey(await roleFigures(h.db, f, NOW), 'id', true)).toEqual(old(roles, true));
    }
  });

  it('per organisation, the tally of the one status rule over the raw facts', async () => {
    // Every cell with its facts; a requirement still in its grace period is "due" by its own due date (contracts
    // courseStatus), and a due cell is left out of the figures until then (issue 33 §4).
    const { rows } = await sql<{
      entity_id: number;
      passed: boolean | null;
      exempt: boolean;
      expires_at: Date | null;
      then_passed: boolean | null;
      then_expires_at: Date | null;
      then_exempt: boolean | null;
      expiry_warning: number;
      requirement_due_at: Date | null;
    }>`SELECT ur.entity_id, ur.passed, ur.exempt, ur.expires_at, ur.then_passed, ur.then_expires_at,
          ur.then_exempt, e.expiry_warning, ${requirementDueAtSql('ur')} AS requirement_due_at
        FROM user_requirements ur JOIN entities e ON e.id = ur.entity_id`.execute(h.db);
    const want = new Map<number, Tally>();
    let due = 0;
    for (const r of rows) {
      const dueBy = r.requirement_due_at && r.requirement_due_at > NOW ? r.requirement_due_at : null;
      const s = requirementStatus({ ...r, due_by: dueBy, pending: false }, NOW);
      if (s.status === 'due') {
        due++;
        continue;
      }
      const { users: _, ...blank } = emptyTally();
      const t: Tally = want.get(r.entity_id) ?? blank;
      t.required++;
      t[s.cell]++;
      want.set(r.entity_id, t);
    }
    expect(due).toBeGreaterThan(0);
    const report = await entityAndCourseFigures(
      h.db,
      { entityIds, type: null, newStarters: 'include_new_starters' },
      NOW,
    );
    expect(byKey(report.entities, 'entity_id', false)).toEqual(
      Object.fromEntries([...want].map(([id, t]) => [String(id), t])),
    );
  });
});
