import { type Kysely, sql } from 'kysely';

/**
 * 040_push_devices (issue 19 "push notifications ... with e-mail as the fallback in the delivery ledger").
 *
 * push_devices: a phone of the mobile shell that may receive pushes. The token is the platform's (FCM or APNs)
 * and unique: a phone signed in by someone else moves to them in one upsert, never a second row. access_token_id
 * is the device (bearer) token it was registered with, when there was one: logging that token out deletes it, and
 * the cascade removes the phone's registration with it, so a signed-out phone gets nobody's reminders.
 *
 * notifications (the delivery ledger of 024) gains:
 * - channel 'push': one row per attempt per phone (state 'sent' or 'failed', last_error the reason in plain words,
 *   device_name a copy, so a removed phone still reads in the ledger);
 * - delivery_key in the once-key: '' for in-app and e-mail rows (so they stay once per notification, as before),
 *   'device:<id>@<attempt>' for push rows, several of which belong to one notification;
 * - kind 'message': pushes of messaging (a message itself lives in the mailbox; the ledger records the push);
 * - state 'skipped': an e-mail not sent because a push reached the user;
 * - fallback on an e-mail row sent instead of a push: why ('push_not_configured', 'no_device', 'push_failed').
 */
const statements = [
  `CREATE TABLE push_devices (
    id serial PRIMARY KEY,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    token text NOT NULL UNIQUE CHECK (length(token) BETWEEN 1 AND 4096),
    platform text NOT NULL CHECK (platform IN ('android', 'ios')),
    device_name text NOT NULL,
    access_token_id integer REFERENCES personal_access_tokens(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX push_devices_user_idx ON push_devices (user_id, id)`,
  `CREATE INDEX push_devices_access_token_idx ON push_devices (access_token_id)`,
  `ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check`,
  `ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
     CHECK (kind IN ('expiry_reminder', 'manager_digest', 'booking', 'care_certificate', 'message'))`,
  `ALTER TABLE notifications DROP CONSTRAINT notifications_channel_check`,
  `ALTER TABLE notifications ADD CONSTRAINT notifications_channel_check CHECK (channel IN ('in_app', 'email', 'push'))`,
  `ALTER TABLE notifications DROP CONSTRAINT notifications_state_check`,
  `ALTER TABLE notifications ADD CONSTRAINT notifications_state_check
     CHECK (state IN ('pending', 'held', 'sent', 'failed', 'read', 'dismissed', 'skipped'))`,
  `ALTER TABLE notifications ADD COLUMN delivery_key text NOT NULL DEFAULT ''`,
  `ALTER TABLE notifications ADD COLUMN push_device_id integer REFERENCES push_devices(id) ON DELETE SET NULL`,
  `ALTER TABLE notifications ADD COLUMN device_name text`,
  `ALTER TABLE notifications ADD COLUMN fallback text
     CHECK (fallback IN ('push_not_configured', 'no_device', 'push_failed'))`,
  `ALTER TABLE notifications DROP CONSTRAINT notifications_kind_subject_key_occasion_user_id_channel_key`,
  `ALTER TABLE notifications ADD CONSTRAINT notifications_once
     UNIQUE (kind, subject_key, occasion, user_id, channel, delivery_key)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
