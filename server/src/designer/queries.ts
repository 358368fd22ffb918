import type { DesignPage } from '@cc/contracts';
import { sql } from 'kysely';
import { escapeLike, type Trx } from '../courses/queries';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';

/** SQL of designs. Callers bound every read by the entity ids scope.ts gives them (null: a super admin, unbounded). */

const summaryColumns = [
  'd.id',
  'd.uuid',
  'd.title',
  'd.entity_id',
  'd.revision',
  'd.content_id',
  'd.published_revision',
  'd.published_at',
  'd.created_at',
  'd.updated_at',
  'e.slug as entity_slug',
  'e.name as entity_name',
  'ct.title as content_title',
  'ct.course_id as content_course_id',
  'u.uuid as creator_uuid',
  'u.name as creator_name',
  'd.created_by',
] as const;

const base = (db: Db | Trx) =>
  db
    .selectFrom('designs as d')
    .innerJoin('entities as e', 'e.id', 'd.entity_id')
    .leftJoin('contents as ct', 'ct.id', 'd.content_id')
    .leftJoin('users as u', 'u.id', 'd.created_by')
    .where('d.deleted_at', 'is', null);

export type DesignRow = NonNullable<Awaited<ReturnType<typeof findDesign>>>;

export async function listDesigns(
  db: Db,
  entityIds: number[] | null,
  o: { search?: string; page: number; perPage: number },
) {
  let q = base(db);
  if (entityIds)
    q = entityIds.length ? q.where('d.entity_id', 'in', entityIds) : q.where(sql<boolean>`false`);
  if (o.search) q = q.where('d.title', 'ilike', `%${escapeLike(o.search)}%`);
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) =>
      filtered
        .select(summaryColumns)
        .select(sql<number>`jsonb_array_length(d.pages)`.as('page_count'))
        .orderBy('d.updated_at', 'desc')
        .orderBy('d.id', 'desc'),
    { page: o.page, perPage: o.perPage },
  );
  return { rows, total };
}

/** The design with its pages (any organisation: scope.ts checks it); `forUpdate` locks the design's row. */
export async function findDesign(db: Db | Trx, id: number, o: { forUpdate?: boolean } = {}) {
  let q = base(db)
    .select(summaryColumns)
    .select(['d.pages', sql<number>`jsonb_array_length(d.pages)`.as('page_count')])
    .where('d.id', '=', id);
  if (o.forUpdate) q = q.forUpdate('d');
  return q.executeTakeFirst();
}

export async function insertDesign(
  db: Db,
  values: { entity_id: number; title: string; pages: DesignPage[]; created_by: number },
) {
  const row = await db
    .insertInto('designs')
    .values({ ...values, pages: JSON.stringify(values.pages) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The save: one guarded statement. It writes only when the stored revision is still the one the editor loaded, and
 * moves the revision on in the same statement, so of two saves from the same revision exactly one wins (the other
 * changes nothing and the caller answers 409). Returns false when the revision was stale.
 */
export async function updateDesignGuarded(
  db: Db,
  id: number,
  revision: number,
  values: { title?: string; pages?: DesignPage[] },
  now: Date,
): Promise<boolean> {
  const res = await db
    .updateTable('designs')
    .set({
      ...(values.title === undefined ? {} : { title: values.title }),
      ...(values.pages === undefined ? {} : { pages: JSON.stringify(values.pages) }),
      revision: sql`revision + 1`,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('revision', '=', revision)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Soft delete: the published content stays (learners' results refer to it). */
export async function softDeleteDesign(db: Db, id: number, now: Date) {
  await db
    .updateTable('designs')
    .set({ deleted_at: now, updated_at: now })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
}

export async function markPublished(
  trx: Trx,
  id: number,
  values: { content_id: number; published_revision: number; now: Date },
) {
  await trx
    .updateTable('designs')
    .set({
      content_id: values.content_id,
      published_revision: values.published_revision,
      published_at: values.now,
    })
    .where('id', '=', id)
    .execute();
}
