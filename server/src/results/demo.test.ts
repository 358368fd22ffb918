import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { seedDemo } from '../demo/seed';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await seedDemo(h.db);
}, 120_000);
afterAll(async () => h?.close());

describe('results demo data', () => {
  it('has pending historical results, an exemption and a bulk add with its results', async () => {
    const count = async (type: string, status: 'approved' | 'pending') =>
      (
        await h.db
          .selectFrom('results')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('type', '=', type as 'historical')
          .where('status', '=', status)
          .executeTakeFirstOrThrow()
      ).n;
    expect(Number(await count('historical', 'pending'))).toBeGreaterThanOrEqual(2);
    expect(Number(await count('exempt', 'approved'))).toBeGreaterThanOrEqual(1);
    const op = await h.db.selectFrom('bulk_event_operations').selectAll().executeTakeFirstOrThrow();
    const tagged = await h.db
      .selectFrom('results')
      .select('id')
      .where('bulk_operation_id', '=', op.id)
      .execute();
    expect(tagged).toHaveLength(op.user_count);
    const willow = await h.db
      .selectFrom('entities')
      .select('require_training_record_evidence')
      .where('slug', '=', 'willow-court')
      .executeTakeFirstOrThrow();
    expect(willow.require_training_record_evidence).toBe(true);
  });
});
