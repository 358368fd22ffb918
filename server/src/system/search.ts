import {
  ActivityPerm,
  ContentPerm,
  formatDate,
  Perm,
  type SearchGroup,
  type SearchHit,
  type SearchKind,
  type SystemSearchResult,
} from '@cc/contracts';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { visibleCourseClause } from '../courses/visibility';
import type { Db } from '../db/connect';
import { entityScope, listEntityIds } from '../entities/scope';
import { actorOf, type Ctx, can } from '../http/context';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const inList = (ids: number[]) => sql.join(ids.map((id) => sql`${id}::int`));

/** The parts of a search term every ranking uses: the lower-cased term, "contains", "starts with", "a word starts with". */
interface Term {
  lower: string;
  contains: string;
  prefix: string;
  wordPrefix: string;
}
const termOf = (q: string): Term => {
  const lower = q.toLowerCase();
  const e = escapeLike(lower);
  return { lower, contains: `%${e}%`, prefix: `${e}%`, wordPrefix: `% ${e}%` };
};

/** 0 exact, 1 starts with, 2 a word starts with, 3 contains: the ranking of every kind (then by name). */
const rank = (column: RawBuilder<unknown>, t: Term) => sql<number>`CASE
  WHEN lower(${column}) = ${t.lower} THEN 0
  WHEN lower(${column}) LIKE ${t.prefix} THEN 1
  WHEN ' ' || lower(${column}) LIKE ${t.wordPrefix} THEN 2
  ELSE 3 END`;

type Row = { id: number; ref: string; title: string; detail: string | null; total: number };

const groupOf = (kind: SearchKind, rows: Row[]): SearchGroup => ({
  kind,
  total: Number(rows[0]?.total ?? 0),
  hits: rows.map((r): SearchHit => ({ id: r.id, ref: r.ref, title: r.title, detail: r.detail })),
});

/** People of these primary entities (null: all) by name, or e-mail when the caller may see addresses. */
async function searchUsers(db: Db, t: Term, entityIds: number[] | null, withEmail: boolean, limit: number) {
  const scope = entityIds ? sql`AND u.primary_entity_id IN (${inList(entityIds)})` : sql``;
  const match = withEmail
    ? sql<SqlBool>`(u.name ILIKE ${t.contains} OR u.email ILIKE ${t.contains})`
    : sql<SqlBool>`u.name ILIKE ${t.contains}`;
  const r = rank(sql`u.name`, t);
  const byEmail = withEmail ? sql`LEAST(${r}, ${rank(sql`u.email`, t)})` : r;
  const { rows } = await sql<Row & { email: string; entity_name: string }>`
    SELECT u.id, u.uuid::text AS ref, u.name AS title, u.email, e.name AS entity_name, NULL AS detail,
      count(*) OVER ()::int AS total
    FROM users u JOIN entities e ON e.id = u.primary_entity_id
    WHERE ${match} ${scope}
    ORDER BY ${byEmail}, lower(u.name), u.id
    LIMIT ${limit}`.execute(db);
  return rows.map((row) => ({
    ...row,
    detail: [withEmail ? row.email : null, row.entity_name].filter(Boolean).join(' · '),
  }));
}

async function searchEntities(db: Db, t: Term, entityIds: number[] | null, limit: number) {
  const scope = entityIds ? sql`AND e.id IN (${inList(entityIds)})` : sql``;
  const { rows } = await sql<Row>`
    SELECT e.id, e.slug AS ref, e.name AS title, p.name AS detail, count(*) OVER ()::int AS total
    FROM entities e LEFT JOIN entities p ON p.id = e.parent_id
    WHERE e.name ILIKE ${t.contains} ${scope}
    ORDER BY ${rank(sql`e.name`, t)}, lower(e.name), e.id
    LIMIT ${limit}`.execute(db);
  return rows;
}

async function searchCourses(db: Db, t: Term, visible: RawBuilder<SqlBool>, limit: number) {
  const { rows } = await sql<Row & { published: boolean }>`
    SELECT c.id, c.id::text AS ref, c.title, c.published, NULL AS detail, count(*) OVER ()::int AS total
    FROM courses c
    WHERE c.title ILIKE ${t.contains} AND ${visible}
    ORDER BY ${rank(sql`c.title`, t)}, lower(c.title), c.id
    LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({ ...r, detail: r.published ? 'Published' : 'Not published' }));
}

/** Each person's latest result per course, found by course title or the person's name. */
async function searchRecords(db: Db, t: Term, entityIds: number[] | null, limit: number) {
  const scope = entityIds ? sql`AND u.primary_entity_id IN (${inList(entityIds)})` : sql``;
  const { rows } = await sql<{
    id: number;
    ref: string;
    name: string;
    course: string;
    completed_at: Date;
    passed: boolean;
    total: number;
  }>`
    SELECT lr.result_id AS id, u.uuid::text AS ref, u.name, c.title AS course, lr.completed_at, lr.passed,
      count(*) OVER ()::int AS total
    FROM latest_results lr
    JOIN users u ON u.id = lr.user_id
    JOIN courses c ON c.id = lr.course_id
    WHERE (c.title ILIKE ${t.contains} OR u.name ILIKE ${t.contains}) ${scope}
    ORDER BY LEAST(${rank(sql`c.title`, t)}, ${rank(sql`u.name`, t)}), lower(u.name), lower(c.title), lr.result_id
    LIMIT ${limit}`.execute(db);
  return rows.map(
    (r): Row => ({
      id: Number(r.id),
      ref: r.ref,
      title: `${r.name} — ${r.course}`,
      detail: `${r.passed ? 'Completed' : 'Not passed'} ${formatDate(r.completed_at)}`,
      total: r.total,
    }),
  );
}

/**
 * GET /system/search?q= (spec 1 §2): one box over people (21), organisations (22), courses (63, as GET /courses) and
 * training records (24), each bounded by the caller's scope (the base entity and its subtree), ranked exact, then
 * starts with, then a word starts with, then contains. Only the kinds the caller may search are answered.
 */
export async function systemSearch(ctx: Ctx, q: string, limit: number): Promise<SystemSearchResult> {
  const actor = actorOf(ctx);
  const t = termOf(q);
  const scope = await entityScope(ctx);
  const entityIds = await listEntityIds(ctx, true);
  const entityBound = scope.accessible === 'all' ? null : [...scope.accessible];
  const tasks: Promise<SearchGroup>[] = [];
  if (can(actor, [Perm.searchUsers]))
    tasks.push(
      searchUsers(ctx.db, t, entityIds, can(actor, [Perm.contactDetails]), limit).then((r) =>
        groupOf('users', r),
      ),
    );
  if (can(actor, [Perm.searchEntities]))
    tasks.push(searchEntities(ctx.db, t, entityBound, limit).then((r) => groupOf('entities', r)));
  if (can(actor, [ContentPerm.contentCreator])) {
    const visible = await visibleCourseClause(ctx);
    tasks.push(searchCourses(ctx.db, t, visible, limit).then((r) => groupOf('courses', r)));
  }
  if (can(actor, [ActivityPerm.searchRecords]))
    tasks.push(searchRecords(ctx.db, t, entityIds, limit).then((r) => groupOf('records', r)));
  return { q, groups: await Promise.all(tasks) };
}
