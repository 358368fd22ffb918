import {
  type ComplianceTally,
  type DrillDownEntityRow,
  type DrillDownQuery,
  type DrillDownTagRow,
  type DrillDownUserRow,
  ReportsPerm,
  type RoleReportRow,
  reportScore,
  TagsPerm,
} from '@cc/contracts';
import { emptyTally, sumTallies } from '../compliance/tally';
import { assertEntityInScope, entityScope } from '../entities/scope';
import { ancestorIds } from '../entities/tree';
import { actorOf, authorize, type Ctx } from '../http/context';
import { notFound } from '../http/errors';
import { findTag, tagLinks, tagsOfEntities } from '../tags/queries';
import { withScore } from './compliance-service';
import { cellFilters } from './lists-service';
import { entityFigures, type Figures, findRoleIn, roleFigures, subtreeRows, userFigures } from './queries';

/**
 * Drill-downs (13): entities → roles → users, and (13 and 97 tags use) tags → users. spec 2 §4: "Drill-down reports
 * answering 202 are polled every 5 seconds until 200". The first call starts the computation in the background and
 * waits up to drillDownLimits.waitMs; if it is not done by then the answer is 202 and the client polls. Results are cached per
 * (caller, acting-as scope, route, params) for drillDownLimits.ttlMs, in this process: behind a load balancer another
 * process may compute the same figures again, which costs time, never correctness.
 *
 * A write in any process (the cache bus's 'writes' and 'scores', cluster/process-caches.ts) drops every cached
 * answer. A computation running across the write may have missed it: its answer is given once, to the poll that waits
 * for it (so polling ends under steady writes), and the next request computes again.
 */
export const drillDownLimits = { waitMs: 1500, ttlMs: 60_000 };

type Entry =
  | { state: 'running'; promise: Promise<unknown>; at: number }
  | { state: 'done'; data: unknown; at: number; generation: number };
const cache = new Map<string, Entry>();
let generation = 0;

export type DrillOutcome<T> = { ready: true; data: T } | { ready: false };

async function cached<T>(key: string, compute: () => Promise<T>): Promise<DrillOutcome<T>> {
  const now = Date.now();
  for (const [k, e] of cache) if (e.state === 'done' && now - e.at > drillDownLimits.ttlMs) cache.delete(k);
  const hit = cache.get(key);
  if (hit?.state === 'done') {
    if (hit.generation !== generation) cache.delete(key);
    return { ready: true, data: hit.data as T };
  }
  let promise: Promise<unknown>;
  if (hit?.state === 'running') promise = hit.promise;
  else {
    const startedIn = generation;
    promise = compute().then(
      (data) => {
        cache.set(key, { state: 'done', data, at: Date.now(), generation: startedIn });
        return data;
      },
      (err) => {
        cache.delete(key);
        throw err;
      },
    );
    // A failure surfaces to the caller that waits on it; a poll after a failure computes again.
    promise.catch(() => undefined);
    cache.set(key, { state: 'running', promise, at: now });
  }
  if (drillDownLimits.waitMs <= 0) return { ready: false };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), drillDownLimits.waitMs);
  });
  const winner = await Promise.race([promise, timeout]);
  clearTimeout(timer);
  if (winner === 'timeout') return { ready: false };
  return { ready: true, data: winner as T };
}

/** Tests: forget cached figures. */
export function clearDrillDownCache() {
  cache.clear();
}

/** Something the figures are made of changed (here or in another process): every cached answer is stale. */
export function markDrillDownsStale(): void {
  generation += 1;
  for (const [key, entry] of cache) if (entry.state === 'done') cache.delete(key);
}

async function keyOf(ctx: Ctx, route: string, q: DrillDownQuery, extra: unknown[] = []) {
  const actor = actorOf(ctx);
  const scope = await entityScope(ctx);
  return JSON.stringify([
    actor.userId,
    scope.baseId,
    route,
    q.entity ?? null,
    q.compliance_type,
    q.new_starters_filter,
    ...extra,
  ]);
}

/**
 * GET /reports/drill-down/entities?entity=: the entity (default the caller's current one) and its children, each
 * with the figures of its whole subtree.
 */
export async function drillEntities(
  ctx: Ctx,
  q: DrillDownQuery,
): Promise<DrillOutcome<DrillDownEntityRow[]>> {
  const scope = await entityScope(ctx);
  const rootId = q.entity ?? scope.baseId;
  await assertEntityInScope(ctx, rootId);
  authorize(ctx, [ReportsPerm.complianceReport]);
  const now = ctx.clock();
  return cached(await keyOf(ctx, 'entities', q), async () => {
    const tree = await subtreeRows(ctx.db, [rootId]);
    const own = new Map(
      (
        await entityFigures(
          ctx.db,
          cellFilters(
            tree.map((e) => e.id),
            q,
          ),
          now,
        )
      ).map((r) => [r.entity_id, r]),
    );
    const children = new Map<number, number[]>();
    for (const e of tree)
      if (e.parent_id !== null) children.set(e.parent_id, [...(children.get(e.parent_id) ?? []), e.id]);
    const deep = (id: number): Figures =>
      sumTallies([own.get(id) ?? emptyTally(), ...(children.get(id) ?? []).map((c) => deep(c))]);
    const shown = tree.filter((e) => e.id === rootId || e.parent_id === rootId);
    shown.sort((a, b) => (a.id === rootId ? -1 : b.id === rootId ? 1 : a.name.localeCompare(b.name)));
    return shown.map((e) => ({
      id: e.id,
      name: e.name,
      slug: e.slug,
      has_children: (children.get(e.id) ?? []).length > 0,
      ...withScore(deep(e.id)),
    }));
  });
}

/** GET /reports/drill-down/{id}/roles: the roles of the entity's users (its subtree), with their figures. */
export async function drillRoles(
  ctx: Ctx,
  entityId: number,
  q: DrillDownQuery,
): Promise<DrillOutcome<RoleReportRow[]>> {
  await assertEntityInScope(ctx, entityId);
  authorize(ctx, [ReportsPerm.complianceReport]);
  const now = ctx.clock();
  return cached(await keyOf(ctx, 'roles', q, [entityId]), async () => {
    const tree = await subtreeRows(ctx.db, [entityId]);
    const rows = await roleFigures(
      ctx.db,
      cellFilters(
        tree.map((e) => e.id),
        q,
      ),
      now,
    );
    return rows.map((r) => ({ id: r.id, name: r.name, inspectable: r.inspectable, ...withScore(r) }));
  });
}

/** GET /reports/drill-down/{a}/{b}/users: the users of entity a (its subtree) holding role b, with their figures. */
export async function drillUsers(
  ctx: Ctx,
  entityId: number,
  roleId: number,
  q: DrillDownQuery,
): Promise<DrillOutcome<DrillDownUserRow[]>> {
  await assertEntityInScope(ctx, entityId);
  const tree = await subtreeRows(ctx.db, [entityId]);
  const owners = [...tree.map((e) => e.id), ...(await ancestorIds(ctx.db, entityId))];
  if (!(await findRoleIn(ctx.db, roleId, owners))) throw notFound();
  authorize(ctx, [ReportsPerm.complianceReport]);
  const now = ctx.clock();
  return cached(await keyOf(ctx, 'users', q, [entityId, roleId]), async () => {
    const rows = await userFigures(
      ctx.db,
      {
        ...cellFilters(
          tree.map((e) => e.id),
          q,
        ),
        roleIds: [roleId],
      },
      now,
    );
    return rows.map(presentDrillUser);
  });
}

type UserFigureRow = Awaited<ReturnType<typeof userFigures>>[number];

function presentDrillUser(u: UserFigureRow): DrillDownUserRow {
  return {
    id: u.id,
    uuid: u.uuid,
    name: u.name,
    email: u.email,
    entity: { id: u.entity_id, name: u.entity_name },
    new_starter: Boolean(u.new_starter),
    required: u.required,
    in_date: u.in_date,
    expiring: u.expiring,
    expired: u.expired,
    missing: u.missing,
    exempt: u.exempt,
    score: reportScore(u),
  };
}

/** One user's figures as a tally; `users` counts them only when something is required, as entity rows do. */
const tallyOfUser = (u: UserFigureRow): ComplianceTally => ({
  users: u.required > 0 ? 1 : 0,
  required: u.required,
  in_date: u.in_date,
  expiring: u.expiring,
  expired: u.expired,
  missing: u.missing,
  exempt: u.exempt,
});

/** The drill-down root: `entity` (default the caller's current one), inside the scope (404 otherwise), and its subtree. */
async function drillRoot(ctx: Ctx, q: DrillDownQuery) {
  const scope = await entityScope(ctx);
  const rootId = q.entity ?? scope.baseId;
  await assertEntityInScope(ctx, rootId);
  return { rootId, entityIds: (await subtreeRows(ctx.db, [rootId])).map((e) => e.id) };
}

/**
 * GET /reports/drill-down/tags?entity=: the tags of the entity and of its subtree, each with the figures of its
 * linked users inside that subtree. A tag's figures are the sum of the user rows its own drill-down lists
 * (drillTagUsers), so the two levels agree by construction.
 */
export async function drillTags(ctx: Ctx, q: DrillDownQuery): Promise<DrillOutcome<DrillDownTagRow[]>> {
  const { rootId, entityIds } = await drillRoot(ctx, q);
  authorize(ctx, [ReportsPerm.complianceReport, TagsPerm.use]);
  const now = ctx.clock();
  return cached(await keyOf(ctx, 'tags', q, [rootId]), async () => {
    const tags = await tagsOfEntities(ctx.db, entityIds);
    const tagIds = tags.map((t) => t.id);
    const [users, links] = await Promise.all([
      userFigures(ctx.db, { ...cellFilters(entityIds, q), tagIds }, now),
      tagLinks(ctx.db, tagIds, entityIds),
    ]);
    const tallyOf = new Map(users.map((u) => [u.id, tallyOfUser(u)]));
    const usersOf = new Map<number, ComplianceTally[]>();
    for (const link of links) {
      const tally = tallyOf.get(link.user_id);
      // Absent: filtered out (new starters), so it adds nothing to the tag's figures.
      if (!tally) continue;
      const tallies = usersOf.get(link.tag_id);
      if (tallies) tallies.push(tally);
      else usersOf.set(link.tag_id, [tally]);
    }
    return tags.map((t) => ({
      id: t.id,
      name: t.name,
      entity: { id: t.entity_id, name: t.entity_name },
      users_count: Number(t.users_count),
      ...withScore(sumTallies(usersOf.get(t.id) ?? [emptyTally()])),
    }));
  });
}

/** GET /reports/drill-down/tags/{id}/users?entity=: the users of the tag inside the subtree, with their figures. */
export async function drillTagUsers(
  ctx: Ctx,
  tagId: number,
  q: DrillDownQuery,
): Promise<DrillOutcome<DrillDownUserRow[]>> {
  const { rootId, entityIds } = await drillRoot(ctx, q);
  if (!(await findTag(ctx.db, tagId, entityIds))) throw notFound();
  authorize(ctx, [ReportsPerm.complianceReport, TagsPerm.use]);
  const now = ctx.clock();
  return cached(await keyOf(ctx, 'tag-users', q, [rootId, tagId]), async () => {
    const rows = await userFigures(ctx.db, { ...cellFilters(entityIds, q), tagIds: [tagId] }, now);
    return rows.map(presentDrillUser);
  });
}
