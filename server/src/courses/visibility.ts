import { ContentPerm, Messages } from '@cc/contracts';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { entityScope, inScope } from '../entities/scope';
import { ancestorIds } from '../entities/tree';
import { actorOf, type Ctx, can, memo } from '../http/context';
import { forbidden } from '../http/errors';

/**
 * WHO SEES AUTHORED ITEMS: the one guarded scope builder for courses, content, lessons, topics, quizzes and H5P
 * (STYLE.md "One guarded scope builder"). Read any change here twice: a mistake leaks one organisation's
 * courses to another. Every query over these tables takes one of the clauses below.
 *
 * An item is visible to the caller when
 * - its owner entity is in `entityIds`: the caller's scope (base and descendants) plus the base's ancestors, i.e.
 *   the caller sits in the owner's subtree or manages a part of it;
 * - or it is assigned (entity_courses / entity_content, enabled) to one of those entities. A platform catalogue
 *   item (owner null) reaches organisations only this way, and only once published;
 * - a super admin without acting-as sees everything.
 * Content flagged admin_only (or overridden to it for the caller's entity chain) is hidden without permission 122.
 *
 * `forLearner` narrows to what a learner may take: published only, and not switched off (enabled = false) for
 * the caller's entity or an ancestor of it. The learning capability uses these same clauses.
 */
export interface Visibility {
  /** null: no bound (super admin without acting-as). */
  entityIds: number[] | null;
  /** The base entity and its ancestors, nearest first: where per-organisation switches and overrides apply. */
  chain: number[];
  seesAdminOnly: boolean;
}

export async function visibility(ctx: Ctx): Promise<Visibility> {
  const actor = actorOf(ctx);
  return memo(ctx, 'authoringVisibility', async () => {
    const scope = await entityScope(ctx);
    const chain = await ancestorIds(ctx.db, scope.baseId);
    const entityIds = scope.accessible === 'all' ? null : [...new Set([...scope.accessible, ...chain])];
    return { entityIds, chain, seesAdminOnly: can(actor, [ContentPerm.restrictContent]) };
  });
}

export interface VisibleOptions {
  forLearner?: boolean;
}

const col = (alias: string, column: string) => sql.ref(`${alias}.${column}`);
const inList = (ids: number[]) => sql.join(ids.map((id) => sql`${id}::int`));

/** Courses (alias `c` unless given) the caller may see. */
export async function visibleCourseClause(
  ctx: Ctx,
  o: VisibleOptions & { alias?: string } = {},
): Promise<RawBuilder<SqlBool>> {
  const v = await visibility(ctx);
  const c = o.alias ?? 'c';
  const parts: RawBuilder<unknown>[] = [];
  if (v.entityIds) {
    const ids = inList(v.entityIds);
    parts.push(sql`(${col(c, 'entity_id')} IN (${ids}) OR EXISTS (
      SELECT 1 FROM entity_courses vec WHERE vec.course_id = ${col(c, 'id')} AND vec.enabled
        AND vec.entity_id IN (${ids}) AND (${col(c, 'entity_id')} IS NOT NULL OR ${col(c, 'published')})))`);
  }
  if (o.forLearner) {
    parts.push(sql`${col(c, 'published')}`);
    parts.push(sql`NOT EXISTS (SELECT 1 FROM entity_courses voff WHERE voff.course_id = ${col(c, 'id')}
      AND NOT voff.enabled AND voff.entity_id IN (${inList(v.chain)}))`);
  }
  return parts.length ? sql<SqlBool>`(${sql.join(parts, sql` AND `)})` : sql<SqlBool>`true`;
}

/** The admin_only flag in force for the caller: the nearest entity override in the chain, else the content's. */
export function effectiveAdminOnly(v: Visibility, alias = 'ct'): RawBuilder<boolean> {
  return sql<boolean>`COALESCE((SELECT vov.admin_only_override FROM entity_content vov
    WHERE vov.content_id = ${col(alias, 'id')} AND vov.admin_only_override IS NOT NULL
      AND vov.entity_id IN (${inList(v.chain)})
    ORDER BY array_position(ARRAY[${inList(v.chain)}]::int[], vov.entity_id) LIMIT 1), ${col(alias, 'admin_only')})`;
}

/** Content (alias `ct` unless given) the caller may see: owned, assigned itself, or through its course. */
export async function visibleContentClause(
  ctx: Ctx,
  o: VisibleOptions & { alias?: string } = {},
): Promise<RawBuilder<SqlBool>> {
  const v = await visibility(ctx);
  const ct = o.alias ?? 'ct';
  const parts: RawBuilder<unknown>[] = [];
  if (v.entityIds) {
    const ids = inList(v.entityIds);
    const platformReady = sql`(${col(ct, 'entity_id')} IS NOT NULL OR ${col(ct, 'published')})`;
    parts.push(sql`(${col(ct, 'entity_id')} IN (${ids})
      OR EXISTS (SELECT 1 FROM entity_content vec WHERE vec.content_id = ${col(ct, 'id')} AND vec.enabled
        AND vec.entity_id IN (${ids}) AND ${platformReady})
      OR EXISTS (SELECT 1 FROM entity_courses vcc WHERE vcc.course_id = ${col(ct, 'course_id')} AND vcc.enabled
        AND vcc.entity_id IN (${ids}) AND ${platformReady}))`);
  }
  if (!v.seesAdminOnly) parts.push(sql`NOT ${effectiveAdminOnly(v, ct)}`);
  if (o.forLearner) {
    const chain = inList(v.chain);
    parts.push(sql`${col(ct, 'published')}`);
    parts.push(sql`NOT EXISTS (SELECT 1 FROM entity_content voff WHERE voff.content_id = ${col(ct, 'id')}
      AND NOT voff.enabled AND voff.entity_id IN (${chain}))`);
    parts.push(sql`NOT EXISTS (SELECT 1 FROM entity_courses vcoff WHERE vcoff.course_id = ${col(ct, 'course_id')}
      AND NOT vcoff.enabled AND vcoff.entity_id IN (${chain}))`);
  }
  return parts.length ? sql<SqlBool>`(${sql.join(parts, sql` AND `)})` : sql<SqlBool>`true`;
}

/**
 * Lessons, topics, quizzes and H5P items (building blocks): visible to the owner's subtree and the owner's
 * managers (same `entityIds`); platform blocks (owner null) only to super admins, learners reach them through
 * visible content. A super admin keeps the platform blocks while acting as an organisation (the web always sends
 * acting-as, issue 10 §5): acting-as narrows which organisations' blocks they see, never the platform catalogue
 * they own.
 */
export async function visibleOwnedClause(ctx: Ctx, alias: string): Promise<RawBuilder<SqlBool>> {
  const v = await visibility(ctx);
  if (!v.entityIds) return sql<SqlBool>`true`;
  const owned = sql<SqlBool>`${col(alias, 'entity_id')} IN (${inList(v.entityIds)})`;
  if (!actorOf(ctx).superAdmin) return owned;
  return sql<SqlBool>`(${owned} OR ${col(alias, 'entity_id')} IS NULL)`;
}

/**
 * Changing an item needs its owner inside the caller's scope (not an ancestor's item seen from a site), or a super
 * admin for platform items. Visible but not changeable: 403.
 */
export async function assertCanChange(ctx: Ctx, ownerEntityId: number | null): Promise<void> {
  const actor = actorOf(ctx);
  if (actor.superAdmin) return;
  if (ownerEntityId === null || !inScope(await entityScope(ctx), ownerEntityId)) {
    throw forbidden(Messages.readOnlyInherited);
  }
}

/**
 * The owner of a new item: the acting-as entity, else the author's a_entity (the organisation), or their primary
 * entity when the a_entity lies outside their scope (a site author without acting-as would otherwise create items
 * they cannot change). null (platform catalogue) for a super admin passing `platform: true`.
 */
export async function ownerForNew(ctx: Ctx, platform: boolean | undefined): Promise<number | null> {
  const actor = actorOf(ctx);
  if (platform) {
    if (!actor.superAdmin) throw forbidden('Only super admins can add items to the platform catalogue.');
    return null;
  }
  if (actor.actingAs) return actor.actingAs.id;
  return inScope(await entityScope(ctx), actor.aEntityId) ? actor.aEntityId : actor.primaryEntity.id;
}
