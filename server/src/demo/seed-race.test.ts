import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces } from '../../test/parallel';
import { seedDemoIfEmpty } from './seed';

/** Issue 30 §7: three servers starting together on an empty database seed the demo once (PostgreSQL only). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describeRaces('the demo seed', () => {
  it('three first starts at once: one seeds, the others find it seeded, none fails', async () => {
    const outcomes = await Promise.allSettled([1, 2, 3].map(() => seedDemoIfEmpty(h.db)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    const seeded = outcomes.map((o) => (o.status === 'fulfilled' ? o.value : null));
    expect(seeded.filter((s) => s === true)).toHaveLength(1);
    const groups = await h.db.selectFrom('entities').select('id').where('slug', '=', 'meadowbrook').execute();
    expect(groups).toHaveLength(1);
  }, 180_000);
});
