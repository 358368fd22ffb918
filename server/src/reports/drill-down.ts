import {
  type DrillDownEntityRow,
  type DrillDownQuery,
  type DrillDownUserRow,
  ReportsPerm,
  type RoleReportRow,
  reportScore,
} from '@cc/contracts';
import { emptyTally, sumTallies } from '../compliance/tally';
import { assertEntityInScope, entityScope } from '../entities/scope';
import { ancestorIds } from '../entities/tree';
import { actorOf, authorize, type Ctx } from '../http/context';
import { notFound } from '../http/errors';
import { withScore } from './compliance-service';
import { cellFilters } from './lists-service';
import { entityFigures, type Figures, findRoleIn, roleFigures, subtreeRows, userFigures } from './queries';

/**
 * Drill-downs (13): entities → roles → users. spec 2 §4: "Drill-down reports answering 202 are polled every 5
 * seconds until 200". The first call starts the computation in the background and waits up to
 * drillDownLimits.waitMs; if it is not done by then the answer is 202 and the client polls. Results are cached per
 * (caller, acting-as scope, route, params) for drillDownLimits.ttlMs, in this process: behind a load balancer another
 * process may compute the same figures again, which costs time, never correctness.
 *
 * /reports/drill-down/tags is not served: tags are not built in this release (the tags capability adds it).
 */
export const drillDownLimits = { waitMs: 1500, ttlMs: 60_000 };

type Entry =
  | { state: 'running'; promise: Promise<unknown>; at: number }
  | { state: 'done'; data: unknown; at: number };
const cache = new Map<string, Entry>();

export type DrillOutcome<T> = { ready: true; data: T } | { ready: false };

async function cached<T>(key: string, compute: () => Promise<T>): Promise<DrillOutcome<T>> {
  const now = Date.now();
  for (const [k, e] of cache) if (e.state === 'done' && now - e.at > drillDownLimits.ttlMs) cache.delete(k);
  const hit = cache.get(key);
  if (hit?.state === 'done') return { ready: true, data: hit.data as T };
  let promise: Promise<unknown>;
  if (hit?.state === 'running') promise = hit.promise;
  else {
    promise = compute().then(
      (data) => {
        cache.set(key, { state: 'done', data, at: Date.now() });
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
    return rows.map((u) => ({
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
      score: reportScore(u.in_date, u.expiring, u.required),
    }));
  });
}
