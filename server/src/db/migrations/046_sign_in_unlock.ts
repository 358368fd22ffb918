import { type Kysely, sql } from 'kysely';

/**
 * 046_sign_in_unlock (issue 29 §8): while failed sign-ins hold an account's new devices back, its owner is mailed a
 * one-time link that makes the browser it is opened in a known device of the account (auth/known-devices.ts), so the
 * next sign-in there with the right password goes through whatever an attacker elsewhere keeps trying.
 *
 * - user_tokens.purpose gains 'sign_in_unlock': that link.
 */
const statements = [
  `ALTER TABLE user_tokens DROP CONSTRAINT user_tokens_purpose_check`,
  `ALTER TABLE user_tokens ADD CONSTRAINT user_tokens_purpose_check
     CHECK (purpose IN ('password_reset','email_verify','email_change','email_change_old','sign_in_unlock'))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
