import { type Kysely, sql } from 'kysely';

/**
 * 039_offline_attempts (issue 19): offline learning.
 *
 * - offline_downloads: each copy of a content a learner took away (POST /offline/downloads). Its server time is the
 *   lower bound of every device time an attempt from that copy claims (offline/rules.ts).
 * - offline_attempts: every attempt a device sent back, exactly once per (user, client_uuid): the unique constraint
 *   is what makes a resend (or two sends racing) return the first outcome instead of a second attempt. The raw
 *   payload is kept whatever the outcome, so no learner data is ever dropped; attempt_id is the attempts row it
 *   became (finished ones), counted/rule say whether it gave the learner's result and which rule decided.
 */
const statements = [
  `CREATE TABLE offline_downloads (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    content_id integer NOT NULL REFERENCES contents(id) ON DELETE CASCADE,
    course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    downloaded_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX offline_downloads_user_idx ON offline_downloads(user_id, content_id)`,
  `CREATE TABLE offline_attempts (
    id serial PRIMARY KEY,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    client_uuid uuid NOT NULL,
    download_id uuid NOT NULL REFERENCES offline_downloads(id) ON DELETE CASCADE,
    content_id integer NOT NULL REFERENCES contents(id) ON DELETE CASCADE,
    course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    attempt_id integer REFERENCES attempts(id) ON DELETE SET NULL,
    payload jsonb NOT NULL,
    device_started_at timestamptz NOT NULL,
    device_completed_at timestamptz,
    completed_at timestamptz,
    status text NOT NULL DEFAULT 'incomplete' CHECK (status IN ('passed','failed','completed','incomplete')),
    score numeric,
    counted boolean NOT NULL DEFAULT false,
    rule text NOT NULL DEFAULT 'offline_incomplete',
    synced_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT offline_attempts_client_uq UNIQUE (user_id, client_uuid)
  )`,
  `CREATE INDEX offline_attempts_attempt_idx ON offline_attempts(attempt_id)`,
  `CREATE INDEX offline_attempts_user_course_idx ON offline_attempts(user_id, course_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
