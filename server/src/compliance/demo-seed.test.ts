import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { seedDemo } from '../demo/seed';
import { currentCounts } from './queries';
import { computeScore } from './scores';

/** The demo care group has compliance rows and a realistic mix of results, consistent with the engine. */
describe('demo compliance', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
    await seedDemo(h.db);
  }, 120_000);
  afterAll(() => h.close());

  it('every home shows in date, expiring, expired and missing cells, and a score in a band', async () => {
    const homes = await h.db.selectFrom('entities').select(['id', 'slug']).where('level', '=', 'B').execute();
    const counts = await currentCounts(
      h.db,
      homes.map((e) => e.id),
      new Date(),
    );
    for (const home of homes) {
      const primary = counts.find((c) => c.entity_id === home.id && c.type === 'primary');
      expect(primary, home.slug).toBeDefined();
      expect(primary?.in_date).toBeGreaterThan(primary?.expired ?? 0);
      expect(primary?.expired).toBeGreaterThan(0);
      expect(primary?.missing).toBeGreaterThan(0);
    }
    const all = counts.reduce((n, c) => n + c.expiring, 0);
    expect(all).toBeGreaterThan(0);
    const group = await h.db
      .selectFrom('entities')
      .select('id')
      .where('slug', '=', 'meadowbrook')
      .executeTakeFirstOrThrow();
    const score = await computeScore({ db: h.db, now: new Date() }, group.id, 'primary', true, 'include');
    expect(score.users).toBeGreaterThan(150);
    expect(score.score).toBeGreaterThan(50);
    expect(score.score).toBeLessThan(100);
  });

  it('expiry dates follow the rules (latest_results agrees with results)', async () => {
    const { rows } = await h.db
      .selectFrom('latest_results as lr')
      .innerJoin('results as r', 'r.id', 'lr.result_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) =>
        eb.or([
          eb('r.expires_at', '<>', eb.ref('lr.expires_at')),
          eb.and([eb('r.expires_at', 'is', null), eb('lr.expires_at', 'is not', null)]),
        ]),
      )
      .execute()
      .then((r) => ({ rows: r }));
    expect(Number(rows[0]?.n)).toBe(0);
    const willowOverride = await h.db
      .selectFrom('compliance_rules as cr')
      .innerJoin('entities as e', 'e.id', 'cr.entity_id')
      .select('cr.validity_months')
      .where('e.slug', '=', 'willow-court')
      .execute();
    expect(willowOverride.map((r) => r.validity_months)).toEqual([6]);
  });
});
