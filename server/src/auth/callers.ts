import type { Db } from '../db/connect';
import type { Actor } from '../http/context';
import { hashToken } from '../http/tokens';
import { type ActorRow, actorColumns, actorFromRow } from './actor';
import type { CachedCaller } from './actor-cache';
import {
  type SessionLifetime,
  type SessionRecord,
  sessionInForce,
  tokenHashOf,
  tokenInForce,
} from './queries';

/**
 * Who is behind a credential, in ONE statement: the live token or session, its user, the user's entity, permissions
 * and level A organisation (issue 36 §2). An uncached authenticated read waited for four statements in a row before
 * its own, and at 200 clients the queue of such reads for the pool's connections was the API-read p95.
 * A token is live unless revoked and while in force, a session while in force (auth/queries.ts tokenInForce,
 * sessionInForce: the same conditions as every other read of a credential).
 */
export async function findTokenCaller(
  db: Db,
  plainText: string,
  now: Date,
  lifetimeDays: number,
): Promise<Pick<CachedCaller, 'token' | 'actor'>> {
  const row = await db
    .selectFrom('personal_access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .select([
      't.id',
      't.user_id',
      't.abilities',
      't.last_used_at',
      't.expires_at',
      't.created_at',
      't.kind',
      ...actorColumns(),
    ])
    .where('t.token_hash', '=', tokenHashOf(plainText))
    .where('t.revoked_at', 'is', null)
    .where(tokenInForce(now, lifetimeDays, 't'))
    .executeTakeFirst();
  if (!row) return { token: null, actor: null };
  const token = {
    id: row.id,
    user_id: row.user_id,
    abilities: row.abilities,
    last_used_at: row.last_used_at,
    expires_at: row.expires_at,
    created_at: row.created_at,
    kind: row.kind,
  };
  const actor = actorFromRow(row, {
    via: 'token',
    tokenId: token.id,
    abilities: token.abilities,
    kind: token.kind,
  });
  return { token, actor };
}

/** A live web session and its caller; a session without a user (none are made now) still answers its record. */
export async function findSessionCaller(
  db: Db,
  secret: string,
  now: Date,
  lifetime: SessionLifetime,
): Promise<{ session: SessionRecord | null; actor: Actor | null }> {
  const row = await db
    .selectFrom('sessions as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .select([
      's.id',
      's.public_id',
      's.user_id',
      's.csrf_token',
      's.created_at',
      's.expires_at',
      's.last_activity_at',
      ...actorColumns(),
    ])
    .where('s.id', '=', hashToken(secret))
    .where(sessionInForce(now, lifetime, 's'))
    .executeTakeFirst();
  if (!row) return { session: null, actor: null };
  const session: SessionRecord = {
    id: row.id,
    public_id: row.public_id,
    user_id: row.user_id,
    csrf_token: row.csrf_token,
    created_at: row.created_at,
    expires_at: row.expires_at,
    last_activity_at: row.last_activity_at,
  };
  // Left joins: a session whose user (or entity) is gone has a record and no caller.
  const actor =
    session.user_id !== null && hasActor(row)
      ? actorFromRow(row, { via: 'session', sessionId: session.id })
      : null;
  return { session, actor };
}

const hasActor = (row: Partial<Record<keyof ActorRow, unknown>>): row is ActorRow =>
  row.actor_id !== null && row.actor_entity_slug !== null;
