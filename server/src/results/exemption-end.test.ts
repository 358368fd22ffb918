import { PERMISSIONS } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse } from '../../test/learning-factories';
import { onPostgres } from '../../test/parallel';
import { endExemptions } from './exemption-end';

/**
 * Issue 28 §6: an exemption with an end date stops counting once the date has come: the person x course is then
 * what the person's OTHER results give (an older pass in date: in date; nothing: missing; an older pass expired:
 * expired) on every reading (the user's courses, the matrix, the compliance report), from the end itself, before the
 * exemption-end job runs; a new exemption can be recorded; the job ends each exemption once (audit entry, reminder),
 * however often and however many workers run it.
 */
const DAY_MS = 86_400_000;
const START = new Date('2026-12-01T09:30:00.000Z');
const clock = { now: new Date(START) };
const ymd = (d: Date) => d.toISOString().slice(0, 10);
const daysFrom = (d: Date, days: number) => new Date(d.getTime() + days * DAY_MS);

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ tokenLifetimeDays: 36_500 });
  (h.deps as { clock: () => Date }).clock = () => new Date(clock.now);
});
afterAll(async () => h?.close());

async function world() {
  clock.now = new Date(START);
  const org = await buildEntity(h.db, {
    level: 'A',
    settings: { expiry_warning: 30, events_reminder: true },
  });
  const role = await buildRole(h.db, org.id);
  const course = await buildCourse(h.db, org.id, { title: 'Moving and handling' });
  const boss = await buildUser(h.db, { entityId: org.id, permissions: PERMISSIONS.map((p) => p.id) });
  const manager = await clientFor(h.app, h.db, boss.id);
  const person = await buildUser(h.db, { entityId: org.id, roleId: role.id, name: 'Robin Hughes' });
  const rule = await manager('POST', '/api/compliance', {
    entity: org.slug,
    roleId: role.id,
    courseId: course.id,
    type: 'primary',
    validity: 12,
  });
  expect(rule.statusCode, rule.body).toBe(201);
  const pass = async (daysAgo: number) => {
    const res = await manager('POST', '/api/results/historical/create', {
      user_id: person.id,
      course_id: course.id,
      completed_at: ymd(daysFrom(clock.now, -daysAgo)),
      passed: true,
    });
    expect(res.statusCode, res.body).toBe(201);
  };
  const exemptFor = async (days: number) => {
    const res = await manager('POST', '/api/results/exempt', {
      user_id: person.id,
      course_id: course.id,
      end_date: ymd(daysFrom(clock.now, days)),
      notes: 'Back injury: light duties until the physio signs off',
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as number;
  };
  /** The person x course as the user page, the matrix and the compliance report tell it. */
  const statuses = async () => {
    const mine = await manager('GET', `/api/users/${person.id}/compliance-courses`);
    expect(mine.statusCode, mine.body).toBe(200);
    const row = (mine.json().data as { course: { id: number }; status: string; exempt: boolean }[]).find(
      (r) => r.course.id === course.id,
    );
    const matrix = await manager('POST', '/api/reports/matrix', {
      directFormat: 'json',
      compliance_type: 'all',
    });
    expect(matrix.statusCode, matrix.body).toBe(200);
    const cell = (matrix.json().data.cells as { user_id: number; course_id: number; status: string }[]).find(
      (c) => c.user_id === person.id && c.course_id === course.id,
    );
    const report = await manager('POST', '/api/reports/compliance', {
      compliance_type: 'all',
      previousMonths: 0,
    });
    expect(report.statusCode, report.body).toBe(200);
    const totals = report.json().data.totals as Record<string, number>;
    const reported = (['in_date', 'expiring', 'expired', 'missing', 'exempt'] as const).filter(
      (k) => (totals[k] ?? 0) > 0,
    );
    return { page: row?.status, exempt: row?.exempt, matrix: cell?.status, report: reported };
  };
  return { org, course, person, manager, pass, exemptFor, statuses };
}

const all = (status: string) => ({ page: status, matrix: status, report: [status] });

describe('an exemption with an end date', () => {
  it('without an older pass: exempt until its end, then missing (not "expired"), before any job runs', async () => {
    const w = await world();
    await w.exemptFor(10);
    expect(await w.statuses()).toMatchObject({ ...all('exempt'), exempt: true });
    clock.now = daysFrom(START, 9);
    expect(await w.statuses()).toMatchObject(all('exempt'));
    // Its end date (midnight) has come: the requirement applies again.
    clock.now = new Date(`${ymd(daysFrom(START, 10))}T00:00:00.000Z`);
    expect(await w.statuses()).toMatchObject({ ...all('missing'), exempt: false });
  });

  it('with an older pass still in date: in date once the exemption has ended', async () => {
    const w = await world();
    await w.pass(20);
    await w.exemptFor(5);
    expect(await w.statuses()).toMatchObject(all('exempt'));
    clock.now = daysFrom(START, 6);
    expect(await w.statuses()).toMatchObject(all('in_date'));
  });

  it('with an older pass expired by then: expired', async () => {
    const w = await world();
    await w.pass(364);
    await w.exemptFor(5);
    clock.now = daysFrom(START, 6);
    expect(await w.statuses()).toMatchObject(all('expired'));
  });

  it('overlapping exemptions keep the person exempt until the last one ends', async () => {
    const w = await world();
    await w.exemptFor(30);
    clock.now = daysFrom(START, 2);
    await w.exemptFor(3);
    clock.now = daysFrom(START, 10);
    expect(await w.statuses()).toMatchObject(all('exempt'));
    clock.now = daysFrom(START, 31);
    expect(await w.statuses()).toMatchObject(all('missing'));
  });

  it('exempting again after the end records a new exemption', async () => {
    const w = await world();
    const first = await w.exemptFor(5);
    clock.now = daysFrom(START, 6);
    const res = await w.manager('PATCH', `/api/users/${w.person.id}/compliance-courses/${w.course.id}`, {
      exempt: true,
      notes: 'Still on light duties',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'exempt', exempt: true });
    const exemptions = await h.db
      .selectFrom('results')
      .select(['id', 'notes'])
      .where('user_id', '=', w.person.id)
      .where('type', '=', 'exempt')
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute();
    expect(exemptions.map((e) => e.notes)).toEqual([
      'Back injury: light duties until the physio signs off',
      'Still on light duties',
    ]);
    expect(exemptions[0]?.id).toBe(first);
    expect(await w.statuses()).toMatchObject(all('exempt'));
  });
});

describe('the exemption-end job', () => {
  async function ended(w: Awaited<ReturnType<typeof world>>) {
    const latest = await h.db
      .selectFrom('latest_results as lr')
      .innerJoin('results as r', 'r.id', 'lr.result_id')
      .select(['r.type', 'lr.passed'])
      .where('lr.user_id', '=', w.person.id)
      .where('lr.course_id', '=', w.course.id)
      .executeTakeFirstOrThrow();
    const reminders = await h.db
      .selectFrom('notifications')
      .select(['channel', 'title', 'body'])
      .where('user_id', '=', w.person.id)
      .where('kind', '=', 'exemption_ended')
      .orderBy('channel')
      .execute();
    const audit = await h.db
      .selectFrom('audit_entries')
      .select(['action', 'subject_kind', 'actor_user_id', 'via'])
      .where('subject_user_id', '=', w.person.id)
      .where('via', 'is not', null)
      .execute();
    return { latest, reminders, audit };
  }

  it('ends the exemption once: the older pass is the latest result again, one audit entry, one reminder', async () => {
    // The earlier tests' exemptions ended first: the counts below are this test's.
    await endExemptions(h.deps, daysFrom(START, 400));
    const w = await world();
    await w.pass(20);
    const id = await w.exemptFor(5);
    // Before its end: nothing to do.
    expect(await endExemptions(h.deps, daysFrom(START, 4))).toBe(0);
    clock.now = daysFrom(START, 6);
    // Two workers at once, then once more: one of them ends it, the others find it ended.
    const runs = await Promise.all([endExemptions(h.deps, clock.now), endExemptions(h.deps, clock.now)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await endExemptions(h.deps, daysFrom(clock.now, 1))).toBe(0);
    const after = await ended(w);
    expect(after.latest).toEqual({ type: 'historical', passed: true });
    expect(after.reminders.map((r) => r.channel)).toEqual(['email', 'in_app']);
    expect(after.reminders[0]?.title).toBe('Your exemption from Moving and handling has ended');
    expect(after.reminders[0]?.body).toContain('your training is in date for now');
    expect(after.audit).toHaveLength(1);
    expect(after.audit[0]).toMatchObject({
      action: 'updated',
      subject_kind: 'exemption',
      actor_user_id: null,
    });
    expect(JSON.stringify(after.audit[0]?.via)).toContain('exemption_end');
    const row = await h.db
      .selectFrom('results')
      .select('exemption_ended_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.exemption_ended_at).not.toBeNull();
    // The statuses read the same before and after the job.
    expect(await w.statuses()).toMatchObject(all('in_date'));
    // The person's trail says it in words.
    const trail = await w.manager('GET', `/api/audit/users/${w.person.id}`);
    expect(trail.statusCode, trail.body).toBe(200);
    expect(trail.body).toContain('exemption');
  });

  it.runIf(onPostgres)('many exemptions ended by two workers at once: each once, set-based', async () => {
    await endExemptions(h.deps, daysFrom(START, 400));
    const w = await world();
    const people = [];
    for (let i = 0; i < 30; i++) {
      const p = await buildUser(h.db, { entityId: w.org.id, roleId: w.person.role_id as number });
      const res = await w.manager('POST', '/api/results/exempt', {
        user_id: p.id,
        course_id: w.course.id,
        end_date: ymd(daysFrom(clock.now, 2)),
        notes: 'Agency cover',
      });
      expect(res.statusCode, res.body).toBe(201);
      people.push(p.id);
    }
    clock.now = daysFrom(START, 3);
    const runs = await Promise.all([endExemptions(h.deps, clock.now), endExemptions(h.deps, clock.now)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(30);
    const reminders = await h.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', 'in', people)
      .where('kind', '=', 'exemption_ended')
      .where('channel', '=', 'in_app')
      .executeTakeFirstOrThrow();
    expect(Number(reminders.n)).toBe(30);
    const exempt = await h.db
      .selectFrom('latest_results')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', 'in', people)
      .where('type', '=', 'exempt')
      .where('then_passed', 'is not', null)
      .executeTakeFirstOrThrow();
    expect(Number(exempt.n)).toBe(0);
  });
});
