import { type Kysely, sql } from 'kysely';

/**
 * 015_email_change: an e-mail change waits for its new address to confirm it (issue 11 §3, ASVS 2.5 / 3.7).
 *
 * - users.pending_email: the address asked for, shown on the user's record until the link sent to it is followed;
 *   the account keeps signing in and receiving mail at the old address meanwhile.
 * - user_tokens.purpose gains 'email_change': the confirmation link, kept apart from 'email_verify' so a fresh
 *   verification of the current address does not revoke a pending change (issueUserToken revokes per purpose).
 */
const statements = [
  `ALTER TABLE users ADD COLUMN pending_email text`,
  `ALTER TABLE user_tokens DROP CONSTRAINT user_tokens_purpose_check`,
  `ALTER TABLE user_tokens ADD CONSTRAINT user_tokens_purpose_check
     CHECK (purpose IN ('password_reset','email_verify','email_change'))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
