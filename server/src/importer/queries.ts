import { sql } from 'kysely';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';
import type { ImportKind, ImportStatus } from '../db/schema';
import type { DbOrTrx } from '../jobs/queries';
import { refreshLatestResults } from '../results/service';

/** SQL of the importer. Every batch is set-based: one statement for many rows, never a query per row. */

export interface PlanRow {
  rowNumber: number;
  action: 'create' | 'update' | 'unchanged';
  targetId: number | null;
  data: { label: string; values: Record<string, string>; set: Record<string, unknown> };
  changes: Record<string, { from: string | null; to: string | null }> | null;
}

export interface PlanError {
  rowNumber: number;
  column: string;
  message: string;
  values: Record<string, string>;
}

export async function insertPlanRows(db: DbOrTrx, importId: number, rows: PlanRow[]) {
  if (!rows.length) return;
  await db
    .insertInto('import_rows')
    .values(
      rows.map((r) => ({
        import_id: importId,
        row_number: r.rowNumber,
        action: r.action,
        target_id: r.targetId,
        data: JSON.stringify(r.data),
        changes: r.changes ? JSON.stringify(r.changes) : null,
        before: null,
      })),
    )
    .execute();
}

export async function insertPlanErrors(db: DbOrTrx, importId: number, errors: PlanError[]) {
  if (!errors.length) return;
  await db
    .insertInto('import_errors')
    .values(
      errors.map((e) => ({
        import_id: importId,
        row_number: e.rowNumber,
        column_name: e.column,
        message: e.message,
        row_values: JSON.stringify(e.values),
      })),
    )
    .execute();
}

/** The next batch of plan rows of an action still to apply (applied = false) or to undo (applied = true). */
export async function nextRows(
  db: DbOrTrx,
  importId: number,
  action: 'create' | 'update',
  applied: boolean,
  limit: number,
) {
  return db
    .selectFrom('import_rows')
    .select(['row_number', 'target_id', 'data', 'before'])
    .where('import_id', '=', importId)
    .where('action', '=', action)
    .where('applied', '=', applied)
    .orderBy('row_number')
    .limit(limit)
    .execute();
}

export type BatchRow = Awaited<ReturnType<typeof nextRows>>[number];
const setOf = (r: BatchRow) => (r.data as { set: Record<string, unknown> }).set;

// ------------------------------------------------------------------------------------------------ people

export interface CreatedUser {
  row_number: number;
  id: number;
  uuid: string;
  primary_entity_id: number;
  role_id: number | null;
  type_id: number | null;
  start_date: string | null;
}

/**
 * Creates people in one INSERT ... SELECT; an address or employee number taken since the plan (a unique index says
 * so) skips the row, which the caller turns into an error. Returns the people created, with their plan rows.
 */
export async function createUsers(db: DbOrTrx, importId: number, rows: BatchRow[]): Promise<CreatedUser[]> {
  const values = rows.map((r) => ({ row_number: r.row_number, ...setOf(r) }));
  const { rows: done } = await sql<CreatedUser>`
    WITH v AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS x(
        row_number int, name text, email text, employee_number text, primary_entity_id int, role_id int,
        type_id int, start_date date)),
    ins AS (
      INSERT INTO users (name, email, employee_number, primary_entity_id, role_id, type_id, start_date, user_preferences)
      SELECT name, email, employee_number, primary_entity_id, role_id, type_id, start_date, '{}'::jsonb
        FROM v ORDER BY row_number
      ON CONFLICT DO NOTHING
      RETURNING id, uuid, lower(email) AS email, primary_entity_id, role_id, type_id, start_date::text AS start_date)
    UPDATE import_rows r SET target_id = ins.id, applied = true
      FROM v JOIN ins ON ins.email = lower(v.email)
     WHERE r.import_id = ${importId} AND r.row_number = v.row_number
    RETURNING r.row_number, ins.id, ins.uuid, ins.primary_entity_id, ins.role_id, ins.type_id, ins.start_date`.execute(
    db,
  );
  return done;
}

const USER_FIELDS = [
  'name',
  'employee_number',
  'primary_entity_id',
  'role_id',
  'type_id',
  'start_date',
] as const;
const userCast: Record<(typeof USER_FIELDS)[number], string> = {
  name: 'text',
  employee_number: 'text',
  primary_entity_id: 'int',
  role_id: 'int',
  type_id: 'int',
  start_date: 'date',
};

/** `col = CASE WHEN <keys> ? 'col' THEN (<source>->>'col')::type ELSE u.col END` for each field. */
function userSetList(keys: string, source: string) {
  return sql.raw(
    USER_FIELDS.map(
      (f) => `${f} = CASE WHEN ${keys} ? '${f}' THEN (${source}->>'${f}')::${userCast[f]} ELSE u.${f} END`,
    ).join(', '),
  );
}

/**
 * Updates people: locks them, keeps their values before the change on the plan row (for undo), then one UPDATE ...
 * FROM for the batch. Only the fields the plan changes are written.
 */
export async function updateUsers(db: DbOrTrx, importId: number, rows: BatchRow[], now: Date) {
  const ids = rows.map((r) => r.target_id as number);
  const rowNumbers = rows.map((r) => r.row_number);
  await sql`SELECT id FROM users WHERE id = ANY(${ids}::int[]) ORDER BY id FOR UPDATE`.execute(db);
  await sql`
    UPDATE import_rows r SET applied = true, before = jsonb_build_object(
        'name', u.name, 'employee_number', u.employee_number, 'primary_entity_id', u.primary_entity_id,
        'role_id', u.role_id, 'type_id', u.type_id, 'start_date', u.start_date)
      FROM users u
     WHERE r.import_id = ${importId} AND r.row_number = ANY(${rowNumbers}::int[]) AND u.id = r.target_id`.execute(
    db,
  );
  await sql`
    UPDATE users u SET ${userSetList("r.data->'set'", "r.data->'set'")}, updated_at = ${now}
      FROM import_rows r
     WHERE r.import_id = ${importId} AND r.row_number = ANY(${rowNumbers}::int[]) AND u.id = r.target_id`.execute(
    db,
  );
}

/** Undo of updates: the fields the import changed get their before-values back. */
export async function restoreUsers(db: DbOrTrx, importId: number, rows: BatchRow[], now: Date) {
  const rowNumbers = rows.map((r) => r.row_number);
  await sql`
    UPDATE users u SET ${userSetList("r.data->'set'", 'r.before')}, updated_at = ${now}
      FROM import_rows r
     WHERE r.import_id = ${importId} AND r.row_number = ANY(${rowNumbers}::int[]) AND u.id = r.target_id`.execute(
    db,
  );
  await markUndone(db, importId, rowNumbers);
}

/**
 * Undo of creates: a person the import created is deleted unless they have since acquired data of their own (signed
 * in, set a password, have results, attempts or enrolments): those are KEPT (the users table has no archived state),
 * and the import's log counts them. Returns how many were kept, and the ids of those removed.
 */
export async function removeCreatedUsers(
  db: DbOrTrx,
  importId: number,
  rows: BatchRow[],
): Promise<{ kept: number; removed: number[] }> {
  const ids = rows.map((r) => r.target_id as number);
  const { rows: deleted } = await sql<{ id: number }>`
    DELETE FROM users u
     WHERE u.id = ANY(${ids}::int[])
       AND u.last_login_at IS NULL AND u.password_hash IS NULL
       AND NOT EXISTS (SELECT 1 FROM results x WHERE x.user_id = u.id)
       AND NOT EXISTS (SELECT 1 FROM attempts x WHERE x.user_id = u.id)
    RETURNING u.id`.execute(db);
  await markUndone(
    db,
    importId,
    rows.map((r) => r.row_number),
  );
  return { kept: ids.length - deleted.length, removed: deleted.map((d) => d.id) };
}

async function markUndone(db: DbOrTrx, importId: number, rowNumbers: number[]) {
  await db
    .updateTable('import_rows')
    .set({ applied: false })
    .where('import_id', '=', importId)
    .where('row_number', 'in', rowNumbers)
    .execute();
}

// ---------------------------------------------------------------------------------------------- training

/** Records historical passes in one INSERT ... SELECT (approved, as with 26); returns the results and their pairs. */
export async function createResults(
  db: DbOrTrx,
  importId: number,
  rows: BatchRow[],
  createdBy: number | null,
) {
  const values = rows.map((r) => ({ row_number: r.row_number, ...setOf(r) }));
  const { rows: done } = await sql<{ id: number; user_id: number; course_id: number }>`
    WITH v AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS x(
        row_number int, user_id int, course_id int, completed_at date, expires_at date, notes text)),
    ins AS (
      INSERT INTO results (user_id, entity_id, course_id, content_id, type, status, passed, score, completed_at,
                           expires_at, attempt_id, created_by, notes)
      SELECT v.user_id, u.primary_entity_id, v.course_id, NULL, 'historical', 'approved', true, NULL,
             v.completed_at::timestamp AT TIME ZONE 'UTC', v.expires_at::timestamp AT TIME ZONE 'UTC', NULL,
             ${createdBy}::int, v.notes
        FROM v JOIN users u ON u.id = v.user_id ORDER BY v.row_number
      RETURNING id, user_id, course_id, completed_at)
    UPDATE import_rows r SET target_id = ins.id, applied = true
      FROM v JOIN ins ON ins.user_id = v.user_id AND ins.course_id = v.course_id
                     AND ins.completed_at = v.completed_at::timestamp AT TIME ZONE 'UTC'
     WHERE r.import_id = ${importId} AND r.row_number = v.row_number
    RETURNING ins.id, v.user_id, v.course_id`.execute(db);
  return done;
}

/** Updates records' expiry and notes, keeping the values before on the plan row. */
export async function updateResults(db: DbOrTrx, importId: number, rows: BatchRow[], now: Date) {
  const ids = rows.map((r) => r.target_id as number);
  const rowNumbers = rows.map((r) => r.row_number);
  await sql`SELECT id FROM results WHERE id = ANY(${ids}::int[]) ORDER BY id FOR UPDATE`.execute(db);
  await sql`
    UPDATE import_rows r SET applied = true, before = jsonb_build_object(
        'expires_at', to_char(x.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 'notes', x.notes)
      FROM results x
     WHERE r.import_id = ${importId} AND r.row_number = ANY(${rowNumbers}::int[]) AND x.id = r.target_id`.execute(
    db,
  );
  await setResults(db, importId, rowNumbers, "r.data->'set'", now);
}

async function setResults(db: DbOrTrx, importId: number, rowNumbers: number[], source: string, now: Date) {
  await sql`
    UPDATE results x SET
        expires_at = CASE WHEN r.data->'set' ? 'expires_at'
                          THEN (${sql.raw(source)}->>'expires_at')::timestamp AT TIME ZONE 'UTC' ELSE x.expires_at END,
        notes = CASE WHEN r.data->'set' ? 'notes' THEN ${sql.raw(source)}->>'notes' ELSE x.notes END,
        updated_at = ${now}
      FROM import_rows r
     WHERE r.import_id = ${importId} AND r.row_number = ANY(${rowNumbers}::int[]) AND x.id = r.target_id
    RETURNING x.user_id, x.course_id`.execute(db);
}

export async function restoreResults(db: DbOrTrx, importId: number, rows: BatchRow[], now: Date) {
  const rowNumbers = rows.map((r) => r.row_number);
  await setResults(db, importId, rowNumbers, 'r.before', now);
  await markUndone(db, importId, rowNumbers);
}

/** Undo of created records: soft-deleted, as DELETE /results/{id} does (results/admin-service.ts softDelete). */
export async function deleteCreatedResults(db: DbOrTrx, importId: number, rows: BatchRow[], now: Date) {
  const ids = rows.map((r) => r.target_id as number);
  await sql`UPDATE results SET deleted_at = ${now}, updated_at = ${now}
             WHERE id = ANY(${ids}::int[]) AND deleted_at IS NULL`.execute(db);
  await markUndone(
    db,
    importId,
    rows.map((r) => r.row_number),
  );
}

/** The (user, course) pairs of a batch of result rows. */
export async function pairsOf(db: DbOrTrx, ids: number[]) {
  if (!ids.length) return [];
  return db.selectFrom('results').select(['user_id', 'course_id']).where('id', 'in', ids).execute();
}

/**
 * latest_results for many (user, course) pairs in one statement, by THE rule (results/service.ts
 * refreshLatestResults: latest_results_refresh, migration 063). The caller holds the pairs' locks.
 */
export async function recomputeLatestResults(
  db: DbOrTrx,
  pairs: readonly { user_id: number; course_id: number }[],
  now: Date,
) {
  await refreshLatestResults(db, pairs, now);
}

// ------------------------------------------------------------------------------------------------- reads

export function importSelect(db: Db) {
  return db
    .selectFrom('imports as i')
    .innerJoin('entities as e', 'e.id', 'i.entity_id')
    .leftJoin('users as u', 'u.id', 'i.created_by')
    .leftJoin('tasks as t', 't.id', 'i.task_id')
    .selectAll('i')
    .select([
      'e.name as entity_name',
      'u.name as created_by_name',
      't.progress_done',
      't.progress_total',
      (eb) =>
        eb
          .selectFrom('import_errors as ie')
          .select((x) => x.fn.count<number>(sql`DISTINCT ie.row_number`).as('n'))
          .whereRef('ie.import_id', '=', 'i.id')
          .where('ie.resolved_at', 'is', null)
          .as('unresolved_errors'),
    ]);
}
export type ImportRow = Awaited<ReturnType<ReturnType<typeof importSelect>['executeTakeFirstOrThrow']>>;

export async function listImports(
  db: Db,
  f: { entityIds: number[] | null; kind?: ImportKind; status?: ImportStatus; unresolved?: boolean },
  page: { page: number; perPage: number },
) {
  let q = importSelect(db);
  if (f.entityIds) q = q.where('i.entity_id', 'in', f.entityIds.length ? f.entityIds : [0]);
  if (f.kind) q = q.where('i.kind', '=', f.kind);
  if (f.status) q = q.where('i.status', '=', f.status);
  if (f.unresolved)
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('import_errors as ie')
          .select('ie.id')
          .whereRef('ie.import_id', '=', 'i.id')
          .where('ie.resolved_at', 'is', null),
      ),
    );
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) => filtered.orderBy('i.created_at', 'desc').orderBy('i.id', 'desc'),
    { page: page.page, perPage: page.perPage },
  );
  return { rows, total };
}

export async function findImport(db: Db, uuid: string) {
  return importSelect(db).where('i.uuid', '=', uuid).executeTakeFirst();
}

export async function listPlanRows(
  db: Db,
  importId: number,
  f: { action?: 'create' | 'update' | 'unchanged' },
  page: { page: number; perPage: number },
) {
  let q = db.selectFrom('import_rows').where('import_id', '=', importId);
  if (f.action) q = q.where('action', '=', f.action);
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) => filtered.select(['row_number', 'action', 'data', 'changes']).orderBy('row_number'),
    { page: page.page, perPage: page.perPage },
  );
  return { rows, total };
}

export function errorSelect(db: Db) {
  return db
    .selectFrom('import_errors as ie')
    .leftJoin('users as u', 'u.id', 'ie.resolved_by')
    .selectAll('ie')
    .select('u.name as resolved_by_name');
}
export type ErrorRow = Awaited<ReturnType<ReturnType<typeof errorSelect>['executeTakeFirstOrThrow']>>;

export async function listErrors(
  db: Db,
  importId: number,
  f: { unresolved?: boolean },
  page: { page: number; perPage: number },
) {
  let q = errorSelect(db).where('ie.import_id', '=', importId);
  if (f.unresolved) q = q.where('ie.resolved_at', 'is', null);
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) => filtered.orderBy('ie.row_number').orderBy('ie.id'),
    { page: page.page, perPage: page.perPage },
  );
  return { rows, total };
}

/**
 * Locks the import row for a phase change and reads it afresh (issue 28 §1): the statements after the lock see what a
 * concurrent phase change committed, so two clicks on a stalled import cannot both start a job.
 */
export async function lockImportForPhase(db: DbOrTrx, id: number) {
  return db
    .selectFrom('imports')
    .select(['status', 'task_id', 'applied_by'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** Whether the job of the import's task can still run: queued, or running (a dead process's lock expires into a re-run). */
export async function importJobAlive(db: DbOrTrx, taskId: number | null): Promise<boolean> {
  if (taskId === null) return false;
  const row = await db
    .selectFrom('tasks as t')
    .innerJoin('jobs as j', 'j.id', 't.job_id')
    .select('j.id')
    .where('t.id', '=', taskId)
    .where('j.status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return row !== undefined;
}
