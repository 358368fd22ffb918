import { DesignerPerm } from '@cc/contracts';
import type { Trx } from '../courses/queries';
import type { Db } from '../db/connect';
import { entityScope, inScope } from '../entities/scope';
import { authorize, type Ctx } from '../http/context';
import { invalidField, notFound } from '../http/errors';
import { type DesignRow, findDesign } from './queries';

/**
 * Who reaches a design (contracts designer.ts "Who may do what"). THE tenant boundary of the designer: every
 * service, REST and GraphQL, loads designs through here. Read any change twice.
 *
 * - A design belongs to one organisation; it is reachable when that organisation is in the actor's entity scope
 *   (entities/scope.ts: acting-as or primary entity and its descendants; a super admin without acting-as: all).
 * - Missing, deleted or out of scope: the same 404. In scope without 29 or 63: 403.
 */

/** The entity ids a list covers; null: unbounded (super admin without acting-as). */
export async function designEntityIds(ctx: Ctx): Promise<number[] | null> {
  const scope = await entityScope(ctx);
  return scope.accessible === 'all' ? null : [...scope.accessible];
}

/** 403 unless the actor may use the designer (29 or 63). */
export function requireDesigner(ctx: Ctx) {
  return authorize(ctx, DesignerPerm.use, 'any');
}

/** The design, or 404. `db`: the caller's transaction; `forUpdate` locks the row (publishing serialises on it). */
export async function designFor(
  ctx: Ctx,
  id: number,
  o: { db?: Db | Trx; forUpdate?: boolean } = {},
): Promise<DesignRow> {
  const row = await findDesign(o.db ?? ctx.db, id, { forUpdate: o.forUpdate });
  if (!row || !inScope(await entityScope(ctx), row.entity_id)) throw notFound();
  return row;
}

/** The organisation a new design belongs to, named by slug in the body: 422 when it is not in scope. */
export async function entityForNew(ctx: Ctx, slug: string): Promise<number> {
  const entity = await ctx.db.selectFrom('entities').select('id').where('slug', '=', slug).executeTakeFirst();
  if (!entity || !inScope(await entityScope(ctx), entity.id))
    throw invalidField('entity', 'The selected organisation is invalid.');
  return entity.id;
}
