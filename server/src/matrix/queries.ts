import { MATRIX_STATUSES, type MatrixFilters } from '@cc/contracts';
import { type RawBuilder, sql } from 'kysely';
import { newStarterSql } from '../compliance/queries';
import type { Db } from '../db/connect';
import { type BlockTallyRow, blockTallies } from './block-tallies';

/**
 * The matrix in SQL. One statement per block of users (keyset on users.id): users ⋈ user_requirements (the
 * effective rules per user, migration 009) ⋈ latest_results (both precomputed on write — never history), with the
 * cell status from the compliance core (cellStatusSql). The database also ENCODES the block (json arrays, see
 * packages/contracts/src/matrix.ts) and returns it as text, so the server never builds an object per cell: it
 * forwards the text to the socket.
 */

export interface BlockScope {
  entityIds: number[];
  filters: MatrixFilters;
  now: Date;
  /** The requirements in their grace period (graceRules), read once with the plan. */
  grace: GraceRule[];
}

/** A requirement of the matrix's entities whose due date is still ahead (issue 33 §4). */
export interface GraceRule {
  entity_id: number;
  role_id: number;
  course_id: number;
  due_at: Date;
}

export interface BlockRow {
  n: number;
  last_id: number | null;
  /** UsersWire as JSON text. */
  users: string;
  /** CellsWire as JSON text (the query returns the columns in array text form; matrixBlock converts them). */
  cells: string;
  /** Per (entity, type): [entity_id, type, users, required, in_date, expiring, expired, missing, exempt]. */
  tallies: BlockTallyRow[];
  /** Distinct course ids of the block's cells. */
  course_ids: number[] | null;
}

/** What the block's statement returns: its tallies as JSON text ('[]' when they are counted here, blockTallies). */
type BlockRowText = Omit<BlockRow, 'tallies'> & { agg: string };

/**
 * Whether the block's statement tallies its cells itself: only under a "Show" filter, whose block sends some of the
 * cells (the tallies count them all). Otherwise blockTallies counts them from the cells sent, and the statement
 * reads each cell once (its `c` folded into the one aggregate, not materialised).
 */
const talliedInStatement = (s: BlockScope) => s.filters.includeStatusTypes.length > 0;

const intArray = (values: readonly number[]) => sql`${sql.val(values)}::int[]`;

/** The WHERE of the users of the matrix (entity scope + filters); `u` users, `e` their primary entity. */
function userWhere(s: BlockScope): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [sql`u.primary_entity_id = ANY(${intArray(s.entityIds)})`];
  const f = s.filters;
  if (f.roles.length) parts.push(sql`u.role_id = ANY(${intArray(f.roles)})`);
  if (f.users.length) parts.push(sql`u.id = ANY(${intArray(f.users)})`);
  if (f.new_starters_filter === 'exclude_new_starters')
    parts.push(sql`NOT ${newStarterSql(s.now, 'u', 'e')}`);
  if (f.new_starters_filter === 'new_starters_only') parts.push(newStarterSql(s.now, 'u', 'e'));
  return sql.join(parts, sql` AND `);
}

export async function countMatrixUsers(db: Db, s: BlockScope): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM users u
      JOIN entities e ON e.id = u.primary_entity_id WHERE ${userWhere(s)}`.execute(db);
  return rows[0]?.n ?? 0;
}

/** The matrix's people, id and name, in user id order: what an export's order by name needs before any cell. */
export async function matrixUserNames(db: Db, s: BlockScope): Promise<{ id: number; name: string | null }[]> {
  const { rows } = await sql<{ id: number; name: string | null }>`SELECT u.id, u.name FROM users u
      JOIN entities e ON e.id = u.primary_entity_id WHERE ${userWhere(s)} ORDER BY u.id`.execute(db);
  return rows;
}

/**
 * The id of the user just before position `offset` (0-based, id order) of the matrix's users: a page's keyset start
 * (GraphQL `matrix`, paged by users). Null when the page starts past the last user.
 */
export async function userIdBefore(db: Db, s: BlockScope, offset: number): Promise<number | null> {
  if (offset <= 0) return 0;
  const { rows } = await sql<{ id: number }>`SELECT u.id FROM users u
      JOIN entities e ON e.id = u.primary_entity_id WHERE ${userWhere(s)}
     ORDER BY u.id OFFSET ${offset - 1} LIMIT 1`.execute(db);
  return rows[0]?.id ?? null;
}

/**
 * The cell status as its wire code (MATRIX_STATUSES: 0 in date, 1 expiring, 2 expired, 3 missing, 4 exempt): the
 * compliance core's cellStatusSql with the entity's warning horizon (now + expiry_warning days) computed once per
 * user (bu.warn_at, carried by c0) instead of per cell; c0.type is the latest result's type. The property test
 * (matrix.test.ts) holds it to rules.ts cellStatus().
 */
const statusCodeSql = (now: Date) => sql`CASE
    WHEN c0.passed IS NOT TRUE THEN 3
    WHEN ${endedSql(now)} THEN CASE
      WHEN c0.then_passed IS NOT TRUE THEN 3
      WHEN c0.then_expires_at <= ${now}::timestamptz THEN 2
      WHEN c0.then_exempt THEN 4
      WHEN c0.then_expires_at IS NULL THEN 0
      WHEN c0.then_expires_at <= c0.warn_at THEN 1
      ELSE 0 END
    WHEN c0.expires_at <= ${now}::timestamptz THEN 2
    WHEN c0.type = 'exempt' THEN 4
    WHEN c0.expires_at IS NULL THEN 0
    WHEN c0.expires_at <= c0.warn_at THEN 1
    ELSE 0 END`;
/**
 * The requirements of the matrix's entities whose due date is still ahead (issue 33 §4: a new requirement's grace
 * period, compliance_rules.due_at through effective_compliance_rules, so an inherited rule's date applies): each rule
 * in its grace period looked up in the view by its id (the lateral pushes rule_id into both of the view's branches:
 * a few index lookups a rule). Read once with the plan, as of its `now`, instead of in every block's statement: usually
 * none, and a block statement without them skips the join (issue 36 §2: ~3 % of a block's database CPU).
 */
export async function graceRules(db: Db, entityIds: number[], now: Date): Promise<GraceRule[]> {
  const { rows } = await sql<GraceRule>`
    SELECT x.entity_id, x.role_id, x.course_id, cr.due_at
      FROM compliance_rules cr
      CROSS JOIN LATERAL (
        SELECT x.entity_id, x.role_id, x.course_id FROM effective_compliance_rules x
         WHERE x.rule_id = cr.id AND x.entity_id = ANY(${intArray(entityIds)}) OFFSET 0) x
     WHERE cr.due_at > ${now}`.execute(db);
  return rows;
}

/**
 * g: the plan's grace rules, for the block's cells to be looked up in (a never-done cell of one is left out of the
 * tallies, `lo`, and due by that date); with none, a join that the planner drops.
 */
const graceJoin = (s: BlockScope) =>
  s.grace.length
    ? sql`LEFT JOIN (SELECT * FROM unnest(${intArray(s.grace.map((r) => r.entity_id))},
            ${intArray(s.grace.map((r) => r.role_id))}, ${intArray(s.grace.map((r) => r.course_id))},
            ${sql.val(s.grace.map((r) => new Date(r.due_at).toISOString()))}::timestamptz[])
            AS g(entity_id, role_id, course_id, due_at)) g
          ON g.entity_id = c0.eid AND g.role_id = c0.rid AND g.course_id = c0.course_id`
    : sql`LEFT JOIN (SELECT NULL::timestamptz AS due_at) g ON false`;
/**
 * The due-by day of a never-done required cell (contracts courseStatus 'due', the server's dueBySql): the later of
 * the user's end of their new-starter period (c0.se) and the requirement's due date (g), when still ahead; else null.
 * The UK calendar day, as formatDate says "Due by <date>" on every other screen. The date comes first: it settles
 * nearly every cell with one comparison, and the due columns evaluate this once for each of their four filters.
 */
const dueDaySql = (now: Date) => sql`CASE WHEN greatest(c0.se, g.due_at) > ${now}::timestamptz
      AND c0.ctype <> 'none' AND ${passedSql(now)} IS NOT TRUE
      THEN ((greatest(c0.se, g.due_at) AT TIME ZONE 'Europe/London')::date - DATE '1970-01-01') END`;
/** A sparse column of the due cells only (array_agg's text form, as intCol). */
const dueCol = (expr: RawBuilder<unknown>) =>
  sql`coalesce((array_agg(${expr}) FILTER (WHERE c.du IS NOT NULL))::text, '{}')`;
/**
 * The cell's latest result is an exemption whose end has come (issue 28 §6): it counts for nothing, the cell is what
 * then_* (the person's other results, migration 063) gives, from the same row.
 */
const endedSql = (now: Date) => sql`(c0.type = 'exempt' AND c0.expires_at <= ${now}::timestamptz)`;
/** Whether the cell holds a pass that counts: an ended exemption's is the person's other results' (then_passed). */
const passedSql = (now: Date) => sql`(CASE WHEN ${endedSql(now)} THEN c0.then_passed ELSE c0.passed END)`;
/** A timestamp as its UTC day number (days since 1970-01-01). */
const day = (col: string) => sql`((${sql.ref(col)} AT TIME ZONE 'UTC')::date - DATE '1970-01-01')`;
const agg = (expr: RawBuilder<unknown>) => sql`coalesce(json_agg(${expr}), '[]'::json)`;
/**
 * A column of ints in array_agg's text form ('{1,NULL,3}'): far cheaper than json_agg per element; matrixBlock
 * turns the block's columns into the JSON CellsWire (braces → brackets, NULL → null: ints only).
 */
const intCol = (expr: RawBuilder<unknown>) => sql`coalesce(array_agg(${expr})::text, '{}')`;

/**
 * The last user id of each block after `afterId` (keyset boundaries), `size` users per block: with them, blocks are
 * independent ranges (after, upTo] that can be read in parallel on PostgreSQL.
 */
export async function blockBoundaries(
  db: Db,
  s: BlockScope,
  afterId: number,
  size: number,
): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    SELECT id FROM (
      SELECT u.id, row_number() OVER (ORDER BY u.id) AS rn, count(*) OVER () AS total
        FROM users u JOIN entities e ON e.id = u.primary_entity_id WHERE ${userWhere(s)} AND u.id > ${afterId}) x
     WHERE rn % ${size} = 0 OR rn = total
     ORDER BY id`.execute(db);
  return rows.map((r) => r.id);
}

/**
 * '{1,NULL},{2}' (int arrays' text, comma-separated) → '[[1,null],[2]]'. Every change keeps the length ('{' '[',
 * '}' ']', 'NULL' 'null') and the text holds only digits, signs, commas, braces and NULL, so it is one pass over the
 * bytes: a regular expression with a replacer cost ~30 ms a block of 500 people (issue 36 §2: 0.6 s of the server's
 * CPU over a 10,000 × 200 matrix), this ~4 ms.
 */
export function arrayTextToJson(text: string): string {
  const bytes = Buffer.allocUnsafe(text.length + 2);
  bytes.write(text, 1, 'latin1');
  bytes[0] = 0x5b; // [
  bytes[bytes.length - 1] = 0x5d; // ]
  for (let i = 1; i < bytes.length - 1; i++) {
    const ch = bytes[i] as number;
    if (ch === 0x7b) bytes[i] = 0x5b;
    else if (ch === 0x7d) bytes[i] = 0x5d;
    // N, U, L (of NULL: the only letters) to lower case.
    else if (ch >= 0x41) bytes[i] = ch | 0x20;
  }
  return bytes.toString('latin1');
}

/** One block: up to `limit` users with id > afterId (and ≤ upTo), their cells and tallies, encoded by the database. */
export async function matrixBlock(
  db: Db,
  s: BlockScope,
  afterId: number,
  limit: number,
  upTo: number | null = null,
  o: { lean?: boolean } = {},
): Promise<BlockRow> {
  // JIT compiling this one statement costs more than it saves (~100 ms per block on PostgreSQL 15), and the
  // encoding needs more than the default work_mem: both only for this statement (SET LOCAL in its transaction).
  const { rows } = await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL jit = off`.execute(trx);
    await sql`SET LOCAL work_mem = '32MB'`.execute(trx);
    return matrixBlockQuery(s, afterId, limit, upTo, o).execute(trx);
  });
  const text = rows[0];
  if (!text) throw new Error('matrixBlock: no row');
  const { agg, ...row } = text;
  row.cells = arrayTextToJson(row.cells);
  if (o.lean) return { ...row, tallies: [] };
  if (talliedInStatement(s)) return { ...row, tallies: JSON.parse(agg) as BlockTallyRow[] };
  const counted = blockTallies(row.users, row.cells);
  return { ...row, tallies: counted.tallies, course_ids: counted.courseIds };
}

export function matrixBlockQuery(
  s: BlockScope,
  afterId: number,
  limit: number,
  upTo: number | null = null,
  /**
   * lean: only what an export writes (no aggregates, course ids, result ids, completion days or counts: empty
   * columns; with `c` not materialised, the planner computes only the columns written: issue 36 §2, the exports'
   * blocks took 17 % less database CPU).
   */
  o: { lean?: boolean } = {},
) {
  const f = s.filters;
  const courseWhere = (col: string) =>
    f.courses.length ? sql`${sql.ref(col)} = ANY(${intArray(f.courses)})` : sql`true`;
  // A person's cells, joined per person (the lateral): their requirements and latest results are each one range of
  // a primary key (user_id, course_id), so the join needs no sort and nothing is materialised (issue 36 §2: the
  // block's two CTEs joined by merge sorted all of its cells first, 30 % of its database CPU). OFFSET 0 keeps the
  // lateral a lookup per person: pulled up, the planner may hash the whole table instead.
  const latest = sql`l.result_id, l.completed_at, l.expires_at, l.result_count, l.passed, l.type, l.then_passed,
               l.then_expires_at, l.then_exempt`;
  // compliance type 'all': also the courses a user has a result for without a requirement (type none).
  const personCells =
    f.compliance_type === 'all'
      ? sql`SELECT coalesce(r.course_id, l.course_id) AS course_id, coalesce(r.type, 'none') AS ctype, ${latest}
          FROM (SELECT r.course_id, r.type FROM user_requirements r
                 WHERE r.user_id = bu.id AND ${courseWhere('r.course_id')}) r
          FULL JOIN (SELECT * FROM latest_results l WHERE l.user_id = bu.id AND ${courseWhere('l.course_id')}) l
            ON l.course_id = r.course_id
        OFFSET 0`
      : sql`SELECT r.course_id, r.type AS ctype, ${latest}
          FROM user_requirements r
          LEFT JOIN latest_results l ON l.user_id = r.user_id AND l.course_id = r.course_id
         WHERE r.user_id = bu.id AND r.type = ${f.compliance_type} AND ${courseWhere('r.course_id')}
        OFFSET 0`;
  const statusCodes = f.includeStatusTypes.map((t) => MATRIX_STATUSES.indexOf(t));
  const statusWhere = sql`c.s = ANY(${intArray(statusCodes)})`;
  // The cells sent: all of c, or (status filter) cf; c alone is not copied again.
  const cf = sql.raw(statusCodes.length ? 'cf' : 'c');
  // c: one row per cell, already coded as the wire's ints (type and status codes, UTC day numbers); materialised
  // only when the statement reads it three times (cells, tallies, courses: under a "Show" filter).
  const inStatement = !o.lean && talliedInStatement(s);
  return sql<BlockRowText>`
    WITH bu AS MATERIALIZED (
      SELECT u.id, u.name, u.primary_entity_id AS eid, u.role_id AS rid,
             (${newStarterSql(s.now, 'u', 'e')})::int AS ns,
             ${s.now}::timestamptz + make_interval(days => e.expiry_warning) AS warn_at,
             coalesce(u.start_date::timestamptz, u.created_at) + make_interval(days => e.starter_period) AS se
        FROM users u JOIN entities e ON e.id = u.primary_entity_id
       WHERE ${userWhere(s)} AND u.id > ${afterId} AND ${upTo === null ? sql`true` : sql`u.id <= ${upTo}`}
       ORDER BY u.id LIMIT ${limit}
    ),
    -- c0: the cells with what the status needs of their person (bu's columns), so c needs no join back to bu.
    c0 AS (
      SELECT bu.id AS user_id, bu.eid, bu.rid, bu.warn_at, bu.se, x.*
        FROM bu CROSS JOIN LATERAL (${personCells}) x
    ),
    c AS ${inStatement ? sql`MATERIALIZED` : sql`NOT MATERIALIZED`} (
      SELECT c0.user_id, c0.course_id, c0.eid,
             CASE c0.ctype WHEN 'primary' THEN 1 WHEN 'secondary' THEN 2 ELSE 0 END AS t,
             ${statusCodeSql(s.now)} AS s,
             c0.result_id, ${day('c0.completed_at')} AS cd,
             CASE WHEN ${endedSql(s.now)} THEN ${day('c0.then_expires_at')} ELSE ${day('c0.expires_at')} END AS ed,
             coalesce(c0.result_count, 0) AS rc,
             ${dueDaySql(s.now)} AS du,
             (${passedSql(s.now)} IS NOT TRUE AND g.due_at IS NOT NULL) AS lo
        FROM c0
        ${graceJoin(s)}
    )
    ${statusCodes.length ? sql`, cf AS (SELECT * FROM c WHERE ${statusWhere})` : sql``}
    SELECT
      (SELECT count(*)::int FROM bu) AS n,
      (SELECT max(id) FROM bu) AS last_id,
      (SELECT json_build_array(${agg(sql`id ORDER BY id`)}, ${agg(sql`name ORDER BY id`)},
              ${agg(sql`eid ORDER BY id`)}, ${agg(sql`rid ORDER BY id`)}, ${agg(sql`ns ORDER BY id`)}) FROM bu)::text
        AS users,
      (SELECT concat_ws(',', ${intCol(sql`c.user_id`)}, ${intCol(sql`c.course_id`)}, ${intCol(sql`c.t`)},
              ${intCol(sql`c.s`)}, ${o.lean ? sql`'{}'` : intCol(sql`c.result_id`)}, ${o.lean ? sql`'{}'` : intCol(sql`c.cd`)},
              ${intCol(sql`c.ed`)}, ${o.lean ? sql`'{}'` : intCol(sql`c.rc`)},
              ${dueCol(sql`c.user_id`)}, ${dueCol(sql`c.course_id`)}, ${dueCol(sql`c.du`)}, ${dueCol(sql`c.lo::int`)})
         FROM ${cf} c) AS cells,
      ${inStatement ? sql`${tallySql} AS agg, ${blockCourseIds(cf)} AS course_ids` : sql`'[]' AS agg, NULL::int[] AS course_ids`}
  `;
}

/**
 * Per entity and type: users, required cells and cells per status, as JSON text (the block's aggregates under a
 * "Show" filter; block-tallies.ts counts the same from the cells otherwise).
 */
const tallySql = sql`(SELECT ${agg(sql`json_build_array(a.eid, CASE a.t WHEN 1 THEN 'primary' ELSE 'secondary' END, a.users, a.required, a.in_date, a.expiring, a.expired, a.missing, a.exempt)`)}
   FROM (SELECT eid, t, count(*)::int AS users, sum(n)::int AS required, sum(a0)::int AS in_date,
                sum(a1)::int AS expiring, sum(a2)::int AS expired, sum(a3)::int AS missing, sum(a4)::int AS exempt
           FROM (SELECT eid, t, user_id, count(*) AS n, count(*) FILTER (WHERE s = 0) AS a0,
                        count(*) FILTER (WHERE s = 1) AS a1, count(*) FILTER (WHERE s = 2) AS a2,
                        count(*) FILTER (WHERE s = 3) AS a3, count(*) FILTER (WHERE s = 4) AS a4
                   FROM c WHERE t <> 0 AND NOT lo GROUP BY eid, t, user_id) pu
          GROUP BY eid, t) a)::text`;

const blockCourseIds = (cf: RawBuilder<unknown>) =>
  sql`(SELECT array_agg(course_id) FROM (SELECT course_id FROM ${cf} GROUP BY course_id) x)`;

/** Courses that the rules require of the users of these entities (filtered), by title. */
export async function requiredCourses(db: Db, s: BlockScope) {
  const f = s.filters;
  const { rows } = await sql<{ id: number; title: string }>`
    SELECT c.id, c.title FROM courses c
     WHERE c.id IN (
       SELECT ecr.course_id FROM effective_compliance_rules ecr
        WHERE ecr.entity_id = ANY(${intArray(s.entityIds)})
          AND ${f.compliance_type === 'all' ? sql`true` : sql`ecr.type = ${f.compliance_type}`}
          AND ${f.roles.length ? sql`ecr.role_id = ANY(${intArray(f.roles)})` : sql`true`})
       AND ${f.courses.length ? sql`c.id = ANY(${intArray(f.courses)})` : sql`true`}
     ORDER BY lower(c.title), c.id`.execute(db);
  return rows;
}

export async function coursesByIds(db: Db, courseIds: number[]) {
  if (courseIds.length === 0) return [];
  return db
    .selectFrom('courses')
    .select(['id', 'title'])
    .where('id', 'in', courseIds)
    .orderBy(sql`lower(title)`)
    .orderBy('id')
    .execute();
}

/** Roles of these entities and of their parents (a level B site uses its level A parent's roles). */
export async function rolesFor(db: Db, entityIds: number[]) {
  const { rows } = await sql<{ id: number; name: string; entity_id: number }>`
    SELECT r.id, r.name, r.entity_id FROM entity_roles r
     WHERE r.entity_id = ANY(${intArray(entityIds)})
        OR r.entity_id IN (SELECT parent_id FROM entities WHERE id = ANY(${intArray(entityIds)}) AND parent_id IS NOT NULL)
     ORDER BY lower(r.name), r.id`.execute(db);
  return rows;
}

export async function entitiesByIds(db: Db, entityIds: number[]) {
  const { rows } = await sql<{ id: number; name: string; parent_id: number | null; level: 'A' | 'B' }>`
    SELECT id, name, parent_id, level FROM entities WHERE id = ANY(${intArray(entityIds)})
     ORDER BY lower(name), id`.execute(db);
  return rows;
}

export async function allEntityIds(db: Db): Promise<number[]> {
  const rows = await db.selectFrom('entities').select('id').execute();
  return rows.map((r) => r.id);
}

/** Courses the users of the matrix have a latest result for (the 'none' columns of an export, type 'all'). */
export async function resultCourses(db: Db, s: BlockScope) {
  const f = s.filters;
  const { rows } = await sql<{ id: number; title: string }>`
    SELECT c.id, c.title FROM courses c
     WHERE EXISTS (SELECT 1 FROM latest_results lr JOIN users u ON u.id = lr.user_id
                     JOIN entities e ON e.id = u.primary_entity_id
                    WHERE lr.course_id = c.id AND ${userWhere(s)})
       AND ${f.courses.length ? sql`c.id = ANY(${intArray(f.courses)})` : sql`true`}`.execute(db);
  return rows;
}
