import {
  COMPLIANCE_READ_ANY_OF,
  type Compliance,
  type ComplianceBody,
  ComplianceMessages,
  CompliancePerm,
  type UpdateComplianceBody,
} from '@cc/contracts';
import { visibleCourseClause } from '../courses/visibility';
import { findEntityByRef } from '../entities/queries';
import { entityScope, inScope } from '../entities/scope';
import { ancestorIds } from '../entities/tree';
import { actorOf, authorize, type Ctx } from '../http/context';
import { forbidden, HttpError, invalid, notFound } from '../http/errors';
import { visibleCourses } from '../results/admin-queries';
import { courseVisible } from '../results/admin-shared';
import type { Trx } from '../results/queries';
import { auditRule, ruleSnapshot } from './audit';
import { countResultsUnderRule, redateResultsUnderRule } from './queries';
import {
  deleteRule,
  type EffectiveRuleRow,
  effectiveRules,
  findOwnRule,
  findRule,
  insertRule,
  lockRule,
  newRuleDueAt,
  type RuleRow,
  ruleDueAtFrom,
  updateRule,
} from './rule-queries';
import { markScoresStale } from './scores-cache';

/**
 * Role-course compliance rows (spec 2 §3 "Compliance", §4 update flow, §7 "/compliance"; contracts compliance.ts
 * documents the shapes, the 409 existing-results marker and the permissions).
 */

const iso = (d: Date | string) => new Date(d).toISOString();

interface EntityRow {
  id: number;
  slug: string;
  name: string;
  level: 'A' | 'B';
  parent_id: number | null;
}

/** The entity a call acts for: the one named (id or slug, inside the scope, else 404), else the scope's base. */
async function actingEntity(ctx: Ctx, ref?: string): Promise<EntityRow> {
  actorOf(ctx);
  const scope = await entityScope(ctx);
  const row = await findEntityByRef(ctx.db, ref ?? String(scope.baseId));
  if (!row || !inScope(scope, row.id)) throw notFound();
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    level: row.level as 'A' | 'B',
    parent_id: row.parent_id,
  };
}

function present(
  row: EffectiveRuleRow | (RuleRow & { inherited?: boolean }),
  seenFrom: EntityRow,
): Compliance {
  return {
    id: row.id,
    entity_id: row.entity_id,
    entity: { id: row.entity_id, slug: row.entity_slug, name: row.entity_name },
    role_id: row.role_id,
    role: { id: row.role_id, name: row.role_name },
    course_id: row.course_id,
    course: { id: row.course_id, title: row.course_title },
    // spec 2 §3 "Compliance: entity, roleId, courseId": the request's names answered too (issue 38).
    roleId: row.role_id,
    courseId: row.course_id,
    type: row.type,
    validity: row.validity_months,
    due_at: row.due_at ? iso(row.due_at) : null,
    inherited: Boolean(row.inherited),
    seen_from: { id: seenFrom.id, slug: seenFrom.slug },
    updated_at: iso(row.updated_at),
  };
}

/** A job role an entity's users may hold: the entity's own or an ancestor's (a level B site uses its parent's). */
async function roleUsable(ctx: Ctx, entity: EntityRow, roleId: number) {
  const owners = await ancestorIds(ctx.db, entity.id);
  const role = await ctx.db
    .selectFrom('entity_roles')
    .select(['id', 'entity_id'])
    .where('id', '=', roleId)
    .executeTakeFirst();
  return !!role && owners.includes(role.entity_id);
}

/**
 * The existing-results marker (spec 2 §4): a validity set on a rule with passed results under it asks the caller
 * first. Returns true when previous results are to be re-dated.
 */
async function confirmRedate(
  trx: Trx,
  ruleId: number,
  courseId: number,
  updatePrevious: boolean | undefined,
): Promise<boolean> {
  if (updatePrevious !== undefined) return updatePrevious;
  const n = await countResultsUnderRule(trx, { id: ruleId, course_id: courseId });
  if (n > 0)
    throw new HttpError(409, ComplianceMessages.existingResults(n), undefined, { existing_results: n });
  return false;
}

async function reload(ctx: Ctx, entity: EntityRow, ruleId: number): Promise<Compliance> {
  const rule = await findRule(ctx.db, ruleId);
  if (!rule) throw notFound();
  const seen = await effectiveRules(ctx.db, entity.id, rule.role_id, { courseId: rule.course_id });
  const row = seen.rows.find((r) => r.id === ruleId);
  return present(row ?? { ...rule, inherited: false }, entity);
}

/** POST /compliance (68). */
export async function createCompliance(ctx: Ctx, body: ComplianceBody): Promise<Compliance> {
  const entity = await actingEntity(ctx, body.entity);
  authorize(ctx, [CompliancePerm.editEntityCourses]);
  const errors: Record<string, string[]> = {};
  if (!(await roleUsable(ctx, entity, body.roleId))) errors.roleId = [ComplianceMessages.roleInvalid];
  if (!(await courseVisible(ctx, body.courseId))) errors.courseId = [ComplianceMessages.courseInvalid];
  if (
    !errors.roleId &&
    !errors.courseId &&
    (await findOwnRule(ctx.db, entity.id, body.roleId, body.courseId))
  )
    errors.courseId = [ComplianceMessages.alreadyOnRole];
  if (Object.keys(errors).length) throw invalid(errors);
  const now = ctx.clock();
  const id = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const id = await insertRule(
        trx,
        {
          entity_id: entity.id,
          role_id: body.roleId,
          course_id: body.courseId,
          type: body.type,
          validity_months: body.validity,
          due_at: await newRuleDueAt(trx, entity.id, now, body.grace_days),
        },
        now,
      );
      // A new row changes the validity of every pass already under it (none before, or the parent's).
      if (await confirmRedate(trx, id, body.courseId, body.update_previous_results))
        await redateResultsUnderRule(
          trx,
          { id, course_id: body.courseId, validity_months: body.validity },
          now,
        );
      await auditRule(trx, ctx, 'created', null, await ruleSnapshot(trx, id));
      return id;
    })
    .catch(uniqueToTaken);
  markScoresStale();
  return reload(ctx, entity, id);
}

/** A stored row the caller may read: owned by an entity in scope, or by an ancestor of the scope's base (inherited). */
async function loadRule(ctx: Ctx, id: number) {
  actorOf(ctx);
  const rule = await findRule(ctx.db, id);
  if (!rule) throw notFound();
  const scope = await entityScope(ctx);
  const owned = inScope(scope, rule.entity_id);
  if (!owned && !(await ancestorIds(ctx.db, scope.baseId)).includes(rule.entity_id)) throw notFound();
  return { rule, owned };
}

/** GET /compliance/{id} (49, 98 or 68). */
export async function getCompliance(ctx: Ctx, id: number): Promise<Compliance> {
  const { rule, owned } = await loadRule(ctx, id);
  authorize(ctx, COMPLIANCE_READ_ANY_OF, 'any');
  const scope = await entityScope(ctx);
  const from = await actingEntity(ctx, String(owned ? rule.entity_id : scope.baseId));
  return reload(ctx, from, rule.id);
}

/**
 * PATCH /compliance/{id} (68). Changing an inherited row from a level B entity (named by `entity`, else the caller's
 * base entity) creates that entity's own overriding row: `created` tells the route to answer 201.
 */
export async function updateCompliance(
  ctx: Ctx,
  id: number,
  body: UpdateComplianceBody,
): Promise<{ row: Compliance; created: boolean }> {
  const { rule, owned } = await loadRule(ctx, id);
  const scope = await entityScope(ctx);
  const from = await actingEntity(ctx, body.entity ?? String(owned ? rule.entity_id : scope.baseId));
  authorize(ctx, [CompliancePerm.editEntityCourses]);
  const override = from.id !== rule.entity_id;
  // Only a level B child of the row's entity can override it (the view inherits one level, A → B).
  if (override && !(from.level === 'B' && from.parent_id === rule.entity_id))
    throw forbidden(ComplianceMessages.inheritedReadOnly);
  const now = ctx.clock();
  const { ruleId, created } = await ctx.db.transaction().execute(async (trx) => {
    // The row changed is read again under its lock: with the read made before the transaction, a parallel PATCH
    // could leave the row at one validity and its results re-dated to another. An override locks the parent row
    // first, so two sites' first edits of one inherited row cannot both insert an override.
    const parent = await lockRule(trx, rule.id);
    if (!parent) throw notFound();
    const existing = override ? await findOwnRule(trx, from.id, rule.role_id, rule.course_id) : undefined;
    const current = existing ? await lockRule(trx, existing.id) : parent;
    if (!current) throw notFound();
    // An override's "before" is the inherited row it replaces for this site.
    const before = await ruleSnapshot(trx, current.id);
    const type = body.type ?? current.type;
    const validity = body.validity !== undefined ? body.validity : current.validity_months;
    // A new override changes the validity its site's users had from the parent row.
    const validityChanged = validity !== current.validity_months;
    // grace_days sent: the due date counts from the day the requirement was added (the parent's, for an override:
    // its site's people have had it since then); not sent: the due date stays.
    const dueAt =
      body.grace_days !== undefined
        ? ruleDueAtFrom(override && !existing ? parent.created_at : current.created_at, body.grace_days)
        : undefined;
    let ruleId = current.id;
    if (override && !existing)
      ruleId = await insertRule(
        trx,
        {
          entity_id: from.id,
          role_id: rule.role_id,
          course_id: rule.course_id,
          type,
          validity_months: validity,
          // An override keeps the due date people already had from the parent's row (unless given again).
          due_at: dueAt !== undefined ? dueAt : ((await findRule(trx, rule.id))?.due_at ?? null),
        },
        now,
      );
    else
      await updateRule(
        trx,
        ruleId,
        { type, validity_months: validity, ...(dueAt !== undefined ? { due_at: dueAt } : {}) },
        now,
      );
    if (validityChanged && (await confirmRedate(trx, ruleId, rule.course_id, body.update_previous_results)))
      await redateResultsUnderRule(
        trx,
        { id: ruleId, course_id: rule.course_id, validity_months: validity },
        now,
      );
    const after = await ruleSnapshot(trx, ruleId);
    await auditRule(trx, ctx, override && !existing ? 'created' : 'updated', before, after);
    return { ruleId, created: override && !existing };
  });
  markScoresStale();
  return { row: await reload(ctx, from, ruleId), created };
}

/** DELETE /compliance/{id} (68): only the owner entity's rows; an override's removal brings the inherited row back. */
export async function deleteCompliance(ctx: Ctx, id: number): Promise<void> {
  const { rule, owned } = await loadRule(ctx, id);
  authorize(ctx, [CompliancePerm.editEntityCourses]);
  if (!owned) throw forbidden(ComplianceMessages.inheritedReadOnly);
  await ctx.db.transaction().execute(async (trx) => {
    const before = await ruleSnapshot(trx, rule.id);
    await deleteRule(trx, rule.id);
    await auditRule(trx, ctx, 'deleted', before, null);
  });
  markScoresStale();
}

/** GET /compliance/role/{roleId}/course/{courseId}: the row applying in the acting entity (own or inherited). */
export async function complianceForRoleCourse(
  ctx: Ctx,
  roleId: number,
  courseId: number,
  entityRef?: string,
): Promise<Compliance> {
  const entity = await actingEntity(ctx, entityRef);
  authorize(ctx, COMPLIANCE_READ_ANY_OF, 'any');
  const { rows } = await effectiveRules(ctx.db, entity.id, roleId, { courseId });
  const row = rows[0];
  if (!row) throw notFound();
  return present(row, entity);
}

/** GET /compliance/{entity}/role/{roleId}: every course of the role in the entity, own and inherited, paged. */
export async function complianceOfRole(
  ctx: Ctx,
  entityRef: string,
  roleId: number,
  page: { page: number; per_page: number; search?: string },
) {
  const entity = await actingEntity(ctx, entityRef);
  authorize(ctx, COMPLIANCE_READ_ANY_OF, 'any');
  if (!(await roleUsable(ctx, entity, roleId))) throw notFound();
  const { rows, total } = await effectiveRules(ctx.db, entity.id, roleId, {
    page: page.page,
    perPage: page.per_page,
    search: page.search || undefined,
  });
  return { data: rows.map((r) => present(r, entity)), total };
}

/**
 * GET /compliance/{entity}/courses (68; ours, for the "add a course" picker): the courses the caller may put on a job
 * role of the entity — the same visibility POST /compliance checks — by title, paged.
 */
export async function complianceCourseOptions(
  ctx: Ctx,
  entityRef: string,
  page: { page: number; per_page: number; search?: string },
) {
  await actingEntity(ctx, entityRef);
  authorize(ctx, [CompliancePerm.editEntityCourses]);
  const { rows, total } = await visibleCourses(ctx.db, await visibleCourseClause(ctx), {
    search: page.search || undefined,
    page: page.page,
    perPage: page.per_page,
  });
  return { data: rows.map((r) => ({ id: r.id, title: r.title })), total };
}

function uniqueToTaken(error: unknown): never {
  if ((error as { code?: string })?.code === '23505')
    throw invalid({ courseId: [ComplianceMessages.alreadyOnRole] });
  throw error;
}
