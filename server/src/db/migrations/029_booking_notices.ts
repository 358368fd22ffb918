import { type Kysely, sql } from 'kysely';

/**
 * 029_booking_notices (issue 15 "Calendar invites that stay right"; bookings/effects.ts).
 *
 * - notifications.kind gains 'booking': in-app notices to delegates and their managers when a booking is requested,
 *   made, waitlisted, offered, removed or its session changes. subject_key 'delegate:<id>' (or 'session:<id>'),
 *   occasion '<event>@<ISO instant>', so each change is one row per recipient.
 * - booking_invites: the last calendar invite e-mailed to each delegate (its METHOD and SEQUENCE). A CANCEL goes only
 *   to someone whose last invite was a REQUEST (a delegate never invited, or already cancelled, gets none), and a
 *   booking that is accepted after it was made pending is not invited twice. `dates` are the days that invite
 *   described ([{position, starts_at, ends_at}]): a day dropped from a session since is cancelled on its own.
 */
const statements = [
  `ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check`,
  `ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
     CHECK (kind IN ('expiry_reminder', 'manager_digest', 'booking'))`,
  `CREATE TABLE booking_invites (
    delegate_id integer PRIMARY KEY REFERENCES session_delegates(id) ON DELETE CASCADE,
    method text NOT NULL CHECK (method IN ('REQUEST', 'CANCEL')),
    sequence integer NOT NULL,
    dates jsonb NOT NULL DEFAULT '[]',
    sent_at timestamptz NOT NULL DEFAULT now()
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
