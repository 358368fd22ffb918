import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';

/**
 * Concurrent edits of report presets and schedules (issue 10 §3) on PostgreSQL: an edit merges what it is sent with
 * the row as locked in its transaction, so two edits of different fields both stay.
 */
let h: Harness;
let as: Awaited<ReturnType<typeof clientFor>>;
let presetId: number;
beforeAll(async () => {
  h = await createHarness();
  const org = await buildEntity(h.db, { level: 'A' });
  const manager = await buildUser(h.db, { entityId: org.id, permissions: [12, 14, 15, 19, 117] });
  as = await clientFor(h.app, h.db, manager.id);
  presetId = (await as('POST', '/api/reports/presets', { name: 'Matrix', report_type: 'matrix' })).json().data
    .id;
});
afterAll(async () => h?.close());

describeRaces('presets and schedules edited in parallel', () => {
  it('parallel PATCHes of a schedule’s time and of its format keep both changes', async () => {
    const s = (
      await as('POST', '/api/reports/schedules', {
        preset_id: presetId,
        frequency: 'weekly',
        weekday: 1,
        time: '07:30',
        recipients: ['owner@example.test'],
        format: 'XLSX',
      })
    ).json().data;
    // Which request commits last varies from run to run: several rounds, each from 07:30 / XLSX.
    for (let round = 0; round < 4; round++) {
      await as('PATCH', `/api/reports/schedules/${s.id}`, { time: '07:30', format: 'XLSX' });
      const responses = await parallel(12, (i) =>
        as('PATCH', `/api/reports/schedules/${s.id}`, i % 3 === 0 ? { time: '18:45' } : { format: 'PDF' }),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
      const row = await h.db
        .selectFrom('report_schedules')
        .select(['time_of_day', 'cron', 'format'])
        .where('id', '=', s.id)
        .executeTakeFirstOrThrow();
      expect({ round, ...row }).toEqual({ round, time_of_day: '18:45', cron: '45 18 * * 1', format: 'PDF' });
    }
  });

  it('parallel PATCHes of a preset’s from and to dates never store a period that ends before it starts', async () => {
    const preset = (
      await as('POST', '/api/reports/presets', {
        name: 'Dated',
        report_type: 'certificate',
        from_date: '2024-01-01',
        to_date: '2024-12-31',
      })
    ).json().data;
    for (let round = 0; round < 4; round++) {
      await as('PATCH', `/api/reports/presets/${preset.id}`, {
        from_date: '2024-01-01',
        to_date: '2024-12-31',
      });
      // Each request is valid against the stored period alone; together they would invert it.
      const responses = await parallel(10, (i) =>
        as(
          'PATCH',
          `/api/reports/presets/${preset.id}`,
          i % 2 ? { from_date: '2024-10-01' } : { to_date: '2024-03-01' },
        ),
      );
      expect(responses.every((r) => r.statusCode === 200 || r.statusCode === 422)).toBe(true);
      const row = await h.db
        .selectFrom('report_presets')
        .select(['from_date', 'to_date'])
        .where('id', '=', preset.id)
        .executeTakeFirstOrThrow();
      expect({ round, inverted: String(row.from_date) > String(row.to_date) }).toEqual({
        round,
        inverted: false,
      });
    }
  });
});
