import {
  ContentPerm,
  type EntityCourseRow,
  type EntityCourseSummary,
  MAX_ENTITY_COURSES_IDS,
  type PageQuery,
  Perm,
} from '@cc/contracts';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { z } from 'zod';
import { existingEntityIds } from '../entities/queries';
import { assertEntityInScope, entityScope, inScope } from '../entities/scope';
import { actorOf, authorize, type Ctx } from '../http/context';
import { type FieldErrors, invalid, invalidField, notFound } from '../http/errors';
import { findEntityBySlug } from '../roles/queries';
import {
  type AssignmentKind,
  assignedIds,
  availableCourses,
  deleteAssignment,
  findAssignment,
  listAssignments,
  updateAssignment,
  upsertAssignment,
  visibleIds,
} from './assignment-queries';
import { effectiveAdminOnly, visibility, visibleContentClause, visibleCourseClause } from './visibility';

/**
 * Entity content and entity courses (spec 2 §7): which organisations a content item or course is available to,
 * switched on or off there. The path entity must be in the caller's scope (404), 69 changes content and 68 courses
 * (403); an admin_only override also needs 122. Items the caller cannot see are refused as invalid (422), so other
 * organisations' ids reveal nothing.
 */
const PERM: Record<AssignmentKind, number> = {
  content: ContentPerm.entityContent,
  course: ContentPerm.entityCourses,
};
const KEY: Record<AssignmentKind, 'content_id' | 'course_id'> = {
  content: 'content_id',
  course: 'course_id',
};
const clause = (ctx: Ctx, kind: AssignmentKind) =>
  kind === 'content' ? visibleContentClause(ctx) : visibleCourseClause(ctx);

async function entityFor(ctx: Ctx, slug: string, kind: AssignmentKind) {
  actorOf(ctx);
  const entity = await findEntityBySlug(ctx.db, slug);
  if (!entity) throw notFound();
  await assertEntityInScope(ctx, entity.id);
  authorize(ctx, [PERM[kind]]);
  return entity;
}

function checkOverride(ctx: Ctx, override: boolean | null | undefined) {
  if (override !== undefined) authorize(ctx, [ContentPerm.restrictContent]);
}

/**
 * The rows listed for an entity: its visible items, and also the ones switched off there. Switching an item off
 * hides it from the entity (visibility.ts: a platform or another organisation's item reaches it only while on), yet
 * it must stay listed, and changeable, so it can be switched back on. Admin-only content stays hidden without 122.
 */
async function listedClause(ctx: Ctx, kind: AssignmentKind): Promise<RawBuilder<SqlBool>> {
  const v = await visibility(ctx);
  const own = kind === 'content' && !v.seesAdminOnly ? sql`NOT ${effectiveAdminOnly(v, 'ct')}` : sql`true`;
  return sql<SqlBool>`(${await clause(ctx, kind)} OR ${own})`;
}

/** Every id must be visible to the caller, or (`entityId`) already listed for that entity (422 otherwise). */
async function assertVisible(
  ctx: Ctx,
  kind: AssignmentKind,
  ids: number[],
  field: (i: number) => string,
  entityId?: number,
) {
  const seen = await visibleIds(ctx.db, kind, ids, await clause(ctx, kind));
  const missing = ids.filter((id) => !seen.has(id));
  if (entityId !== undefined && missing.length) {
    const listed = await visibleIds(ctx.db, kind, missing, await listedClause(ctx, kind));
    const assigned = await assignedIds(ctx.db, kind, entityId, [...listed]);
    for (const id of assigned) seen.add(id);
  }
  const errors: FieldErrors = {};
  ids.forEach((id, i) => {
    if (!seen.has(id)) errors[field(i)] = [`The selected ${KEY[kind].replace('_', ' ')} is invalid.`];
  });
  if (Object.keys(errors).length) throw invalid(errors);
}

export async function listEntityAssignments(
  ctx: Ctx,
  kind: AssignmentKind,
  slug: string,
  query: z.infer<typeof PageQuery>,
) {
  const entity = await entityFor(ctx, slug, kind);
  const { rows, total } = await listAssignments(ctx.db, kind, entity.id, await listedClause(ctx, kind), {
    search: query.search,
    page: query.page,
    perPage: query.per_page,
  });
  const data = rows.map((r) =>
    kind === 'content'
      ? {
          content_id: r.item_id,
          title: r.title,
          type: r.type,
          enabled: r.enabled,
          admin_only_override: r.admin_only_override,
        }
      : { course_id: r.item_id, title: r.title, enabled: r.enabled, inherited: r.inherited ?? false },
  );
  return { data, total };
}

async function present(ctx: Ctx, kind: AssignmentKind, entityId: number, itemId: number) {
  const row = await findAssignment(ctx.db, kind, entityId, itemId);
  if (!row) throw notFound();
  return { entity_id: entityId, [KEY[kind]]: itemId, ...row };
}

export async function addEntityAssignment(
  ctx: Ctx,
  kind: AssignmentKind,
  slug: string,
  body: { item_id: number; enabled: boolean; admin_only_override?: boolean | null },
) {
  const entity = await entityFor(ctx, slug, kind);
  checkOverride(ctx, body.admin_only_override);
  await assertVisible(ctx, kind, [body.item_id], () => KEY[kind]);
  await upsertAssignment(ctx.db, kind, entity.id, body.item_id, {
    enabled: body.enabled,
    override: body.admin_only_override,
  });
  return present(ctx, kind, entity.id, body.item_id);
}

export async function updateEntityAssignment(
  ctx: Ctx,
  kind: AssignmentKind,
  slug: string,
  itemId: number,
  body: { enabled?: boolean; admin_only_override?: boolean | null },
) {
  const entity = await entityFor(ctx, slug, kind);
  checkOverride(ctx, body.admin_only_override);
  if (!(await findAssignment(ctx.db, kind, entity.id, itemId))) throw notFound();
  await assertVisible(ctx, kind, [itemId], () => KEY[kind], entity.id);
  // An update, not an upsert: a DELETE that committed since the check above wins (404), as if it came first.
  const updated = await updateAssignment(ctx.db, kind, entity.id, itemId, {
    enabled: body.enabled,
    override: body.admin_only_override,
  });
  if (!updated) throw notFound();
  return present(ctx, kind, entity.id, itemId);
}

/** updateMultiple: every item checked first, then all rows written in one transaction (all or nothing). */
export async function updateEntityAssignments(
  ctx: Ctx,
  kind: AssignmentKind,
  slug: string,
  items: { item_id: number; enabled: boolean }[],
) {
  const entity = await entityFor(ctx, slug, kind);
  await assertVisible(
    ctx,
    kind,
    items.map((i) => i.item_id),
    (i) => `items.${i}.${KEY[kind]}`,
    entity.id,
  );
  // Rows written in item order: two calls naming the same items in other orders would otherwise each hold a row
  // the other waits for (a deadlock, answered 500).
  const ordered = [...items].sort((a, b) => a.item_id - b.item_id);
  await ctx.db.transaction().execute(async (trx) => {
    for (const item of ordered)
      await upsertAssignment(trx, kind, entity.id, item.item_id, { enabled: item.enabled });
  });
  return listEntityAssignments(ctx, kind, slug, { page: 1, per_page: 100 });
}

export async function removeEntityAssignment(ctx: Ctx, kind: AssignmentKind, slug: string, itemId: number) {
  const entity = await entityFor(ctx, slug, kind);
  if (!(await deleteAssignment(ctx.db, kind, entity.id, itemId))) throw notFound();
}

/** POST /entity-content: several content items made available to one entity (ours: mirrors /entity-permissions). */
export async function assignContent(
  ctx: Ctx,
  body: { entity: string; content_ids: number[]; enabled: boolean },
) {
  const entity = await entityFor(ctx, body.entity, 'content');
  // Sorted: rows are written in one order by every call (see updateEntityAssignments).
  const ids = [...new Set(body.content_ids)].sort((a, b) => a - b);
  await assertVisible(ctx, 'content', ids, (i) => `content_ids.${i}`);
  await ctx.db.transaction().execute(async (trx) => {
    for (const id of ids) await upsertAssignment(trx, 'content', entity.id, id, { enabled: body.enabled });
  });
  return listEntityAssignments(ctx, 'content', body.entity, { page: 1, per_page: 100 });
}

/** The courses available at each entity (entity records' `courses`, spec 1 §3): one query for the whole page. */
export async function coursesAvailableAt(
  ctx: Ctx,
  entityIds: number[],
): Promise<Map<number, EntityCourseSummary[]>> {
  const { rows } = await availableCourses(ctx.db, entityIds, await availableCoursesBound(ctx, entityIds));
  const byEntity = new Map<number, EntityCourseSummary[]>(entityIds.map((id) => [id, []]));
  for (const r of rows) byEntity.get(r.entity_id)?.push({ id: r.course_id, title: r.title });
  return byEntity;
}

/**
 * The visibility bound for courses available at `entityIds`. For entities inside the caller's scope it adds nothing:
 * what is available there is owned by, or switched on at, the entity or an ancestor, and those are all in the scope
 * or above its base, which visibleCourseClause admits anyway. Skipping it saves the ancestor query on every entity
 * list (the API-reads figure). An id outside the scope (the caller's own organisation while acting as another)
 * keeps the full clause.
 */
async function availableCoursesBound(ctx: Ctx, entityIds: number[]): Promise<RawBuilder<SqlBool>> {
  const scope = await entityScope(ctx);
  if (entityIds.every((id) => inScope(scope, id))) return sql<SqlBool>`true`;
  return visibleCourseClause(ctx);
}

/**
 * GET /entity-courses with entityIds (spec 1 §7): the courses available at each of these entities, paged. Readable
 * by whoever may read those entity records: each id in the caller's scope or their own primary entity / a_entity
 * (else 404, as for a missing entity: ids of other organisations reveal nothing), and permission 22, 53 or 68 unless
 * every id is their own (as GET /entities/{id}).
 */
export async function listEntityCourses(
  ctx: Ctx,
  ids: number[],
  query: z.infer<typeof PageQuery>,
): Promise<{ data: EntityCourseRow[]; total: number }> {
  const actor = actorOf(ctx);
  const entityIds = [...new Set(ids)];
  if (!entityIds.length) throw invalidField('entityIds', 'The entityIds field is required.');
  if (entityIds.length > MAX_ENTITY_COURSES_IDS)
    throw invalidField('entityIds', `At most ${MAX_ENTITY_COURSES_IDS} entities may be given.`);
  const own = new Set([actor.primaryEntity.id, actor.aEntityId]);
  const scope = await entityScope(ctx);
  const existing = await existingEntityIds(ctx.db, entityIds);
  if (entityIds.some((id) => !existing.has(id) || (!inScope(scope, id) && !own.has(id)))) throw notFound();
  if (entityIds.some((id) => !own.has(id)))
    authorize(ctx, [Perm.searchEntities, Perm.seeEntity, ContentPerm.entityCourses], 'any');
  const { rows, total } = await availableCourses(
    ctx.db,
    entityIds,
    await availableCoursesBound(ctx, entityIds),
    {
      page: query.page,
      perPage: query.per_page,
    },
  );
  return { data: rows, total };
}
