import type { CellStatus, ComplianceTally } from '@cc/contracts';
import { type SqlBool, sql } from 'kysely';
import {
  cellStatusSql,
  countedSql,
  type NewStartersFilter,
  newStarterSql,
  requirementStatusSql,
  statusCountColumns,
  statusValue,
} from '../compliance/queries';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';
import type { ComplianceType, ResultType } from '../db/schema';
import type { Trx } from '../results/queries';

/**
 * SQL of the reports (STYLE.md "SQL in one place"). Every read takes `entityIds`: the entities whose users (by primary
 * entity) the report covers, already bounded by the caller's scope (reports/scope.ts). Cell status, new starters and
 * inheritance come from the compliance core (compliance/queries.ts, the effective_compliance_rules view), so the
 * reports, the matrix and the scores agree by construction.
 */
type Executor = Db | Trx;

export interface CellFilters {
  entityIds: number[];
  roleIds?: number[];
  courseIds?: number[];
  /** null: both types. */
  type: ComplianceType | null;
  newStarters: NewStartersFilter;
  /** Only users linked to one of these tags (the drill-down by tags). */
  tagIds?: number[];
}

/** The user aliased `u` is linked to one of the tags: an EXISTS, so a user in two of them still counts once. */
const taggedWith = (tagIds: number[]) =>
  sql<SqlBool>`EXISTS (SELECT 1 FROM tag_users tu WHERE tu.user_id = u.id AND tu.tag_id IN (${sql.join(tagIds)}))`;

/** The figures of a set of cells (contracts ComplianceTally). */
export type Figures = ComplianceTally;

/** A filter reads the user's own columns (start date, tags): only then do the cells join `users`. */
const readsUsers = (f: CellFilters) => f.newStarters !== 'include_new_starters' || f.tagIds !== undefined;

/**
 * The cells (user_requirements `ecr`: the effective rules per user with the latest result's passed / expires_at /
 * exempt, kept on write) with their organisation `e` (its expiry_warning), filtered; the one join every figure
 * groups. The cell status is requirementStatusSql over `ecr`, at `now`. ecr.entity_id and ecr.role_id are the
 * user's primary entity and role (the triggers of migration 009 rewrite a user's rows when either changes, in the
 * same transaction), so the cells are read by organisation on their own index, and `users` (as `u`) is joined only
 * for a filter that reads it: a join of every cell to its user was ~40 ms CPU of the report's 300,000.
 */
function cells(db: Executor, f: CellFilters, now: Date) {
  let q = db
    .selectFrom('user_requirements as ecr')
    .innerJoin('entities as e', 'e.id', 'ecr.entity_id')
    .where('ecr.entity_id', 'in', f.entityIds)
    // A new requirement's never-done cells count from its due date (issue 33 §4), as in the scores.
    .where(countedSql(now, 'ecr'));
  if (f.type) q = q.where('ecr.type', '=', f.type);
  if (f.roleIds?.length) q = q.where('ecr.role_id', 'in', f.roleIds);
  if (f.courseIds?.length) q = q.where('ecr.course_id', 'in', f.courseIds);
  return q.$if(readsUsers(f), (qb) => {
    let withUser = qb.innerJoin('users as u', 'u.id', 'ecr.user_id');
    if (f.tagIds) withUser = withUser.where(f.tagIds.length ? taggedWith(f.tagIds) : sql<SqlBool>`false`);
    if (f.newStarters === 'exclude_new_starters')
      withUser = withUser.where(sql<SqlBool>`NOT ${newStarterSql(now)}`);
    if (f.newStarters === 'new_starters_only') withUser = withUser.where(newStarterSql(now));
    return withUser;
  });
}

const figureColumns = (now: Date) =>
  [
    sql<number>`count(DISTINCT ecr.user_id)::int`.as('users'),
    sql<number>`count(*)::int`.as('required'),
    ...statusCountColumns(requirementStatusSql(now, 'ecr')),
  ] as const;

/**
 * How many (user, course) cells a report over these filters computes: the spec 2 §4 "too large" test. Cheap and
 * exact without the new-starter filter (an upper bound with it): users counted per (entity, role) times the rules
 * per (entity, role), both grouped before the join, so it never walks the cells themselves.
 */
export async function countCells(db: Executor, f: CellFilters, now: Date): Promise<number> {
  if (f.entityIds.length === 0) return 0;
  let users = db
    .selectFrom('users as u')
    .select(['u.primary_entity_id as entity_id', 'u.role_id', sql<number>`count(*)`.as('n')])
    .where('u.primary_entity_id', 'in', f.entityIds)
    .where('u.role_id', 'is not', null)
    .groupBy(['u.primary_entity_id', 'u.role_id']);
  if (f.roleIds?.length) users = users.where('u.role_id', 'in', f.roleIds);
  let rules = db
    .selectFrom('effective_compliance_rules as ecr')
    .select(['ecr.entity_id', 'ecr.role_id', sql<number>`count(*)`.as('n')])
    .where('ecr.entity_id', 'in', f.entityIds)
    .groupBy(['ecr.entity_id', 'ecr.role_id']);
  if (f.type) rules = rules.where('ecr.type', '=', f.type);
  if (f.courseIds?.length) rules = rules.where('ecr.course_id', 'in', f.courseIds);
  void now;
  const row = await db
    .selectFrom(users.as('us'))
    .innerJoin(rules.as('rs'), (j) =>
      j.onRef('rs.entity_id', '=', 'us.entity_id').onRef('rs.role_id', '=', 'us.role_id'),
    )
    .select(sql<number>`coalesce(sum(us.n * rs.n), 0)::bigint`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Per entity: how many of its own users have at least one requirement under the filters. */
async function usersWithRequirements(db: Executor, f: CellFilters, now: Date): Promise<Map<number, number>> {
  let q = db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .select(['u.primary_entity_id as entity_id', sql<number>`count(*)::int`.as('n')])
    .where('u.primary_entity_id', 'in', f.entityIds)
    .where(({ exists, selectFrom }) => {
      let rules = selectFrom('user_requirements as ecr')
        .select(sql`1`.as('x'))
        .whereRef('ecr.user_id', '=', 'u.id');
      if (f.type) rules = rules.where('ecr.type', '=', f.type);
      if (f.courseIds?.length) rules = rules.where('ecr.course_id', 'in', f.courseIds);
      return exists(rules);
    })
    .groupBy('u.primary_entity_id');
  if (f.roleIds?.length) q = q.where('u.role_id', 'in', f.roleIds);
  if (f.newStarters === 'exclude_new_starters') q = q.where(sql<SqlBool>`NOT ${newStarterSql(now)}`);
  if (f.newStarters === 'new_starters_only') q = q.where(newStarterSql(now));
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.entity_id, r.n]));
}

/**
 * Figures per entity (its OWN users) and per course in ONE pass over the cells: the status of each cell is computed
 * once in a subquery, as its code (cheaper to compare than its name, for each of the five counts of both groupings),
 * then GROUPING SETS aggregates it both ways (the compliance report's hot path, bench compliance-report).
 */
export async function entityAndCourseFigures(db: Executor, f: CellFilters, now: Date) {
  if (f.entityIds.length === 0) return { entities: [], courses: [] };
  const cellRows = cells(db, f, now).select([
    'ecr.entity_id',
    'ecr.course_id',
    sql<number>`${requirementStatusSql(now, 'ecr', 'e', 'code')}`.as('status'),
  ]);
  const count = (s: CellStatus) => sql`count(*) FILTER (WHERE c.status = ${statusValue(s, 'code')})::int`;
  // An entity's users (with at least one cell) are counted apart, over users alone, rather than with a
  // count(DISTINCT) sort over every cell; on a connection of its own while the cells are grouped.
  const [{ rows }, userCounts] = await Promise.all([
    sql<Figures & { entity_id: number | null; course_id: number | null; entity_rolled: number }>`
      SELECT c.entity_id, c.course_id, GROUPING(c.entity_id)::int AS entity_rolled,
        count(*)::int AS users, count(*)::int AS required,
        ${count('in_date')} AS in_date, ${count('expiring')} AS expiring, ${count('expired')} AS expired,
        ${count('missing')} AS missing, ${count('exempt')} AS exempt
      FROM (${cellRows}) c
      GROUP BY GROUPING SETS ((c.entity_id), (c.course_id))`.execute(db),
    usersWithRequirements(db, f, now),
  ]);
  // GROUPING(entity_id) is 1 on the rows grouped by course (entity rolled up), 0 on the rows grouped by entity.
  // A (user, course) cell is unique, so a course's users are its cells.
  const entities = rows
    .filter((r) => r.entity_rolled === 0)
    .map((r) => ({
      ...r,
      entity_id: r.entity_id as number,
      users: userCounts.get(r.entity_id as number) ?? 0,
    }));
  const byCourse = rows.filter((r) => r.entity_rolled === 1);
  const titles = byCourse.length
    ? await db
        .selectFrom('courses')
        .select(['id', 'title'])
        .where(
          'id',
          'in',
          byCourse.map((r) => r.course_id as number),
        )
        .execute()
    : [];
  const titleOf = new Map(titles.map((t) => [t.id, t.title]));
  const courses = byCourse
    .map((r) => ({ ...r, id: r.course_id as number, title: titleOf.get(r.course_id as number) ?? '' }))
    .sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
  return { entities, courses };
}

/** Figures of each entity's OWN users (callers sum descendants for a deep figure). */
export async function entityFigures(db: Executor, f: CellFilters, now: Date) {
  if (f.entityIds.length === 0) return [];
  return cells(db, f, now)
    .select(['ecr.entity_id', ...figureColumns(now)])
    .groupBy('ecr.entity_id')
    .execute();
}

/** Figures per course over all the entities. */
export async function courseFigures(db: Executor, f: CellFilters, now: Date) {
  if (f.entityIds.length === 0) return [];
  return cells(db, f, now)
    .innerJoin('courses as c', 'c.id', 'ecr.course_id')
    .select(['c.id', 'c.title', ...figureColumns(now)])
    .groupBy(['c.id', 'c.title'])
    .orderBy('c.title')
    .orderBy('c.id')
    .execute();
}

/** Figures per job role (POST /reports/role, drill-down roles). */
export async function roleFigures(db: Executor, f: CellFilters, now: Date) {
  if (f.entityIds.length === 0) return [];
  return cells(db, f, now)
    .innerJoin('entity_roles as r', 'r.id', 'ecr.role_id')
    .select(['r.id', 'r.name', 'r.inspectable', ...figureColumns(now)])
    .groupBy(['r.id', 'r.name', 'r.inspectable'])
    .orderBy('r.name')
    .orderBy('r.id')
    .execute();
}

/** Figures per user (drill-down users, the staff export): users without any requirement are listed with zeros. */
export async function userFigures(db: Executor, f: CellFilters, now: Date) {
  if (f.entityIds.length === 0) return [];
  const status = cellStatusSql(now);
  let q = db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .leftJoin('entity_roles as r', 'r.id', 'u.role_id')
    .leftJoin('effective_compliance_rules as ecr', (j) => {
      let on = j.onRef('ecr.entity_id', '=', 'u.primary_entity_id').onRef('ecr.role_id', '=', 'u.role_id');
      if (f.type) on = on.on('ecr.type', '=', f.type);
      if (f.courseIds?.length) on = on.on('ecr.course_id', 'in', f.courseIds);
      return on;
    })
    .leftJoin('latest_results as lr', (j) =>
      j.onRef('lr.user_id', '=', 'u.id').onRef('lr.course_id', '=', 'ecr.course_id'),
    )
    .where('u.primary_entity_id', 'in', f.entityIds)
    .select([
      'u.id',
      'u.uuid',
      'u.name',
      'u.email',
      'u.start_date',
      'u.last_login_at',
      'e.id as entity_id',
      'e.name as entity_name',
      'r.id as role_id',
      'r.name as role_name',
      sql<boolean>`${newStarterSql(now)}`.as('new_starter'),
      sql<number>`count(ecr.course_id)::int`.as('required'),
      ...statusCountColumns(status, sql`ecr.course_id`),
    ])
    .groupBy(['u.id', 'e.id', 'r.id'])
    .orderBy('u.name')
    .orderBy('u.id');
  if (f.roleIds?.length) q = q.where('u.role_id', 'in', f.roleIds);
  if (f.tagIds) q = q.where(f.tagIds.length ? taggedWith(f.tagIds) : sql<SqlBool>`false`);
  if (f.newStarters === 'exclude_new_starters') q = q.where(sql<SqlBool>`NOT ${newStarterSql(now)}`);
  if (f.newStarters === 'new_starters_only') q = q.where(newStarterSql(now));
  return q.execute();
}

/** Entity rows of these ids (name, tree links). */
export async function entitiesByIds(db: Executor, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('entities')
    .select(['id', 'name', 'slug', 'level', 'parent_id'])
    .where('id', 'in', ids)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** The subtree rows of several roots (each root with all its descendants). */
export async function subtreeRows(db: Executor, rootIds: number[]) {
  if (rootIds.length === 0) return [];
  const { rows } = await sql<{
    id: number;
    name: string;
    slug: string;
    level: 'A' | 'B';
    parent_id: number | null;
  }>`
    WITH RECURSIVE tree AS (
      SELECT id FROM entities WHERE id IN (${sql.join(rootIds.map((id) => sql`${id}::int`))})
      UNION
      SELECT e.id FROM entities e JOIN tree t ON e.parent_id = t.id
    )
    SELECT e.id, e.name, e.slug, e.level, e.parent_id FROM entities e JOIN tree t ON t.id = e.id
    ORDER BY e.name, e.id`.execute(db);
  return rows;
}

/** A role of one of these entities (a site uses its level A parent's roles). */
export async function findRoleIn(db: Executor, roleId: number, entityIds: number[]) {
  if (entityIds.length === 0) return undefined;
  return db
    .selectFrom('entity_roles')
    .select(['id', 'name', 'entity_id'])
    .where('id', '=', roleId)
    .where('entity_id', 'in', entityIds)
    .executeTakeFirst();
}

/** Summed snapshot figures of these entities for each month (first days, 'YYYY-MM-DD'). */
export async function snapshotTrend(
  db: Executor,
  entityIds: number[],
  months: string[],
  type: ComplianceType | null,
) {
  if (entityIds.length === 0 || months.length === 0) return [];
  let q = db
    .selectFrom('compliance_snapshots as s')
    .select([
      sql<string>`to_char(s.month, 'YYYY-MM')`.as('month'),
      sql<number>`sum(s.users)::int`.as('users'),
      sql<number>`sum(s.required)::int`.as('required'),
      sql<number>`sum(s.in_date)::int`.as('in_date'),
      sql<number>`sum(s.expiring)::int`.as('expiring'),
      sql<number>`sum(s.expired)::int`.as('expired'),
      sql<number>`sum(s.missing)::int`.as('missing'),
      sql<number>`sum(s.exempt)::int`.as('exempt'),
    ])
    .where('s.entity_id', 'in', entityIds)
    .where(sql<SqlBool>`s.month IN (${sql.join(months.map((m) => sql`${m}::date`))})`)
    .groupBy('s.month');
  if (type) q = q.where('s.type', '=', type);
  return q.execute();
}

/** Every entity id (the monthly snapshot job covers them all). */
export async function allEntityIds(db: Executor): Promise<number[]> {
  const rows = await db.selectFrom('entities').select('id').orderBy('id').execute();
  return rows.map((r) => r.id);
}

export async function snapshotMonthExists(db: Executor, month: string): Promise<boolean> {
  const row = await db
    .selectFrom('compliance_snapshots')
    .select('entity_id')
    .where(sql<SqlBool>`month = ${month}::date`)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Back-fill: the figures of `month` as they stood at `at` (its end), from results history rather than
 * latest_results: for each (user, required course), the latest approved passed result completed before `at`
 * (else the latest result), with its status at `at`. Users who started (start_date, else account creation) after
 * `at` are left out. Roles, rules and
 * entity settings are today's (their history is not kept). Idempotent per (entity, month, type).
 */
export async function backfillSnapshots(
  trx: Trx,
  entityIds: number[],
  month: string,
  at: Date,
): Promise<number> {
  if (entityIds.length === 0) return 0;
  const status = cellStatusSql(at, 'lr', 'e');
  const { rows } = await sql<{ n: number }>`
    WITH figures AS (
      SELECT u.primary_entity_id AS entity_id, ecr.type,
             count(DISTINCT u.id)::int AS users,
             count(*)::int AS required,
             count(*) FILTER (WHERE ${status} = 'in_date')::int AS in_date,
             count(*) FILTER (WHERE ${status} = 'expiring')::int AS expiring,
             count(*) FILTER (WHERE ${status} = 'expired')::int AS expired,
             count(*) FILTER (WHERE ${status} = 'missing')::int AS missing,
             count(*) FILTER (WHERE ${status} = 'exempt')::int AS exempt
        FROM users u
        JOIN entities e ON e.id = u.primary_entity_id
        JOIN effective_compliance_rules ecr ON ecr.entity_id = u.primary_entity_id AND ecr.role_id = u.role_id
        LEFT JOIN LATERAL (
          SELECT r.passed, r.type, r.expires_at, NULL::boolean AS then_passed, NULL::timestamptz AS then_expires_at,
                 false AS then_exempt
            FROM results r
           WHERE r.user_id = u.id AND r.course_id = ecr.course_id AND r.status = 'approved'
             AND r.deleted_at IS NULL AND r.completed_at < ${at}
           -- An exemption ended by then counts for nothing (it stays the row only when nothing else is: missing).
           ORDER BY coalesce(r.type = 'exempt' AND r.expires_at <= ${at}, false) ASC, r.passed DESC, r.completed_at DESC, r.id DESC
           LIMIT 1
        ) lr ON true
       WHERE u.primary_entity_id IN (${sql.join(entityIds.map((id) => sql`${id}::int`))})
         AND coalesce(u.start_date::timestamptz, u.created_at) < ${at}
       GROUP BY u.primary_entity_id, ecr.type
    ), written AS (
      INSERT INTO compliance_snapshots (entity_id, month, type, users, required, in_date, expiring, expired, missing,
                                        exempt, created_at)
      SELECT entity_id, ${month}::date, type, users, required, in_date, expiring, expired, missing, exempt, ${at}
        FROM figures
      ON CONFLICT (entity_id, month, type) DO UPDATE SET
        users = excluded.users, required = excluded.required, in_date = excluded.in_date,
        expiring = excluded.expiring, expired = excluded.expired, missing = excluded.missing,
        exempt = excluded.exempt, created_at = excluded.created_at
      RETURNING 1
    )
    SELECT count(*)::int AS n FROM written`.execute(trx);
  return rows[0]?.n ?? 0;
}

// --- Certificates and results lists.

export interface ResultListFilters {
  entityIds: number[];
  userIds?: number[];
  courseIds?: number[];
  roleIds?: number[];
  types?: ResultType[];
  /** Certificates: passed, approved results only. */
  passedOnly?: boolean;
  passed?: boolean | null;
  dateColumn: 'completed_at' | 'expires_at' | 'created_at';
  from?: Date;
  to?: Date;
  includeAssessments?: boolean;
  includeAdminOnly?: boolean;
  /** Certificates: hide suppressed ones (callers without 124). */
  hideSuppressed?: boolean;
  /** A grade label to match ('Pass' / 'Exempt'; see contracts CertificateReportBody). */
  grade?: string | null;
  newStarters?: NewStartersFilter;
  now: Date;
}

function resultList(db: Executor, f: ResultListFilters) {
  const date = sql.ref(`r.${f.dateColumn}`);
  let q = db
    .selectFrom('results as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .innerJoin('courses as c', 'c.id', 'r.course_id')
    .leftJoin('entity_roles as ro', 'ro.id', 'u.role_id')
    .leftJoin('contents as ct', 'ct.id', 'r.content_id')
    .where('r.deleted_at', 'is', null)
    .where('u.primary_entity_id', 'in', f.entityIds);
  if (f.passedOnly) q = q.where('r.passed', '=', true).where('r.status', '=', 'approved');
  if (f.passed !== undefined && f.passed !== null) q = q.where('r.passed', '=', f.passed);
  if (f.userIds?.length) q = q.where('r.user_id', 'in', f.userIds);
  if (f.courseIds?.length) q = q.where('r.course_id', 'in', f.courseIds);
  if (f.roleIds?.length) q = q.where('u.role_id', 'in', f.roleIds);
  if (f.types?.length) q = q.where('r.type', 'in', f.types);
  if (f.includeAssessments === false) q = q.where('r.type', '<>', 'assessment');
  if (f.includeAdminOnly === false)
    q = q.where((eb) => eb.or([eb('ct.admin_only', 'is', null), eb('ct.admin_only', '=', false)]));
  if (f.hideSuppressed) q = q.where('r.certificate_suppressed', '=', false);
  if (f.from) q = q.where(sql<SqlBool>`${date} >= ${f.from}`);
  if (f.to) q = q.where(sql<SqlBool>`${date} < ${f.to}`);
  if (f.grade) {
    const g = f.grade.toLowerCase();
    q = q.where(sql<SqlBool>`(CASE WHEN r.type = 'exempt' THEN 'exempt' ELSE 'pass' END) = ${g}`);
  }
  if (f.newStarters === 'exclude_new_starters') q = q.where(sql<SqlBool>`NOT ${newStarterSql(f.now)}`);
  if (f.newStarters === 'new_starters_only') q = q.where(newStarterSql(f.now));
  return q;
}

const resultColumns = [
  'r.id',
  'r.uuid',
  'r.type',
  'r.status',
  'r.passed',
  'r.score',
  'r.completed_at',
  'r.expires_at',
  'r.created_at',
  'r.certificate_suppressed',
  'u.id as user_id',
  'u.uuid as user_uuid',
  'u.name as user_name',
  'u.email as user_email',
  'e.id as entity_id',
  'e.name as entity_name',
  'ro.id as role_id',
  'ro.name as role_name',
  'c.id as course_id',
  'c.title as course_title',
  'ct.title as content_title',
] as const;

export type ResultListRow = Awaited<ReturnType<typeof listResultsPage>>['rows'][number];

/** One page (newest first by the chosen date) and the total. */
export async function listResultsPage(
  db: Executor,
  f: ResultListFilters,
  page: { page: number; perPage: number },
) {
  const q = resultList(db, f);
  const date = sql.ref(`r.${f.dateColumn}`);
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) =>
      filtered.select(resultColumns).orderBy(sql`${date} DESC NULLS LAST`).orderBy('r.id', 'desc'),
    { page: page.page, perPage: page.perPage },
  );
  return { rows, total };
}

/**
 * Every matching row, in batches by keyset (id descending), so an export of a million results keeps a batch in
 * memory, not the list. Ordered by id (insertion order), which exports accept.
 */
export async function* resultBatches(db: Executor, f: ResultListFilters, batchSize = 2000) {
  let before: number | null = null;
  for (;;) {
    let q = resultList(db, f).select(resultColumns).orderBy('r.id', 'desc').limit(batchSize);
    if (before !== null) q = q.where('r.id', '<', before);
    const rows = await q.execute();
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batchSize) return;
    before = rows[rows.length - 1].id;
  }
}

/** The passed, approved results with these ids whose learners are in the entities (for the certificate zip). */
export async function certificateResults(db: Executor, ids: number[], entityIds: number[] | null) {
  let q = db
    .selectFrom('results as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .innerJoin('courses as c', 'c.id', 'r.course_id')
    .select([
      'r.id',
      'r.passed',
      'r.status',
      'r.certificate_suppressed',
      'r.completed_at',
      'u.uuid as user_uuid',
      'u.name as user_name',
      'u.primary_entity_id',
      'c.title as course_title',
      'c.short_title as course_short_title',
    ])
    .where('r.id', 'in', ids)
    .where('r.deleted_at', 'is', null);
  if (entityIds !== null)
    q = entityIds.length ? q.where('u.primary_entity_id', 'in', entityIds) : q.where(sql<SqlBool>`false`);
  return q.orderBy('r.id').execute();
}
