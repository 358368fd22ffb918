import { type Kysely, sql } from 'kysely';

/**
 * 045_email_change_old_address (issue 29 §4): an e-mail change made by someone else (PATCH /users/{id}) needs the
 * account's owner to agree at the old address too, not only whoever reads the new one.
 *
 * - user_tokens.purpose gains 'email_change_old': the link mailed to the current address, carrying the address it
 *   agrees to (user_tokens.email). The change applies when this link and the new address's 'email_change' link have
 *   both been followed (auth/email-flows.ts); each is kept apart by purpose, as issueUserToken revokes per purpose.
 */
const statements = [
  `ALTER TABLE user_tokens DROP CONSTRAINT user_tokens_purpose_check`,
  `ALTER TABLE user_tokens ADD CONSTRAINT user_tokens_purpose_check
     CHECK (purpose IN ('password_reset','email_verify','email_change','email_change_old'))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
