import { type QueryCreator, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/connect';
import type { AuthEventsTable, Database } from '../db/schema';
import { hashToken, randomToken } from '../http/tokens';
import { knownDeviceUpsert } from './known-devices';
import { deviceKeySql, failuresClearing } from './throttle';

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

/** A credential's column, named with its table's alias where a statement joins others that have one of that name. */
const column = (table: string | undefined, name: string) => sql.ref(table ? `${table}.${name}` : name);

/**
 * The one definition of "still in force" that every read of a session or device token uses (login, sockets, the
 * sessions list). The sweep (purgeExpiredCredentials) deletes the complement, spelled out there so that NULLs count.
 */
export const sessionInForce = (now: Date, lifetime: SessionLifetime, table?: string) =>
  sql<SqlBool>`(${column(table, 'expires_at')} > ${now} AND ${column(table, 'created_at')} > ${absoluteCutoff(now, lifetime)})`;
export const tokenInForce = (now: Date, days: number, table?: string) =>
  sql<SqlBool>`(${column(table, 'expires_at')} > ${now} OR (${column(table, 'expires_at')} IS NULL AND ${column(table, 'created_at')} > ${tokenCutoff(now, days)}))`;

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

/** The stored hash of a bearer token, sent as `<id>|<secret>` (Sanctum) or as the secret alone. */
export function tokenHashOf(plainText: string): string {
  return hashToken(plainText.includes('|') ? plainText.slice(plainText.indexOf('|') + 1) : plainText);
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

export interface AuthEvent {
  event: AuthEventsTable['event'];
  userId?: number | null;
  entityId?: number | null;
  email?: string | null;
  ip: string | null;
  userAgent: string | null;
  via: 'web' | 'mobile';
}

export async function recordAuthEvent(db: Db, event: AuthEvent): Promise<void> {
  await authEventInsert(db, event).execute();
}

function authEventInsert(db: QueryCreator<Database>, event: AuthEvent) {
  return db.insertInto('auth_events').values({
    event: event.event,
    user_id: event.userId ?? null,
    entity_id: event.entityId ?? null,
    email: event.email?.toLowerCase() ?? null,
    ip: event.ip,
    user_agent: event.userAgent?.slice(0, 500) ?? null,
    via: event.via,
  });
}

/** A throttle row a sign-in attempt reads (auth/throttle.ts). */
export interface ThrottleRecord {
  key: string;
  failures: number;
  window_started_at: Date;
  last_failure_at: Date;
}

export interface SignInFacts {
  user: { id: number; password_hash: string | null; primary_entity_id: number } | undefined;
  /** The client's device secret has signed in as this user before (auth/known-devices.ts). */
  knownDevice: boolean;
  /** This server issued the client's device secret (to anyone): it may be kept. */
  deviceIssued: boolean;
  /** The throttle rows of the keys asked for and of the device's key for this user, by key. */
  throttles: Map<string, ThrottleRecord>;
}

/**
 * What a sign-in attempt reads before the password, in one statement (issue 36 §2: a login under load waited its turn
 * for each of three or four reads in a row): the account by e-mail, whether the client's device secret is known for it
 * and issued at all, and the throttle rows of `throttleKeys` and of the device's own key for the account.
 */
export async function findSignIn(
  db: Db,
  input: { email: string; deviceSecret: string | null; deviceId: string | null; throttleKeys: string[] },
): Promise<SignInFacts> {
  const deviceHash = input.deviceSecret ? hashToken(input.deviceSecret) : null;
  const { rows } = await sql<{
    id: number | null;
    password_hash: string | null;
    primary_entity_id: number | null;
    known_device: boolean;
    device_issued: boolean;
    key: string | null;
    failures: number | null;
    window_started_at: Date | null;
    last_failure_at: Date | null;
  }>`
    SELECT u.id, u.password_hash, u.primary_entity_id,
      EXISTS (SELECT 1 FROM known_devices d WHERE d.token_hash = ${deviceHash} AND d.user_id = u.id) AS known_device,
      EXISTS (SELECT 1 FROM known_devices d WHERE d.token_hash = ${deviceHash}) AS device_issued,
      t.key, t.failures, t.window_started_at, t.last_failure_at
    FROM (SELECT 1) AS one
    LEFT JOIN users u ON lower(u.email) = ${input.email.toLowerCase()}
    LEFT JOIN auth_throttles t
      ON t.key IN (${sql.join([...input.throttleKeys.map((k) => sql`${k}`), deviceKeySql(input.deviceId, sql`u.id`)])})`.execute(
    db,
  );
  const first = rows[0];
  const user =
    first?.id != null && first.primary_entity_id != null
      ? { id: first.id, password_hash: first.password_hash, primary_entity_id: first.primary_entity_id }
      : undefined;
  const throttles = new Map<string, ThrottleRecord>();
  for (const r of rows)
    if (r.key !== null && r.failures !== null && r.window_started_at && r.last_failure_at)
      throttles.set(r.key, {
        key: r.key,
        failures: r.failures,
        window_started_at: r.window_started_at,
        last_failure_at: r.last_failure_at,
      });
  return {
    user,
    knownDevice: Boolean(user && first?.known_device),
    deviceIssued: Boolean(first?.device_issued),
    throttles,
  };
}

/**
 * The writes of a successful sign-in, in one statement (issue 36 §2): the device becomes (or stays) known for the user,
 * the failures of the keys in `clearKeys` are forgotten, the audit row is written and the login time is set. One
 * statement is also one transaction: no sign-in without its audit row.
 */
export async function recordSignIn(
  db: Db,
  input: {
    userId: number;
    device: { secret: string; name: string | null };
    clearKeys: string[];
    event: AuthEvent;
    now: Date;
    /** The password hashed again at the chosen cost (auth/passwords.ts needsRehash), to replace the hash it proved. */
    rehash?: { from: string; to: string } | null;
  },
): Promise<void> {
  const device = knownDeviceUpsert(db, { ...input.device, userId: input.userId, now: input.now });
  // Only over the hash the password was checked against: a password changed meanwhile is never put back.
  const rehash = input.rehash
    ? sql`, password_hash = CASE WHEN password_hash = ${input.rehash.from} THEN ${input.rehash.to} ELSE password_hash END`
    : sql``;
  await sql`
    WITH device AS (${device}),
      cleared AS (${failuresClearing(db, input.clearKeys)}),
      event AS (${authEventInsert(db, input.event)})
    UPDATE users SET last_login_at = ${input.now}${rehash} WHERE id = ${input.userId}`.execute(db);
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

/** Whether a device token still stands for this user (same check as auth/callers.ts findTokenCaller, by id). */
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
