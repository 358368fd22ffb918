import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { escapeLike, type Trx } from '../courses/queries';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';
import type { ContentType } from '../db/schema';

/** SQL of content items, their images and feedback. Visibility clauses come from courses/visibility. */
const columns = [
  'ct.id',
  'ct.uuid',
  'ct.entity_id',
  'ct.course_id',
  'ct.type',
  'ct.title',
  'ct.aims',
  'ct.outcomes',
  'ct.image_file_id',
  'ct.estimated_duration',
  'ct.cpd_accredited',
  'ct.admin_only',
  'ct.published',
  'ct.prerequisites',
  'ct.created_at',
  'ct.updated_at',
  'c.title as course_title',
  'f.uuid as image_uuid',
] as const;

const base = (db: Db | Trx) =>
  db
    .selectFrom('contents as ct')
    .innerJoin('courses as c', 'c.id', 'ct.course_id')
    .leftJoin('files as f', 'f.id', 'ct.image_file_id');

export type ContentRow = NonNullable<Awaited<ReturnType<typeof findContent>>>;

export async function listContents(
  db: Db,
  visible: RawBuilder<SqlBool>,
  o: {
    type?: ContentType;
    courseId?: number;
    published?: boolean;
    search?: string;
    page: number;
    perPage: number;
  },
) {
  let q = base(db).where(visible);
  if (o.type) q = q.where('ct.type', '=', o.type);
  if (o.courseId) q = q.where('ct.course_id', '=', o.courseId);
  if (o.published !== undefined) q = q.where('ct.published', '=', o.published);
  if (o.search) q = q.where('ct.title', 'ilike', `%${escapeLike(o.search)}%`);
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) => filtered.select(columns).orderBy(sql`lower(ct.title)`).orderBy('ct.id'),
    { page: o.page, perPage: o.perPage },
  );
  return { rows, total };
}

export async function findContent(db: Db | Trx, id: number, visible: RawBuilder<SqlBool>) {
  return base(db).select(columns).where('ct.id', '=', id).where(visible).executeTakeFirst();
}

/** Topics of the content's lessons, in lesson then topic order (one query). */
export async function contentTopics(db: Db, contentId: number) {
  return db
    .selectFrom('content_lessons as cl')
    .innerJoin('lesson_topics as lt', 'lt.lesson_id', 'cl.lesson_id')
    .innerJoin('topics as t', 't.id', 'lt.topic_id')
    .select(['t.id', 't.title'])
    .where('cl.content_id', '=', contentId)
    .orderBy('cl.position')
    .orderBy('lt.position')
    .orderBy('t.id')
    .execute();
}

export interface ContentValues {
  entity_id?: number | null;
  course_id?: number;
  type?: ContentType;
  title?: string;
  aims?: string | null;
  outcomes?: string | null;
  image_file_id?: number | null;
  estimated_duration?: number | null;
  cpd_accredited?: boolean;
  admin_only?: boolean;
  published?: boolean;
  prerequisites?: number[][];
}

export async function insertContent(
  db: Db,
  values: Required<Omit<ContentValues, 'prerequisites'>> & { prerequisites: number[][] },
) {
  const row = await db
    .insertInto('contents')
    .values({ ...values, prerequisites: JSON.stringify(values.prerequisites) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateContentRow(db: Db, id: number, values: ContentValues, now: Date) {
  const { prerequisites, ...rest } = values;
  await db
    .updateTable('contents')
    .set({
      ...rest,
      ...(prerequisites === undefined ? {} : { prerequisites: JSON.stringify(prerequisites) }),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * Links (lessons, quizzes, entity content, feedback) go with it: FK cascades. Returns the storage folder of its
 * SCORM package (its row goes in the same transaction), whose files the caller removes after the commit.
 */
export async function deleteContentRow(db: Db, id: number): Promise<string | undefined> {
  return db.transaction().execute(async (trx) => {
    const pkg = await trx
      .deleteFrom('scorm_packages')
      .where('content_id', '=', id)
      .returning('storage_dir')
      .executeTakeFirst();
    await trx.deleteFrom('contents').where('id', '=', id).execute();
    return pkg?.storage_dir;
  });
}

// --- Images --------------------------------------------------------------------------------------------------

export const CONTENT_IMAGE_PURPOSE = 'content_image';

export async function insertImageFile(
  db: Db,
  values: {
    entity_id: number | null;
    storage_key: string;
    original_name: string;
    mime_type: string;
    size_bytes: number;
  },
) {
  return db
    .insertInto('files')
    .values({ ...values, purpose: CONTENT_IMAGE_PURPOSE })
    .returning(['id', 'uuid'])
    .executeTakeFirstOrThrow();
}

/** A content image of one of `owners` (null: any). */
export async function findImageFile(db: Db, id: number, owners: number[] | null) {
  let q = db
    .selectFrom('files')
    .select(['id', 'uuid', 'entity_id', 'storage_key'])
    .where('id', '=', id)
    .where('purpose', '=', CONTENT_IMAGE_PURPOSE);
  if (owners) q = q.where('entity_id', 'in', owners);
  return q.executeTakeFirst();
}

/** Contents lose the image (image_file_id ON DELETE SET NULL) in the same statement. */
export async function deleteImageFile(db: Db, id: number) {
  await db.deleteFrom('files').where('id', '=', id).execute();
}

export async function insertFeedback(
  db: Db,
  values: { content_id: number; user_id: number; rating: number; message: string | null },
) {
  return db
    .insertInto('feedback')
    .values(values)
    .returning(['id', 'content_id', 'rating', 'message', 'created_at'])
    .executeTakeFirstOrThrow();
}
