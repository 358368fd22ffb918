import { randomUUID } from 'node:crypto';
import type { Db } from '../src/db/connect';
import type { ContentType } from '../src/db/schema';

/** Authoring factories (courses, content, lessons, topics, quizzes, H5P). Each item belongs to the given owner. */
const uid = () => randomUUID().slice(0, 8);

export async function buildCategory(db: Db, entityId: number | null, o: { name?: string } = {}) {
  return db
    .insertInto('course_categories')
    .values({ entity_id: entityId, name: o.name ?? `Category ${uid()}` })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function buildCourse(
  db: Db,
  entityId: number | null,
  o: { title?: string; published?: boolean; categoryId?: number | null } = {},
) {
  return db
    .insertInto('courses')
    .values({
      entity_id: entityId,
      title: o.title ?? `Course ${uid()}`,
      short_title: null,
      category_id: o.categoryId ?? null,
      published: o.published ?? false,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function buildContent(
  db: Db,
  o: {
    entityId: number | null;
    courseId?: number;
    type?: ContentType;
    title?: string;
    published?: boolean;
    adminOnly?: boolean;
    prerequisites?: number[][];
  },
) {
  const courseId = o.courseId ?? (await buildCourse(db, o.entityId, { published: o.published })).id;
  return db
    .insertInto('contents')
    .values({
      entity_id: o.entityId,
      course_id: courseId,
      type: o.type ?? 'elearning',
      title: o.title ?? `Content ${uid()}`,
      aims: null,
      outcomes: null,
      image_file_id: null,
      estimated_duration: 30,
      published: o.published ?? false,
      admin_only: o.adminOnly ?? false,
      prerequisites: JSON.stringify(o.prerequisites ?? []),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function buildLesson(db: Db, entityId: number | null, o: { title?: string } = {}) {
  return db
    .insertInto('lessons')
    .values({ entity_id: entityId, title: o.title ?? `Lesson ${uid()}`, question_qty: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An H5P item; `library` is its package's main library ("H5P.MultiChoice 1.16"), null for an item without one. */
export async function buildH5p(
  db: Db,
  entityId: number | null,
  o: { title?: string; library?: string | null } = {},
) {
  return db
    .insertInto('h5ps')
    .values({
      entity_id: entityId,
      title: o.title ?? `H5P ${uid()}`,
      video_id: null,
      package_dir: null,
      library: o.library ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function buildTopic(
  db: Db,
  entityId: number | null,
  o: { title?: string; bodyHtml?: string; h5pId?: number | null } = {},
) {
  return db
    .insertInto('topics')
    .values({
      entity_id: entityId,
      title: o.title ?? `Topic ${uid()}`,
      body_html: o.bodyHtml ?? '<p>Body</p>',
      h5p_id: o.h5pId ?? null,
      resources: '[]',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A quiz with `questions` questions of two answers each (the first correct). */
export async function buildQuiz(
  db: Db,
  entityId: number | null,
  o: { title?: string; questions?: number; passMark?: number; published?: boolean } = {},
) {
  const quiz = await db
    .insertInto('quizzes')
    .values({
      entity_id: entityId,
      title: o.title ?? `Quiz ${uid()}`,
      pass_mark: o.passMark ?? 80,
      published: o.published ?? false,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const questions = [];
  for (let i = 0; i < (o.questions ?? 2); i++) {
    const q = await db
      .insertInto('questions')
      .values({ quiz_id: quiz.id, text: `Question ${i + 1}`, position: i })
      .returningAll()
      .executeTakeFirstOrThrow();
    const answers = await db
      .insertInto('answers')
      .values([
        { question_id: q.id, text: 'Right', is_correct: true, position: 0 },
        { question_id: q.id, text: 'Wrong', is_correct: false, position: 1 },
      ])
      .returningAll()
      .execute();
    questions.push({ ...q, answers });
  }
  return { ...quiz, questions };
}

/** Attach lessons/quizzes to content and topics to lessons, in the given order. */
export async function linkLessons(db: Db, contentId: number, lessonIds: number[]) {
  if (lessonIds.length)
    await db
      .insertInto('content_lessons')
      .values(lessonIds.map((lesson_id, position) => ({ content_id: contentId, lesson_id, position })))
      .execute();
}
export async function linkQuizzes(db: Db, contentId: number, quizIds: number[]) {
  if (quizIds.length)
    await db
      .insertInto('content_quizzes')
      .values(quizIds.map((quiz_id, position) => ({ content_id: contentId, quiz_id, position })))
      .execute();
}
export async function linkTopics(db: Db, lessonId: number, topicIds: number[]) {
  if (topicIds.length)
    await db
      .insertInto('lesson_topics')
      .values(topicIds.map((topic_id, position) => ({ lesson_id: lessonId, topic_id, position })))
      .execute();
}

/** A content image file row (no bytes in storage): for delete and reference tests. */
export async function buildContentImage(db: Db, entityId: number | null) {
  return db
    .insertInto('files')
    .values({
      entity_id: entityId,
      purpose: 'content_image',
      storage_key: `content/${randomUUID()}.png`,
      original_name: 'image.png',
      mime_type: 'image/png',
      size_bytes: 10,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
