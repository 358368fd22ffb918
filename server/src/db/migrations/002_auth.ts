import { type Kysely, sql } from 'kysely';

/**
 * Auth flows (spec 1 §4/§7): the plan an organisation registered with (POST /register/{plan}), and the security
 * events the reset and change-password flows record beside login/logout. Statements run one by one (PGlite).
 */
const statements = [
  `ALTER TABLE entities ADD COLUMN plan text CHECK (plan IS NULL OR plan IN ('free','standard','enterprise'))`,
  `ALTER TABLE auth_events DROP CONSTRAINT IF EXISTS auth_events_event_check`,
  `ALTER TABLE auth_events ADD CONSTRAINT auth_events_event_check
    CHECK (event IN ('login','logout','failed_login','password_reset','password_changed'))`,
  // Throttle look-ups (one reset mail per account per minute) read the newest token of a user and purpose.
  `CREATE INDEX user_tokens_user_created_idx ON user_tokens(user_id, purpose, created_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
