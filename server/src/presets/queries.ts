import { type RawBuilder, type Selectable, type SqlBool, sql, type Transaction } from 'kysely';
import type { Db } from '../db/connect';
import { pageAndCount, windowOf } from '../db/paged';
import type { Database, ReportPresetsTable, ReportSchedulesTable } from '../db/schema';

/** SQL of report presets and schedules (STYLE.md "SQL in one place"). */

export type PresetRow = Selectable<ReportPresetsTable> & {
  entity_slug: string;
  entity_name: string;
  schedules_count: number;
};
export type ScheduleRow = Selectable<ReportSchedulesTable> & {
  entity_slug: string;
  entity_name: string;
  preset_name: string;
  report_type: 'certificate' | 'matrix';
};

const presetSelect = (db: Db) =>
  db
    .selectFrom('report_presets as p')
    .innerJoin('entities as e', 'e.id', 'p.entity_id')
    .selectAll('p')
    .select([
      'e.slug as entity_slug',
      'e.name as entity_name',
      sql<number>`(SELECT count(*)::int FROM report_schedules s WHERE s.preset_id = p.id)`.as(
        'schedules_count',
      ),
    ]);

export async function listPresets(
  db: Db,
  o: {
    userId: number;
    entityId?: number;
    reportType?: string;
    search?: string;
    page: number;
    perPage: number;
  },
): Promise<{ rows: PresetRow[]; total: number }> {
  let q = db.selectFrom('report_presets as p').where('p.user_id', '=', o.userId);
  if (o.entityId) q = q.where('p.entity_id', '=', o.entityId);
  if (o.reportType) q = q.where('p.report_type', '=', o.reportType as 'matrix');
  if (o.search) q = q.where(sql<SqlBool>`p.name ILIKE ${`%${o.search.replace(/[\\%_]/g, '\\$&')}%`}`);
  const ids = q.select('p.id');
  return pageAndCount(
    presetSelect(db).where('p.id', 'in', ids).orderBy('p.name').orderBy('p.id'),
    q.select(sql<number>`count(*)::int`.as('n')),
    windowOf(o),
  );
}

/** The caller's own preset (presets are personal: anyone else gets the same 404 as a missing id). */
export async function findOwnPreset(db: Db, id: number, userId: number): Promise<PresetRow | undefined> {
  return presetSelect(db).where('p.id', '=', id).where('p.user_id', '=', userId).executeTakeFirst();
}

export type PresetValues = Omit<
  ReportPresetsTable,
  'id' | 'uuid' | 'created_at' | 'updated_at' | 'user_id' | 'entity_id'
>;

export async function insertPreset(
  db: Db,
  values: { user_id: number; entity_id: number } & Partial<Record<keyof PresetValues, unknown>>,
): Promise<number> {
  const row = await db
    .insertInto('report_presets')
    .values(values as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The preset's stored period, locked until the transaction ends (an edit checks from <= to against it). */
export async function lockPresetPeriod(trx: Transaction<Database>, id: number) {
  return trx
    .selectFrom('report_presets')
    .select(['from_date', 'to_date'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** The schedule's stored row, locked until the transaction ends: an edit merges what it is sent with this. */
export async function lockSchedule(trx: Transaction<Database>, id: number) {
  return trx.selectFrom('report_schedules').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function updatePreset(
  db: Db | Transaction<Database>,
  id: number,
  values: Partial<Record<keyof PresetValues, unknown>>,
  now: Date,
): Promise<void> {
  await db
    .updateTable('report_presets')
    .set({ ...(values as object), updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function deletePreset(db: Db, id: number): Promise<void> {
  await db.deleteFrom('report_presets').where('id', '=', id).execute();
}

// --- Scope checks: which of the given ids fall outside what the preset's entity may report on.

const intList = (ids: number[]) => sql.join(ids.map((id) => sql`${id}::int`));

export async function existingIds(
  db: Db,
  table: 'entities' | 'users' | 'entity_roles' | 'courses' | 'pathways',
  ids: number[],
  where: RawBuilder<SqlBool>,
  alias: string,
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const { rows } = await sql<{ id: number }>`
    SELECT ${sql.ref(`${alias}.id`)} AS id FROM ${sql.table(table)} AS ${sql.raw(alias)}
     WHERE ${sql.ref(`${alias}.id`)} IN (${intList(ids)}) AND ${where}`.execute(db);
  return new Set(rows.map((r) => r.id));
}

/** Options for a preset picker: rows matching `where` (and the search, or the given ids), by label. */
export async function optionRows(
  db: Db,
  c: { table: string; alias: string; label: string; where: RawBuilder<SqlBool> },
  o: { search?: string; ids?: number[]; limit: number },
): Promise<{ id: number; label: string }[]> {
  const label = sql.ref(c.label);
  const filters: RawBuilder<SqlBool>[] = [c.where];
  if (o.search) filters.push(sql<SqlBool>`${label} ILIKE ${`%${o.search.replace(/[\\%_]/g, '\\$&')}%`}`);
  if (o.ids?.length) filters.push(inIds(`${c.alias}.id`, o.ids));
  const { rows } = await sql<{ id: number; label: string }>`
    SELECT ${sql.ref(`${c.alias}.id`)} AS id, ${label} AS label
      FROM ${sql.table(c.table)} AS ${sql.raw(c.alias)}
     WHERE ${sql.join(filters, sql` AND `)}
     ORDER BY ${label}, ${sql.ref(`${c.alias}.id`)}
     LIMIT ${o.ids?.length ? Math.min(o.ids.length, 1000) : o.limit}`.execute(db);
  return rows;
}

export const inIds = (column: string, ids: number[]): RawBuilder<SqlBool> =>
  ids.length ? sql<SqlBool>`${sql.ref(column)} IN (${intList(ids)})` : sql<SqlBool>`false`;

// --- Schedules.

const scheduleSelect = (db: Db) =>
  db
    .selectFrom('report_schedules as s')
    .innerJoin('entities as e', 'e.id', 's.entity_id')
    .innerJoin('report_presets as p', 'p.id', 's.preset_id')
    .selectAll('s')
    .select(['e.slug as entity_slug', 'e.name as entity_name', 'p.name as preset_name', 'p.report_type']);

export async function listSchedules(
  db: Db,
  o: { userId: number; search?: string; page: number; perPage: number },
): Promise<{ rows: ScheduleRow[]; total: number }> {
  let q = db
    .selectFrom('report_schedules as s')
    .innerJoin('report_presets as p', 'p.id', 's.preset_id')
    .where('s.user_id', '=', o.userId);
  if (o.search) q = q.where(sql<SqlBool>`p.name ILIKE ${`%${o.search.replace(/[\\%_]/g, '\\$&')}%`}`);
  return pageAndCount(
    scheduleSelect(db)
      .where('s.id', 'in', q.select('s.id'))
      .orderBy(sql`s.next_run_at IS NULL`)
      .orderBy('s.next_run_at')
      .orderBy('s.id'),
    q.select(sql<number>`count(*)::int`.as('n')),
    windowOf(o),
  );
}

export async function findOwnSchedule(db: Db, id: number, userId: number): Promise<ScheduleRow | undefined> {
  return scheduleSelect(db).where('s.id', '=', id).where('s.user_id', '=', userId).executeTakeFirst();
}

export async function findSchedule(db: Db, id: number): Promise<ScheduleRow | undefined> {
  return scheduleSelect(db).where('s.id', '=', id).executeTakeFirst();
}

export type ScheduleValues = Omit<ReportSchedulesTable, 'id' | 'uuid' | 'created_at' | 'updated_at'>;

export async function insertSchedule(db: Db, values: Record<string, unknown>): Promise<number> {
  const row = await db
    .insertInto('report_schedules')
    .values(values as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateSchedule(
  db: Db | Transaction<Database>,
  id: number,
  values: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await db
    .updateTable('report_schedules')
    .set({ ...values, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function deleteSchedule(db: Db, id: number): Promise<void> {
  await db.deleteFrom('report_schedules').where('id', '=', id).execute();
}

/** Active schedules whose next run is due. */
export async function dueSchedules(db: Db, now: Date, limit: number) {
  return db
    .selectFrom('report_schedules')
    .select(['id', 'next_run_at', 'cron', 'timezone'])
    .where('active', '=', true)
    .where('next_run_at', '<=', now)
    .orderBy('next_run_at')
    .limit(limit)
    .execute();
}

/**
 * Moves a schedule from `due` to `next` only if it is still at `due`: of two processes seeing the same due
 * schedule, exactly one wins (true) and enqueues the run.
 */
export async function advanceSchedule(
  db: Db,
  id: number,
  due: Date,
  next: Date | null,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('report_schedules')
    .set({ next_run_at: next, last_status: 'queued', updated_at: now })
    .where('id', '=', id)
    .where('next_run_at', '=', due)
    .where('active', '=', true)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function recordRun(
  db: Db | Transaction<Database>,
  id: number,
  values: { last_run_at: Date; last_status: 'sent' | 'failed'; last_error: string | null },
): Promise<void> {
  await db.updateTable('report_schedules').set(values).where('id', '=', id).execute();
}
