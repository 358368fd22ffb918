import { type SqlBool, sql } from 'kysely';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';
import type { ComplianceType } from '../db/schema';
import type { Trx } from '../results/queries';
import { dueBySql, pendingSql, ruleDueAtSql } from './queries';

/**
 * SQL of the compliance rows API (routes.ts / service.ts). Reads of what applies go through the
 * effective_compliance_rules view (migration 006), so inheritance has one definition.
 */
type Executor = Db | Trx;

/** One stored row with its owner entity, role and course names. */
export async function findRule(db: Executor, id: number) {
  return db
    .selectFrom('compliance_rules as cr')
    .innerJoin('entities as e', 'e.id', 'cr.entity_id')
    .innerJoin('entity_roles as r', 'r.id', 'cr.role_id')
    .innerJoin('courses as c', 'c.id', 'cr.course_id')
    .select([
      'cr.id',
      'cr.entity_id',
      'e.slug as entity_slug',
      'e.name as entity_name',
      'cr.role_id',
      'r.name as role_name',
      'cr.course_id',
      'c.title as course_title',
      'cr.type',
      'cr.validity_months',
      'cr.due_at',
      'cr.updated_at',
    ])
    .where('cr.id', '=', id)
    .executeTakeFirst();
}
export type RuleRow = NonNullable<Awaited<ReturnType<typeof findRule>>>;

/**
 * The stored row's type and validity, locked until the transaction ends: a change is computed from these, so two
 * changes at once apply one after the other (issue 10 §3).
 */
export async function lockRule(trx: Trx, id: number) {
  return trx
    .selectFrom('compliance_rules')
    .select(['id', 'type', 'validity_months', 'created_at'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * A new requirement's due date (issue 33 §4): `now` plus its grace period, the given days or else the organisation's
 * "Days to complete new requirements" (entities.new_requirement_days); null when that is 0 (due at once).
 */
export async function newRuleDueAt(db: Executor, entityId: number, now: Date, graceDays?: number) {
  let days = graceDays;
  if (days === undefined) {
    const row = await db
      .selectFrom('entities')
      .select('new_requirement_days')
      .where('id', '=', entityId)
      .executeTakeFirst();
    days = row?.new_requirement_days ?? 0;
  }
  return days > 0 ? new Date(now.getTime() + days * 86_400_000) : null;
}

/**
 * A requirement's due date from a grace period given again (PATCH grace_days): the day it was added plus that many
 * days; null for 0 (due at once).
 */
export const ruleDueAtFrom = (createdAt: Date, graceDays: number) =>
  graceDays > 0 ? new Date(new Date(createdAt).getTime() + graceDays * 86_400_000) : null;

/** The stored row of (entity, role, course), if the entity has its own. */
export async function findOwnRule(db: Executor, entityId: number, roleId: number, courseId: number) {
  return db
    .selectFrom('compliance_rules')
    .select(['id'])
    .where('entity_id', '=', entityId)
    .where('role_id', '=', roleId)
    .where('course_id', '=', courseId)
    .executeTakeFirst();
}

/**
 * The rows that apply in `entityId` for `roleId` (own and inherited), by course title; one course when given.
 * One query for the page, one for the total.
 */
export async function effectiveRules(
  db: Executor,
  entityId: number,
  roleId: number,
  o: { courseId?: number; search?: string; page?: number; perPage?: number } = {},
) {
  let base = db
    .selectFrom('effective_compliance_rules as ecr')
    .innerJoin('compliance_rules as cr', 'cr.id', 'ecr.rule_id')
    .innerJoin('entities as e', 'e.id', 'cr.entity_id')
    .innerJoin('entity_roles as r', 'r.id', 'ecr.role_id')
    .innerJoin('courses as c', 'c.id', 'ecr.course_id')
    .where('ecr.entity_id', '=', entityId)
    .where('ecr.role_id', '=', roleId);
  if (o.courseId !== undefined) base = base.where('ecr.course_id', '=', o.courseId);
  if (o.search) base = base.where('c.title', 'ilike', `%${o.search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
  let rowsQ = base
    .select([
      'cr.id',
      'cr.entity_id',
      'e.slug as entity_slug',
      'e.name as entity_name',
      'ecr.role_id',
      'r.name as role_name',
      'ecr.course_id',
      'c.title as course_title',
      'ecr.type',
      'ecr.validity_months',
      'ecr.inherited',
      'cr.due_at',
      'cr.updated_at',
    ])
    .orderBy(sql`lower(c.title)`)
    .orderBy('c.id');
  if (o.perPage) rowsQ = rowsQ.limit(o.perPage).offset(((o.page ?? 1) - 1) * o.perPage);
  const [rows, total] = await Promise.all([
    rowsQ.execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}
export type EffectiveRuleRow = Awaited<ReturnType<typeof effectiveRules>>['rows'][number];

export async function insertRule(
  trx: Executor,
  row: {
    entity_id: number;
    role_id: number;
    course_id: number;
    type: ComplianceType;
    validity_months: number | null;
    /** When people who have not done it become out of date (issue 33 §4); null: at once. */
    due_at?: Date | null;
  },
  now: Date,
) {
  const { id } = await trx
    .insertInto('compliance_rules')
    .values({ ...row, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateRule(
  trx: Executor,
  id: number,
  set: { type?: ComplianceType; validity_months?: number | null; due_at?: Date | null },
  now: Date,
) {
  await trx
    .updateTable('compliance_rules')
    .set({ ...set, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function deleteRule(trx: Executor, id: number) {
  await trx.deleteFrom('compliance_rules').where('id', '=', id).execute();
}

/** The entity ids whose users a rule of `entityId` reaches: the entity and its level B children without an override. */
export async function entitiesReachedBy(db: Executor, ruleId: number) {
  const rows = await db
    .selectFrom('effective_compliance_rules')
    .select('entity_id')
    .distinct()
    .where('rule_id', '=', ruleId)
    .execute();
  return rows.map((r) => r.entity_id);
}

/**
 * A user's compliance courses: the effective rows of their role in their primary entity, each with the facts of its
 * status (latest_results, the organisation's warning days, the due date, a record awaiting approval): statusOfRow
 * (contracts courseStatus) turns them into the one status.
 */
export async function userComplianceCourses(
  db: Executor,
  user: { id: number; primary_entity_id: number; role_id: number | null },
  now: Date,
  o: { type?: ComplianceType; search?: string; page: number; perPage: number },
) {
  if (user.role_id === null) return { rows: [], total: 0 };
  let base = db
    .selectFrom('effective_compliance_rules as ecr')
    .innerJoin('entities as e', 'e.id', 'ecr.entity_id')
    .innerJoin('courses as c', 'c.id', 'ecr.course_id')
    .innerJoin('users as u', (j) => j.on('u.id', '=', user.id))
    .leftJoin('latest_results as lr', (j) =>
      j.onRef('lr.course_id', '=', 'ecr.course_id').on('lr.user_id', '=', user.id),
    )
    .leftJoin('results as rs', 'rs.id', 'lr.result_id')
    .where('ecr.entity_id', '=', user.primary_entity_id)
    .where('ecr.role_id', '=', user.role_id);
  if (o.type) base = base.where('ecr.type', '=', o.type);
  if (o.search) base = base.where('c.title', 'ilike', `%${o.search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
  const { rows, total } = await pageWithTotal(
    base,
    (filtered) =>
      filtered
        .select([
          'c.id as course_id',
          'c.title as course_title',
          'ecr.type',
          'ecr.validity_months',
          'ecr.inherited',
          'ecr.rule_id',
          'lr.result_id',
          'lr.type as result_type',
          'lr.passed',
          'lr.completed_at',
          'lr.expires_at',
          'lr.result_count',
          'lr.then_passed',
          'lr.then_expires_at',
          'lr.then_exempt',
          'e.expiry_warning',
          // contracts courseStatus's inputs beside the approved result: the due date and a record awaiting approval.
          dueBySql(now, ruleDueAtSql(sql.ref('ecr.rule_id'))).as('due_by'),
          pendingSql(sql.val(user.id), sql.ref('ecr.course_id')).as('pending'),
          // An exemption's reason (issue 28 item 6), shown where a matrix cell opens.
          'rs.notes as result_notes',
        ])
        .orderBy('ecr.type')
        .orderBy(sql`lower(c.title)`)
        .orderBy('c.id'),
    { page: o.page, perPage: o.perPage },
  );
  return { rows, total };
}

/** The user's active (not deleted, approved) exemptions for a course. */
export async function activeExemptions(db: Executor, userId: number, courseId: number) {
  return db
    .selectFrom('results')
    .select(['id', 'expires_at'])
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .where('type', '=', 'exempt')
    .where('deleted_at', 'is', null)
    .where(sql<SqlBool>`status = 'approved'`)
    .execute();
}

export async function softDeleteResults(trx: Trx, ids: number[], now: Date) {
  if (!ids.length) return;
  await trx.updateTable('results').set({ deleted_at: now, updated_at: now }).where('id', 'in', ids).execute();
}
