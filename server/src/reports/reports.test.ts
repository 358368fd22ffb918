import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { bearer, buildEntity, buildRole, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse } from '../../test/learning-factories';
import { pdfText } from '../../test/pdf-text';
import { writeSnapshots } from '../compliance/queries';
import { cellStatus, scoreOf } from '../compliance/rules';
import { runDueJobs } from '../jobs/queue';
import { recordResult } from '../results/service';
import { reportLimits } from './compliance-service';
import { clearDrillDownCache, drillDownLimits } from './drill-down';
import { backfillComplianceHistory, registerReportJobs, snapshotPreviousMonth } from './jobs';
import { backfillSnapshots } from './queries';

const NOW = new Date();
const DAY = 86_400_000;
const ALL_REPORTS = [7, 12, 13, 16, 17, 56];

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  h.deps.clock = () => NOW;
  registerReportJobs();
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

async function result(
  userId: number,
  entityId: number,
  courseId: number,
  completedAt: Date,
  passed = true,
  type: 'elearning' | 'exempt' = 'elearning',
) {
  return h.db.transaction().execute((trx) =>
    recordResult(
      trx,
      {
        userId,
        entityId,
        courseId,
        contentId: null,
        type,
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

const call = async (headers: Record<string, string>, method: 'GET' | 'POST', url: string, payload?: object) =>
  h.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

/** An organisation (A) with two sites (B), two roles, three courses, rules with a site override, users, results. */
async function smallOrg() {
  const org = await buildEntity(h.db, { level: 'A', settings: { expiry_warning: 30, starter_period: 20 } });
  const siteA = await buildEntity(h.db, { level: 'B', parentId: org.id, name: 'Alpha site' });
  const siteB = await buildEntity(h.db, { level: 'B', parentId: org.id, name: 'Beta site' });
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
  await rule(siteB.id, carer.id, food.id, 'secondary', 6); // override at site B
  const manager = await buildUser(h.db, { entityId: org.id, permissions: ALL_REPORTS, name: 'Jane Smith' });
  const a1 = await buildUser(h.db, { entityId: siteA.id, roleId: carer.id, name: 'Ann Alpha' });
  const a2 = await buildUser(h.db, { entityId: siteA.id, roleId: nurse.id, name: 'Ben Alpha' });
  const b1 = await buildUser(h.db, { entityId: siteB.id, roleId: carer.id, name: 'Cat Beta' });
  await result(a1.id, siteA.id, fire.id, new Date(NOW.getTime() - 100 * DAY)); // in date
  await result(a1.id, siteA.id, food.id, new Date(NOW.getTime() - 900 * DAY)); // never expires
  await result(a2.id, siteA.id, meds.id, new Date(NOW.getTime() - 350 * DAY)); // expiring
  await result(a2.id, siteA.id, fire.id, new Date(NOW.getTime() - 400 * DAY)); // expired
  const cert = await result(b1.id, siteB.id, fire.id, new Date(NOW.getTime() - 3 * DAY)); // in date
  await result(b1.id, siteB.id, food.id, new Date(NOW.getTime() - 5 * DAY), false); // failed: missing
  return {
    org,
    siteA,
    siteB,
    carer,
    nurse,
    fire,
    food,
    meds,
    manager,
    a1,
    a2,
    b1,
    cert,
    headers: await bearer(h.db, manager.id),
  };
}

describe('POST /reports/compliance', () => {
  it('answers months, courses and entities with figures summed up the tree', async () => {
    const o = await smallOrg();
    const res = await call(o.headers, 'POST', '/api/reports/compliance', { compliance_type: 'all' });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json();
    const byName = Object.fromEntries(data.entities.map((e: { name: string }) => [e.name, e]));
    // site A: a1 fire in date, food in date; a2 meds expiring, fire expired → 4 required, 3 in date (expiring counts)
    expect(byName['Alpha site']).toMatchObject({
      required: 4,
      in_date: 2,
      expiring: 1,
      expired: 1,
      missing: 0,
      score: 75,
    });
    // site B: b1 fire in date, food (secondary override) missing
    expect(byName['Beta site']).toMatchObject({ required: 2, in_date: 1, missing: 1, score: 50 });
    expect(byName[o.org.name]).toMatchObject({
      required: 6,
      in_date: 3,
      expiring: 1,
      expired: 1,
      missing: 1,
      score: 66,
    });
    expect(data.totals.required).toBe(6);
    const fire = data.courses.find((c: { id: number }) => c.id === o.fire.id);
    expect(fire).toMatchObject({ required: 3, in_date: 2, expired: 1 });
    expect(Array.isArray(data.months)).toBe(true);

    const primary = await call(o.headers, 'POST', '/api/reports/compliance', {});
    const root = primary.json().data.entities.find((e: { id: number }) => e.id === o.org.id);
    // primary only: a1 fire+food, a2 meds, b1 fire (b1's food is secondary at site B)
    expect(root).toMatchObject({ required: 4, in_date: 3, expiring: 1 });
  });

  it('filters by role, course and new starters; not deep shows the chosen entity alone', async () => {
    const o = await smallOrg();
    const byRole = await call(o.headers, 'POST', '/api/reports/compliance', {
      compliance_type: 'all',
      roles: [o.nurse.id],
    });
    expect(byRole.json().data.totals).toMatchObject({ required: 2, users: 1 });
    const byCourse = await call(o.headers, 'POST', '/api/reports/compliance', {
      compliance_type: 'all',
      courses: [o.food.id],
    });
    expect(byCourse.json().data.totals).toMatchObject({ required: 2 });
    const starters = await call(o.headers, 'POST', '/api/reports/compliance', {
      new_starters_filter: 'new_starters_only',
    });
    // every user was created just now: all are new starters
    expect(starters.json().data.totals.required).toBe(4);
    const none = await call(o.headers, 'POST', '/api/reports/compliance', {
      new_starters_filter: 'exclude_new_starters',
    });
    expect(none.json().data.totals.required).toBe(0);
    const shallow = await call(o.headers, 'POST', '/api/reports/compliance', {
      entities: [o.siteA.id],
      deep: false,
    });
    expect(shallow.json().data.entities.map((e: { id: number }) => e.id)).toEqual([o.siteA.id]);
  });

  it('answers 300 with expected_time when the report is too large', async () => {
    const o = await smallOrg();
    reportLimits.maxCells = 2;
    try {
      const res = await call(o.headers, 'POST', '/api/reports/compliance', {});
      expect(res.statusCode).toBe(300);
      expect(res.json()).toMatchObject({ expected_time: expect.stringMatching(/second|minute/), cells: 4 });
    } finally {
      reportLimits.maxCells = 2_000_000;
    }
  });

  it('queues an e-mailed report (emailFormat) that arrives with the file attached', async () => {
    const o = await smallOrg();
    const res = await call(o.headers, 'POST', '/api/reports/compliance', { emailFormat: 'XLSX' });
    expect(res.statusCode, res.body).toBe(200);
    await runDueJobs(h.deps, NOW);
    const mail = await h.db
      .selectFrom('mail_outbox as m')
      .innerJoin('mail_attachments as a', 'a.mail_id', 'm.id')
      .select(['m.to_address', 'a.filename', 'a.content'])
      .where('m.to_address', '=', o.manager.email)
      .executeTakeFirstOrThrow();
    expect(mail.filename).toMatch(/^compliance-Jane-Smith-\d{2}-\d{2}-\d{4}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(mail.content as unknown as ArrayBuffer);
    expect(wb.getWorksheet('Organisations')?.rowCount).toBe(4);
  });

  it('shows the trend from the monthly snapshots (back-filled from results history)', async () => {
    const o = await smallOrg();
    // Results completed 100 days ago count in the months since; the 3-day-old one does not count before.
    await backfillComplianceHistory(h.db, NOW, 12, [o.org.id, o.siteA.id, o.siteB.id]);
    const res = await call(o.headers, 'POST', '/api/reports/compliance', {
      compliance_type: 'all',
      previousMonths: 12,
    });
    const months = res.json().data.months as { month: string; in_date: number; required: number }[];
    // users were created today, so no past month has any of them: every back-filled month is empty
    expect(months).toEqual([]);
    // Make the users older, back-fill again: the months now hold their figures as of each month end.
    await h.db
      .updateTable('users')
      .set({ created_at: new Date(NOW.getTime() - 2000 * DAY) })
      .where('id', 'in', [o.a1.id, o.a2.id, o.b1.id])
      .execute();
    await backfillComplianceHistory(h.db, NOW, 12, [o.org.id, o.siteA.id, o.siteB.id]);
    const again = await call(o.headers, 'POST', '/api/reports/compliance', {
      compliance_type: 'all',
      previousMonths: 12,
    });
    const trend = again.json().data.months as {
      month: string;
      in_date: number;
      expiring: number;
      required: number;
    }[];
    expect(trend).toHaveLength(12);
    expect(trend.every((m) => m.required === 6)).toBe(true);
    const last = trend[trend.length - 1];
    // At the end of last month: a1 fire (100 days ago) and food, a2 meds (350 days) and not fire (expired) were done.
    expect(last.in_date + last.expiring).toBeGreaterThanOrEqual(2);
  });

  it('snapshots the month that just ended once (the monthly job)', async () => {
    const start = new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth(), 1, 0, 30));
    await h.db.deleteFrom('compliance_snapshots').execute();
    const first = await snapshotPreviousMonth(h.db, start);
    expect(first).toBeGreaterThan(0);
    expect(await snapshotPreviousMonth(h.db, start)).toBe(0);
  });

  it('refuses bad input (422), other organisations (404) and callers without 13 (403)', async () => {
    const o = await smallOrg();
    expect(
      (await call(o.headers, 'POST', '/api/reports/compliance', { previousMonths: 13 })).statusCode,
    ).toBe(422);
    expect(
      (await call(o.headers, 'POST', '/api/reports/compliance', { compliance_type: 'x' })).statusCode,
    ).toBe(422);
    const other = await buildEntity(h.db);
    const foreign = await call(o.headers, 'POST', '/api/reports/compliance', { entities: [other.id] });
    const missing = await call(o.headers, 'POST', '/api/reports/compliance', { entities: [99_999_999] });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(missing.body);
    const otherRole = await buildRole(h.db, other.id);
    expect(
      (await call(o.headers, 'POST', '/api/reports/compliance', { roles: [otherRole.id] })).statusCode,
    ).toBe(404);
    const clerk = await buildUser(h.db, { entityId: o.org.id, permissions: [] });
    expect((await call(await bearer(h.db, clerk.id), 'POST', '/api/reports/compliance', {})).statusCode).toBe(
      403,
    );
    expect(
      (await h.app.inject({ method: 'POST', url: '/api/reports/compliance', payload: {} })).statusCode,
    ).toBe(401);
  });
});

describe('property: the compliance report agrees with a naive computation', () => {
  it('on random organisations', async () => {
    const spec = fc.record({
      sites: fc.integer({ min: 1, max: 3 }),
      roles: fc.integer({ min: 1, max: 2 }),
      courses: fc.integer({ min: 1, max: 4 }),
      rules: fc.array(
        fc.record({
          at: fc.integer({ min: 0, max: 3 }),
          role: fc.nat(),
          course: fc.nat(),
          secondary: fc.boolean(),
          months: fc.option(fc.integer({ min: 1, max: 24 })),
        }),
        { maxLength: 10 },
      ),
      users: fc.array(
        fc.record({
          site: fc.nat(),
          role: fc.option(fc.nat()),
          startedDaysAgo: fc.integer({ min: 0, max: 60 }),
        }),
        { minLength: 1, maxLength: 8 },
      ),
      results: fc.array(
        fc.record({
          user: fc.nat(),
          course: fc.nat(),
          daysAgo: fc.integer({ min: 0, max: 800 }),
          passed: fc.boolean(),
          exempt: fc.boolean(),
        }),
        { maxLength: 16 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(
        spec,
        fc.constantFrom('primary', 'secondary', 'all'),
        fc.constantFrom('include_new_starters', 'exclude_new_starters'),
        async (s, type, starters) => {
          const org = await buildEntity(h.db, {
            level: 'A',
            settings: { expiry_warning: 60, starter_period: 30 },
          });
          const sites = [];
          for (let i = 0; i < s.sites; i++)
            sites.push(
              await buildEntity(h.db, {
                level: 'B',
                parentId: org.id,
                settings: { expiry_warning: 60, starter_period: 30 },
              }),
            );
          const entities = [org, ...sites];
          const roles = [];
          for (let i = 0; i < s.roles; i++) roles.push(await buildRole(h.db, org.id));
          const courses = [];
          for (let i = 0; i < s.courses; i++) courses.push(await buildCourse(h.db, org.id));
          const rules = new Map<
            string,
            { entity: number; role: number; course: number; type: string; months: number | null }
          >();
          for (const r of s.rules) {
            const entity = entities[r.at % entities.length].id;
            const role = roles[r.role % roles.length].id;
            const course = courses[r.course % courses.length].id;
            rules.set(`${entity}:${role}:${course}`, {
              entity,
              role,
              course,
              type: r.secondary ? 'secondary' : 'primary',
              months: r.months,
            });
          }
          for (const r of rules.values())
            await rule(r.entity, r.role, r.course, r.type as 'primary', r.months);
          const users = [];
          for (const u of s.users) {
            const site = entities[u.site % entities.length];
            const start = new Date(NOW.getTime() - u.startedDaysAgo * DAY).toISOString().slice(0, 10);
            users.push({
              ...(await buildUser(h.db, {
                entityId: site.id,
                roleId: u.role === null ? null : roles[u.role % roles.length].id,
                startDate: start,
              })),
              site,
            });
          }
          for (const r of s.results) {
            const u = users[r.user % users.length];
            await result(
              u.id,
              u.site.id,
              courses[r.course % courses.length].id,
              new Date(NOW.getTime() - r.daysAgo * DAY - 3600_000),
              r.passed || r.exempt,
              r.exempt ? 'exempt' : 'elearning',
            );
          }
          const manager = await buildUser(h.db, { entityId: org.id, permissions: [13] });
          const res = await call(await bearer(h.db, manager.id), 'POST', '/api/reports/compliance', {
            compliance_type: type,
            new_starters_filter: starters,
          });
          expect(res.statusCode, res.body).toBe(200);
          const data = res.json().data;

          // Naive: rules of an entity = own + parent's not overridden; cell status by rules.ts over the latest result.
          const latest = await h.db
            .selectFrom('results')
            .selectAll()
            .where(
              'user_id',
              'in',
              users.map((u) => u.id),
            )
            .execute();
          const naive = new Map<number, { required: number; inDate: number; exempt: number }>();
          const perCourse = new Map<number, number>();
          for (const u of users) {
            if (u.role_id === null) continue;
            const isStarter = NOW.getTime() - new Date(`${u.start_date}T00:00:00Z`).getTime() < 30 * DAY;
            if (starters === 'exclude_new_starters' && isStarter) continue;
            for (const c of courses) {
              const own = rules.get(`${u.site.id}:${u.role_id}:${c.id}`);
              const inherited =
                u.site.level === 'B' ? rules.get(`${org.id}:${u.role_id}:${c.id}`) : undefined;
              const r = own ?? inherited;
              if (!r || (type !== 'all' && r.type !== type)) continue;
              const mine = latest
                .filter((x) => x.user_id === u.id && x.course_id === c.id)
                .sort(
                  (a, b) =>
                    Number(b.passed) - Number(a.passed) ||
                    b.completed_at.getTime() - a.completed_at.getTime() ||
                    b.id - a.id,
                )[0];
              const status = cellStatus(
                mine ? { passed: mine.passed, type: mine.type, expiresAt: mine.expires_at } : null,
                NOW,
                60,
              );
              const f = naive.get(u.site.id) ?? { required: 0, inDate: 0, exempt: 0 };
              f.required += 1;
              if (status === 'in_date' || status === 'expiring') f.inDate += 1;
              if (status === 'exempt') f.exempt += 1;
              naive.set(u.site.id, f);
              perCourse.set(c.id, (perCourse.get(c.id) ?? 0) + 1);
            }
          }
          for (const e of data.entities as {
            id: number;
            required: number;
            in_date: number;
            expiring: number;
            exempt: number;
            score: number;
          }[]) {
            const ids = e.id === org.id ? entities.map((x) => x.id) : [e.id];
            const required = ids.reduce((n, id) => n + (naive.get(id)?.required ?? 0), 0);
            const inDate = ids.reduce((n, id) => n + (naive.get(id)?.inDate ?? 0), 0);
            const exempt = ids.reduce((n, id) => n + (naive.get(id)?.exempt ?? 0), 0);
            expect(e.required).toBe(required);
            expect(e.in_date + e.expiring).toBe(inDate);
            // Exempt cells are counted apart, and count towards the score like in-date ones.
            expect(e.exempt).toBe(exempt);
            expect(e.score).toBe(scoreOf(inDate + exempt, required));
          }
          for (const c of data.courses as { id: number; required: number }[])
            expect(c.required).toBe(perCourse.get(c.id));
          expect(data.courses.length).toBe(perCourse.size);
        },
      ),
      { numRuns: 10 },
    );
  }, 120_000);
});

describe('compliance courses and exports', () => {
  it('GET /reports/compliance/courses answers per-course figures', async () => {
    const o = await smallOrg();
    const res = await call(
      o.headers,
      'GET',
      `/api/reports/compliance/courses?entities=${o.siteA.id}&compliance_type=all`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((c: { title: string }) => c.title)).toEqual([
      'Fire safety',
      'Food hygiene',
      'Medication',
    ]);
    expect((await call(o.headers, 'GET', '/api/reports/compliance/courses?entities=abc')).statusCode).toBe(
      422,
    );
  });

  it('exports XLSX (17) and PDF (16), named by type, user and date', async () => {
    const o = await smallOrg();
    const xlsx = await call(o.headers, 'GET', '/api/reports/compliance/export/xlsx?compliance_type=all');
    expect(xlsx.statusCode, xlsx.body).toBe(200);
    expect(xlsx.headers['content-disposition']).toMatch(
      /filename="compliance-Jane-Smith-\d{2}-\d{2}-\d{4}\.xlsx"/,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Organisations');
    expect(sheet?.getRow(1).getCell(1).value).toBe('Organisation');
    const names = [2, 3, 4].map((r) => sheet?.getRow(r).getCell(1).value);
    expect(names).toContain('Alpha site');
    const alpha = [2, 3, 4].find((r) => sheet?.getRow(r).getCell(1).value === 'Alpha site') as number;
    // Users, Required, In date, Expiring, Expired, Missing, Exempt, Score %.
    expect(sheet?.getRow(alpha).getCell(10).value).toBe(75);
    expect(wb.getWorksheet('Courses')?.rowCount).toBe(4);

    const pdf = await call(o.headers, 'GET', '/api/reports/compliance/export/pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    expect(pdf.headers['content-type']).toBe('application/pdf');

    const noExcel = await buildUser(h.db, { entityId: o.org.id, permissions: [13, 16] });
    const headers = await bearer(h.db, noExcel.id);
    expect((await call(headers, 'GET', '/api/reports/compliance/export/xlsx')).statusCode).toBe(403);
    expect((await call(headers, 'GET', '/api/reports/compliance/export/pdf')).statusCode).toBe(200);
    expect((await call(headers, 'GET', '/api/reports/compliance/export/csv')).statusCode).toBe(422);
  });
});

describe('role, certificate, results and staff reports', () => {
  it('POST /reports/role answers each role with its users and compliance', async () => {
    const o = await smallOrg();
    const res = await call(o.headers, 'POST', '/api/reports/role', { compliance_type: 'all' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual([
      expect.objectContaining({ name: 'Carer', users: 2, required: 4, in_date: 3, missing: 1, score: 75 }),
      expect.objectContaining({ name: 'Nurse', users: 1, required: 2, expiring: 1, expired: 1, score: 50 }),
    ]);
  });

  it('POST /reports/certificate pages the passed results with the preset filters', async () => {
    const o = await smallOrg();
    const res = await call(o.headers, 'POST', '/api/reports/certificate?per_page=2', {
      period: 'last_month',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    // last month: only b1's fire (3 days ago) passed within it
    expect(body.meta.total).toBe(1);
    expect(body.data[0]).toMatchObject({
      user: { name: 'Cat Beta' },
      course: { title: 'Fire safety' },
      grade: 'Pass',
    });
    const all = await call(o.headers, 'POST', '/api/reports/certificate?per_page=2', {
      from_date: '2000-01-01',
    });
    expect(all.json().meta).toMatchObject({ total: 5, last_page: 3 });
    expect(all.json().links.next).toMatch(/page=2/);
    const next = await call(o.headers, 'POST', all.json().links.next, { from_date: '2000-01-01' });
    expect(next.json().meta.current_page).toBe(2);
    const siteA = await call(o.headers, 'POST', '/api/reports/certificate', {
      from_date: '2000-01-01',
      entities: [o.siteA.id],
      courses: [o.fire.id],
    });
    expect(siteA.json().meta.total).toBe(2);
    const exempt = await call(o.headers, 'POST', '/api/reports/certificate', {
      from_date: '2000-01-01',
      grade: 'Exempt',
    });
    expect(exempt.json().meta.total).toBe(0);
    expect(
      (await call(o.headers, 'POST', '/api/reports/certificate', { period: 'yesterday' })).statusCode,
    ).toBe(422);
    const noCerts = await buildUser(h.db, { entityId: o.org.id, permissions: [13] });
    expect(
      (await call(await bearer(h.db, noCerts.id), 'POST', '/api/reports/certificate', {})).statusCode,
    ).toBe(403);
  });

  it('POST /reports/results answers json pages and a streamed xlsx', async () => {
    const o = await smallOrg();
    const json = await call(o.headers, 'POST', '/api/reports/results', { type: 'json' });
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json().meta.total).toBe(6);
    const failed = await call(o.headers, 'POST', '/api/reports/results', { passed: false });
    expect(failed.json().meta.total).toBe(1);
    const xlsx = await call(o.headers, 'POST', '/api/reports/results', { type: 'xlsx' });
    expect(xlsx.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(wb.getWorksheet('Results')?.rowCount).toBe(7);
    const no56 = await buildUser(h.db, { entityId: o.org.id, permissions: [13] });
    expect((await call(await bearer(h.db, no56.id), 'POST', '/api/reports/results', {})).statusCode).toBe(
      403,
    );
  });

  it('POST /reports/staff answers an xlsx of staff with their compliance', async () => {
    const o = await smallOrg();
    const res = await call(o.headers, 'POST', '/api/reports/staff', { compliance_type: 'all' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/staff-Jane-Smith/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Staff');
    const rows: unknown[][] = [];
    sheet?.eachRow((row, n) => n > 1 && rows.push((row.values as unknown[]).slice(1)));
    const ben = rows.find((r) => r[0] === 'Ben Alpha');
    expect(ben?.slice(7)).toEqual([2, 0, 1, 1, 0, 0, 50]);
    expect(rows.map((r) => r[0])).toContain('Jane Smith');
  });

  it('POST /report runs the certificate report of preset fields (json and files)', async () => {
    const o = await smallOrg();
    const json = await call(o.headers, 'POST', '/api/report', {
      report_type: 'certificate',
      from_date: '2000-01-01',
    });
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json().meta.total).toBe(5);
    const xlsx = await call(o.headers, 'POST', '/api/report', {
      report_type: 'certificate',
      from_date: '2000-01-01',
      format: 'XLSX',
    });
    expect(xlsx.headers['content-disposition']).toMatch(/certificate-Jane-Smith-\d\d-\d\d-\d{4}\.xlsx/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(wb.getWorksheet('Certificates')?.rowCount).toBe(6);
    const pdf = await call(o.headers, 'POST', '/api/report', { report_type: 'certificate', format: 'PDF' });
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    // Matrix presets run through the matrix capability (presets/matrix-presets.test.ts); other types are refused.
    expect((await call(o.headers, 'POST', '/api/report', { report_type: 'table' })).statusCode).toBe(422);
  });
});

function zipNames(buffer: Buffer): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const names: string[] = [];
      zip.on('entry', (e) => {
        names.push(e.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.readEntry();
    });
  });
}

describe('POST /results/certificate/download-multiple', () => {
  it('streams a zip of the certificates; 204 when nothing is left; 404 for a foreign result', async () => {
    const o = await smallOrg();
    const passed = await h.db
      .selectFrom('results')
      .select('id')
      .where('user_id', 'in', [o.a1.id, o.b1.id])
      .where('passed', '=', true)
      .execute();
    const res = await call(o.headers, 'POST', '/api/results/certificate/download-multiple', {
      result_ids: passed.map((r) => r.id),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const names = await zipNames(res.rawPayload);
    expect(names).toHaveLength(3);
    expect(names.every((n) => /^certificate-.+-\d\d-\d\d-\d{4}(-\d)?\.pdf$/.test(n))).toBe(true);

    await h.db
      .updateTable('results')
      .set({ certificate_suppressed: true })
      .where('id', '=', o.cert.id)
      .execute();
    const suppressedOnly = await buildUser(h.db, { entityId: o.org.id, permissions: [7] });
    const empty = await call(
      await bearer(h.db, suppressedOnly.id),
      'POST',
      '/api/results/certificate/download-multiple',
      { result_ids: [o.cert.id] },
    );
    expect(empty.statusCode).toBe(204);

    const other = await buildUser(h.db);
    const theirs = await result(other.id, other.primary_entity_id, o.fire.id, new Date(NOW.getTime() - DAY));
    expect(
      (
        await call(o.headers, 'POST', '/api/results/certificate/download-multiple', {
          result_ids: [theirs.id],
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await call(o.headers, 'POST', '/api/results/certificate/download-multiple', { result_ids: [] }))
        .statusCode,
    ).toBe(422);
  });
});

describe('drill-downs', () => {
  it('are remembered until a state-changing request (of any process: the cache bus) drops them', async () => {
    const o = await smallOrg();
    clearDrillDownCache();
    const url = `/api/reports/drill-down/entities?entity=${o.org.id}&compliance_type=all`;
    const names = async () =>
      ((await call(o.headers, 'GET', url)).json().data as { name: string }[]).map((e) => e.name);
    expect(await names()).toHaveLength(3);
    // A home added behind the cache's back (no request): the remembered answer stands.
    await buildEntity(h.db, { level: 'B', parentId: o.org.id, name: 'Gamma site' });
    expect(await names()).toHaveLength(3);
    const write = await call(o.headers, 'POST', '/api/auth/permission-check', { permission_ids: [1] });
    expect(write.statusCode).toBe(200);
    expect(await names()).toContain('Gamma site');
  });

  it('answer 202 while computing, then 200 (entities → roles → users)', async () => {
    const o = await smallOrg();
    clearDrillDownCache();
    drillDownLimits.waitMs = 0;
    try {
      const url = `/api/reports/drill-down/entities?entity=${o.org.id}&compliance_type=all`;
      const first = await call(o.headers, 'GET', url);
      expect(first.statusCode).toBe(202);
      let res = first;
      for (let i = 0; i < 50 && res.statusCode === 202; i++) {
        await new Promise((r) => setTimeout(r, 50));
        res = await call(o.headers, 'GET', url);
      }
      expect(res.statusCode).toBe(200);
      expect(res.json().data.map((e: { name: string }) => e.name)).toEqual([
        o.org.name,
        'Alpha site',
        'Beta site',
      ]);
      expect(res.json().data[0]).toMatchObject({ required: 6, has_children: true });
    } finally {
      drillDownLimits.waitMs = 1500;
    }
    const roles = await call(
      o.headers,
      'GET',
      `/api/reports/drill-down/${o.siteA.id}/roles?compliance_type=all`,
    );
    expect(roles.statusCode).toBe(200);
    expect(roles.json().data.map((r: { name: string }) => r.name)).toEqual(['Carer', 'Nurse']);
    const users = await call(
      o.headers,
      'GET',
      `/api/reports/drill-down/${o.siteA.id}/${o.nurse.id}/users?compliance_type=all`,
    );
    expect(users.json().data).toEqual([
      expect.objectContaining({ name: 'Ben Alpha', required: 2, expiring: 1, expired: 1, score: 50 }),
    ]);

    const other = await buildEntity(h.db);
    const otherRole = await buildRole(h.db, other.id);
    expect((await call(o.headers, 'GET', `/api/reports/drill-down/${other.id}/roles`)).statusCode).toBe(404);
    expect(
      (await call(o.headers, 'GET', `/api/reports/drill-down/${o.siteA.id}/${otherRole.id}/users`))
        .statusCode,
    ).toBe(404);
    const clerk = await buildUser(h.db, { entityId: o.org.id, permissions: [] });
    expect(
      (await call(await bearer(h.db, clerk.id), 'GET', '/api/reports/drill-down/entities')).statusCode,
    ).toBe(403);
  });
});

describe('exempt is named in every report (issue 10 §4)', () => {
  it('counts exempt cells apart from in date, and as compliant in every score', async () => {
    const o = await smallOrg();
    // Cat Beta's food (Required at site B) was failed: missing. Exempt her: compliant, but not in date.
    await result(o.b1.id, o.siteB.id, o.food.id, new Date(NOW.getTime() - DAY), true, 'exempt');
    const report = await call(o.headers, 'POST', '/api/reports/compliance', { compliance_type: 'all' });
    expect(report.statusCode, report.body).toBe(200);
    const data = report.json().data;
    const beta = data.entities.find((e: { name: string }) => e.name === 'Beta site');
    expect(beta).toMatchObject({ required: 2, in_date: 1, exempt: 1, missing: 0, score: 100 });
    expect(data.totals).toMatchObject({ required: 6, in_date: 3, expiring: 1, exempt: 1, score: 83 });
    expect(data.courses.find((c: { id: number }) => c.id === o.food.id)).toMatchObject({ exempt: 1 });

    const roles = await call(o.headers, 'POST', '/api/reports/role', { compliance_type: 'all' });
    expect(roles.json().data[0]).toMatchObject({ name: 'Carer', in_date: 3, exempt: 1, score: 100 });

    const users = await call(
      o.headers,
      'GET',
      `/api/reports/drill-down/${o.siteB.id}/${o.carer.id}/users?compliance_type=all`,
    );
    expect(users.json().data).toEqual([
      expect.objectContaining({ name: 'Cat Beta', required: 2, in_date: 1, exempt: 1, score: 100 }),
    ]);

    // Exports: an Exempt column beside the other statuses.
    const xlsx = await call(o.headers, 'GET', '/api/reports/compliance/export/xlsx?compliance_type=all');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Organisations')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual([
      'Organisation',
      'Parent',
      'Users',
      'Required',
      'In date',
      'Expiring',
      'Expired',
      'Missing',
      'Exempt',
      'Score %',
    ]);
    const betaRow = [2, 3, 4].find((r) => sheet.getRow(r).getCell(1).value === 'Beta site') as number;
    expect(sheet.getRow(betaRow).getCell(9).value).toBe(1);
    const pdf = await call(o.headers, 'GET', '/api/reports/compliance/export/pdf?compliance_type=all');
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Exempt');
    // One definition of compliant, said the same way as the report page and the start-page widget.
    expect(text).toMatch(/Overall: 83%\.\s+5 of 6 compliant \(in date 3,\s*expiring soon 1,\s*exempt 1\)/);

    const staff = await call(o.headers, 'POST', '/api/reports/staff', { compliance_type: 'all' });
    const staffBook = new ExcelJS.Workbook();
    await staffBook.xlsx.load(staff.rawPayload as unknown as ArrayBuffer);
    const staffSheet = staffBook.getWorksheet('Staff')!;
    expect((staffSheet.getRow(1).values as unknown[]).slice(8)).toEqual([
      'Required',
      'In date',
      'Expiring',
      'Expired',
      'Missing',
      'Exempt',
      'Score %',
    ]);
    const rows: unknown[][] = [];
    staffSheet.eachRow((row, n) => n > 1 && rows.push((row.values as unknown[]).slice(1)));
    expect(rows.find((r) => r[0] === 'Cat Beta')?.slice(7)).toEqual([2, 1, 0, 0, 0, 1, 100]);

    // The monthly snapshots (written from the current figures, or back-filled from history) keep the exempt figure.
    const snapshotOf = (month: string) =>
      h.db
        .selectFrom('compliance_snapshots')
        .select(['required', 'in_date', 'missing', 'exempt'])
        .where('entity_id', '=', o.siteB.id)
        .where('type', '=', 'secondary')
        .where('month', '=', month)
        .executeTakeFirst();
    await h.db.transaction().execute((trx) => writeSnapshots(trx, [o.siteB.id], '2001-01-01', NOW));
    expect(await snapshotOf('2001-01-01')).toMatchObject({ required: 1, in_date: 0, missing: 0, exempt: 1 });
    await h.db
      .transaction()
      .execute((trx) => backfillSnapshots(trx, [o.siteB.id], '2001-02-01', new Date(NOW.getTime() + DAY)));
    expect(await snapshotOf('2001-02-01')).toMatchObject({ required: 1, in_date: 0, missing: 0, exempt: 1 });
  });
});

describe('drill-down by tags', () => {
  const LONG_AGO = new Date(NOW.getTime() - 700 * DAY).toISOString().slice(0, 10);
  /** A site with one course required of carers; a tag with one carer in date and one missing; an untagged carer. */
  async function taggedSite() {
    const org = await buildEntity(h.db, { level: 'A', settings: { expiry_warning: 30, starter_period: 20 } });
    const site = await buildEntity(h.db, { level: 'B', parentId: org.id, name: 'Tag site' });
    const carer = await buildRole(h.db, org.id, { name: 'Carer' });
    const fire = await buildCourse(h.db, org.id, { title: 'Fire safety' });
    await rule(org.id, carer.id, fire.id, 'primary', 12);
    const inDate = await buildUser(h.db, {
      entityId: site.id,
      roleId: carer.id,
      name: 'Ida In-date',
      startDate: LONG_AGO,
    });
    const missing = await buildUser(h.db, {
      entityId: site.id,
      roleId: carer.id,
      name: 'Max Missing',
      startDate: LONG_AGO,
    });
    const untagged = await buildUser(h.db, {
      entityId: site.id,
      roleId: carer.id,
      name: 'Uma Untagged',
      startDate: LONG_AGO,
    });
    await result(inDate.id, site.id, fire.id, new Date(NOW.getTime() - 100 * DAY));
    await result(untagged.id, site.id, fire.id, new Date(NOW.getTime() - 400 * DAY)); // expired, not tagged
    const tag = await h.db
      .insertInto('tags')
      .values({ entity_id: site.id, name: 'Night shift' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('tag_users')
      .values([inDate, missing].map((u) => ({ tag_id: tag.id, user_id: u.id })))
      .execute();
    await h.db.insertInto('tags').values({ entity_id: org.id, name: 'Empty group tag' }).execute();
    const manager = await buildUser(h.db, { entityId: org.id, permissions: [13, 97] });
    return { org, site, tag, inDate, missing, headers: await bearer(h.db, manager.id) };
  }

  it("answers 202 while computing, then each tag's figures summed over its users in the subtree", async () => {
    const o = await taggedSite();
    clearDrillDownCache();
    drillDownLimits.waitMs = 0;
    let res: Awaited<ReturnType<typeof call>>;
    try {
      const url = `/api/reports/drill-down/tags?entity=${o.org.id}`;
      res = await call(o.headers, 'GET', url);
      expect(res.statusCode).toBe(202);
      expect(res.json().message).toBe('The report is being prepared. Please try again in a few seconds.');
      for (let i = 0; i < 50 && res.statusCode === 202; i++) {
        await new Promise((r) => setTimeout(r, 50));
        res = await call(o.headers, 'GET', url);
      }
    } finally {
      drillDownLimits.waitMs = 1500;
    }
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      {
        id: expect.any(Number),
        name: 'Empty group tag',
        entity: { id: o.org.id, name: o.org.name },
        users_count: 0,
        users: 0,
        required: 0,
        in_date: 0,
        expiring: 0,
        expired: 0,
        missing: 0,
        exempt: 0,
        score: 100,
      },
      {
        id: o.tag.id,
        name: 'Night shift',
        entity: { id: o.site.id, name: 'Tag site' },
        users_count: 2,
        users: 2,
        required: 2,
        in_date: 1,
        expiring: 0,
        expired: 0,
        missing: 1,
        exempt: 0,
        score: 50,
      },
    ]);

    const users = await call(
      o.headers,
      'GET',
      `/api/reports/drill-down/tags/${o.tag.id}/users?entity=${o.org.id}`,
    );
    expect(users.statusCode).toBe(200);
    expect(users.json().data).toEqual([
      expect.objectContaining({ id: o.inDate.id, name: 'Ida In-date', required: 1, in_date: 1, score: 100 }),
      expect.objectContaining({ id: o.missing.id, name: 'Max Missing', required: 1, missing: 1, score: 0 }),
    ]);
    expect(users.json().data[0]).toMatchObject({
      entity: { id: o.site.id, name: 'Tag site' },
      new_starter: false,
    });
  });

  it('follows the entity and new-starter filters', async () => {
    const o = await taggedSite();
    const sibling = await buildEntity(h.db, { level: 'B', parentId: o.org.id });
    const atSibling = await call(o.headers, 'GET', `/api/reports/drill-down/tags?entity=${sibling.id}`);
    expect(atSibling.json().data).toEqual([]);
    // The group tag is the org's own: drilled at the site, only the site's tags show.
    const atSite = await call(o.headers, 'GET', `/api/reports/drill-down/tags?entity=${o.site.id}`);
    expect(atSite.json().data.map((t: { name: string }) => t.name)).toEqual(['Night shift']);
    await h.db
      .updateTable('users')
      .set({ start_date: new Date(NOW.getTime() - 2 * DAY).toISOString().slice(0, 10) })
      .where('id', '=', o.missing.id)
      .execute();
    const veterans = await call(
      o.headers,
      'GET',
      `/api/reports/drill-down/tags?entity=${o.site.id}&new_starters_filter=exclude_new_starters`,
    );
    expect(veterans.json().data[0]).toMatchObject({
      users: 1,
      required: 1,
      in_date: 1,
      missing: 0,
      score: 100,
    });
  });

  it('answers 404 for another organisation (tag or entity) and 403 without 13 or without 97', async () => {
    const o = await taggedSite();
    const other = await taggedSite();
    const tagUsers = (tagId: number, entity = o.org.id) =>
      `/api/reports/drill-down/tags/${tagId}/users?entity=${entity}`;
    expect((await call(o.headers, 'GET', tagUsers(other.tag.id))).statusCode).toBe(404);
    expect((await call(o.headers, 'GET', tagUsers(o.tag.id, other.org.id))).statusCode).toBe(404);
    expect(
      (await call(o.headers, 'GET', `/api/reports/drill-down/tags?entity=${other.org.id}`)).statusCode,
    ).toBe(404);
    for (const permissions of [[13], [97], [94, 95, 96, 12]]) {
      const clerk = await buildUser(h.db, { entityId: o.org.id, permissions });
      const headers = await bearer(h.db, clerk.id);
      expect(
        (await call(headers, 'GET', '/api/reports/drill-down/tags')).statusCode,
        String(permissions),
      ).toBe(403);
      expect((await call(headers, 'GET', tagUsers(o.tag.id))).statusCode, String(permissions)).toBe(403);
    }
  });
});
