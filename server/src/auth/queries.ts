import { sql } from 'kysely';
import type { Db } from '../db/connect';
import type { AuthEventsTable } from '../db/schema';
import { hashToken, randomToken } from '../http/tokens';

export interface SessionRecord {
  id: string;
  public_id: string;
  user_id: number | null;
  csrf_token: string;
  expires_at: Date;
  last_activity_at: Date;
}

/** Sessions live in the database so several processes share them; the cookie holds the secret, the row its hash. */
export async function createSession(
  db: Db,
  input: {
    userId: number | null;
    ip: string | null;
    userAgent: string | null;
    lifetimeMinutes: number;
    now: Date;
  },
): Promise<{ secret: string; csrfToken: string; record: SessionRecord }> {
  const secret = randomToken(32);
  const csrfToken = randomToken(32);
  const expiresAt = new Date(input.now.getTime() + input.lifetimeMinutes * 60_000);
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
      expires_at: expiresAt,
    })
    .returning(['id', 'public_id', 'user_id', 'csrf_token', 'expires_at', 'last_activity_at'])
    .executeTakeFirstOrThrow();
  return { secret, csrfToken, record };
}

export function findSession(db: Db, secret: string, now: Date): Promise<SessionRecord | undefined> {
  return db
    .selectFrom('sessions')
    .select(['id', 'public_id', 'user_id', 'csrf_token', 'expires_at', 'last_activity_at'])
    .where('id', '=', hashToken(secret))
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Sliding expiry, written at most once a minute per session to keep reads cheap. */
export async function touchSession(
  db: Db,
  session: SessionRecord,
  now: Date,
  lifetimeMinutes: number,
): Promise<void> {
  if (now.getTime() - session.last_activity_at.getTime() < 60_000) return;
  const expires = new Date(now.getTime() + lifetimeMinutes * 60_000);
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

export async function purgeExpiredSessions(db: Db, now: Date): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
}

/** Personal access tokens, Sanctum format `<id>|<secret>`; only the secret's hash is stored. */
export async function createAccessToken(
  db: Db,
  input: { userId: number; name: string; abilities?: string[]; expiresAt?: Date | null },
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
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, plainText: `${row.id}|${secret}` };
}

export async function findAccessToken(db: Db, plainText: string, now: Date) {
  const secret = plainText.includes('|') ? plainText.slice(plainText.indexOf('|') + 1) : plainText;
  return db
    .selectFrom('personal_access_tokens')
    .select(['id', 'user_id', 'abilities', 'last_used_at'])
    .where('token_hash', '=', hashToken(secret))
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirst();
}

export async function touchAccessToken(
  db: Db,
  token: { id: number; last_used_at: Date | null },
  now: Date,
): Promise<void> {
  if (token.last_used_at && now.getTime() - token.last_used_at.getTime() < 60_000) return;
  await db
    .updateTable('personal_access_tokens')
    .set({ last_used_at: now })
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
