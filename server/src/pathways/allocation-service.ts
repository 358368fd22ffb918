import {
  type AllocationSummary,
  type AllocationView,
  PathwayMessages as M,
  PathwayPerm as P,
  type PathwayAllocationStatus,
} from '@cc/contracts';
import { londonDate } from '../bookings/session-service';
import { actorOf, type Ctx, can } from '../http/context';
import { conflict, forbidden, invalidField, notFound } from '../http/errors';
import type { DbOrTrx } from '../jobs/queries';
import {
  type AllocationListRow,
  allocationSelect,
  presentSummary,
  presentView,
  progressFor,
} from './allocation-view';
import { allDone } from './progress';
import { completeAllocation, reconcileAllocations } from './reconcile';
import { allocationFor, isOwn, pathwayFor, peopleInScope, requirePerm, scopedEntityIds } from './scope';

/**
 * Allocations: allocate to people, list a pathway's, the learner's own, view, withdraw, sign off a step and the
 * final sign-off (contracts pathways.ts "Allocation", spec 2 §4). Role allocations live in role-service.ts.
 */

const isUnique = (e: unknown) => (e as { code?: string } | null)?.code === '23505';
const LIVE = ['in_progress', 'awaiting_sign_off'] as const;
const isLive = (status: PathwayAllocationStatus) =>
  status === 'in_progress' || status === 'awaiting_sign_off';

/** What the actor may do on an allocation (never sign off their own). */
function canOn(ctx: Ctx, row: { user_id: number; status: PathwayAllocationStatus }): AllocationView['can'] {
  const actor = actorOf(ctx);
  return {
    sign_off: !isOwn(actor, row) && isLive(row.status) && can(actor, [P.signOff]),
    withdraw: isLive(row.status) && can(actor, [P.allocate]),
  };
}

/** Allocation views of these ids, in the order given (progress for all of them at once). */
async function viewsOf(ctx: Ctx, ids: readonly number[], db: DbOrTrx = ctx.db): Promise<AllocationView[]> {
  if (ids.length === 0) return [];
  const rows = await allocationSelect(db).where('a.id', 'in', ids).execute();
  const progress = await progressFor(db, rows, ctx.clock());
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [presentView(r, progress.get(r.id) ?? [], canOn(ctx, r))] : [];
  });
}

/**
 * Evidence can arrive through a path that does not record a result (a pending result approved later, a result
 * deleted): a read that finds a live allocation whose steps disagree with its status reconciles the person once.
 */
async function healStale(ctx: Ctx, rows: readonly AllocationListRow[]): Promise<boolean> {
  const progress = await progressFor(ctx.db, rows, ctx.clock());
  const stale = rows.filter((r) => {
    const done = allDone(progress.get(r.id) ?? []);
    return (r.status === 'in_progress' && done) || (r.status === 'awaiting_sign_off' && !done);
  });
  if (stale.length === 0) return false;
  await ctx.db.transaction().execute(async (trx) => {
    for (const userId of [...new Set(stale.map((r) => r.user_id))].sort((a, b) => a - b))
      await reconcileAllocations(trx, userId, undefined, { now: ctx.clock() });
  });
  return true;
}

/** GET /pathway-allocations/{uuid}: the person, or a viewer whose scope holds the person (else 404). */
export async function getAllocation(ctx: Ctx, uuid: string): Promise<AllocationView> {
  const row = await allocationFor(ctx, uuid);
  const rows = await allocationSelect(ctx.db).where('a.id', '=', row.id).execute();
  await healStale(ctx, rows);
  const [view] = await viewsOf(ctx, [row.id]);
  if (!view) throw notFound();
  return view;
}

/** GET /pathways/mine: the actor's live allocations (and completed ones when asked), newest first. */
export async function myAllocations(ctx: Ctx, includeCompleted = false): Promise<AllocationView[]> {
  const actor = actorOf(ctx);
  const statuses: PathwayAllocationStatus[] = includeCompleted ? [...LIVE, 'completed'] : [...LIVE];
  const load = () =>
    allocationSelect(ctx.db)
      .where('a.user_id', '=', actor.userId)
      .where('a.status', 'in', statuses)
      .orderBy('a.allocated_at', 'desc')
      .orderBy('a.id', 'desc')
      .execute();
  let rows = await load();
  if (await healStale(ctx, rows)) rows = await load();
  return viewsOf(
    ctx,
    rows.map((r) => r.id),
  );
}

/** GET /pathways/{id}/allocations (43 or 26): people in scope, by name; `status` filters. */
export async function listAllocations(
  ctx: Ctx,
  pathwayId: number,
  q: { page: number; per_page: number; search?: string; status?: PathwayAllocationStatus },
): Promise<{ data: AllocationSummary[]; total: number }> {
  const pathway = await pathwayFor(ctx, pathwayId);
  requirePerm(ctx, [P.allocate, P.signOff]);
  let base = allocationSelect(ctx.db).where('a.pathway_id', '=', pathway.id);
  const ids = await scopedEntityIds(ctx);
  if (ids) base = base.where('u.primary_entity_id', 'in', ids.length ? ids : [0]);
  if (q.status) base = base.where('a.status', '=', q.status);
  if (q.search) base = base.where('u.name', 'ilike', `%${q.search.replace(/[\\%_]/g, '\\$&')}%`);
  const total = await base
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await base
    .orderBy('u.name')
    .orderBy('a.id')
    .limit(q.per_page)
    .offset((q.page - 1) * q.per_page)
    .execute();
  const progress = await progressFor(ctx.db, rows, ctx.clock());
  return { data: rows.map((r) => presentSummary(r, progress.get(r.id) ?? [])), total: Number(total.n) };
}

/**
 * POST /pathways/{id}/allocations (43): each person in scope (404 otherwise) gets the current version. The partial
 * unique index decides a person who has it already, even two requests at once: 409 and nothing written. Someone
 * who already did every step completes at once (reconciled in the same transaction).
 */
export async function allocatePeople(ctx: Ctx, pathwayId: number, userIds: readonly number[]) {
  const pathway = await pathwayFor(ctx, pathwayId);
  const actor = requirePerm(ctx, [P.allocate]);
  const people = await peopleInScope(ctx, userIds);
  const now = ctx.clock();
  let ids: number[];
  try {
    ids = await ctx.db.transaction().execute(async (trx) => {
      // A share lock: a new version waits, so nobody is allocated a version that is being replaced.
      const locked = await trx
        .selectFrom('pathways')
        .select(['id', 'current_version_id'])
        .where('id', '=', pathway.id)
        .where('deleted_at', 'is', null)
        .forShare()
        .executeTakeFirst();
      if (!locked?.current_version_id) throw notFound();
      const rows = await trx
        .insertInto('pathway_allocations')
        .values(
          people.map((p) => ({
            pathway_id: pathway.id,
            version_id: locked.current_version_id as number,
            user_id: p.id,
            allocated_by: actor.userId,
            allocated_at: now,
            updated_at: now,
            step_credit: '{}',
          })),
        )
        .returning(['id', 'user_id'])
        .execute();
      for (const r of [...rows].sort((a, b) => a.user_id - b.user_id))
        await reconcileAllocations(trx, r.user_id, undefined, { now, pathwayId: pathway.id });
      return rows.map((r) => r.id);
    });
  } catch (e) {
    if (isUnique(e)) throw conflict(M.alreadyAllocated);
    throw e;
  }
  return viewsOf(ctx, ids);
}

/** DELETE /pathway-allocations/{uuid} (43): a live allocation ends as withdrawn (409 when it has ended). */
export async function withdrawAllocation(ctx: Ctx, uuid: string): Promise<void> {
  await allocationFor(ctx, uuid, { perms: [...P.view] });
  requirePerm(ctx, [P.allocate]);
  await ctx.db.transaction().execute(async (trx) => {
    const row = await allocationFor(ctx, uuid, { db: trx, forUpdate: true, perms: [...P.view] });
    if (!isLive(row.status)) throw conflict(M.notLive);
    await trx
      .updateTable('pathway_allocations')
      .set({ status: 'withdrawn', updated_at: ctx.clock() })
      .where('id', '=', row.id)
      .execute();
  });
}

/** Someone else's live allocation the actor may sign off: 404 out of scope, 403 without 26 or their own, 409 ended. */
async function signableFor(ctx: Ctx, uuid: string, db: DbOrTrx, forUpdate: boolean) {
  const row = await allocationFor(ctx, uuid, { db, forUpdate, perms: [...P.view] });
  const actor = requirePerm(ctx, [P.signOff]);
  if (isOwn(actor, row)) throw forbidden(M.ownSignOff);
  if (!isLive(row.status)) throw conflict(M.notLive);
  return { row, actor };
}

/**
 * POST /pathway-allocations/{uuid}/steps/{key}/sign-off (26): a sign-off step of the allocation's version (404
 * unknown key, 422 another type), its earlier steps done when sequential (409), never the actor's own (403), the
 * date not in the future (422). The allocation row is locked, then reconciled: the last step completes it once.
 */
export async function signOffStep(
  ctx: Ctx,
  uuid: string,
  key: string,
  body: { note: string; signed_on: string },
): Promise<AllocationView> {
  await signableFor(ctx, uuid, ctx.db, false);
  const now = ctx.clock();
  if (body.signed_on > londonDate(now)) throw invalidField('signed_on', M.signedOnFuture);
  const id = await ctx.db.transaction().execute(async (trx) => {
    const { row, actor } = await signableFor(ctx, uuid, trx, true);
    const [full] = await allocationSelect(trx).where('a.id', '=', row.id).execute();
    if (!full) throw notFound();
    const progress = (await progressFor(trx, [full], now)).get(row.id) ?? [];
    const step = progress.find((p) => p.step.key === key);
    if (!step) throw notFound();
    if (step.step.type !== 'sign_off') throw invalidField('key', M.notSignOffStep);
    if (step.status === 'locked') throw conflict(M.stepLocked);
    await trx
      .insertInto('pathway_sign_offs')
      .values({
        allocation_id: row.id,
        step_key: key,
        signed_by: actor.userId,
        signed_on: body.signed_on,
        note: body.note,
        created_at: now,
      })
      .execute();
    await reconcileAllocations(trx, row.user_id, undefined, { now, pathwayId: row.pathway_id });
    return row.id;
  });
  const [view] = await viewsOf(ctx, [id]);
  if (!view) throw notFound();
  return view;
}

/**
 * POST /pathway-allocations/{uuid}/sign-off (26): an allocation awaiting its final sign-off (409 otherwise) is
 * completed under its row lock, recording the 'pathway' result; never the actor's own (403).
 */
export async function signOffAllocation(
  ctx: Ctx,
  uuid: string,
  body: { note: string },
): Promise<AllocationView> {
  await signableFor(ctx, uuid, ctx.db, false);
  const now = ctx.clock();
  const id = await ctx.db.transaction().execute(async (trx) => {
    const { row, actor } = await signableFor(ctx, uuid, trx, true);
    if (row.status !== 'awaiting_sign_off') throw conflict(M.notAwaitingSignOff);
    const [full] = await allocationSelect(trx).where('a.id', '=', row.id).execute();
    if (!full) throw notFound();
    // The steps may have changed since it began waiting (a redo): only a finished allocation is signed off.
    if (!allDone((await progressFor(trx, [full], now)).get(row.id) ?? []))
      throw conflict(M.notAwaitingSignOff);
    await completeAllocation(trx, full, now, { by: actor.userId, note: body.note }, ctx);
    return row.id;
  });
  const [view] = await viewsOf(ctx, [id]);
  if (!view) throw notFound();
  return view;
}
