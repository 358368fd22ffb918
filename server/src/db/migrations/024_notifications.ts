import { type Kysely, sql } from 'kysely';

/**
 * 024_notifications (issue 14 "Reminders and notifications"): the delivery ledger (ARCHITECTURE "notifications/").
 *
 * notifications: one row per notification, recipient and channel. The unique key (kind, subject_key, occasion,
 * user_id, channel) makes a reminder recorded at most once however often, or however concurrently, the reminder
 * job runs: the job inserts with ON CONFLICT DO NOTHING and only the rows it inserted are delivered.
 * - kind 'expiry_reminder': subject_key 'course:<id>@<expiry date>' (a renewed pass has a new expiry, so new
 *   reminders), occasion '90' | '60' | '30' | '7' | '0' (days before expiry; 0 = the day it expires).
 * - kind 'manager_digest': subject_key 'digest', occasion the ISO week ('2026-W48'): once per week per manager.
 * - state: in_app rows are 'sent' when made, then 'read' or 'dismissed'; email rows are 'pending' (queued),
 *   'held' (inside the organisation's quiet hours, until next_attempt_at), 'sent', or 'failed' after the last
 *   attempt (last_error says why).
 *
 * entities.quiet_hours_start / quiet_hours_end: 'HH:MM' in UK local time (Europe/London); both null = none. A
 * window may wrap midnight (22:00 to 07:00).
 */
const TIME = `'^([01][0-9]|2[0-3]):[0-5][0-9]$'`;
const statements = [
  `CREATE TABLE notifications (
    id serial PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('expiry_reminder', 'manager_digest')),
    subject_key text NOT NULL,
    occasion text NOT NULL,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    channel text NOT NULL CHECK (channel IN ('in_app', 'email')),
    state text NOT NULL CHECK (state IN ('pending', 'held', 'sent', 'failed', 'read', 'dismissed')),
    course_id integer REFERENCES courses(id) ON DELETE CASCADE,
    expires_at timestamptz,
    title text NOT NULL,
    body text NOT NULL,
    link text NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz,
    last_error text,
    mail_id integer REFERENCES mail_outbox(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    sent_at timestamptz,
    read_at timestamptz,
    UNIQUE (kind, subject_key, occasion, user_id, channel)
  )`,
  `CREATE INDEX notifications_user_idx ON notifications (user_id, channel, created_at DESC, id DESC)`,
  `ALTER TABLE entities ADD COLUMN quiet_hours_start text CHECK (quiet_hours_start ~ ${TIME})`,
  `ALTER TABLE entities ADD COLUMN quiet_hours_end text CHECK (quiet_hours_end ~ ${TIME})`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
