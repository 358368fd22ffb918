import type { DbOrTrx } from '../jobs/queries';

/**
 * Demo data of the reminders (issue 14): the demo group and its homes send reminders (events_reminder), and
 * Riverside Lodge keeps night-shift quiet hours (22:00 to 07:00), so its e-mails made at night show as held. The
 * reminders themselves are made by the real job: the worker runs the reminder slot as soon as the server starts.
 */
export async function seedNotificationsDemo(trx: DbOrTrx, o: { groupId: number }): Promise<void> {
  await trx
    .updateTable('entities')
    .set({ events_reminder: true })
    .where((eb) => eb.or([eb('id', '=', o.groupId), eb('parent_id', '=', o.groupId)]))
    .execute();
  await trx
    .updateTable('entities')
    .set({ quiet_hours_start: '22:00', quiet_hours_end: '07:00' })
    .where('slug', '=', 'riverside-lodge')
    .execute();
}
