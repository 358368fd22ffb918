import { PathwayMessages as M, PathwayPerm as P, type RolePathwayView } from '@cc/contracts';
import { sql } from 'kysely';
import { lockKeys } from '../db/locks';
import { entityScope, inScope } from '../entities/scope';
import { ancestorIds } from '../entities/tree';
import { actorOf, type Ctx } from '../http/context';
import { conflict, invalidField, notFound } from '../http/errors';
import { reconcileAllocations } from './reconcile';
import { requirePerm } from './scope';

/**
 * A pathway allocated to a job role of an organisation (contracts pathways.ts "Allocation"): every member of the
 * role there or in its children, present (one INSERT ... SELECT here) and future (migration 031's trigger on users).
 * The organisation must be in scope (404), the role the organisation's or an ancestor's (404), the pathway in scope
 * (422 `pathway_id`).
 */

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const isUnique = (e: unknown) => (e as { code?: string } | null)?.code === '23505';

/** The organisation (in scope) and the role (its own or an ancestor's), or 404. */
async function roleOf(ctx: Ctx, slug: string, roleId: number) {
  actorOf(ctx);
  const entity = await ctx.db
    .selectFrom('entities')
    .select(['id', 'slug', 'name', 'parent_id'])
    .where('slug', '=', slug)
    .executeTakeFirst();
  if (!entity || !inScope(await entityScope(ctx), entity.id)) throw notFound();
  const role = await ctx.db
    .selectFrom('entity_roles')
    .select(['id', 'name'])
    .where('id', '=', roleId)
    .where('entity_id', 'in', await ancestorIds(ctx.db, entity.id))
    .executeTakeFirst();
  if (!role) throw notFound();
  return { entity, role };
}

/** GET /entities/{slug}/roles/{role}/pathways (any view permission). */
export async function rolePathways(ctx: Ctx, slug: string, roleId: number): Promise<RolePathwayView[]> {
  const { entity, role } = await roleOf(ctx, slug, roleId);
  requirePerm(ctx, P.view);
  const rows = await ctx.db
    .selectFrom('pathway_role_allocations as ra')
    .innerJoin('pathways as p', 'p.id', 'ra.pathway_id')
    .select([
      'ra.id',
      'ra.created_at',
      'p.id as pathway_id',
      'p.title',
      sql<number>`(SELECT count(*) FROM pathway_allocations a
        WHERE a.role_allocation_id = ra.id AND a.status <> 'withdrawn')::int`.as('allocations'),
    ])
    .where('ra.entity_id', '=', entity.id)
    .where('ra.role_id', '=', role.id)
    .where('p.deleted_at', 'is', null)
    .orderBy('p.title')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    entity: { id: entity.id, slug: entity.slug, name: entity.name },
    role: { id: role.id, name: role.name },
    created_at: iso(r.created_at),
    pathway: { id: r.pathway_id, title: r.title },
    allocations: Number(r.allocations),
  }));
}

/**
 * POST /entities/{slug}/roles/{role}/pathways (43): the role allocation (409 when there already), then every current
 * member in one INSERT ... SELECT ... ON CONFLICT DO NOTHING (a member who has it live keeps theirs), under a share
 * lock of the pathway so a new version is not made meanwhile. A member who completed the pathway already is not
 * allocated it again; members who already did every step complete at once.
 */
export async function allocateToRole(
  ctx: Ctx,
  slug: string,
  roleId: number,
  pathwayId: number,
): Promise<RolePathwayView[]> {
  const { entity, role } = await roleOf(ctx, slug, roleId);
  const actor = requirePerm(ctx, [P.allocate]);
  const now = ctx.clock();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      // The trigger on users takes the same lock (migration 032): a member moving in meanwhile is not missed.
      await lockKeys(trx, 'pathway_role_members', [[role.id]]);
      const pathway = await trx
        .selectFrom('pathways')
        .select(['id', 'entity_id', 'current_version_id'])
        .where('id', '=', pathwayId)
        .where('deleted_at', 'is', null)
        .forShare()
        .executeTakeFirst();
      if (!pathway?.current_version_id || !inScope(await entityScope(ctx), pathway.entity_id))
        throw invalidField('pathway_id', 'Choose a pathway.');
      const ra = await trx
        .insertInto('pathway_role_allocations')
        .values({ pathway_id: pathway.id, entity_id: entity.id, role_id: role.id, created_by: actor.userId })
        .returning('id')
        .executeTakeFirstOrThrow();
      const inserted = await sql<{ user_id: number }>`
        INSERT INTO pathway_allocations (pathway_id, version_id, user_id, role_allocation_id, allocated_by,
                                         allocated_at, updated_at)
        SELECT ${pathway.id}, ${pathway.current_version_id}, u.id, ${ra.id}, ${actor.userId}, ${now}, ${now}
          FROM users u JOIN entities e ON e.id = u.primary_entity_id
         WHERE u.role_id = ${role.id} AND (e.id = ${entity.id} OR e.parent_id = ${entity.id})
           AND NOT EXISTS (SELECT 1 FROM pathway_allocations done
                            WHERE done.pathway_id = ${pathway.id} AND done.user_id = u.id AND done.status = 'completed')
        ON CONFLICT DO NOTHING
        RETURNING user_id`.execute(trx);
      for (const r of [...inserted.rows].sort((a, b) => a.user_id - b.user_id))
        await reconcileAllocations(trx, r.user_id, undefined, { now, pathwayId: pathway.id });
    });
  } catch (e) {
    if (isUnique(e)) throw conflict(M.roleAlreadyAllocated);
    throw e;
  }
  return rolePathways(ctx, slug, roleId);
}

/**
 * DELETE /entities/{slug}/roles/{role}/pathways/{pathwayId} (43): the role allocation goes (404 when absent); the
 * people it reached who have not finished lose the pathway (withdrawn); completed ones keep their result.
 */
export async function removeFromRole(
  ctx: Ctx,
  slug: string,
  roleId: number,
  pathwayId: number,
): Promise<void> {
  const { entity, role } = await roleOf(ctx, slug, roleId);
  requirePerm(ctx, [P.allocate]);
  await ctx.db.transaction().execute(async (trx) => {
    const ra = await trx
      .selectFrom('pathway_role_allocations')
      .select('id')
      .where('pathway_id', '=', pathwayId)
      .where('entity_id', '=', entity.id)
      .where('role_id', '=', role.id)
      .forUpdate()
      .executeTakeFirst();
    if (!ra) throw notFound();
    await trx
      .updateTable('pathway_allocations')
      .set({ status: 'withdrawn', updated_at: ctx.clock() })
      .where('role_allocation_id', '=', ra.id)
      .where('status', 'in', ['in_progress', 'awaiting_sign_off'])
      .execute();
    await trx.deleteFrom('pathway_role_allocations').where('id', '=', ra.id).execute();
  });
}
