import type { ComplianceType } from '../db/schema';
import { assertEntityInScope, entityScope } from '../entities/scope';
import { ancestorIds } from '../entities/tree';
import type { Ctx } from '../http/context';
import { notFound } from '../http/errors';
import { findRoleIn, subtreeRows } from './queries';

/**
 * What a report covers, resolved against THE tenant boundary (entities/scope.ts): the chosen entities (default the
 * caller's current one) must each be in scope — an id of another organisation answers the same 404 as a missing
 * one — and `deep` adds their descendants. Role ids must be roles of those entities or their ancestors (a site uses
 * its level A parent's roles), else 404.
 */
export interface ReportScope {
  rootIds: number[];
  entities: Awaited<ReturnType<typeof subtreeRows>>;
  entityIds: number[];
}

export async function resolveReportScope(
  ctx: Ctx,
  input: { entities?: number[]; deep: boolean; roles?: number[] },
): Promise<ReportScope> {
  const scope = await entityScope(ctx);
  const rootIds = input.entities?.length ? [...new Set(input.entities)] : [scope.baseId];
  for (const id of rootIds) await assertEntityInScope(ctx, id);
  const entities = input.deep
    ? await subtreeRows(ctx.db, rootIds)
    : (await subtreeRows(ctx.db, rootIds)).filter((e) => rootIds.includes(e.id));
  const entityIds = entities.map((e) => e.id);
  if (input.roles?.length) {
    const owners = new Set(entityIds);
    for (const id of rootIds) for (const a of await ancestorIds(ctx.db, id)) owners.add(a);
    for (const roleId of new Set(input.roles))
      if (!(await findRoleIn(ctx.db, roleId, [...owners]))) throw notFound();
  }
  return { rootIds, entities, entityIds };
}

/** 'all' means both compliance types. */
export const typeFilter = (t: 'primary' | 'secondary' | 'all'): ComplianceType | null =>
  t === 'all' ? null : t;
