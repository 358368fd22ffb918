import { PathwayPerm as P } from '@cc/contracts';
import type { Selectable } from 'kysely';
import type { PathwayAllocationsTable, PathwaysTable } from '../db/schema';
import { entityScope, inScope } from '../entities/scope';
import { type Actor, actorOf, type Ctx, can } from '../http/context';
import { forbidden, notFound } from '../http/errors';
import type { DbOrTrx } from '../jobs/queries';

/**
 * Who may reach a pathway or an allocation (contracts pathways.ts "Who may do what"). THE tenant boundary of
 * pathways: every service, REST and GraphQL, loads pathways, allocations and people through here. Read any change
 * twice.
 *
 * - A pathway is reachable when its owning organisation is in the actor's entity scope (entities/scope.ts);
 *   otherwise, or when deleted or missing: 404. Reachable without the action's permission: 403.
 * - An allocation is reachable by its person, or by someone holding one of the action's permissions whose scope
 *   holds the person's primary organisation; else 404 (a missing id and someone else's look the same).
 */
export type PathwayRow = Selectable<PathwaysTable>;
export type AllocationRow = Selectable<PathwayAllocationsTable> & { user_entity_id: number };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The pathway by id, in scope, or 404. `forUpdate`: lock the row (versions and role allocations serialise on it). */
export async function pathwayFor(
  ctx: Ctx,
  id: number,
  o: { db?: DbOrTrx; forUpdate?: boolean } = {},
): Promise<PathwayRow> {
  actorOf(ctx);
  let q = (o.db ?? ctx.db)
    .selectFrom('pathways')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  if (o.forUpdate) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row || !inScope(await entityScope(ctx), row.entity_id)) throw notFound();
  return row;
}

/** 403 unless the actor holds one of `perms` (after pathwayFor / allocationFor turned out-of-scope into 404). */
export function requirePerm(ctx: Ctx, perms: number | readonly number[]): Actor {
  const actor = actorOf(ctx);
  if (!can(actor, typeof perms === 'number' ? [perms] : perms, 'any')) throw forbidden();
  return actor;
}

export function isOwn(actor: Actor, allocation: { user_id: number }): boolean {
  return actor.userId === allocation.user_id;
}

/** True when the actor may act on people of `entityId` with any of `perms`. */
export async function seesPeopleOf(ctx: Ctx, entityId: number, perms: readonly number[]): Promise<boolean> {
  return can(actorOf(ctx), perms, 'any') && inScope(await entityScope(ctx), entityId);
}

/** Anyone who may see someone else's allocations: viewers, allocators and signers. */
export const ALLOCATION_VIEW_PERMS: readonly number[] = [...P.view];

/**
 * The allocation by uuid, or 404. `perms`: the permissions that reach someone else's (default: view). `forUpdate`:
 * lock the row (sign-offs, withdrawal and completion serialise on it).
 */
export async function allocationFor(
  ctx: Ctx,
  uuid: string,
  o: { db?: DbOrTrx; forUpdate?: boolean; perms?: readonly number[] } = {},
): Promise<AllocationRow> {
  const actor = actorOf(ctx);
  if (!UUID.test(uuid)) throw notFound();
  let q = (o.db ?? ctx.db)
    .selectFrom('pathway_allocations as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .innerJoin('pathways as p', 'p.id', 'a.pathway_id')
    .selectAll('a')
    .select('u.primary_entity_id as user_entity_id')
    .where('a.uuid', '=', uuid)
    .where('p.deleted_at', 'is', null);
  if (o.forUpdate) q = q.forUpdate('a');
  const row = await q.executeTakeFirst();
  if (!row) throw notFound();
  if (!isOwn(actor, row) && !(await seesPeopleOf(ctx, row.user_entity_id, o.perms ?? ALLOCATION_VIEW_PERMS)))
    throw notFound();
  return row;
}

/** People the actor may allocate to: each in scope, or 404 (ids of other organisations reveal nothing). */
export async function peopleInScope(ctx: Ctx, userIds: readonly number[], db: DbOrTrx = ctx.db) {
  const unique = [...new Set(userIds)];
  const rows = unique.length
    ? await db
        .selectFrom('users')
        .select(['id', 'uuid', 'name', 'primary_entity_id'])
        .where('id', 'in', unique)
        .execute()
    : [];
  const scope = await entityScope(ctx);
  if (rows.length !== unique.length || rows.some((r) => !inScope(scope, r.primary_entity_id)))
    throw notFound();
  return rows;
}

/** Entity ids lists cover: null = every entity (super admin without acting-as). */
export async function scopedEntityIds(ctx: Ctx): Promise<number[] | null> {
  const scope = await entityScope(ctx);
  return scope.accessible === 'all' ? null : [...scope.accessible];
}
