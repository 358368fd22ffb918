import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { seedDemo } from '../demo/seed';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await seedDemo(h.db);
}, 120_000);
afterAll(async () => h?.close());

describe('presets demo data', () => {
  it('gives the home manager two presets and a weekly schedule, through the API', async () => {
    const manager = await h.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'manager@demo.test')
      .executeTakeFirstOrThrow();
    const as = await clientFor(h.app, h.db, manager.id);
    const presets = (await as('GET', '/api/reports/presets')).json();
    expect(presets.data.map((p: { name: string }) => p.name)).toEqual([
      'New starter certificates',
      'Oakfield monthly matrix',
    ]);
    const schedules = (await as('GET', '/api/reports/schedules')).json();
    expect(schedules.data).toHaveLength(1);
    expect(schedules.data[0]).toMatchObject({
      frequency: 'weekly',
      weekday: 1,
      time: '07:00',
      recipients: ['manager@demo.test'],
      preset: { name: 'Oakfield monthly matrix' },
      active: true,
    });
    expect(new Date(schedules.data[0].next_run_at).getTime()).toBeGreaterThan(Date.now());
  });
});
