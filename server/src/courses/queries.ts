import { type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';
import type { Database } from '../db/schema';

/** SQL of courses and course categories. Visibility clauses come from ./visibility (never re-derived here). */
export type Trx = Transaction<Database>;
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const courseColumns = [
  'c.id',
  'c.uuid',
  'c.entity_id',
  'c.title',
  'c.short_title',
  'c.published',
  'c.kind',
  'c.category_id',
  'c.created_at',
  'c.updated_at',
  'cc.name as category_name',
  'cc.entity_id as category_entity_id',
] as const;

/** The document or pathway a course backs (issue 17: the web opens its page rather than the course editor). */
const backingIds = [
  sql<number | null>`(SELECT d.id FROM documents d WHERE d.course_id = c.id AND d.deleted_at IS NULL)`.as(
    'document_id',
  ),
  sql<number | null>`(SELECT p.id FROM pathways p WHERE p.course_id = c.id AND p.deleted_at IS NULL)`.as(
    'pathway_id',
  ),
];

export async function listCourses(
  db: Db,
  visible: RawBuilder<SqlBool>,
  o: { search?: string; categoryId?: number; published?: boolean; page: number; perPage: number },
) {
  let base = db
    .selectFrom('courses as c')
    .leftJoin('course_categories as cc', 'cc.id', 'c.category_id')
    .where(visible);
  if (o.search) {
    const like = `%${escapeLike(o.search)}%`;
    base = base.where((eb) => eb.or([eb('c.title', 'ilike', like), eb('c.short_title', 'ilike', like)]));
  }
  if (o.categoryId) base = base.where('c.category_id', '=', o.categoryId);
  if (o.published !== undefined) base = base.where('c.published', '=', o.published);
  const { rows, total } = await pageWithTotal(
    base,
    (filtered) =>
      filtered
        .select(courseColumns)
        .select(backingIds)
        .select(sql<number>`(SELECT count(*) FROM contents x WHERE x.course_id = c.id)`.as('contents_count'))
        .orderBy(sql`lower(c.title)`)
        .orderBy('c.id'),
    { page: o.page, perPage: o.perPage },
  );
  return {
    rows: rows.map((r) => ({ ...r, contents_count: Number(r.contents_count) })),
    total,
  };
}

export async function findCourse(db: Db, id: number, visible: RawBuilder<SqlBool>) {
  return db
    .selectFrom('courses as c')
    .leftJoin('course_categories as cc', 'cc.id', 'c.category_id')
    .select(courseColumns)
    .select(backingIds)
    .where('c.id', '=', id)
    .where(visible)
    .executeTakeFirst();
}

/** The course's contents (visible to the caller), and the lessons and topics they hold. Three queries, no N+1. */
export async function courseParts(db: Db, courseId: number, visibleContent: RawBuilder<SqlBool>) {
  const contents = await db
    .selectFrom('contents as ct')
    .select(['ct.id', 'ct.title', 'ct.type', 'ct.published'])
    .where('ct.course_id', '=', courseId)
    .where(visibleContent)
    .orderBy(sql`lower(ct.title)`)
    .orderBy('ct.id')
    .execute();
  const contentIds = contents.map((c) => c.id);
  const lessons = contentIds.length
    ? await db
        .selectFrom('content_lessons as cl')
        .innerJoin('lessons as l', 'l.id', 'cl.lesson_id')
        .select(['l.id', 'l.title'])
        .where('cl.content_id', 'in', contentIds)
        .groupBy(['l.id', 'l.title'])
        .orderBy(sql`min(cl.position)`)
        .orderBy('l.id')
        .execute()
    : [];
  const lessonIds = lessons.map((l) => l.id);
  const topics = lessonIds.length
    ? await db
        .selectFrom('lesson_topics as lt')
        .innerJoin('topics as t', 't.id', 'lt.topic_id')
        .select(['t.id', 't.title'])
        .where('lt.lesson_id', 'in', lessonIds)
        .groupBy(['t.id', 't.title'])
        .orderBy(sql`min(lt.position)`)
        .orderBy('t.id')
        .execute()
    : [];
  return { contents, lessons, topics };
}

export async function insertCourse(
  db: Db | Trx,
  values: {
    entity_id: number | null;
    title: string;
    short_title: string | null;
    category_id: number | null;
    published: boolean;
  },
) {
  const row = await db.insertInto('courses').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateCourseRow(
  db: Db | Trx,
  id: number,
  values: { title?: string; short_title?: string | null; category_id?: number | null; published?: boolean },
  now: Date,
) {
  await db
    .updateTable('courses')
    .set({ ...values, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function deleteCourseRow(db: Db | Trx, id: number) {
  await db.deleteFrom('courses').where('id', '=', id).execute();
}

// --- Categories ----------------------------------------------------------------------------------------------

/** Categories of the given owners plus the platform-wide ones (entity_id null); null: every category. */
function categoryBase(db: Db, owners: number[] | null) {
  let q = db.selectFrom('course_categories as cc');
  if (owners) q = q.where((eb) => eb.or([eb('cc.entity_id', 'is', null), eb('cc.entity_id', 'in', owners)]));
  return q;
}

export async function listCategories(
  db: Db,
  owners: number[] | null,
  o: { search?: string; page: number; perPage: number },
) {
  let base = categoryBase(db, owners);
  if (o.search) base = base.where('cc.name', 'ilike', `%${escapeLike(o.search)}%`);
  const { rows, total } = await pageWithTotal(
    base,
    (filtered) =>
      filtered.select(['cc.id', 'cc.entity_id', 'cc.name']).orderBy(sql`lower(cc.name)`).orderBy('cc.id'),
    { page: o.page, perPage: o.perPage },
  );
  return { rows, total };
}

export async function findCategory(db: Db, id: number, owners: number[] | null) {
  return categoryBase(db, owners)
    .select(['cc.id', 'cc.entity_id', 'cc.name'])
    .where('cc.id', '=', id)
    .executeTakeFirst();
}

export async function categoryNameTaken(db: Db, entityId: number | null, name: string, exceptId?: number) {
  let q = db
    .selectFrom('course_categories')
    .select('id')
    .where(sql<SqlBool>`COALESCE(entity_id, 0) = ${entityId ?? 0}`)
    .where(sql<SqlBool>`lower(name) = lower(${name})`);
  if (exceptId) q = q.where('id', '<>', exceptId);
  return Boolean(await q.executeTakeFirst());
}

export async function insertCategory(db: Db, values: { entity_id: number | null; name: string }) {
  return db
    .insertInto('course_categories')
    .values(values)
    .returning(['id', 'entity_id', 'name'])
    .executeTakeFirstOrThrow();
}

export async function renameCategory(db: Db, id: number, name: string, now: Date) {
  return db
    .updateTable('course_categories')
    .set({ name, updated_at: now })
    .where('id', '=', id)
    .returning(['id', 'entity_id', 'name'])
    .executeTakeFirstOrThrow();
}

/** Courses keep existing without a category (ON DELETE SET NULL). */
export async function deleteCategoryRow(db: Db, id: number) {
  await db.deleteFrom('course_categories').where('id', '=', id).execute();
}
