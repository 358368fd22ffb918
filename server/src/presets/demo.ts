import { recurrenceCron } from '@cc/contracts';
import type { Db } from '../db/connect';
import { nextRunAfter } from './schedules-service';

/**
 * Demo presets and a schedule for the home manager (manager@demo.test, Oakfield House), so the presets and
 * schedules pages show real rows. The schedule runs like any other: until a report renderer is installed its runs
 * fail with that reason on the schedules page.
 */
export async function seedPresetsDemo(trx: Db, o: { now: Date }): Promise<void> {
  const manager = await trx
    .selectFrom('users')
    .select(['id', 'primary_entity_id', 'email'])
    .where('email', '=', 'manager@demo.test')
    .executeTakeFirst();
  if (!manager) return;
  const presets = await trx
    .insertInto('report_presets')
    .values([
      {
        user_id: manager.id,
        entity_id: manager.primary_entity_id,
        name: 'Oakfield monthly matrix',
        report_type: 'matrix',
        include_status_types: JSON.stringify(['expiring', 'expired', 'missing']),
        new_starters_filter: 'exclude_new_starters',
        period: 'last_month',
      },
      {
        user_id: manager.id,
        entity_id: manager.primary_entity_id,
        name: 'New starter certificates',
        report_type: 'certificate',
        new_starters_filter: 'new_starters_only',
        care_certificate_filter: 'in_progress',
        period: 'last_week',
      },
    ])
    .returning('id')
    .execute();
  const weekly = { frequency: 'weekly' as const, time: '07:00', weekday: 1 };
  const cron = recurrenceCron(weekly);
  await trx
    .insertInto('report_schedules')
    .values({
      user_id: manager.id,
      entity_id: manager.primary_entity_id,
      preset_id: presets[0]?.id as number,
      frequency: 'weekly',
      time_of_day: weekly.time,
      weekday: weekly.weekday,
      timezone: 'Europe/London',
      cron,
      recipients: JSON.stringify([manager.email]),
      format: 'XLSX',
      next_run_at: nextRunAfter(cron, 'Europe/London', o.now),
    })
    .execute();
}
