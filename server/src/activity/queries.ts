import { DISPLAY_TIME_ZONE, type MetricPeriod } from '@cc/contracts';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const inList = (ids: number[]) => sql.join(ids.map((id) => sql`${id}::int`));

export interface ActiveFilter {
  /** Primary entities covered; null = no bound (super admin, deep). */
  entityIds: number[] | null;
  search?: string;
  searchEmail: boolean;
  /** Signed in since this instant, or seen since `onlineSince`. */
  signedInSince: Date;
  onlineSince: Date;
  now: Date;
}

export interface ActiveUserRow {
  id: number;
  uuid: string;
  name: string;
  email: string;
  primary_entity_id: number;
  entity_slug: string;
  entity_name: string;
  role_id: number | null;
  role_name: string | null;
  last_login_at: Date | null;
  device: string | null;
  via: string | null;
  active_sessions: number;
  last_seen_at: Date | null;
}

/**
 * The FROM and WHERE of the active users list: each user with their unexpired web sessions and app tokens (count and
 * latest use) and their latest sign-in's device, kept when they signed in since `signedInSince` or were seen since
 * `onlineSince`. App tokens count while used within the signed-in window (an unexpiring token unused for months is
 * not an active session).
 */
function activeFrom(f: ActiveFilter): RawBuilder<unknown> {
  const inEntities = f.entityIds ? sql`AND primary_entity_id IN (${inList(f.entityIds)})` : sql``;
  // The candidates first, each through its own index (users by entity and last sign-in, sessions and tokens by last
  // use), so the per-user session figures are worked out for the active few, never for a whole organisation.
  const where: RawBuilder<SqlBool>[] = [
    sql<SqlBool>`u.id IN (
      SELECT id FROM users WHERE last_login_at >= ${f.signedInSince} ${inEntities}
      UNION SELECT user_id FROM sessions WHERE last_activity_at >= ${f.onlineSince} AND expires_at > ${f.now}
      UNION SELECT user_id FROM personal_access_tokens WHERE last_used_at >= ${f.onlineSince}
        AND (expires_at IS NULL OR expires_at > ${f.now}))`,
  ];
  if (f.entityIds) where.push(sql<SqlBool>`u.primary_entity_id IN (${inList(f.entityIds)})`);
  if (f.search) {
    const pattern = `%${escapeLike(f.search)}%`;
    where.push(
      f.searchEmail
        ? sql<SqlBool>`(u.name ILIKE ${pattern} OR u.email ILIKE ${pattern})`
        : sql<SqlBool>`u.name ILIKE ${pattern}`,
    );
  }
  return sql`
    FROM users u
    JOIN entities e ON e.id = u.primary_entity_id
    LEFT JOIN entity_roles r ON r.id = u.role_id
    LEFT JOIN LATERAL (
      SELECT count(*)::int AS active_sessions, max(seen) AS last_seen_at FROM (
        SELECT ss.last_activity_at AS seen FROM sessions ss
          WHERE ss.user_id = u.id AND ss.expires_at > ${f.now}
        UNION ALL
        SELECT t.last_used_at FROM personal_access_tokens t
          WHERE t.user_id = u.id AND (t.expires_at IS NULL OR t.expires_at > ${f.now})
            AND t.last_used_at >= ${f.signedInSince}
      ) x
    ) s ON true
    WHERE ${sql.join(where, sql` AND `)}`;
}

/** A page of active users, online first, then by latest sign-in; and the total. */
export async function listActiveUsers(db: Db, f: ActiveFilter, page: { page: number; perPage: number }) {
  if (f.entityIds && !f.entityIds.length) return { rows: [] as ActiveUserRow[], total: 0 };
  const from = activeFrom(f);
  const [rows, total] = await Promise.all([
    sql<ActiveUserRow>`
      SELECT u.id, u.uuid, u.name, u.email, u.primary_entity_id, e.slug AS entity_slug, e.name AS entity_name,
        u.role_id, r.name AS role_name, u.last_login_at, s.active_sessions, s.last_seen_at,
        (SELECT ae.user_agent FROM auth_events ae WHERE ae.user_id = u.id AND ae.event = 'login'
          ORDER BY ae.created_at DESC, ae.id DESC LIMIT 1) AS device,
        (SELECT ae.via FROM auth_events ae WHERE ae.user_id = u.id AND ae.event = 'login'
          ORDER BY ae.created_at DESC, ae.id DESC LIMIT 1) AS via
      ${from}
      ORDER BY (s.last_seen_at >= ${f.onlineSince}) IS TRUE DESC, u.last_login_at DESC NULLS LAST, u.id
      LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`.execute(db),
    sql<{ n: number }>`SELECT count(*)::int AS n ${from}`.execute(db),
  ]);
  return { rows: rows.rows, total: Number(total.rows[0]?.n ?? 0) };
}

const UNIT: Record<MetricPeriod, { trunc: string; step: string }> = {
  h: { trunc: 'hour', step: '1 hour' },
  d: { trunc: 'day', step: '1 day' },
  w: { trunc: 'week', step: '1 week' },
  m: { trunc: 'month', step: '1 month' },
};

export interface MetricsRange {
  /** Primary entities of the people counted; null = every one (super admin over everything). */
  entityIds: number[] | null;
  /** UK calendar days, both included. */
  fromDate: string;
  toDate: string;
  period: MetricPeriod;
}

/**
 * Sign-ins, distinct people and failed sign-ins per bucket (UK local time), every bucket of the range present (0 when
 * nothing happened). Events are those of the people whose primary entity (when the event happened) is covered.
 * Reads auth_events through (entity_id, created_at).
 */
export async function signInBuckets(db: Db, r: MetricsRange) {
  const { trunc, step } = UNIT[r.period];
  const zone = DISPLAY_TIME_ZONE;
  const entity = r.entityIds ? sql`AND e.entity_id IN (${inList(r.entityIds)})` : sql``;
  const { rows } = await sql<{ start: string; sign_ins: number; users: number; failed: number }>`
    WITH bounds AS (
      SELECT ${r.fromDate}::date::timestamp AS from_local, (${r.toDate}::date + 1)::timestamp AS end_local
    ), buckets AS (
      SELECT gs AS local_start FROM bounds,
        generate_series(date_trunc(${trunc}, from_local), end_local - interval '1 second', ${step}::interval) gs
    ), counted AS (
      SELECT date_trunc(${trunc}, e.created_at AT TIME ZONE ${zone}) AS local_start,
        count(*) FILTER (WHERE e.event = 'login') AS sign_ins,
        count(DISTINCT e.user_id) FILTER (WHERE e.event = 'login') AS users,
        count(*) FILTER (WHERE e.event = 'failed_login') AS failed
      FROM auth_events e, bounds
      WHERE e.event IN ('login', 'failed_login')
        AND e.created_at >= (from_local AT TIME ZONE ${zone}) AND e.created_at < (end_local AT TIME ZONE ${zone})
        ${entity}
      GROUP BY 1
    )
    SELECT to_char(b.local_start, 'YYYY-MM-DD"T"HH24:MI') AS start,
      COALESCE(c.sign_ins, 0)::int AS sign_ins, COALESCE(c.users, 0)::int AS users, COALESCE(c.failed, 0)::int AS failed
    FROM buckets b LEFT JOIN counted c ON c.local_start = b.local_start
    ORDER BY b.local_start`.execute(db);
  const totals = await sql<{ sign_ins: number; users: number; failed: number }>`
    WITH bounds AS (
      SELECT ${r.fromDate}::date::timestamp AS from_local, (${r.toDate}::date + 1)::timestamp AS end_local
    )
    SELECT count(*) FILTER (WHERE e.event = 'login')::int AS sign_ins,
      count(DISTINCT e.user_id) FILTER (WHERE e.event = 'login')::int AS users,
      count(*) FILTER (WHERE e.event = 'failed_login')::int AS failed
    FROM auth_events e, bounds
    WHERE e.event IN ('login', 'failed_login')
      AND e.created_at >= (from_local AT TIME ZONE ${zone}) AND e.created_at < (end_local AT TIME ZONE ${zone})
      ${entity}`.execute(db);
  const t = totals.rows[0];
  return {
    buckets: rows.map((b) => ({
      start: b.start,
      sign_ins: Number(b.sign_ins),
      users: Number(b.users),
      failed: Number(b.failed),
    })),
    totals: {
      sign_ins: Number(t?.sign_ins ?? 0),
      users: Number(t?.users ?? 0),
      failed: Number(t?.failed ?? 0),
    },
  };
}

/** A page of one user's auth events, newest first, and the total. */
export async function userAuthEvents(db: Db, userId: number, page: { page: number; perPage: number }) {
  const q = db.selectFrom('auth_events').where('user_id', '=', userId);
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) =>
      filtered
        .select(['id', 'event', 'created_at', 'ip', 'user_agent', 'via'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc'),
    { page: page.page, perPage: page.perPage },
  );
  return { rows, total };
}
