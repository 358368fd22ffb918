import { type Kysely, sql } from 'kysely';

/**
 * 044_password_confirmed (issue 29 §6): when the password was last given on a browser session or a device token (at
 * sign-in, or to POST /auth/confirm-password). Ending or listing one's sessions and devices needs it recent, so a
 * borrowed or stolen credential cannot lock its owner out. Personal access tokens never have one: no password is
 * given with them. Rows from before have none, and ask for the password on first use of the page.
 */
const statements = [
  `ALTER TABLE sessions ADD COLUMN password_confirmed_at timestamptz`,
  `ALTER TABLE personal_access_tokens ADD COLUMN password_confirmed_at timestamptz`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
