import {
  ACTIVE_USER_DAYS,
  type AccountEvent,
  type ActiveUser,
  type ActiveUsersQuery,
  ActivityPerm,
  type AuthMetrics,
  type AuthMetricsBody,
  METRIC_MAX_DAYS,
  ONLINE_MINUTES,
  Perm,
} from '@cc/contracts';
import { assertEntityInScope, listEntityIds } from '../entities/scope';
import { subtreeIds } from '../entities/tree';
import { actorOf, authorize, type Ctx, can } from '../http/context';
import { type FieldErrors, invalid, notFound } from '../http/errors';
import { findUserByRef } from '../users/queries';
import { listActiveUsers as activeUserRows, signInBuckets, userAuthEvents } from './queries';

const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The entities a request names (entityIds), each in scope (404 otherwise), with their subtrees when deep. */
async function namedEntities(ctx: Ctx, ids: number[], deep: boolean | undefined): Promise<number[]> {
  const out = new Set<number>();
  for (const id of new Set(ids)) {
    await assertEntityInScope(ctx, id);
    for (const e of deep ? await subtreeIds(ctx.db, id) : [id]) out.add(e);
  }
  return [...out];
}

/**
 * GET /auth-events/active (spec 1 §7; permission 67): people of the caller's scope (the base entity, its subtree when
 * deep, or the entityIds named) who signed in within ACTIVE_USER_DAYS days or were seen within ONLINE_MINUTES
 * minutes ("online now"), online first, then by latest sign-in. The search matches e-mail addresses only for callers
 * who may see them (23), as GET /users does.
 */
export async function listActiveUsers(ctx: Ctx, query: ActiveUsersQuery) {
  const actor = authorize(ctx, [ActivityPerm.activeUsers]);
  const named = [...(query.entityIds ?? []), ...(query['entityIds[]'] ?? [])];
  const entityIds = named.length
    ? await namedEntities(ctx, named, query.deep)
    : await listEntityIds(ctx, query.deep);
  const now = ctx.clock();
  const seeEmail = can(actor, [Perm.contactDetails]);
  const onlineSince = new Date(now.getTime() - ONLINE_MINUTES * MINUTE);
  const { rows, total } = await activeUserRows(
    ctx.db,
    {
      entityIds,
      search: query.search || undefined,
      searchEmail: seeEmail,
      signedInSince: new Date(now.getTime() - ACTIVE_USER_DAYS * DAY),
      onlineSince,
      now,
    },
    { page: query.page, perPage: query.per_page },
  );
  const data: ActiveUser[] = rows.map((r) => ({
    id: r.id,
    uuid: r.uuid,
    name: r.name,
    email: seeEmail || r.id === actor.userId ? r.email : null,
    primary_entity: { id: r.primary_entity_id, slug: r.entity_slug, name: r.entity_name },
    role: r.role_id && r.role_name ? { id: r.role_id, name: r.role_name } : null,
    last_login_at: iso(r.last_login_at),
    device: r.device,
    via: r.via,
    active_sessions: Number(r.active_sessions ?? 0),
    last_seen_at: iso(r.last_seen_at),
    online: r.last_seen_at != null && new Date(r.last_seen_at).getTime() >= onlineSince.getTime(),
  }));
  return { data, total };
}

const DATE_INVALID = 'The date is not a valid date.';

function dayNumber(date: string): number | null {
  const t = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== date) return null;
  return Math.round(t / DAY);
}

const PERIOD_WORDS = { h: 'by hour', d: 'by day', w: 'by week', m: 'by month' } as const;

/** fromDate <= toDate, both real days, and the range no longer than the period allows (422 otherwise). */
export function metricsRangeErrors(body: AuthMetricsBody): FieldErrors {
  const errors: FieldErrors = {};
  const from = dayNumber(body.fromDate);
  const to = dayNumber(body.toDate);
  if (from === null) errors.fromDate = [DATE_INVALID];
  if (to === null) errors.toDate = [DATE_INVALID];
  if (from === null || to === null) return errors;
  if (from > to) errors.fromDate = ['The start date must be on or before the end date.'];
  else if (to - from + 1 > METRIC_MAX_DAYS[body.period])
    errors.toDate = [
      `At most ${METRIC_MAX_DAYS[body.period]} days can be shown ${PERIOD_WORDS[body.period]}.`,
    ];
  return errors;
}

/** The entity of the path: a slug or a numeric id, in scope (404 otherwise, as for a missing one). */
async function pathEntity(ctx: Ctx, ref: string): Promise<number> {
  const q = ctx.db.selectFrom('entities').select('id');
  const row = await (/^\d{1,9}$/.test(ref)
    ? q.where('id', '=', Number(ref))
    : q.where('slug', '=', ref)
  ).executeTakeFirst();
  if (!row) throw notFound();
  await assertEntityInScope(ctx, row.id);
  return row.id;
}

/**
 * POST /auth-events/{entity}/metrics (spec 1 §7; permission 67): sign-ins, distinct people and failed sign-ins of the
 * entity's people (its subtree when deep) per hour, day, week or month of the range, in UK time; every bucket present.
 */
export async function authMetrics(ctx: Ctx, entityRef: string, body: AuthMetricsBody): Promise<AuthMetrics> {
  authorize(ctx, [ActivityPerm.activeUsers]);
  const entityId = await pathEntity(ctx, entityRef);
  const errors = metricsRangeErrors(body);
  if (Object.keys(errors).length) throw invalid(errors);
  const entityIds = body.deep ? await subtreeIds(ctx.db, entityId) : [entityId];
  const { buckets, totals } = await signInBuckets(ctx.db, {
    entityIds,
    fromDate: body.fromDate,
    toDate: body.toDate,
    period: body.period,
  });
  return { data: buckets, period: body.period, fromDate: body.fromDate, toDate: body.toDate, totals };
}

/**
 * GET /users/{id}/auth-events: the user's account activity (sign-ins, sign-outs, failed sign-ins, password resets and
 * changes), newest first. Their own always; anyone else's with 91 and the user in scope (404 otherwise).
 */
export async function accountActivity(ctx: Ctx, ref: string, page: { page: number; per_page: number }) {
  const actor = actorOf(ctx);
  const user = await findUserByRef(ctx.db, ref);
  if (!user) throw notFound();
  if (user.id !== actor.userId) {
    await assertEntityInScope(ctx, user.primary_entity_id);
    authorize(ctx, [ActivityPerm.accountActivity]);
  }
  const { rows, total } = await userAuthEvents(ctx.db, user.id, { page: page.page, perPage: page.per_page });
  const data: AccountEvent[] = rows.map((r) => ({
    id: Number(r.id),
    event: r.event as AccountEvent['event'],
    created_at: new Date(r.created_at).toISOString(),
    ip: r.ip,
    user_agent: r.user_agent,
    via: r.via,
  }));
  return { data, total };
}
