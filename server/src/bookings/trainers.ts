import type { TrainerOption, TrainersQuery } from '@cc/contracts';
import type { Db } from '../db/connect';
import { aEntityIdOf, subtreeIds } from '../entities/tree';
import { type Ctx, memo } from '../http/context';
import { forbidden } from '../http/errors';
import type { Trx } from '../results/queries';
import { sessionScope } from './scope';
import { bookedProviderIds, listTrainers } from './session-queries';

/**
 * Whose trainers a training session may name (issue 33 §3). A care group runs sessions with the training company's
 * trainer it books with (the demo's Jordan Reid of Brightpath Training on Meadowbrook's sessions), so the set is:
 * - the organisation's own tree (the level A organisation above the acting-as or primary entity, all of it), and
 * - the trees of the approved training companies that organisation books with (bookedProviderIds: its people on
 *   their sessions, or its orders of their places; a company a super admin has not approved is nobody's provider,
 *   issue 29 §7).
 * Nobody of an unrelated organisation is in it. A super admin without acting-as: every entity (null), as the
 * session's other checks. The picker (GET /training-sessions/trainers) and the save check (checkSession: 422
 * notATrainer outside it) read this one function, so they cannot disagree.
 */
export interface TrainerScope {
  /** null: any entity. */
  entityIds: number[] | null;
  providerEntityIds: ReadonlySet<number>;
}

export async function trainerScope(ctx: Ctx, db: Db | Trx = ctx.db): Promise<TrainerScope> {
  return memo(ctx, 'bookings.trainerScope', async () => {
    const scope = await sessionScope(ctx, db);
    if (scope.entityIds === null) return { entityIds: null, providerEntityIds: new Set<number>() };
    const organisation = await subtreeIds(db as Db, await aEntityIdOf(db as Db, scope.baseId));
    const own = new Set([...organisation, ...scope.entityIds]);
    const providers = await bookedProviderIds(db, [...own]);
    const providerEntityIds = new Set<number>();
    for (const id of providers) for (const e of await subtreeIds(db as Db, id)) providerEntityIds.add(e);
    return { entityIds: [...new Set([...own, ...providerEntityIds])], providerEntityIds };
  });
}

/**
 * GET /training-sessions/trainers: one page of the trainers a session may name, by name. For those who run
 * sessions (a bookings staff permission with the bookings area on, or a super admin); others 403.
 */
export async function searchTrainers(
  ctx: Ctx,
  q: TrainersQuery,
): Promise<{ data: TrainerOption[]; total: number }> {
  const scope = await sessionScope(ctx);
  if (!scope.actor.superAdmin && scope.staffEntityIds !== null && scope.staffEntityIds.length === 0)
    throw forbidden();
  const { entityIds, providerEntityIds } = await trainerScope(ctx);
  return listTrainers(ctx.db, entityIds, providerEntityIds, {
    search: q.search || undefined,
    limit: q.per_page,
    offset: (q.page - 1) * q.per_page,
  });
}
