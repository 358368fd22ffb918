import { assertEntityInScope } from '../entities/scope';
import { ancestorIds } from '../entities/tree';
import { actorOf, type Ctx } from '../http/context';
import { notFound } from '../http/errors';
import { findUserByRef } from '../users/queries';
import { learnerContentWhere } from './visibility';

/**
 * The learner a /users/{id}/... learning route is about: the caller themself, or a user whose primary entity is in
 * the caller's scope (404 otherwise, so ids of other organisations reveal nothing). Permission checks are the route's.
 */
export async function loadLearner(ctx: Ctx, ref: string) {
  const actor = actorOf(ctx);
  const user = await findUserByRef(ctx.db, ref);
  if (!user) throw notFound();
  const self = user.id === actor.userId;
  if (!self) await assertEntityInScope(ctx, user.primary_entity_id);
  return { actor, user, self };
}

/**
 * Content clauses for a learner (learning/visibility.ts): `seen` is what the caller may see of it (a missing content is
 * 404), `takeable` what the learner may take now (published, switched on). For someone else, both are also bounded
 * by the learner's own organisation chain.
 */
export async function learnerClauses(ctx: Ctx, learner: { id: number; primary_entity_id: number }) {
  const self = learner.id === actorOf(ctx).userId;
  const learnerChain = self ? null : await ancestorIds(ctx.db, learner.primary_entity_id);
  return {
    seen: await learnerContentWhere(ctx, { learnerChain, forLearner: false }),
    takeable: await learnerContentWhere(ctx, { learnerChain, forLearner: true }),
  };
}
export type LearnerClauses = Awaited<ReturnType<typeof learnerClauses>>;
