import { type QueryCreator, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/connect';
import type { Database } from '../db/schema';

/**
 * Failed-attempt throttling (ASVS 2.2.1), kept in auth_throttles so every process sees the same counts.
 *
 * Each key (an account, an address, a known device, a sign-up address) counts its failures in a one-hour window.
 * The first `free` failures cost nothing; after them each further attempt waits a delay that doubles with every
 * failure (1 s, 2 s, 4 s ... up to `maxDelaySeconds`), and after `perHour` failures the key is refused until its
 * window ends. Refused attempts are answered before any password is checked, and are not counted themselves.
 */
export interface ThrottleRule {
  free: number;
  maxDelaySeconds: number;
  perHour: number;
}

export const WINDOW_MS = 60 * 60_000;

/** One account (by e-mail, whether or not it exists, so the answers never tell): ASVS's ~100 failures an hour. */
export const ACCOUNT_RULE: ThrottleRule = { free: 3, maxDelaySeconds: 60, perHour: 100 };
/** One client address, across accounts (password spraying); roomier, as an office shares one address. */
export const ADDRESS_RULE: ThrottleRule = { free: 10, maxDelaySeconds: 60, perHour: 300 };
/** One known device of one account: its own counter, so a stolen device cookie is still throttled. */
export const DEVICE_RULE: ThrottleRule = { free: 5, maxDelaySeconds: 60, perHour: 100 };

export interface ThrottleKey {
  key: string;
  rule: ThrottleRule;
}

interface ThrottleRow {
  key: string;
  failures: number;
  window_started_at: Date;
  last_failure_at: Date;
}

/** Seconds until this key may try again (0: now). */
export function waitSeconds(row: ThrottleRow | undefined, rule: ThrottleRule, now: Date): number {
  if (!row) return 0;
  const windowEnds = new Date(row.window_started_at).getTime() + WINDOW_MS;
  if (windowEnds <= now.getTime()) return 0; // the window is over: the next failure starts a new one
  if (row.failures >= rule.perHour) return Math.ceil((windowEnds - now.getTime()) / 1000);
  if (row.failures < rule.free) return 0;
  const delay = Math.min(2 ** (row.failures - rule.free), rule.maxDelaySeconds) * 1000;
  const allowedAt = new Date(row.last_failure_at).getTime() + delay;
  return Math.max(0, Math.ceil((allowedAt - now.getTime()) / 1000));
}

/** Each key's wait in seconds (0: it may try now), in the order given; one query. */
export async function throttleWaits(db: Db, keys: ThrottleKey[], now: Date): Promise<number[]> {
  if (!keys.length) return [];
  const rows = await db
    .selectFrom('auth_throttles')
    .selectAll()
    .where(
      'key',
      'in',
      keys.map((k) => k.key),
    )
    .execute();
  const byKey = new Map(rows.map((r) => [r.key, r]));
  return keys.map((k) => waitSeconds(byKey.get(k.key), k.rule, now));
}

/** The longest wait among the keys (0 when every key may try now). */
export async function throttleWait(db: Db, keys: ThrottleKey[], now: Date): Promise<number> {
  return Math.max(0, ...(await throttleWaits(db, keys, now)));
}

/**
 * Counts one failure for each key: one upsert, so concurrent failures are all counted (the row lock serialises
 * them) and a window older than an hour starts again at 1. Keys are written in sorted order, so two requests
 * sharing keys lock them in the same order and cannot deadlock.
 */
export async function recordFailure(db: Db, keys: string[], now: Date): Promise<void> {
  const unique = [...new Set(keys)].sort();
  if (!unique.length) return;
  const windowStart = new Date(now.getTime() - WINDOW_MS);
  await sql`
    INSERT INTO auth_throttles AS t (key, failures, window_started_at, last_failure_at)
    VALUES ${sql.join(unique.map((key) => sql`(${key}, 1, ${now}, ${now})`))}
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN t.window_started_at <= ${windowStart} THEN 1 ELSE t.failures + 1 END,
      window_started_at = CASE WHEN t.window_started_at <= ${windowStart} THEN ${now} ELSE t.window_started_at END,
      last_failure_at = GREATEST(t.last_failure_at, ${now})`.execute(db);
}

/** Forgets the keys' failures (a successful password reset clears its account). */
export async function clearFailures(db: Db, keys: string[]): Promise<void> {
  if (!keys.length) return;
  await failuresClearing(db, keys).execute();
}

/** The statement that forgets the keys' failures (none: it deletes nothing); also part of a sign-in's one write. */
export function failuresClearing(db: QueryCreator<Database>, keys: string[]) {
  const rows = db.deleteFrom('auth_throttles');
  return keys.length ? rows.where('key', 'in', keys) : rows.where(sql<SqlBool>`false`);
}

/** Rows whose window has ended count for nothing: the hourly sweep deletes them. */
export async function purgeStaleThrottles(db: Db, now: Date): Promise<void> {
  await db
    .deleteFrom('auth_throttles')
    .where('window_started_at', '<=', new Date(now.getTime() - WINDOW_MS))
    .execute();
}

export const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;
export const addressKey = (ip: string | null) => `address:${ip ?? 'unknown'}`;
export const deviceKey = (deviceId: string, userId: number) => `device:${userId}:${deviceId}`;
/** deviceKey in SQL, for a statement that learns the user's id itself (auth/queries.ts findSignIn). */
export const deviceKeySql = (deviceId: string | null, userId: RawBuilder<unknown>) =>
  sql<string>`'device:' || ${userId} || ':' || ${deviceId}`;
/** A signed-in session or device token giving its password again (never the secret: a hash of its id). */
export const credentialKey = (credentialId: string) => `credential:${credentialId}`;
