import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { escapeLike } from '../courses/queries';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';

/** SQL of lessons. Visibility: courses/visibility visibleOwnedClause on alias `l`. */
const columns = ['l.id', 'l.title', 'l.question_qty', 'l.entity_id'] as const;

export async function listLessons(
  db: Db,
  visible: RawBuilder<SqlBool>,
  o: { search?: string; page: number; perPage: number },
) {
  let q = db.selectFrom('lessons as l').where(visible);
  if (o.search) q = q.where('l.title', 'ilike', `%${escapeLike(o.search)}%`);
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) => filtered.select(columns).orderBy(sql`lower(l.title)`).orderBy('l.id'),
    { page: o.page, perPage: o.perPage },
  );
  return { rows, total };
}

export async function findLesson(db: Db, id: number) {
  return db.selectFrom('lessons as l').select(columns).where('l.id', '=', id).executeTakeFirstOrThrow();
}

export async function insertLesson(
  db: Db,
  values: { entity_id: number | null; title: string; question_qty: number | null },
) {
  const row = await db.insertInto('lessons').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateLessonRow(
  db: Db,
  id: number,
  values: { title?: string; question_qty?: number | null },
  now: Date,
) {
  await db
    .updateTable('lessons')
    .set({ ...values, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Detached from content and its topics unlinked by the FK cascades, in this one statement. */
export async function deleteLessonRow(db: Db, id: number) {
  await db.deleteFrom('lessons').where('id', '=', id).execute();
}
