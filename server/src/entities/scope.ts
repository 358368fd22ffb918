import { Perm } from '@cc/contracts';
import type { ActorEntity, Ctx } from '../http/context';
import { actorOf, can, memo } from '../http/context';
import { forbidden, notFound } from '../http/errors';
import { subtreeIds } from './tree';

/**
 * THE tenant boundary. Every query over tenant data is bounded by what this returns, so read any change
 * here twice: a mistake leaks one organisation's data to another.
 *
 * - base: the acting-as entity when set, else the actor's primary entity.
 * - accessible: base and all its descendants; a super admin without acting-as reaches everything ('all').
 */
export interface EntityScope {
  baseId: number;
  accessible: ReadonlySet<number> | 'all';
}

export async function entityScope(ctx: Ctx): Promise<EntityScope> {
  const actor = actorOf(ctx);
  return memo(ctx, 'entityScope', async () => {
    const baseId = actor.actingAs?.id ?? actor.primaryEntity.id;
    if (actor.superAdmin && !actor.actingAs) return { baseId, accessible: 'all' as const };
    return { baseId, accessible: new Set(await subtreeIds(ctx.db, baseId)) };
  });
}

export function inScope(scope: EntityScope, entityId: number): boolean {
  return scope.accessible === 'all' || scope.accessible.has(entityId);
}

/** The entity ids a list should cover: the base alone, or its subtree when deep. `null` means no bound (super admin, deep). */
export async function listEntityIds(ctx: Ctx, deep: boolean | undefined): Promise<number[] | null> {
  const scope = await entityScope(ctx);
  if (!deep) return [scope.baseId];
  if (scope.accessible === 'all') return null;
  return [...scope.accessible];
}

/** Throws 404 (never 403) for an entity outside the scope, so ids of other organisations reveal nothing. */
export async function assertEntityInScope(ctx: Ctx, entityId: number): Promise<void> {
  if (!inScope(await entityScope(ctx), entityId)) throw notFound();
}

/**
 * Resolve the acting-as slug a request carries (spec 1 §6, permission 19).
 * Own primary entity and its subtree: always allowed (it only narrows). Elsewhere in the actor's level A
 * organisation: needs permission 19 (403 without; the a_entity itself falls back to no acting-as). Outside it: 404,
 * unless super admin.
 */
export async function resolveActingAs(
  ctx: Ctx,
  slug: string,
  actor: {
    superAdmin: boolean;
    primaryEntity: ActorEntity;
    aEntityId: number;
    permissions: ReadonlySet<number>;
  },
): Promise<ActorEntity | null> {
  const entity = await ctx.db
    .selectFrom('entities')
    .select(['id', 'slug', 'name', 'level', 'parent_id'])
    .where('slug', '=', slug)
    .executeTakeFirst();
  if (!entity) throw notFound();
  if (actor.superAdmin) return entity;
  const own = await subtreeIds(ctx.db, actor.primaryEntity.id);
  if (own.includes(entity.id)) return entity;
  const organisation = await subtreeIds(ctx.db, actor.aEntityId);
  if (!organisation.includes(entity.id)) throw notFound();
  if (can(actor, [Perm.actingAs])) return entity;
  // The web client sends the user's own a_entity by default (spec 1 §3); without permission 19 that means
  // "no acting-as", not a refusal.
  if (entity.id === actor.aEntityId) return null;
  throw forbidden();
}
