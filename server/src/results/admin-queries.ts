import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';
import type { ResultType } from '../db/schema';
import type { Trx } from './queries';

/**
 * SQL of the results administration (issue 5 item 1). Every read over results or users takes `entityIds`: the
 * entity ids the caller may see (entities/scope.ts), or null for no bound (super admin). A result belongs to the
 * organisation of its learner's primary entity, so that is what the bound applies to.
 */
type Executor = Db | Trx;

const bounded = (ids: number[] | null, column: string): RawBuilder<SqlBool> =>
  ids === null
    ? sql<SqlBool>`true`
    : ids.length === 0
      ? sql<SqlBool>`false`
      : sql<SqlBool>`${sql.ref(column)} IN (${sql.join(ids.map((id) => sql`${id}::int`))})`;

/** The columns every presented result needs, joined once (no N+1). */
function resultSelect(db: Executor) {
  return db
    .selectFrom('results as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .innerJoin('courses as c', 'c.id', 'r.course_id')
    .innerJoin('entities as e', 'e.id', 'r.entity_id')
    .leftJoin('contents as ct', 'ct.id', 'r.content_id')
    .leftJoin('files as f', 'f.id', 'r.evidence_file_id')
    .leftJoin('users as cb', 'cb.id', 'r.created_by')
    .leftJoin('users as ab', 'ab.id', 'r.approved_by')
    .select([
      'r.id',
      'r.uuid',
      'r.type',
      'r.status',
      'r.passed',
      'r.score',
      'r.completed_at',
      'r.expires_at',
      'r.notes',
      'r.certificate_suppressed',
      'r.created_at',
      'r.updated_at',
      'r.approved_at',
      'r.bulk_operation_id',
      'r.user_id',
      'r.entity_id',
      'r.course_id',
      'r.content_id',
      'r.evidence_file_id',
      'u.uuid as user_uuid',
      'u.name as user_name',
      'u.primary_entity_id as user_entity_id',
      'c.title as course_title',
      'e.name as entity_name',
      'ct.title as content_title',
      'ct.admin_only as content_admin_only',
      'f.uuid as evidence_uuid',
      'f.original_name as evidence_name',
      'f.mime_type as evidence_mime_type',
      'f.size_bytes as evidence_size_bytes',
      'cb.id as created_by_id',
      'cb.name as created_by_name',
      'ab.id as approved_by_id',
      'ab.name as approved_by_name',
    ])
    .where('r.deleted_at', 'is', null);
}
export type ResultRow = Awaited<ReturnType<ReturnType<typeof resultSelect>['executeTakeFirstOrThrow']>>;

/** A live result whose learner is in scope (undefined otherwise: the caller answers 404). */
export async function findResultInScope(db: Executor, id: number, entityIds: number[] | null) {
  return resultSelect(db)
    .where('r.id', '=', id)
    .where(bounded(entityIds, 'u.primary_entity_id'))
    .executeTakeFirst();
}

export interface ResultFilters {
  entityIds: number[] | null;
  type?: ResultType;
  types?: ResultType[];
  status?: 'approved' | 'pending';
  userId?: number;
  courseId?: number;
  search?: string;
  includeAssessments?: boolean;
  includeAdminOnly?: boolean;
  dateBy?: 'completed' | 'created';
  from?: Date;
  to?: Date;
}

/** A page of results, newest first by the chosen date, with the total. */
export async function listResults(db: Db, f: ResultFilters, page: { page: number; perPage: number }) {
  const dateColumn = f.dateBy === 'created' ? 'r.created_at' : 'r.completed_at';
  let q = resultSelect(db).where(bounded(f.entityIds, 'u.primary_entity_id'));
  if (f.type) q = q.where('r.type', '=', f.type);
  if (f.types) q = q.where('r.type', 'in', f.types);
  if (f.status) q = q.where('r.status', '=', f.status);
  if (f.userId) q = q.where('r.user_id', '=', f.userId);
  if (f.courseId) q = q.where('r.course_id', '=', f.courseId);
  if (f.includeAssessments === false) q = q.where('r.type', '!=', 'assessment');
  if (f.includeAdminOnly === false)
    q = q.where((eb) => eb.or([eb('ct.admin_only', 'is', null), eb('ct.admin_only', '=', false)]));
  if (f.from) q = q.where(dateColumn, '>=', f.from);
  if (f.to) q = q.where(dateColumn, '<', f.to);
  if (f.search) {
    const like = `%${f.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    q = q.where((eb) => eb.or([eb('u.name', 'ilike', like), eb('c.title', 'ilike', like)]));
  }
  const { rows, total: count } = await pageWithTotal(
    q,
    (filtered) => filtered.orderBy(dateColumn, 'desc').orderBy('r.id', 'desc'),
    { page: page.page, perPage: page.perPage },
  );
  return { rows, total: count };
}

/** The learners among `ids` whose primary entity is in scope (STYLE "Bulk checks that return the allowed set"). */
export async function usersInScope(db: Executor, ids: readonly number[], entityIds: number[] | null) {
  if (!ids.length) return [];
  return db
    .selectFrom('users')
    .select(['id', 'uuid', 'name', 'primary_entity_id'])
    .where('id', 'in', [...ids])
    .where(bounded(entityIds, 'primary_entity_id'))
    .execute();
}

export async function entityRequiresEvidence(db: Executor, entityId: number): Promise<boolean> {
  const row = await db
    .selectFrom('entities')
    .select('require_training_record_evidence')
    .where('id', '=', entityId)
    .executeTakeFirst();
  return row?.require_training_record_evidence ?? false;
}

/** Courses matching the visibility clause (courses/visibility.ts), for pickers and checks. */
export async function visibleCourses(
  db: Db,
  clause: RawBuilder<SqlBool>,
  o: { ids?: number[]; search?: string; page: number; perPage: number },
) {
  let q = db.selectFrom('courses as c').select(['c.id', 'c.title', 'c.short_title']).where(clause);
  if (o.ids) q = q.where('c.id', 'in', o.ids.length ? o.ids : [0]);
  if (o.search) {
    const like = `%${o.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    q = q.where((eb) => eb.or([eb('c.title', 'ilike', like), eb('c.short_title', 'ilike', like)]));
  }
  const { rows, total: count } = await pageWithTotal(
    q,
    (filtered) => filtered.orderBy('c.title').orderBy('c.id'),
    { page: o.page, perPage: o.perPage },
  );
  return { rows, total: count };
}

export async function insertEvidenceFile(
  trx: Executor,
  file: {
    entity_id: number;
    storage_key: string;
    original_name: string;
    mime_type: string;
    size_bytes: number;
  },
) {
  return trx
    .insertInto('files')
    .values({ ...file, purpose: 'result_evidence' })
    .returning(['id', 'uuid'])
    .executeTakeFirstOrThrow();
}

export async function findEvidenceFile(db: Executor, fileId: number) {
  return db
    .selectFrom('files')
    .select(['id', 'uuid', 'storage_key', 'original_name', 'mime_type', 'size_bytes'])
    .where('id', '=', fileId)
    .where('purpose', '=', 'result_evidence')
    .executeTakeFirst();
}

export async function deleteFileRow(trx: Executor, fileId: number) {
  await trx.deleteFrom('files').where('id', '=', fileId).execute();
}

/**
 * The stored result, locked until the transaction ends: an update computes its new values (course, date, outcome,
 * the evidence it replaces) from this row, not from a read made before the transaction (issue 10 §3).
 */
export async function lockResultRow(trx: Trx, id: number) {
  return trx
    .selectFrom('results')
    .select([
      'id',
      'user_id',
      'course_id',
      'completed_at',
      'passed',
      'expires_at',
      'evidence_file_id',
      'type',
    ])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateResultRow(
  trx: Trx,
  id: number,
  values: {
    course_id?: number;
    completed_at?: Date;
    expires_at?: Date | null;
    passed?: boolean;
    score?: number | null;
    notes?: string | null;
    evidence_file_id?: number | null;
    certificate_suppressed?: boolean;
    status?: 'approved' | 'pending';
    approved_by?: number | null;
    approved_at?: Date | null;
    deleted_at?: Date | null;
  },
  now: Date,
) {
  await trx
    .updateTable('results')
    .set({ ...values, updated_at: now })
    .where('id', '=', id)
    .execute();
}

// --- Bulk add events ------------------------------------------------------------------------------------------

export async function insertBulkOperation(
  trx: Trx,
  row: {
    entity_id: number;
    course_id: number;
    type: 'face2face' | 'historical';
    completed_at: Date;
    passed: boolean;
    user_count: number;
    created_by: number;
  },
) {
  return trx.insertInto('bulk_event_operations').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Sets bulk_operation_id on the results of one operation (inserted by recordResult, which knows no operations). */
export async function tagResultsWithOperation(trx: Trx, resultIds: number[], operationId: number) {
  if (!resultIds.length) return;
  await trx
    .updateTable('results')
    .set({ bulk_operation_id: operationId })
    .where('id', 'in', resultIds)
    .execute();
}

function operationSelect(db: Executor) {
  return db
    .selectFrom('bulk_event_operations as o')
    .innerJoin('courses as c', 'c.id', 'o.course_id')
    .innerJoin('entities as e', 'e.id', 'o.entity_id')
    .leftJoin('users as cb', 'cb.id', 'o.created_by')
    .leftJoin('users as db', 'db.id', 'o.deleted_by')
    .select([
      'o.id',
      'o.uuid',
      'o.type',
      'o.entity_id',
      'o.completed_at',
      'o.passed',
      'o.user_count',
      'o.created_at',
      'o.deleted_at',
      'c.id as course_id',
      'c.title as course_title',
      'e.name as entity_name',
      'cb.id as created_by_id',
      'cb.name as created_by_name',
      'db.id as deleted_by_id',
      'db.name as deleted_by_name',
    ]);
}
export type OperationRow = Awaited<ReturnType<ReturnType<typeof operationSelect>['executeTakeFirstOrThrow']>>;

export async function listOperations(
  db: Db,
  entityIds: number[] | null,
  o: { search?: string; page: number; perPage: number },
) {
  let q = operationSelect(db).where(bounded(entityIds, 'o.entity_id'));
  if (o.search) {
    const like = `%${o.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    q = q.where((eb) => eb.or([eb('c.title', 'ilike', like), eb('cb.name', 'ilike', like)]));
  }
  const { rows, total: count } = await pageWithTotal(
    q,
    (filtered) => filtered.orderBy('o.created_at', 'desc').orderBy('o.id', 'desc'),
    { page: o.page, perPage: o.perPage },
  );
  return { rows, total: count };
}

export async function findOperationInScope(db: Executor, id: number, entityIds: number[] | null) {
  return operationSelect(db)
    .where('o.id', '=', id)
    .where(bounded(entityIds, 'o.entity_id'))
    .executeTakeFirst();
}

/** The live results an operation created: (id, user, course) to soft-delete and recompute. */
export async function operationResults(trx: Trx, operationId: number) {
  return trx
    .selectFrom('results')
    .select(['id', 'user_id', 'course_id'])
    .where('bulk_operation_id', '=', operationId)
    .where('deleted_at', 'is', null)
    .execute();
}

export async function softDeleteResults(trx: Trx, ids: number[], now: Date) {
  if (!ids.length) return;
  await trx.updateTable('results').set({ deleted_at: now, updated_at: now }).where('id', 'in', ids).execute();
}

/** Marks the operation deleted unless it already is; false when another delete got there first. */
export async function markOperationDeleted(trx: Trx, id: number, by: number, now: Date) {
  const changed = await trx
    .updateTable('bulk_event_operations')
    .set({ deleted_at: now, deleted_by: by })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(changed.numUpdatedRows) === 1;
}
