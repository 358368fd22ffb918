import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../test/harness';
import { describeRaces } from '../test/parallel';
import { firstAdminSetupLink } from './first-admin';

/** Issue 29 §2 with issue 30 §7: production servers starting together on an empty database make one first admin. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describeRaces('the first super admin', () => {
  it('three first starts at once: one account and one organisation, every start prints a link', async () => {
    const outcomes = await Promise.allSettled(
      [1, 2, 3].map(() => firstAdminSetupLink(h.db, 'https://training.example.test', new Date())),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    for (const o of outcomes) expect(o.status === 'fulfilled' ? o.value : null).toMatch(/reset-password/);
    const admins = await h.db.selectFrom('users').select('id').where('super_admin', '=', true).execute();
    expect(admins).toHaveLength(1);
  });
});
