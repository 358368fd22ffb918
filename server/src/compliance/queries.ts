import { CELL_STATUSES, type CellStatus, type ComplianceTally } from '@cc/contracts';
import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/connect';
import type { ComplianceType } from '../db/schema';
import type { Trx } from '../results/queries';

/**
 * The compliance rules in SQL (the bulk twin of rules.ts; rules.test.ts runs both over one table of cases).
 * Reads go through the effective_compliance_rules view (migration 006), so level A → level B inheritance has one
 * definition.
 */

type Executor = Db | Trx;

/**
 * How a status expression answers: the status's name (CellStatus), or its position in CELL_STATUSES (the matrix
 * wire's code), which a statement grouping hundreds of thousands of cells compares and hashes for less than text.
 */
export type StatusEncoding = 'name' | 'code';

/** A status as its `encoding` says (statusCode: the position in CELL_STATUSES). */
export const statusValue = (s: CellStatus, encoding: StatusEncoding = 'name') =>
  encoding === 'name' ? sql.lit(s) : sql.lit(statusCode(s));

export const statusCode = (s: CellStatus) => CELL_STATUSES.indexOf(s);

/**
 * The cell status of a latest_results row aliased `lr` (absent: all its columns null) for an entity aliased `e`
 * (its expiry_warning), at `now`: 'in_date' | 'expiring' | 'expired' | 'missing' | 'exempt' — rules.ts cellStatus()
 * (as their codes with `encoding` 'code': the same rule, other labels). `exempt` says whether the row is an
 * exemption: by default `lr.type = 'exempt'` (latest_results, results); over user_requirements (whose `type` is the
 * compliance type) use requirementStatusSql.
 */
export function cellStatusSql(
  now: Date,
  lr = 'lr',
  e = 'e',
  exempt: RawBuilder<SqlBool> = sql<SqlBool>`${sql.ref(`${lr}.type`)} = 'exempt'`,
  encoding: StatusEncoding = 'name',
): RawBuilder<string> {
  const v = (s: CellStatus) => statusValue(s, encoding);
  const passed = sql.ref(`${lr}.passed`);
  const expires = sql.ref(`${lr}.expires_at`);
  const thenPassed = sql.ref(`${lr}.then_passed`);
  const thenExpires = sql.ref(`${lr}.then_expires_at`);
  const thenExempt = sql.ref(`${lr}.then_exempt`);
  const warning = sql.ref(`${e}.expiry_warning`);
  // An exemption whose end has come counts for nothing: the status is what then_* (the latest of the person's other
  // results, migration 063) gives (contracts countingResult), read from the same row: no per-cell subquery.
  return sql<string>`CASE
    WHEN ${passed} IS NOT TRUE THEN ${v('missing')}
    WHEN ${exempt} AND ${expires} <= ${now} THEN CASE
      WHEN ${thenPassed} IS NOT TRUE THEN ${v('missing')}
      WHEN ${thenExpires} <= ${now} THEN ${v('expired')}
      WHEN ${thenExempt} THEN ${v('exempt')}
      WHEN ${thenExpires} IS NULL THEN ${v('in_date')}
      WHEN ${thenExpires} <= ${now}::timestamptz + make_interval(days => ${warning}) THEN ${v('expiring')}
      ELSE ${v('in_date')} END
    WHEN ${expires} <= ${now} THEN ${v('expired')}
    WHEN ${exempt} THEN ${v('exempt')}
    WHEN ${expires} IS NULL THEN ${v('in_date')}
    WHEN ${expires} <= ${now}::timestamptz + make_interval(days => ${warning}) THEN ${v('expiring')}
    ELSE ${v('in_date')} END`;
}

/** cellStatusSql over a user_requirements row aliased `ur` (its passed / expires_at / exempt copied from latest_results). */
export const requirementStatusSql = (now: Date, ur = 'ecr', e = 'e', encoding: StatusEncoding = 'name') =>
  cellStatusSql(now, ur, e, sql<SqlBool>`${sql.ref(`${ur}.exempt`)}`, encoding);

/**
 * Whether the row aliased `lr` (latest_results or user_requirements) holds a pass that counts at `now`: a pass, not
 * an exemption whose end has come (unless what counts after it is a pass).
 */
export function countsAsPassedSql(now: Date, lr = 'ur', exempt?: RawBuilder<SqlBool>): RawBuilder<SqlBool> {
  const ex = exempt ?? sql<SqlBool>`${sql.ref(`${lr}.exempt`)}`;
  return sql<SqlBool>`(${sql.ref(`${lr}.passed`)} IS TRUE AND (NOT ${ex} OR ${sql.ref(`${lr}.expires_at`)} IS NULL
    OR ${sql.ref(`${lr}.expires_at`)} > ${now} OR ${sql.ref(`${lr}.then_passed`)} IS TRUE))`;
}

/** count(*) of each status, named as ComplianceTally's fields: the figures every grouped query selects. */
export function statusCountColumns(status: RawBuilder<string>, counted: RawBuilder<unknown> = sql`*`) {
  const count = <S extends CellStatus>(s: S) =>
    sql<number>`count(${counted}) FILTER (WHERE ${status} = ${sql.lit(s)})::int`.as(s);
  return [count('in_date'), count('expiring'), count('expired'), count('missing'), count('exempt')] as const;
}

/** `completed_at` plus `months` in UTC calendar months (31 Jan + 1 month = end of Feb), as rules.ts expiryOf(). */
export function expirySql(
  completedAt: Expression<Date> | RawBuilder<Date>,
  months: Expression<number | null>,
) {
  return sql<Date | null>`CASE WHEN ${months} IS NULL THEN NULL ELSE
    ((${completedAt} AT TIME ZONE 'UTC') + make_interval(months => ${months})) AT TIME ZONE 'UTC' END`;
}

/** New starter: started (start_date, else account creation) less than the entity's starter_period days ago. */
export function newStarterSql(now: Date, u = 'u', e = 'e'): RawBuilder<SqlBool> {
  return sql<SqlBool>`(coalesce(${sql.ref(`${u}.start_date`)}::timestamptz, ${sql.ref(`${u}.created_at`)})
    > ${now}::timestamptz - make_interval(days => ${sql.ref(`${e}.starter_period`)}))`;
}

/**
 * The due date of the rule behind a user_requirements row aliased `ur` (issue 33 §4: compliance_rules.due_at, its
 * creation plus its grace period, through effective_compliance_rules so an inherited rule's date applies); null when
 * the rule was due at once.
 */
export function requirementDueAtSql(ur = 'ur'): RawBuilder<Date | null> {
  return sql<Date | null>`(SELECT cr.due_at FROM effective_compliance_rules x
      JOIN compliance_rules cr ON cr.id = x.rule_id
     WHERE x.entity_id = ${sql.ref(`${ur}.entity_id`)} AND x.role_id = ${sql.ref(`${ur}.role_id`)}
       AND x.course_id = ${sql.ref(`${ur}.course_id`)})`;
}

/** The due date of a rule by its id (an effective_compliance_rules row's rule_id). */
export const ruleDueAtSql = (ruleId: RawBuilder<unknown>): RawBuilder<Date | null> =>
  sql<Date | null>`(SELECT cr.due_at FROM compliance_rules cr WHERE cr.id = ${ruleId})`;

/**
 * When a never-done requirement of the user aliased `u` is due (contracts courseStatus's `dueBy`), THE definition
 * every screen reads: the later of a new starter's end of their new-starter period and the requirement's own due
 * date (`ruleDueAt`: requirementDueAtSql / ruleDueAtSql, a new rule's grace period); null once both have passed (the
 * course is then overdue, "never done").
 */
export function dueBySql(
  now: Date,
  ruleDueAt: RawBuilder<Date | null>,
  u = 'u',
  e = 'e',
): RawBuilder<Date | null> {
  const due = sql<Date | null>`greatest(
    coalesce(${sql.ref(`${u}.start_date`)}::timestamptz, ${sql.ref(`${u}.created_at`)})
      + make_interval(days => ${sql.ref(`${e}.starter_period`)}),
    ${ruleDueAt})`;
  return sql<Date | null>`CASE WHEN ${due} > ${now} THEN ${due} END`;
}

/**
 * The user_requirements row aliased `ur` counts in the scores and figures at `now`: not a never-done course of a
 * requirement still inside its grace period (issue 33 §4: adding a requirement leaves the scores as they were until
 * its due date; the people who have not done it are "due by" it, not out of date).
 */
export function countedSql(now: Date, ur = 'ur'): RawBuilder<SqlBool> {
  // Left out: a cell not passed (countsAsPassedSql) whose key is in its grace period (inGraceKeysSql: a key is in it
  // exactly when its effective rule's due date, requirementDueAtSql, is after `now`). As a NOT EXISTS AND-ed into
  // the WHERE, PostgreSQL plans it as an anti join, hashed over the few keys in their grace (none most days), not a
  // due-date lookup per row: that lookup was costed for every row even though it never ran, and the estimate (14M
  // for the compliance report's 300,000 cells, bench compliance-report) made PostgreSQL JIT-compile the statement,
  // half its time. A NOT IN would be hashed too, but only while the planner expects the keys to fit in work_mem;
  // past that it scans them all for every cell. (countsAsPassedSql is never null over user_requirements: exempt
  // is NOT NULL.)
  const col = (c: string) => sql.ref(`${ur}.${c}`);
  return sql<SqlBool>`NOT EXISTS (SELECT 1 FROM (${inGraceKeysSql(now)}) g
    WHERE g.entity_id = ${col('entity_id')} AND g.role_id = ${col('role_id')} AND g.course_id = ${col('course_id')}
      AND NOT ${countsAsPassedSql(now, ur)})`;
}

/**
 * The (entity, role, course) keys whose effective rule is in its grace period at `now` (due_at after it): each such
 * rule looked up in effective_compliance_rules by its id (the lateral pushes rule_id into both of the view's
 * branches; OFFSET 0 keeps it from being flattened back), none at all while no rule is in its grace.
 */
export const inGraceKeysSql = (now: Date) => sql`SELECT x.entity_id, x.role_id, x.course_id
    FROM compliance_rules cr
    CROSS JOIN LATERAL (SELECT v.entity_id, v.role_id, v.course_id FROM effective_compliance_rules v
                         WHERE v.rule_id = cr.id OFFSET 0) x
   WHERE cr.due_at > ${now}`;

/**
 * The never-done (user, course) pairs of these users whose requirement's due date is still ahead at `now`, as
 * `<user id>:<course id>` → due date (courseStatus's requirementDueAt, for lists built from the matrix's cells).
 */
export async function requirementDuePairs(db: Executor, userIds: number[], now: Date) {
  if (!userIds.length) return new Map<string, Date>();
  const due = requirementDueAtSql('ur');
  const rows = await db
    .selectFrom('user_requirements as ur')
    .select(['ur.user_id', 'ur.course_id', due.as('due_at')])
    .where('ur.user_id', 'in', userIds)
    .where(sql<SqlBool>`ur.passed IS NOT TRUE`)
    .where(sql<SqlBool>`EXISTS (SELECT 1 FROM compliance_rules g WHERE g.due_at > ${now})`)
    .where(sql<SqlBool>`${due} > ${now}`)
    .execute();
  return new Map(rows.map((r) => [`${r.user_id}:${r.course_id}`, new Date(r.due_at as Date)]));
}

/** A submitted pass of (user, course) awaits approval (contracts courseStatus's `pending`; results_user_course_idx). */
export function pendingSql(userId: RawBuilder<unknown>, courseId: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`EXISTS (SELECT 1 FROM results pr WHERE pr.user_id = ${userId} AND pr.course_id = ${courseId}
    AND pr.status = 'pending' AND pr.passed AND pr.deleted_at IS NULL)`;
}

/** The (user, course) pairs of these users with a record awaiting approval, as `<user id>:<course id>`. */
export async function pendingPairs(db: Executor, userIds: number[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await db
    .selectFrom('results')
    .select(['user_id', 'course_id'])
    .distinct()
    .where('user_id', 'in', userIds)
    .where('status', '=', 'pending')
    .where('passed', '=', true)
    .where('deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => `${r.user_id}:${r.course_id}`));
}

/**
 * "Out of date" over a user_requirements row aliased `ur` (user `u`, entity `e`): contracts courseStatus's
 * outOfDate in SQL, for lists that filter in bulk (the manager dashboard, the weekly digest). Expired, or never
 * passed and past its due date (dueBySql: a new starter's period, a new requirement's grace); a record awaiting approval takes it off the list.
 */
export function outOfDateSql(now: Date, ur = 'ur', u = 'u', e = 'e'): RawBuilder<SqlBool> {
  const status = requirementStatusSql(now, ur, e);
  const dueBy = dueBySql(now, requirementDueAtSql(ur), u, e);
  return sql<SqlBool>`(${status} = 'expired' OR (${status} = 'missing' AND ${dueBy} IS NULL))
    AND NOT ${pendingSql(sql.ref(`${ur}.user_id`), sql.ref(`${ur}.course_id`))}`;
}

/** The rule that applies to (user, course) through the user's role in their primary entity, if any. */
export async function effectiveRuleFor(db: Executor, userId: number, courseId: number) {
  return db
    .selectFrom('users as u')
    .innerJoin('effective_compliance_rules as ecr', (j) =>
      j.onRef('ecr.entity_id', '=', 'u.primary_entity_id').onRef('ecr.role_id', '=', 'u.role_id'),
    )
    .select(['ecr.rule_id', 'ecr.type', 'ecr.validity_months', 'ecr.inherited'])
    .where('u.id', '=', userId)
    .where('ecr.course_id', '=', courseId)
    .executeTakeFirst();
}

/** Users whose (entity, role, course) requirement comes from this rule: the rule's own entity and inheriting sites. */
function usersUnderRule(db: Executor, ruleId: number) {
  return db
    .selectFrom('users as u')
    .innerJoin('effective_compliance_rules as ecr', (j) =>
      j.onRef('ecr.entity_id', '=', 'u.primary_entity_id').onRef('ecr.role_id', '=', 'u.role_id'),
    )
    .where('ecr.rule_id', '=', ruleId)
    .select('u.id');
}

/** How many passed, dated results a change of this rule's validity would re-date (the existing-results marker). */
export async function countResultsUnderRule(db: Executor, rule: { id: number; course_id: number }) {
  const row = await db
    .selectFrom('results as r')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('r.user_id', 'in', usersUnderRule(db, rule.id))
    .where('r.course_id', '=', rule.course_id)
    .where('r.passed', '=', true)
    .where('r.type', '<>', 'exempt')
    .where('r.deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * update_previous_results = true: re-date every passed (not exempt) result of the users under this rule for its
 * course with the new validity, and their latest_results rows, in the caller's transaction.
 */
export async function redateResultsUnderRule(
  trx: Trx,
  rule: { id: number; course_id: number; validity_months: number | null },
  now: Date,
) {
  const months = sql.lit(rule.validity_months);
  const users = usersUnderRule(trx, rule.id);
  const updated = await trx
    .updateTable('results as r')
    .set({ expires_at: expirySql(sql.ref('r.completed_at'), months as never), updated_at: now })
    .where('r.user_id', 'in', users)
    .where('r.course_id', '=', rule.course_id)
    .where('r.passed', '=', true)
    .where('r.type', '<>', 'exempt')
    .where('r.deleted_at', 'is', null)
    .executeTakeFirst();
  // Their latest_results rows picked again (the re-dated pass may be the row, or what counts once an exemption ends).
  await sql`SELECT latest_results_refresh(array_agg(x.id), array_agg(${rule.course_id}::int), ${now}::timestamptz)
              FROM (${usersUnderRule(trx, rule.id)}) x`.execute(trx);
  return Number(updated.numUpdatedRows);
}

export interface ComplianceCounts extends ComplianceTally {
  entity_id: number;
  type: ComplianceType;
}

export type NewStartersFilter = 'include_new_starters' | 'exclude_new_starters' | 'new_starters_only';

/**
 * The current figures of each entity's OWN users (primary entity), one row per compliance type that has
 * requirements: a join of users × effective rules × latest_results, grouped (no history scan). Callers add the
 * rows of descendants for a deep figure.
 */
export async function currentCounts(
  db: Executor,
  entityIds: number[],
  now: Date,
  opts: { newStarters?: NewStartersFilter; roleIds?: number[]; courseIds?: number[] } = {},
): Promise<ComplianceCounts[]> {
  if (entityIds.length === 0) return [];
  const status = requirementStatusSql(now, 'ecr');
  let q = db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    // user_requirements: the effective rules per user with the latest result's passed / expires_at / exempt
    // (migrations 009, 011), kept on write; the status is computed here, at `now`.
    .innerJoin('user_requirements as ecr', 'ecr.user_id', 'u.id')
    .select([
      'u.primary_entity_id as entity_id',
      'ecr.type',
      sql<number>`count(DISTINCT u.id)::int`.as('users'),
      sql<number>`count(*)::int`.as('required'),
      ...statusCountColumns(status),
    ])
    .where('u.primary_entity_id', 'in', entityIds)
    .where(countedSql(now, 'ecr'))
    .groupBy(['u.primary_entity_id', 'ecr.type']);
  if (opts.newStarters === 'exclude_new_starters') q = q.where(sql<SqlBool>`NOT ${newStarterSql(now)}`);
  if (opts.newStarters === 'new_starters_only') q = q.where(newStarterSql(now));
  if (opts.roleIds?.length) q = q.where('u.role_id', 'in', opts.roleIds);
  if (opts.courseIds?.length) q = q.where('ecr.course_id', 'in', opts.courseIds);
  return q.execute();
}

/**
 * How many of these entities' users (primary entity) have at least one requirement of either type: the `users` of a
 * score over both types, where a person required to do Mandatory and Required courses is one person, not two.
 */
export async function usersWithRequirements(
  db: Executor,
  entityIds: number[],
  now: Date,
  opts: { newStarters?: NewStartersFilter } = {},
): Promise<number> {
  if (entityIds.length === 0) return 0;
  let q = db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('u.primary_entity_id', 'in', entityIds)
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('user_requirements as ur').select('ur.user_id').whereRef('ur.user_id', '=', 'u.id')),
    );
  if (opts.newStarters === 'exclude_new_starters') q = q.where(sql<SqlBool>`NOT ${newStarterSql(now)}`);
  if (opts.newStarters === 'new_starters_only') q = q.where(newStarterSql(now));
  return (await q.executeTakeFirstOrThrow()).n;
}

/**
 * The Mandatory (primary) figures of each of `rootIds` over its whole subtree (the entity and its descendants, new
 * starters included), at `now`: one grouped statement for a page of entities (entity records' `score`, spec 1 §3).
 * The same cells as currentCounts() summed over the subtree; in_date counts expiring cells too (they are in date).
 */
export async function deepPrimaryCounts(
  db: Executor,
  rootIds: number[],
  now: Date,
): Promise<{ entity_id: number; required: number; in_date: number }[]> {
  if (rootIds.length === 0) return [];
  const status = requirementStatusSql(now, 'ur');
  const { rows } = await sql<{ entity_id: number; required: number; in_date: number }>`
    WITH RECURSIVE tree AS (
      SELECT id AS root_id, id FROM entities WHERE id IN (${sql.join(rootIds)})
      UNION ALL
      SELECT t.root_id, e.id FROM entities e JOIN tree t ON e.parent_id = t.id
    )
    SELECT t.root_id AS entity_id, count(*)::int AS required,
           count(*) FILTER (WHERE ${status} IN ('in_date', 'expiring', 'exempt'))::int AS in_date
      FROM tree t
      JOIN user_requirements ur ON ur.entity_id = t.id AND ur.type = 'primary'
      JOIN entities e ON e.id = ur.entity_id
     WHERE ${countedSql(now, 'ur')}
     GROUP BY t.root_id`.execute(db);
  return rows;
}

/** First day of the month of `date` in UTC, 'YYYY-MM-DD'. */
export const monthOf = (date: Date) =>
  `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-01`;

/**
 * Writes (or rewrites) the snapshot of `month` for these entities from the figures at `at` — the monthly job runs
 * it at each month end (and the bench/demo back-fill). One statement per call, idempotent per (entity, month, type).
 */
export async function writeSnapshots(trx: Trx, entityIds: number[], month: string, at: Date) {
  const counts = await currentCounts(trx, entityIds, at);
  if (counts.length === 0) return 0;
  await trx
    .insertInto('compliance_snapshots')
    .values(counts.map((c) => ({ ...c, month, created_at: at })))
    .onConflict((oc) =>
      oc.columns(['entity_id', 'month', 'type']).doUpdateSet((eb) => ({
        users: eb.ref('excluded.users'),
        required: eb.ref('excluded.required'),
        in_date: eb.ref('excluded.in_date'),
        expiring: eb.ref('excluded.expiring'),
        expired: eb.ref('excluded.expired'),
        missing: eb.ref('excluded.missing'),
        exempt: eb.ref('excluded.exempt'),
        created_at: at,
      })),
    )
    .execute();
  return counts.length;
}
