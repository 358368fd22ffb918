import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCourse } from '../../test/content-factories';
import { buildEntity, buildRole, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { expiresAtFor, recordResult } from '../results/service';
import { cellStatusSql, countResultsUnderRule, currentCounts, redateResultsUnderRule } from './queries';
import { type CellStatus, cellStatus, expiryOf, isNewStarter, scoreBand, scoreOf } from './rules';

const NOW = new Date('2026-06-15T12:00:00Z');
const day = (n: number) => new Date(NOW.getTime() + n * 86_400_000);

/** One table of cases for the cell rules; the pure function and the SQL must both give `expect`. */
const CELLS: Array<{
  name: string;
  latest: {
    passed: boolean;
    type: string;
    expiresAt: Date | null;
    afterEnd?: { passed: boolean; type: string; expiresAt: Date | null };
  } | null;
  expect: CellStatus;
}> = [
  { name: 'no result: missing', latest: null, expect: 'missing' },
  {
    name: 'failed only: missing',
    latest: { passed: false, type: 'elearning', expiresAt: null },
    expect: 'missing',
  },
  {
    name: 'pass that never expires: in date',
    latest: { passed: true, type: 'elearning', expiresAt: null },
    expect: 'in_date',
  },
  {
    name: 'pass expiring in 200 days: in date',
    latest: { passed: true, type: 'elearning', expiresAt: day(200) },
    expect: 'in_date',
  },
  {
    name: 'pass expiring in 31 days (warning 30): in date',
    latest: { passed: true, type: 'scorm', expiresAt: day(31) },
    expect: 'in_date',
  },
  {
    name: 'pass expiring in 30 days (warning 30): expiring',
    latest: { passed: true, type: 'historical', expiresAt: day(30) },
    expect: 'expiring',
  },
  {
    name: 'pass expiring tomorrow: expiring',
    latest: { passed: true, type: 'face2face', expiresAt: day(1) },
    expect: 'expiring',
  },
  {
    name: 'pass expiring right now: expired',
    latest: { passed: true, type: 'elearning', expiresAt: NOW },
    expect: 'expired',
  },
  {
    name: 'pass expired last year: expired',
    latest: { passed: true, type: 'elearning', expiresAt: day(-365) },
    expect: 'expired',
  },
  {
    name: 'exemption without an end: exempt (its own status, not in date)',
    latest: { passed: true, type: 'exempt', expiresAt: null },
    expect: 'exempt',
  },
  {
    name: 'exemption ending in 200 days: exempt',
    latest: { passed: true, type: 'exempt', expiresAt: day(200) },
    expect: 'exempt',
  },
  {
    name: 'exemption ending in 10 days (warning 30): still exempt, not expiring',
    latest: { passed: true, type: 'exempt', expiresAt: day(10) },
    expect: 'exempt',
  },
  // Issue 28 §6: an exemption whose end has come counts for nothing; the status is what the person's other results
  // give (afterEnd: latest_results then_*), missing without any.
  {
    name: 'exemption ending right now, nothing else: missing',
    latest: { passed: true, type: 'exempt', expiresAt: NOW },
    expect: 'missing',
  },
  {
    name: 'exemption that ended 5 days ago, nothing else: missing',
    latest: { passed: true, type: 'exempt', expiresAt: day(-5) },
    expect: 'missing',
  },
  {
    name: 'exemption ended, an older pass in date: in date',
    latest: {
      passed: true,
      type: 'exempt',
      expiresAt: day(-5),
      afterEnd: { passed: true, type: 'historical', expiresAt: day(200) },
    },
    expect: 'in_date',
  },
  {
    name: 'exemption ended, an older pass expiring: expiring',
    latest: {
      passed: true,
      type: 'exempt',
      expiresAt: day(-5),
      afterEnd: { passed: true, type: 'historical', expiresAt: day(10) },
    },
    expect: 'expiring',
  },
  {
    name: 'exemption ended, an older pass expired: expired',
    latest: {
      passed: true,
      type: 'exempt',
      expiresAt: day(-5),
      afterEnd: { passed: true, type: 'historical', expiresAt: day(-50) },
    },
    expect: 'expired',
  },
  {
    name: 'exemption ended, an older fail: missing',
    latest: {
      passed: true,
      type: 'exempt',
      expiresAt: day(-5),
      afterEnd: { passed: false, type: 'elearning', expiresAt: null },
    },
    expect: 'missing',
  },
  {
    name: 'exemption ended, an exemption for good under it: exempt',
    latest: {
      passed: true,
      type: 'exempt',
      expiresAt: day(-5),
      afterEnd: { passed: true, type: 'exempt', expiresAt: null },
    },
    expect: 'exempt',
  },
];

describe('cell status (table)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it.each(CELLS)('$name (rules.ts)', ({ latest, expect: want }) => {
    expect(cellStatus(latest, NOW, 30)).toBe(want);
  });

  it.each(CELLS)('$name (SQL)', async ({ latest, expect: want }) => {
    const row = await sql<{ status: string }>`
      SELECT ${cellStatusSql(NOW)} AS status
        FROM (SELECT 30 AS expiry_warning) e
        LEFT JOIN (SELECT ${latest?.passed ?? null}::boolean AS passed, ${latest?.type ?? null}::text AS type,
                          ${latest?.expiresAt ?? null}::timestamptz AS expires_at,
                          ${latest?.afterEnd?.passed ?? null}::boolean AS then_passed,
                          ${latest?.afterEnd?.expiresAt ?? null}::timestamptz AS then_expires_at,
                          ${latest?.afterEnd?.type === 'exempt'}::boolean AS then_exempt) lr ON ${latest !== null}`.execute(
      h.db,
    );
    expect(row.rows[0]?.status).toBe(want);
  });
});

describe('expiry, new starters and scores (table)', () => {
  it.each([
    ['2026-01-31T09:00:00Z', 1, '2026-02-28T09:00:00.000Z'],
    ['2024-01-31T09:00:00Z', 1, '2024-02-29T09:00:00.000Z'],
    ['2026-03-15T00:00:00Z', 12, '2027-03-15T00:00:00.000Z'],
    ['2026-03-15T23:30:00Z', 36, '2029-03-15T23:30:00.000Z'],
  ])('a pass on %s valid %i months expires %s', (completed, months, expires) => {
    expect(expiryOf(new Date(completed), months)?.toISOString()).toBe(expires);
  });
  it('no validity: never expires', () => expect(expiryOf(NOW, null)).toBeNull());

  it.each([
    [day(-10), 90, true],
    [day(-89), 90, true],
    [day(-90), 90, false],
    [day(-400), 90, false],
    [day(-1), 0, false],
  ])('started %s with a %i-day starter period: new starter %s', (started, period, want) => {
    expect(isNewStarter(started, NOW, period)).toBe(want);
  });

  it.each([
    [0, 0, 100, 'green'],
    [17, 20, 85, 'green'],
    [84, 100, 84, 'amber'],
    [65, 100, 65, 'amber'],
    [64, 100, 64, 'red'],
    [0, 5, 0, 'red'],
  ])('%i of %i in date: score %i, band %s', (inDate, required, score, band) => {
    expect(scoreOf(inDate, required)).toBe(score);
    expect(scoreBand(score)).toBe(band);
  });
  it('white-label margins move the bands', () => {
    expect(scoreBand(80, { green: 80, amber: 50 })).toBe('green');
    expect(scoreBand(49, { green: 80, amber: 50 })).toBe('red');
  });
});

describe('rules in the database: inheritance, validity, new starters', () => {
  let h: Harness;
  let group: { id: number };
  let site: { id: number };
  let overridingSite: { id: number };
  let carer: { id: number };
  let fire: { id: number };
  let moving: { id: number };
  let groupRuleId: number;

  beforeAll(async () => {
    h = await createHarness();
    group = await buildEntity(h.db, { level: 'A' });
    site = await buildEntity(h.db, {
      parentId: group.id,
      settings: { expiry_warning: 30, starter_period: 90 },
    });
    overridingSite = await buildEntity(h.db, { parentId: group.id });
    carer = await buildRole(h.db, group.id, { name: 'Carer' });
    fire = await buildCourse(h.db, group.id, { title: 'Fire safety' });
    moving = await buildCourse(h.db, group.id, { title: 'Moving and handling' });
    const rule = await h.db
      .insertInto('compliance_rules')
      .values([
        { entity_id: group.id, role_id: carer.id, course_id: fire.id, type: 'primary', validity_months: 12 },
        {
          entity_id: group.id,
          role_id: carer.id,
          course_id: moving.id,
          type: 'secondary',
          validity_months: null,
        },
        // The overriding site makes fire safety valid for 24 months for its carers.
        {
          entity_id: overridingSite.id,
          role_id: carer.id,
          course_id: fire.id,
          type: 'primary',
          validity_months: 24,
        },
      ])
      .returning('id')
      .execute();
    groupRuleId = rule[0]?.id ?? 0;
  });
  afterAll(() => h.close());

  const pass = (
    userId: number,
    entityId: number,
    courseId: number,
    completedAt: Date,
    type: 'elearning' | 'exempt' = 'elearning',
  ) =>
    h.db.transaction().execute((trx) =>
      recordResult(trx, {
        userId,
        entityId,
        courseId,
        contentId: null,
        type,
        passed: true,
        score: null,
        completedAt,
        attemptId: null,
        createdBy: null,
      }),
    );

  it('a level B site inherits the level A rows: a pass is dated by the group validity', async () => {
    const u = await buildUser(h.db, { entityId: site.id, roleId: carer.id, startDate: '2020-01-01' });
    const r = await pass(u.id, site.id, fire.id, new Date('2026-01-10T10:00:00Z'));
    expect(r.expires_at?.toISOString()).toBe('2027-01-10T10:00:00.000Z');
    const never = await pass(u.id, site.id, moving.id, new Date('2026-01-10T10:00:00Z'));
    expect(never.expires_at).toBeNull();
  });

  it("a site's own row overrides the inherited one", async () => {
    const u = await buildUser(h.db, { entityId: overridingSite.id, roleId: carer.id });
    const r = await pass(u.id, overridingSite.id, fire.id, new Date('2026-01-10T10:00:00Z'));
    expect(r.expires_at?.toISOString()).toBe('2028-01-10T10:00:00.000Z');
  });

  it('no rule for the role: no expiry; an exemption never expires', async () => {
    const other = await buildRole(h.db, group.id);
    const u = await buildUser(h.db, { entityId: site.id, roleId: other.id });
    expect(
      await h.db
        .transaction()
        .execute((trx) =>
          expiresAtFor(trx, { userId: u.id, courseId: fire.id, completedAt: NOW, type: 'elearning' }),
        ),
    ).toBeNull();
    const carerUser = await buildUser(h.db, { entityId: site.id, roleId: carer.id });
    const exempt = await pass(carerUser.id, site.id, fire.id, NOW, 'exempt');
    expect(exempt.expires_at).toBeNull();
  });

  it('counts a site: required cells by type, statuses, new starters included or excluded', async () => {
    const fresh = await buildEntity(h.db, {
      parentId: group.id,
      settings: { expiry_warning: 30, starter_period: 90 },
    });
    const inDate = await buildUser(h.db, { entityId: fresh.id, roleId: carer.id, startDate: '2020-01-01' });
    const expiring = await buildUser(h.db, { entityId: fresh.id, roleId: carer.id, startDate: '2020-01-01' });
    const expired = await buildUser(h.db, { entityId: fresh.id, roleId: carer.id, startDate: '2020-01-01' });
    const starter = await buildUser(h.db, { entityId: fresh.id, roleId: carer.id, startDate: '2026-06-01' });
    await pass(inDate.id, fresh.id, fire.id, new Date('2026-03-01T00:00:00Z'));
    await pass(expiring.id, fresh.id, fire.id, new Date('2025-07-01T00:00:00Z'));
    await pass(expired.id, fresh.id, fire.id, new Date('2025-01-01T00:00:00Z'));
    await pass(inDate.id, fresh.id, moving.id, new Date('2019-01-01T00:00:00Z'));

    const all = await currentCounts(h.db, [fresh.id], NOW);
    const primary = all.find((c) => c.type === 'primary');
    const secondary = all.find((c) => c.type === 'secondary');
    expect(primary).toMatchObject({ users: 4, required: 4, in_date: 1, expiring: 1, expired: 1, missing: 1 });
    expect(secondary).toMatchObject({
      users: 4,
      required: 4,
      in_date: 1,
      expiring: 0,
      expired: 0,
      missing: 3,
    });

    const excluded = await currentCounts(h.db, [fresh.id], NOW, { newStarters: 'exclude_new_starters' });
    expect(excluded.find((c) => c.type === 'primary')).toMatchObject({ users: 3, missing: 0 });
    const only = await currentCounts(h.db, [fresh.id], NOW, { newStarters: 'new_starters_only' });
    expect(only.find((c) => c.type === 'primary')).toMatchObject({ users: 1, required: 1, missing: 1 });
    void starter;
  });

  it('a validity change re-dates previous results only when asked (update_previous_results)', async () => {
    const u = await buildUser(h.db, { entityId: site.id, roleId: carer.id });
    const r = await pass(u.id, site.id, fire.id, new Date('2026-02-01T08:00:00Z'));
    expect(r.expires_at?.toISOString()).toBe('2027-02-01T08:00:00.000Z');
    const rule = { id: groupRuleId, course_id: fire.id };
    expect(await countResultsUnderRule(h.db, rule)).toBeGreaterThanOrEqual(1);

    // Without update_previous_results only the rule changes: the old result keeps its date, a new one gets 6 months.
    await h.db
      .updateTable('compliance_rules')
      .set({ validity_months: 6 })
      .where('id', '=', groupRuleId)
      .execute();
    const kept = await h.db
      .selectFrom('results')
      .select('expires_at')
      .where('id', '=', r.id)
      .executeTakeFirstOrThrow();
    expect(kept.expires_at?.toISOString()).toBe('2027-02-01T08:00:00.000Z');

    // With it, every result under the rule (and its latest_results row) is re-dated with the new validity.
    await h.db
      .transaction()
      .execute((trx) =>
        redateResultsUnderRule(trx, { id: groupRuleId, course_id: fire.id, validity_months: 6 }, NOW),
      );
    const redated = await h.db
      .selectFrom('results')
      .select('expires_at')
      .where('id', '=', r.id)
      .executeTakeFirstOrThrow();
    expect(redated.expires_at?.toISOString()).toBe('2026-08-01T08:00:00.000Z');
    const latest = await h.db
      .selectFrom('latest_results')
      .select(['expires_at', 'result_count'])
      .where('user_id', '=', u.id)
      .where('course_id', '=', fire.id)
      .executeTakeFirstOrThrow();
    expect(latest.expires_at?.toISOString()).toBe('2026-08-01T08:00:00.000Z');
    expect(latest.result_count).toBe(1);
    // The overriding site's carers are not under the group rule.
    const overriding = await buildUser(h.db, { entityId: overridingSite.id, roleId: carer.id });
    const theirs = await pass(overriding.id, overridingSite.id, fire.id, new Date('2026-02-01T08:00:00Z'));
    await h.db
      .transaction()
      .execute((trx) =>
        redateResultsUnderRule(trx, { id: groupRuleId, course_id: fire.id, validity_months: 1 }, NOW),
      );
    const untouched = await h.db
      .selectFrom('results')
      .select('expires_at')
      .where('id', '=', theirs.id)
      .executeTakeFirstOrThrow();
    expect(untouched.expires_at?.toISOString()).toBe('2028-02-01T08:00:00.000Z');
  });
});
