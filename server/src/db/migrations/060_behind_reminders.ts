import { type Kysely, sql } from 'kysely';

/**
 * 060_behind_reminders (issue 33 §7): notifications.kind gains 'behind_reminder', a manager's "Remind" on the list
 * of who is behind (a Care Certificate past its expected date, a pathway with an overdue step). subject_key names
 * the certificate or the allocation, occasion the day (Europe/London): one reminder per person, thing and day,
 * however often or however many managers press it. Documents keep their own kind ('document_reminder').
 */
const statements = [
  `ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check`,
  `ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
     CHECK (kind IN ('expiry_reminder', 'manager_digest', 'booking', 'care_certificate', 'message',
                     'document_reminder', 'due_reminder', 'behind_reminder'))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
