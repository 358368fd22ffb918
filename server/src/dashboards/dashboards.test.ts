import type { ComplianceReport, ManagementDashboard, ManagerDashboard } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildRole, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse } from '../../test/learning-factories';
import { monthOf, writeSnapshots } from '../compliance/queries';
import { recordResult } from '../results/service';

const NOW = new Date();
const DAY = 86_400_000;
const OLD_START = new Date(NOW.getTime() - 400 * DAY).toISOString().slice(0, 10);

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  h.deps.clock = () => NOW;
});
afterAll(async () => h?.close());

async function rule(
  entityId: number,
  roleId: number,
  courseId: number,
  type: 'primary' | 'secondary',
  months: number | null,
) {
  await h.db
    .insertInto('compliance_rules')
    .values({ entity_id: entityId, role_id: roleId, course_id: courseId, type, validity_months: months })
    .execute();
}

async function result(userId: number, entityId: number, courseId: number, completedAt: Date, passed = true) {
  return h.db.transaction().execute((trx) =>
    recordResult(
      trx,
      {
        userId,
        entityId,
        courseId,
        contentId: null,
        type: 'elearning',
        passed,
        score: passed ? 90 : 20,
        completedAt,
        attemptId: null,
        createdBy: null,
      },
      NOW,
    ),
  );
}

const get = async <T>(headers: Record<string, string>, url: string) => {
  const res = await h.app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, body: res.json() as { data: T; meta?: { total: number } }, raw: res.body };
};

/** An organisation with two homes, two roles, three courses and people in every state. */
async function world() {
  const org = await buildEntity(h.db, { level: 'A', settings: { expiry_warning: 30, starter_period: 20 } });
  const alpha = await buildEntity(h.db, { level: 'B', parentId: org.id, name: 'Alpha home' });
  const beta = await buildEntity(h.db, { level: 'B', parentId: org.id, name: 'Beta home' });
  const carer = await buildRole(h.db, org.id, { name: 'Carer' });
  const nurse = await buildRole(h.db, org.id, { name: 'Nurse' });
  const [fire, food, meds] = await Promise.all([
    buildCourse(h.db, org.id, { title: 'Fire safety' }),
    buildCourse(h.db, org.id, { title: 'Food hygiene' }),
    buildCourse(h.db, org.id, { title: 'Medication' }),
  ]);
  await rule(org.id, carer.id, fire.id, 'primary', 12);
  await rule(org.id, carer.id, food.id, 'primary', null);
  await rule(org.id, nurse.id, meds.id, 'primary', 12);
  await rule(org.id, nurse.id, fire.id, 'secondary', 12);
  const start = { startDate: OLD_START };
  const manager = await buildUser(h.db, {
    entityId: alpha.id,
    permissions: [105, 13, 24],
    name: 'Mia Manager',
    ...start,
  });
  const boss = await buildUser(h.db, {
    entityId: org.id,
    permissions: [79, 105, 13],
    name: 'Gus Group',
    ...start,
  });
  const a1 = await buildUser(h.db, { entityId: alpha.id, roleId: carer.id, name: 'Ann Alpha', ...start });
  const a2 = await buildUser(h.db, { entityId: alpha.id, roleId: nurse.id, name: 'Ben Alpha', ...start });
  const a3 = await buildUser(h.db, { entityId: alpha.id, roleId: carer.id, name: 'Cy Newstart' });
  const b1 = await buildUser(h.db, { entityId: beta.id, roleId: carer.id, name: 'Cat Beta', ...start });
  await result(a1.id, alpha.id, fire.id, new Date(NOW.getTime() - 100 * DAY)); // in date
  await result(a1.id, alpha.id, food.id, new Date(NOW.getTime() - 900 * DAY)); // never expires
  await result(a2.id, alpha.id, meds.id, new Date(NOW.getTime() - 350 * DAY)); // expiring in ~15 days
  await result(a2.id, alpha.id, fire.id, new Date(NOW.getTime() - 400 * DAY)); // expired
  await result(a3.id, alpha.id, fire.id, new Date(NOW.getTime() - 300 * DAY)); // expiring in ~65 days
  // In date, done now: it expires in the 13th month from this one, past the forecast on any day of the month (done 3
  // days ago, it fell in the forecast's last month on a month's first three days).
  await result(b1.id, beta.id, fire.id, NOW);
  await result(b1.id, beta.id, food.id, new Date(NOW.getTime() - 5 * DAY), false); // failed: missing
  // A learner's own historical record waiting for approval.
  await h.db
    .insertInto('results')
    .values({
      user_id: a1.id,
      entity_id: alpha.id,
      course_id: meds.id,
      content_id: null,
      type: 'historical',
      status: 'pending',
      passed: true,
      score: null,
      completed_at: new Date(NOW.getTime() - 2 * DAY),
      expires_at: null,
      attempt_id: null,
      created_by: a1.id,
      deleted_at: null,
    })
    .execute();
  return {
    org,
    alpha,
    beta,
    fire,
    food,
    meds,
    a1,
    a2,
    a3,
    b1,
    managerHeaders: await bearer(h.db, manager.id),
    bossHeaders: await bearer(h.db, boss.id),
  };
}

let w: Awaited<ReturnType<typeof world>>;
beforeAll(async () => {
  w = await world();
});

async function report(headers: Record<string, string>, entityId: number, type = 'all') {
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/reports/compliance',
    headers,
    payload: { entities: [entityId], deep: true, compliance_type: type },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: ComplianceReport }).data;
}

describe('GET /dashboards/manager', () => {
  it("defaults to the caller's home and names who is out of date and expiring, with the report's figures", async () => {
    const { status, body, raw } = await get<ManagerDashboard>(w.managerHeaders, '/api/dashboards/manager');
    expect(status, raw).toBe(200);
    const d = body.data;
    expect(d.entity).toMatchObject({ id: w.alpha.id, name: 'Alpha home' });
    const rep = await report(w.managerHeaders, w.alpha.id);
    const row = rep.entities.find((e) => e.id === w.alpha.id);
    expect(row).toBeDefined();
    const {
      own: _own,
      id: _id,
      name: _n,
      slug: _s,
      level: _l,
      parent_id: _p,
      ...reportFigures
    } = row as NonNullable<typeof row>;
    expect(d.figures).toEqual(reportFigures);
    // Out of date (issue 28 item 5, contracts courseStatus): Ben's expired Fire safety. Cy's Food hygiene, never done,
    // is due by the end of his new-starter period: one of the report's missing cells, but not out of date yet.
    expect(d.out_of_date.cells).toBe(reportFigures.expired + reportFigures.missing - 1);
    expect(d.out_of_date.people).toBe(1);
    expect(d.out_of_date.rows.map((p) => p.name)).toEqual(['Ben Alpha']);
    expect(d.out_of_date.rows[0]).toMatchObject({ uuid: w.a2.uuid, name: 'Ben Alpha', role: 'Nurse' });
    expect(d.out_of_date.rows[0].courses).toEqual([
      expect.objectContaining({
        id: w.fire.id,
        title: 'Fire safety',
        status: 'expired',
        course_status: 'expired',
        type: 'secondary',
      }),
    ]);
    // Expiring: Ben's Medication within 30 days; Cy's Fire safety within 90 but not 60.
    expect(d.expiring['30'].rows.map((p) => p.name)).toEqual(['Ben Alpha']);
    expect(d.expiring['30'].rows[0].courses[0]).toMatchObject({ title: 'Medication', status: 'expiring' });
    expect(d.expiring['60'].people).toBe(1);
    expect(d.expiring['90'].rows.map((p) => p.name)).toEqual(['Ben Alpha', 'Cy Newstart']);
    expect(d.expiring['90'].cells).toBe(2);
    // Beta's people never show.
    expect(raw).not.toContain('Cat Beta');
    expect(d.pending).toEqual({ total: 1, by_type: { historical: 1 } });
    expect(d.new_starters.people).toBe(1);
    expect(d.new_starters.rows[0]).toMatchObject({
      name: 'Cy Newstart',
      required: 2,
      compliant: 1,
      score: 50,
    });
    expect(d.trend.previous).toBeNull();
  });

  it('agrees with the report for one compliance type', async () => {
    const { body } = await get<ManagerDashboard>(
      w.bossHeaders,
      `/api/dashboards/manager?entity=${w.org.slug}&compliance_type=primary`,
    );
    const rep = await report(w.bossHeaders, w.org.id, 'primary');
    const row = rep.entities.find((e) => e.id === w.org.id);
    expect(body.data.figures.score).toBe(row?.score);
    expect(body.data.figures.required).toBe(row?.required);
    // Less Cy's Food hygiene: never done, due by the end of his new-starter period (not out of date yet).
    expect(body.data.out_of_date.cells).toBe((row?.expired ?? 0) + (row?.missing ?? 0) - 1);
    // Primary only: Ben's expired Fire safety is Required (secondary); Cat's missing Food hygiene is Mandatory.
    expect(body.data.out_of_date.rows.map((p) => p.name)).toEqual(['Cat Beta']);
    // The group manager may not see pending records (no 24/25).
    expect(body.data.pending).toBeNull();
  });

  it('pages a whole list', async () => {
    const first = await get<{ name: string }[]>(
      w.managerHeaders,
      '/api/dashboards/manager/people?list=expiring_90&per_page=1',
    );
    expect(first.status, first.raw).toBe(200);
    expect(first.body.data.map((p) => p.name)).toEqual(['Ben Alpha']);
    expect(first.body.meta?.total).toBe(2);
    const second = await get<{ name: string }[]>(
      w.managerHeaders,
      '/api/dashboards/manager/people?list=expiring_90&per_page=1&page=2',
    );
    expect(second.body.data.map((p) => p.name)).toEqual(['Cy Newstart']);
    const starters = await get<{ name: string }[]>(
      w.managerHeaders,
      '/api/dashboards/manager/people?list=new_starters',
    );
    expect(starters.body.data.map((p) => p.name)).toEqual(['Cy Newstart']);
    const bad = await get(w.managerHeaders, '/api/dashboards/manager/people?list=everyone');
    expect(bad.status).toBe(422);
  });

  it('answers 404 outside the scope and 403 without 105', async () => {
    // The home manager cannot see the other home, nor another organisation.
    expect((await get(w.managerHeaders, `/api/dashboards/manager?entity=${w.beta.id}`)).status).toBe(404);
    expect(
      (await get(w.managerHeaders, `/api/dashboards/manager/people?list=out_of_date&entity=${w.beta.id}`))
        .status,
    ).toBe(404);
    const other = await buildUser(h.db, { permissions: [105, 79] });
    const otherHeaders = await bearer(h.db, other.id);
    expect((await get(otherHeaders, `/api/dashboards/manager?entity=${w.alpha.slug}`)).status).toBe(404);
    expect((await get(otherHeaders, `/api/dashboards/management?entity=${w.org.id}`)).status).toBe(404);
    const carer = await buildUser(h.db, { entityId: w.alpha.id, permissions: [13] });
    const carerHeaders = await bearer(h.db, carer.id);
    expect((await get(carerHeaders, '/api/dashboards/manager')).status).toBe(403);
    expect((await get(carerHeaders, '/api/dashboards/manager/people?list=out_of_date')).status).toBe(403);
    expect((await get(carerHeaders, '/api/dashboards/management')).status).toBe(403);
    expect((await get(w.managerHeaders, '/api/dashboards/management')).status).toBe(403);
  });
});

describe('GET /dashboards/management', () => {
  it("ranks the homes, lists the worst courses and forecasts expiries, with the report's figures", async () => {
    const { status, body, raw } = await get<ManagementDashboard>(w.bossHeaders, '/api/dashboards/management');
    expect(status, raw).toBe(200);
    const d = body.data;
    expect(d.entity.id).toBe(w.org.id);
    const rep = await report(w.bossHeaders, w.org.id);
    const rowOf = (id: number) => rep.entities.find((e) => e.id === id);
    expect(d.figures.score).toBe(rowOf(w.org.id)?.score);
    expect(d.entities.map((e) => e.name)).toEqual(
      [rowOf(w.alpha.id), rowOf(w.beta.id)]
        .sort((a, b) => (a?.score ?? 0) - (b?.score ?? 0))
        .map((e) => e?.name),
    );
    for (const e of d.entities) {
      const r = rowOf(e.id);
      expect({ score: e.score, required: e.required, expired: e.expired, missing: e.missing }).toEqual({
        score: r?.score,
        required: r?.required,
        expired: r?.expired,
        missing: r?.missing,
      });
    }
    expect(d.entities.map((e) => e.rank)).toEqual([1, 2]);
    // Courses: the lowest in-date share first, each equal to the report's course row.
    const scores = d.courses.map((c) => c.score);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    for (const c of d.courses) expect(c.score).toBe(rep.courses.find((r) => r.id === c.id)?.score);
    // Forecast: 12 months from this one; three dated records expire within them (Cat's, done now, after).
    expect(d.forecast).toHaveLength(12);
    expect(d.forecast[0].month).toBe(NOW.toISOString().slice(0, 7));
    expect(d.forecast.reduce((n, m) => n + m.expiries, 0)).toBe(3);
    // Ben's Medication expires within 30 days.
    expect(d.expiring_30).toEqual({ people: 1, cells: 1 });
  });

  it('shows the change since the last month-end snapshot', async () => {
    const lastMonth = new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth() - 1, 15));
    const ids = [w.org.id, w.alpha.id, w.beta.id];
    await h.db.transaction().execute((trx) => writeSnapshots(trx, ids, monthOf(lastMonth), lastMonth));
    const { body } = await get<ManagementDashboard>(w.bossHeaders, '/api/dashboards/management');
    const d = body.data;
    expect(d.trend.previous?.month).toBe(monthOf(lastMonth).slice(0, 7));
    expect(d.trend.change).toBe(d.figures.score - (d.trend.previous?.score ?? 0));
    for (const e of d.entities) expect(e.previous?.month).toBe(d.trend.previous?.month);
    const m = await get<ManagerDashboard>(w.managerHeaders, '/api/dashboards/manager');
    expect(m.body.data.trend.months.length).toBe(1);
  });
});
