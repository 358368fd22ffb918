import { type SqlBool, sql } from 'kysely';
import type { Db } from '../db/connect';
import type { AuthEventsTable } from '../db/schema';
import { hashToken, randomToken } from '../http/tokens';

export interface SessionRecord {
  id: string;
  public_id: string;
  user_id: number | null;
  csrf_token: string;
  created_at: Date;
  expires_at: Date;
  last_activity_at: Date;
}

const sessionColumns = [
  'id',
  'public_id',
  'user_id',
  'csrf_token',
  'created_at',
  'expires_at',
  'last_activity_at',
] as const;

/** How long a web session lives: idle (sliding) and absolute (from sign-in), ASVS 3.3.1 and 3.3.3. */
export interface SessionLifetime {
  idleMinutes: number;
  absoluteHours: number;
}

export const sessionLifetimeOf = (config: {
  sessionLifetimeMinutes: number;
  sessionAbsoluteLifetimeHours: number;
}): SessionLifetime => ({
  idleMinutes: config.sessionLifetimeMinutes,
  absoluteHours: config.sessionAbsoluteLifetimeHours,
});

/** The session's end after activity at `now`: the idle lifetime, never past the absolute one. */
function sessionEnd(createdAt: Date, now: Date, lifetime: SessionLifetime): Date {
  const idle = now.getTime() + lifetime.idleMinutes * 60_000;
  const absolute = createdAt.getTime() + lifetime.absoluteHours * 3600_000;
  return new Date(Math.min(idle, absolute));
}

const absoluteCutoff = (now: Date, lifetime: SessionLifetime) =>
  new Date(now.getTime() - lifetime.absoluteHours * 3600_000);

/** Sessions live in the database so several processes share them; the cookie holds the secret, the row its hash. */
export async function createSession(
  db: Db,
  input: {
    userId: number;
    ip: string | null;
    userAgent: string | null;
    lifetime: SessionLifetime;
    now: Date;
    /** The password was given to open it (a sign-in), not only a link followed (issue 29 §6). */
    passwordConfirmed: boolean;
  },
): Promise<{ secret: string; csrfToken: string; record: SessionRecord }> {
  const secret = randomToken(32);
  const csrfToken = randomToken(32);
  const record = await db
    .insertInto('sessions')
    .values({
      id: hashToken(secret),
      user_id: input.userId,
      csrf_token: csrfToken,
      ip: input.ip,
      user_agent: input.userAgent?.slice(0, 500) ?? null,
      created_at: input.now,
      last_activity_at: input.now,
      expires_at: sessionEnd(input.now, input.now, input.lifetime),
      password_confirmed_at: input.passwordConfirmed ? input.now : null,
    })
    .returning(sessionColumns)
    .executeTakeFirstOrThrow();
  return { secret, csrfToken, record };
}

/** A live session: neither idle past its end nor older than the absolute lifetime (which may have been lowered). */
export function findSession(
  db: Db,
  secret: string,
  now: Date,
  lifetime: SessionLifetime,
): Promise<SessionRecord | undefined> {
  return db
    .selectFrom('sessions')
    .select(sessionColumns)
    .where('id', '=', hashToken(secret))
    .where(sessionInForce(now, lifetime))
    .executeTakeFirst();
}

/** Sliding expiry, written at most once a minute per session to keep reads cheap; capped by the absolute lifetime. */
export async function touchSession(
  db: Db,
  session: SessionRecord,
  now: Date,
  lifetime: SessionLifetime,
): Promise<void> {
  if (now.getTime() - session.last_activity_at.getTime() < 60_000) return;
  const expires = sessionEnd(session.created_at, now, lifetime);
  await db
    .updateTable('sessions')
    .set({ last_activity_at: now, expires_at: expires })
    .where('id', '=', session.id)
    .execute();
  // The record may be a remembered one (auth/actor-cache.ts): keep it as the row now is.
  session.last_activity_at = now;
  session.expires_at = expires;
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/**
 * The periodic sweep (main.ts): deletes sessions past their idle or absolute end and device tokens past their
 * expiry, and answers what it deleted so their open sockets can be closed.
 */
export async function purgeExpiredCredentials(
  db: Db,
  now: Date,
  lifetimes: { session: SessionLifetime; tokenDays: number },
): Promise<{ sessionIds: string[]; tokenIds: number[] }> {
  const sessions = await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([eb('expires_at', '<=', now), eb('created_at', '<=', absoluteCutoff(now, lifetimes.session))]),
    )
    .returning('id')
    .execute();
  const tokens = await db
    .deleteFrom('personal_access_tokens')
    .where((eb) =>
      eb.or([
        eb('expires_at', '<=', now),
        eb.and([eb('expires_at', 'is', null), eb('created_at', '<=', tokenCutoff(now, lifetimes.tokenDays))]),
      ]),
    )
    .returning('id')
    .execute();
  return { sessionIds: sessions.map((s) => s.id), tokenIds: tokens.map((t) => t.id) };
}

/** Tokens issued before expiry existed have none stored: they end TOKEN_LIFETIME_DAYS after they were issued. */
const tokenCutoff = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000);

/**
 * The one definition of "still in force" that every read of a session or device token uses (login, sockets, the
 * sessions list). The sweep (purgeExpiredCredentials) deletes the complement, spelled out there so that NULLs count.
 */
const sessionInForce = (now: Date, lifetime: SessionLifetime) =>
  sql<SqlBool>`(expires_at > ${now} AND created_at > ${absoluteCutoff(now, lifetime)})`;
const tokenInForce = (now: Date, days: number) =>
  sql<SqlBool>`(expires_at > ${now} OR (expires_at IS NULL AND created_at > ${tokenCutoff(now, days)}))`;

/** Personal access tokens, Sanctum format `<id>|<secret>`; only the secret's hash is stored. */
export async function createAccessToken(
  db: Db,
  input: {
    userId: number;
    name: string;
    abilities?: string[];
    expiresAt?: Date | null;
    /** When the password was given for it (a device sign-in), issue 29 §6. */
    passwordConfirmedAt?: Date | null;
  },
): Promise<{ id: number; plainText: string }> {
  const secret = randomToken(40);
  const row = await db
    .insertInto('personal_access_tokens')
    .values({
      user_id: input.userId,
      name: input.name.slice(0, 255),
      token_hash: hashToken(secret),
      abilities: JSON.stringify(input.abilities ?? ['*']),
      expires_at: input.expiresAt ?? null,
      password_confirmed_at: input.passwordConfirmedAt ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, plainText: `${row.id}|${secret}` };
}

/** A live device token: before its expiry (or, issued without one, within TOKEN_LIFETIME_DAYS of issue). */
export async function findAccessToken(db: Db, plainText: string, now: Date, lifetimeDays: number) {
  const secret = plainText.includes('|') ? plainText.slice(plainText.indexOf('|') + 1) : plainText;
  return db
    .selectFrom('personal_access_tokens')
    .select(['id', 'user_id', 'abilities', 'last_used_at', 'expires_at', 'created_at', 'kind'])
    .where('token_hash', '=', hashToken(secret))
    .where('revoked_at', 'is', null)
    .where(tokenInForce(now, lifetimeDays))
    .executeTakeFirst();
}

/** Records when (and from which address) a token was used: at most once a minute, so reads stay reads. */
export async function touchAccessToken(
  db: Db,
  token: { id: number; last_used_at: Date | null },
  now: Date,
  ip: string | null = null,
): Promise<void> {
  if (token.last_used_at && now.getTime() - token.last_used_at.getTime() < 60_000) return;
  await db
    .updateTable('personal_access_tokens')
    .set({ last_used_at: now, last_used_ip: ip })
    .where('id', '=', token.id)
    .execute();
  // The record may be a remembered one (auth/actor-cache.ts): keep it as the row now is.
  token.last_used_at = now;
}

export async function recordAuthEvent(
  db: Db,
  event: {
    event: AuthEventsTable['event'];
    userId?: number | null;
    entityId?: number | null;
    email?: string | null;
    ip: string | null;
    userAgent: string | null;
    via: 'web' | 'mobile';
  },
): Promise<void> {
  await db
    .insertInto('auth_events')
    .values({
      event: event.event,
      user_id: event.userId ?? null,
      entity_id: event.entityId ?? null,
      email: event.email?.toLowerCase() ?? null,
      ip: event.ip,
      user_agent: event.userAgent?.slice(0, 500) ?? null,
      via: event.via,
    })
    .execute();
}

export function findUserForLogin(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'password_hash', 'primary_entity_id'])
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

/** Whether a session still stands for this user (a socket checks again before each subscribe, issue 11 §4). */
export async function isSessionLive(
  db: Db,
  input: { sessionId: string; userId: number; now: Date; lifetime: SessionLifetime },
): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', input.sessionId)
    .where('user_id', '=', input.userId)
    .where(sessionInForce(input.now, input.lifetime))
    .executeTakeFirst();
  return !!row;
}

/** Whether a device token still stands for this user (same check as findAccessToken, by id). */
export async function isTokenLive(
  db: Db,
  input: { tokenId: number; userId: number; now: Date; lifetimeDays: number },
): Promise<boolean> {
  const row = await db
    .selectFrom('personal_access_tokens')
    .select('id')
    .where('id', '=', input.tokenId)
    .where('user_id', '=', input.userId)
    .where('revoked_at', 'is', null)
    .where(tokenInForce(input.now, input.lifetimeDays))
    .executeTakeFirst();
  return !!row;
}

/** When a token ends at the latest: its stored expiry, or TOKEN_LIFETIME_DAYS after issue for one without. */
export function tokenEnd(token: { expires_at: Date | null; created_at: Date }, lifetimeDays: number): Date {
  return token.expires_at ?? new Date(new Date(token.created_at).getTime() + lifetimeDays * 86_400_000);
}

/** When a session ends at the latest (its absolute lifetime; idle expiry may come sooner). */
export function sessionAbsoluteEnd(session: { created_at: Date }, lifetime: SessionLifetime): Date {
  return new Date(new Date(session.created_at).getTime() + lifetime.absoluteHours * 3600_000);
}

/** The user's live browser sessions (not idle past their end, not past the absolute lifetime). */
export function listLiveSessions(db: Db, userId: number, now: Date, lifetime: SessionLifetime) {
  return db
    .selectFrom('sessions')
    .select(['id', 'public_id', 'ip', 'user_agent', 'created_at', 'last_activity_at'])
    .where('user_id', '=', userId)
    .where(sessionInForce(now, lifetime))
    .execute();
}

/** The user's live device tokens. */
export function listLiveTokens(db: Db, userId: number, now: Date, lifetimeDays: number) {
  return db
    .selectFrom('personal_access_tokens')
    .select(['id', 'name', 'created_at', 'last_used_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where(tokenInForce(now, lifetimeDays))
    .execute();
}

/**
 * When the password was last given on the caller's session or device token (issue 29 §6), or null: never, or a
 * personal access token, which never has one.
 */
export async function passwordConfirmedAt(
  db: Db,
  credential: { sessionId?: string; tokenId?: number },
): Promise<Date | null> {
  if (credential.sessionId) {
    const row = await db
      .selectFrom('sessions')
      .select('password_confirmed_at')
      .where('id', '=', credential.sessionId)
      .executeTakeFirst();
    return row?.password_confirmed_at ?? null;
  }
  if (credential.tokenId) {
    const row = await db
      .selectFrom('personal_access_tokens')
      .select('password_confirmed_at')
      .where('id', '=', credential.tokenId)
      .where('kind', '=', 'device')
      .executeTakeFirst();
    return row?.password_confirmed_at ?? null;
  }
  return null;
}

/** Records that the password was just given on this session or device token (POST /auth/confirm-password). */
export async function markPasswordConfirmed(
  db: Db,
  credential: { sessionId?: string; tokenId?: number },
  now: Date,
): Promise<void> {
  if (credential.sessionId)
    await db
      .updateTable('sessions')
      .set({ password_confirmed_at: now })
      .where('id', '=', credential.sessionId)
      .execute();
  else if (credential.tokenId)
    await db
      .updateTable('personal_access_tokens')
      .set({ password_confirmed_at: now })
      .where('id', '=', credential.tokenId)
      .where('kind', '=', 'device')
      .execute();
}

/** Whether one of the user's sessions (public uuid) or device tokens (numeric id) exists, without ending it. */
export async function ownsCredential(db: Db, input: { id: string; userId: number }): Promise<boolean> {
  if (/^\d{1,10}$/.test(input.id)) {
    const row = await db
      .selectFrom('personal_access_tokens')
      .select('id')
      .where('id', '=', Number(input.id))
      .where('user_id', '=', input.userId)
      .executeTakeFirst();
    return !!row;
  }
  if (!/^[0-9a-f-]{36}$/i.test(input.id)) return false;
  const row = await db
    .selectFrom('sessions')
    .select('id')
    .where('public_id', '=', input.id)
    .where('user_id', '=', input.userId)
    .executeTakeFirst();
  return !!row;
}

/**
 * A personal access token signing out (POST /auth/logout): revoked, never deleted, so it stays on the tokens page
 * as revoked and cannot hide that it existed (issue 29 §6).
 */
export async function revokeOwnPersonalToken(
  db: Db,
  input: { id: number; userId: number; now: Date },
): Promise<void> {
  await db
    .updateTable('personal_access_tokens')
    .set({ revoked_at: input.now })
    .where('id', '=', input.id)
    .where('user_id', '=', input.userId)
    .where('kind', '=', 'personal')
    .where('revoked_at', 'is', null)
    .execute();
}

/** Deletes one of the user's device tokens; false when the user has no such token. */
export async function deleteAccessToken(db: Db, input: { id: number; userId: number }): Promise<boolean> {
  const result = await db
    .deleteFrom('personal_access_tokens')
    .where('id', '=', input.id)
    .where('user_id', '=', input.userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Deletes one of the user's sessions by its public id; answers its internal id (for its sockets), or null. */
export async function deleteOwnSessionByPublicId(
  db: Db,
  input: { publicId: string; userId: number },
): Promise<string | null> {
  const row = await db
    .deleteFrom('sessions')
    .where('public_id', '=', input.publicId)
    .where('user_id', '=', input.userId)
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
}
