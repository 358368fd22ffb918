import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/connect';
import { escapeLike, type Trx } from './queries';

/**
 * entity_content and entity_courses: which organisations a content item or course is available to, and whether it
 * is switched on there. One set of queries serves both kinds; the casts only tell Kysely which table is meant.
 */
export type AssignmentKind = 'content' | 'course';

const T = {
  content: { table: 'entity_content', item: 'contents', key: 'content_id' },
  course: { table: 'entity_courses', item: 'courses', key: 'course_id' },
} as const;

export interface AssignmentRow {
  item_id: number;
  title: string;
  type: string | null;
  enabled: boolean;
  admin_only_override: boolean | null;
  /** Courses only: available through a parent organisation, with no row of this entity's own (issue 38). */
  inherited?: boolean;
}

/** Rows of one entity whose items the caller may see (`visible` is the item clause, alias `ct` or `c`). */
export async function listAssignments(
  db: Db,
  kind: AssignmentKind,
  entityId: number,
  visible: RawBuilder<SqlBool>,
  o: { search?: string; page: number; perPage: number },
): Promise<{ rows: AssignmentRow[]; total: number }> {
  const { table, item, key } = T[kind];
  const alias = kind === 'content' ? 'ct' : 'c';
  const search = o.search
    ? sql`AND ${sql.ref(`${alias}.title`)} ILIKE ${`%${escapeLike(o.search)}%`}`
    : sql``;
  if (kind === 'course') return listCourseRows(db, entityId, visible, search, o);
  const from = sql`FROM ${sql.table(table)} a JOIN ${sql.table(item)} ${sql.raw(alias)} ON ${sql.ref(`${alias}.id`)} = a.${sql.ref(key)}
    WHERE a.entity_id = ${entityId} AND ${visible} ${search}`;
  const typeCol = kind === 'content' ? sql`ct.type` : sql`NULL::text`;
  const overrideCol = kind === 'content' ? sql`a.admin_only_override` : sql`NULL::boolean`;
  const [rows, total] = await Promise.all([
    sql<AssignmentRow>`SELECT a.${sql.ref(key)} AS item_id, ${sql.ref(`${alias}.title`)} AS title, ${typeCol} AS type,
        a.enabled, ${overrideCol} AS admin_only_override
      ${from} ORDER BY lower(${sql.ref(`${alias}.title`)}), a.${sql.ref(key)}
      LIMIT ${o.perPage} OFFSET ${(o.page - 1) * o.perPage}`.execute(db),
    sql<{ n: number }>`SELECT count(*) AS n ${from}`.execute(db),
  ]);
  return { rows: rows.rows, total: Number(total.rows[0]?.n ?? 0) };
}

/**
 * An entity's course rows, and the courses it inherits (issue 38: a home lists what its organisation makes
 * available): owned by an ancestor or switched on there, not switched off at an ancestor, with no row of the
 * entity's own (its own row, on or off, wins). Inherited rows answer enabled true and inherited true; switching one
 * off at the entity writes its own row (POST or updateMultiple), as for any other course.
 */
async function listCourseRows(
  db: Db,
  entityId: number,
  visible: RawBuilder<SqlBool>,
  search: RawBuilder<unknown>,
  o: { page: number; perPage: number },
): Promise<{ rows: AssignmentRow[]; total: number }> {
  const rowsCte = sql`WITH RECURSIVE chain AS (
      SELECT parent_id AS anc_id, 1 AS depth FROM entities WHERE id = ${entityId} AND parent_id IS NOT NULL
      UNION ALL
      SELECT e.parent_id, ch.depth + 1 FROM entities e JOIN chain ch ON e.id = ch.anc_id
       WHERE e.parent_id IS NOT NULL AND ch.depth < 50
    ), offered AS (
      SELECT c.id AS course_id FROM courses c WHERE c.entity_id IN (SELECT anc_id FROM chain)
      UNION
      SELECT ec.course_id FROM entity_courses ec JOIN courses pc ON pc.id = ec.course_id
       WHERE ec.entity_id IN (SELECT anc_id FROM chain) AND ec.enabled AND (pc.entity_id IS NOT NULL OR pc.published)
    ), x AS (
      SELECT a.course_id AS item_id, c.title, a.enabled, false AS inherited
        FROM entity_courses a JOIN courses c ON c.id = a.course_id
       WHERE a.entity_id = ${entityId} AND ${visible} ${search}
      UNION ALL
      SELECT c.id, c.title, true, true FROM offered o JOIN courses c ON c.id = o.course_id
       WHERE ${visible} ${search}
         AND NOT EXISTS (SELECT 1 FROM entity_courses own WHERE own.entity_id = ${entityId} AND own.course_id = c.id)
         AND NOT EXISTS (SELECT 1 FROM entity_courses off WHERE off.entity_id IN (SELECT anc_id FROM chain)
                           AND off.course_id = c.id AND NOT off.enabled)
    )`;
  const [rows, total] = await Promise.all([
    sql<AssignmentRow>`${rowsCte} SELECT item_id, title, NULL::text AS type, enabled,
        NULL::boolean AS admin_only_override, inherited
      FROM x ORDER BY lower(title), item_id LIMIT ${o.perPage} OFFSET ${(o.page - 1) * o.perPage}`.execute(
      db,
    ),
    sql<{ n: number }>`${rowsCte} SELECT count(*)::int AS n FROM x`.execute(db),
  ]);
  return { rows: rows.rows, total: Number(total.rows[0]?.n ?? 0) };
}

export async function findAssignment(db: Db | Trx, kind: AssignmentKind, entityId: number, itemId: number) {
  const { table, key } = T[kind];
  const { rows } = await sql<{ enabled: boolean }>`SELECT enabled FROM ${sql.table(table)}
    WHERE entity_id = ${entityId} AND ${sql.ref(key)} = ${itemId}`.execute(db);
  return rows[0];
}

/** Insert or update one row; `override` undefined keeps the stored admin_only_override. */
export async function upsertAssignment(
  db: Db | Trx,
  kind: AssignmentKind,
  entityId: number,
  itemId: number,
  values: { enabled?: boolean; override?: boolean | null },
) {
  if (kind === 'content') {
    await db
      .insertInto('entity_content')
      .values({
        entity_id: entityId,
        content_id: itemId,
        enabled: values.enabled ?? true,
        admin_only_override: values.override ?? null,
      })
      .onConflict((oc) =>
        oc.columns(['entity_id', 'content_id']).doUpdateSet({
          ...(values.enabled === undefined ? {} : { enabled: values.enabled }),
          ...(values.override === undefined ? {} : { admin_only_override: values.override }),
          ...(values.enabled === undefined && values.override === undefined
            ? { enabled: sql<boolean>`entity_content.enabled` }
            : {}),
        }),
      )
      .execute();
    return;
  }
  await db
    .insertInto('entity_courses')
    .values({ entity_id: entityId, course_id: itemId, enabled: values.enabled ?? true })
    .onConflict((oc) =>
      oc
        .columns(['entity_id', 'course_id'])
        .doUpdateSet({ enabled: values.enabled ?? sql<boolean>`entity_courses.enabled` }),
    )
    .execute();
}

/**
 * Updates the existing row only; false when there is none. PATCH of one assignment uses it instead of "exists?,
 * then upsert", which re-created a row a parallel DELETE had just removed (issue 10 §3).
 */
export async function updateAssignment(
  db: Db | Trx,
  kind: AssignmentKind,
  entityId: number,
  itemId: number,
  values: { enabled?: boolean; override?: boolean | null },
): Promise<boolean> {
  const { table, key } = T[kind];
  const set: Record<string, boolean | null> = {};
  if (values.enabled !== undefined) set.enabled = values.enabled;
  if (kind === 'content' && values.override !== undefined) set.admin_only_override = values.override;
  const assignments = Object.entries(set).map(([column, value]) => sql`${sql.ref(column)} = ${value}`);
  // Nothing to change still answers whether the row exists (and locks it like a write would).
  if (!assignments.length) assignments.push(sql`enabled = enabled`);
  const res = await sql`UPDATE ${sql.table(table)} SET ${sql.join(assignments)}
    WHERE entity_id = ${entityId} AND ${sql.ref(key)} = ${itemId}`.execute(db);
  return Number(res.numAffectedRows ?? 0) > 0;
}

export async function deleteAssignment(db: Db, kind: AssignmentKind, entityId: number, itemId: number) {
  const { table, key } = T[kind];
  const res =
    await sql`DELETE FROM ${sql.table(table)} WHERE entity_id = ${entityId} AND ${sql.ref(key)} = ${itemId}`.execute(
      db,
    );
  return Number(res.numAffectedRows ?? 0) > 0;
}

/** Of `ids`, those the caller may see (`visible` on alias `ct` for content, `c` for courses): one query. */
export async function visibleIds(db: Db, kind: AssignmentKind, ids: number[], visible: RawBuilder<SqlBool>) {
  if (!ids.length) return new Set<number>();
  const alias = kind === 'content' ? 'ct' : 'c';
  const { rows } = await sql<{
    id: number;
  }>`SELECT ${sql.ref(`${alias}.id`)} AS id FROM ${sql.table(T[kind].item)} ${sql.raw(alias)}
    WHERE ${sql.ref(`${alias}.id`)} IN (${sql.join(ids)}) AND ${visible}`.execute(db);
  return new Set(rows.map((r) => r.id));
}

/** Of `ids`, those with a row (on or off) for `entityId`: one query. */
export async function assignedIds(db: Db, kind: AssignmentKind, entityId: number, ids: number[]) {
  if (!ids.length) return new Set<number>();
  const { table, key } = T[kind];
  const { rows } = await sql<{ id: number }>`SELECT ${sql.ref(key)} AS id FROM ${sql.table(table)}
    WHERE entity_id = ${entityId} AND ${sql.ref(key)} IN (${sql.join(ids)})`.execute(db);
  return new Set(rows.map((r) => r.id));
}

export interface AvailableCourseRow {
  entity_id: number;
  course_id: number;
  title: string;
}

/**
 * The courses available at each of `entityIds` (contracts EntityCourseSummary): owned by the entity or an ancestor,
 * or switched on through entity_courses for it or an ancestor (a platform course once published), and not switched
 * off for it or an ancestor; `visible` (alias `c`) bounds them to what the caller may see. One statement for every
 * entity (no N+1 on entity lists). Without `page`, every row; with it, one page and the total.
 */
export async function availableCourses(
  db: Db,
  entityIds: number[],
  visible: RawBuilder<SqlBool>,
  page?: { page: number; perPage: number },
): Promise<{ rows: AvailableCourseRow[]; total: number }> {
  if (!entityIds.length) return { rows: [], total: 0 };
  const base = sql`WITH RECURSIVE chain AS (
      SELECT id AS entity_id, id AS anc_id, parent_id, 0 AS depth FROM entities WHERE id IN (${sql.join(entityIds)})
      UNION ALL
      SELECT ch.entity_id, e.id, e.parent_id, ch.depth + 1 FROM entities e JOIN chain ch ON e.id = ch.parent_id
       WHERE ch.depth < 50
    ), offered AS (
      SELECT ch.entity_id, c.id AS course_id FROM chain ch JOIN courses c ON c.entity_id = ch.anc_id
      UNION
      SELECT ch.entity_id, ec.course_id FROM chain ch
        JOIN entity_courses ec ON ec.entity_id = ch.anc_id AND ec.enabled
        JOIN courses pc ON pc.id = ec.course_id AND (pc.entity_id IS NOT NULL OR pc.published)
    ), available AS (
      SELECT o.entity_id, c.id AS course_id, c.title FROM offered o JOIN courses c ON c.id = o.course_id
       WHERE ${visible}
         AND NOT EXISTS (SELECT 1 FROM entity_courses off JOIN chain ch ON ch.anc_id = off.entity_id
               WHERE ch.entity_id = o.entity_id AND off.course_id = o.course_id AND NOT off.enabled)
    )`;
  const ordered = sql`SELECT entity_id, course_id, title FROM available
    ORDER BY entity_id, lower(title), course_id`;
  if (!page) {
    const { rows } = await sql<AvailableCourseRow>`${base} ${ordered}`.execute(db);
    return { rows, total: rows.length };
  }
  const [rows, total] = await Promise.all([
    sql<AvailableCourseRow>`${base} ${ordered} LIMIT ${page.perPage} OFFSET ${(page.page - 1) * page.perPage}`.execute(
      db,
    ),
    sql<{ n: number }>`${base} SELECT count(*)::int AS n FROM available`.execute(db),
  ]);
  return { rows: rows.rows, total: Number(total.rows[0]?.n ?? 0) };
}
