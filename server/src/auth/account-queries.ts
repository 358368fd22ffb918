import { sql } from 'kysely';
import type { Db } from '../db/connect';
import { hashToken } from '../http/tokens';
import type { UserTokenPurpose } from './user-tokens';

/** SQL of the account flows (register, reset, verify, change e-mail or password). Services never build SQL. */

export interface AccountRow {
  id: number;
  uuid: string;
  name: string;
  email: string;
  password_hash: string | null;
  email_verified_at: Date | null;
  primary_entity_id: number;
  type_id: number | null;
  super_admin: boolean;
  password_change_required: boolean;
  password_changed_at: Date | null;
  created_at: Date;
}

const accountColumns = [
  'id',
  'uuid',
  'name',
  'email',
  'password_hash',
  'email_verified_at',
  'primary_entity_id',
  'type_id',
  'super_admin',
  'password_change_required',
  'password_changed_at',
  'created_at',
] as const;

export function findAccountByEmail(db: Db, email: string): Promise<AccountRow | undefined> {
  return db
    .selectFrom('users')
    .select(accountColumns)
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

/**
 * A new starter's account that a manager rejected but kept for its training records (signup-links/service.ts
 * rejectSignup): it stays shut, so "forgot password" must not open it again.
 */
export async function isDeactivatedAccount(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('signup_link_signups')
    .select('id')
    .where('user_id', '=', userId)
    .where('account', '=', 'deactivated')
    .executeTakeFirst();
  return !!row;
}

export function findAccountById(db: Db, id: number): Promise<AccountRow | undefined> {
  return db.selectFrom('users').select(accountColumns).where('id', '=', id).executeTakeFirst();
}

export function findAccountByUuid(db: Db, uuid: string): Promise<AccountRow | undefined> {
  return db.selectFrom('users').select(accountColumns).where('uuid', '=', uuid).executeTakeFirst();
}

/** A live (unused, unexpired) token without consuming it: reset checks the new password before it spends the link. */
export function peekUserToken(db: Db, token: string, purpose: UserTokenPurpose, now: Date) {
  return db
    .selectFrom('user_tokens')
    .select(['id', 'user_id', 'email'])
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** The two links of an e-mail change (issue 29 §4): to the new address, and to the old one when someone else asked. */
export type EmailChangePurpose = 'email_change' | 'email_change_old';

/** A live link of an e-mail change, either side, without spending it: which side it is, its user and new address. */
export function peekEmailChangeLink(db: Db, token: string, now: Date) {
  return db
    .selectFrom('user_tokens')
    .select(['user_id', 'email', 'purpose'])
    .where('token_hash', '=', hashToken(token))
    .where('purpose', 'in', ['email_change', 'email_change_old'])
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst() as Promise<
    { user_id: number; email: string; purpose: EmailChangePurpose } | undefined
  >;
}

/**
 * Locks the account's row for the rest of the transaction and returns its pending address (null: none; undefined:
 * no such account). The two links of a change are followed under this lock one at a time, so two followed at once
 * cannot each see the other as not yet followed.
 */
export async function lockPendingEmail(db: Db, userId: number): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('users')
    .select('pending_email')
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  return row ? row.pending_email : undefined;
}

/** Whether the change to `email` has a link of this side not yet followed (expired or not). */
export async function emailChangeLinkOutstanding(
  db: Db,
  userId: number,
  purpose: EmailChangePurpose,
  email: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('user_tokens')
    .select('id')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('email', '=', email.toLowerCase())
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Boolean(row);
}

/** Seconds since the newest token of this purpose was issued to the user (database clock), or null when none. */
export async function secondsSinceLastToken(
  db: Db,
  userId: number,
  purpose: UserTokenPurpose,
): Promise<number | null> {
  const { rows } = await sql<{ seconds: number | null }>`
    SELECT extract(epoch FROM now() - max(created_at))::float8 AS seconds
    FROM user_tokens WHERE user_id = ${userId} AND purpose = ${purpose}`.execute(db);
  const seconds = rows[0]?.seconds;
  return seconds === null || seconds === undefined ? null : Number(seconds);
}

/** Sets a new password hash: the expiry clock restarts and any forced change is satisfied (spec 2 §3). */
export async function setPassword(
  db: Db,
  userId: number,
  input: { hash: string; now: Date; verifyEmail?: boolean },
): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({
      password_hash: input.hash,
      password_changed_at: input.now,
      password_change_required: false,
      updated_at: input.now,
      ...(input.verifyEmail
        ? { email_verified_at: eb.fn.coalesce('email_verified_at', eb.val(input.now)) }
        : {}),
    }))
    .where('id', '=', userId)
    .execute();
}

export async function flagPasswordChangeRequired(db: Db, userId: number): Promise<void> {
  await db.updateTable('users').set({ password_change_required: true }).where('id', '=', userId).execute();
}

export async function markEmailVerified(db: Db, userId: number, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ email_verified_at: now, updated_at: now })
    .where('id', '=', userId)
    .where('email_verified_at', 'is', null)
    .execute();
}

/** Records the address asked for; the account keeps its current one until the link sent there is followed. */
export async function setPendingEmail(db: Db, userId: number, email: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ pending_email: email, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/**
 * Makes the pending address the account's (proven by its link, so verified), when it is still the one pending.
 * Links sent to the old address (reset, verify) stop working. Returns the old address, or null when nothing was
 * pending for that address (a later request replaced it). A taken address raises the unique violation (23505).
 */
export async function applyPendingEmail(
  db: Db,
  userId: number,
  email: string,
  now: Date,
): Promise<{ oldEmail: string; name: string } | null> {
  const { rows } = await sql<{ old_email: string; name: string }>`
    UPDATE users u SET email = u.pending_email, pending_email = NULL, email_verified_at = ${now}, updated_at = ${now}
    FROM (SELECT id, email AS old_email FROM users WHERE id = ${userId} FOR UPDATE) o
    WHERE u.id = o.id AND lower(u.pending_email) = lower(${email})
    RETURNING o.old_email, u.name`.execute(db);
  const row = rows[0];
  if (!row) return null;
  await db.deleteFrom('user_tokens').where('user_id', '=', userId).where('used_at', 'is', null).execute();
  return { oldEmail: row.old_email, name: row.name };
}

/**
 * Ends the user's sessions and device tokens (ASVS 3.3.3: a credential change ends the other sessions).
 * `keep` spares the caller's own session or token (change password); a reset keeps none.
 */
export async function endUserSessions(
  db: Db,
  userId: number,
  keep: { sessionId?: string; tokenId?: number } = {},
): Promise<void> {
  let sessions = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep.sessionId) sessions = sessions.where('id', '<>', keep.sessionId);
  await sessions.execute();
  let tokens = db.deleteFrom('personal_access_tokens').where('user_id', '=', userId);
  if (keep.tokenId) tokens = tokens.where('id', '<>', keep.tokenId);
  await tokens.execute();
}
