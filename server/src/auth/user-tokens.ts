import { sql } from 'kysely';
import type { Db } from '../db/connect';
import { hashToken, randomToken } from '../http/tokens';

export type UserTokenPurpose =
  | 'password_reset'
  | 'email_verify'
  | 'email_change'
  | 'email_change_old'
  | 'sign_in_unlock';

/**
 * Password-reset links last an hour; welcome (set-your-password) links a week; verify links (and both links of an
 * e-mail change) a day; a sign-in unlock link an hour.
 */
export const TOKEN_TTL_MINUTES = {
  password_reset: 60,
  welcome: 7 * 24 * 60,
  email_verify: 24 * 60,
  sign_in_unlock: 60,
} as const;

/** Removes the user's links of one purpose (a new request replaces them). */
export async function dropUserTokens(db: Db, userId: number, purpose: UserTokenPurpose): Promise<void> {
  await db.deleteFrom('user_tokens').where('user_id', '=', userId).where('purpose', '=', purpose).execute();
}

/**
 * Issues a single-use token for a user; only its hash is stored. Earlier tokens of that purpose are revoked unless
 * `keepEarlier` (sign-in unlock links: a new one mailed while the owner opens the last must not spoil it).
 */
export async function issueUserToken(
  db: Db,
  input: {
    userId: number;
    purpose: UserTokenPurpose;
    email: string;
    ttlMinutes: number;
    now: Date;
    keepEarlier?: boolean;
  },
): Promise<string> {
  const token = randomToken(32);
  if (!input.keepEarlier) await dropUserTokens(db, input.userId, input.purpose);
  await db
    .insertInto('user_tokens')
    .values({
      user_id: input.userId,
      purpose: input.purpose,
      token_hash: hashToken(token),
      email: input.email.toLowerCase(),
      expires_at: new Date(input.now.getTime() + input.ttlMinutes * 60_000),
    })
    .execute();
  return token;
}

/** Marks the token used and returns its user, or null when unknown, expired, used or for another purpose. */
export async function consumeUserToken(db: Db, token: string, purpose: UserTokenPurpose, now: Date) {
  const { rows } = await sql<{ user_id: number; email: string }>`
    UPDATE user_tokens SET used_at = ${now}
    WHERE token_hash = ${hashToken(token)} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > ${now}
    RETURNING user_id, email`.execute(db);
  return rows[0] ?? null;
}
