import { randomUUID } from 'node:crypto';
import type { Db } from '../src/db/connect';
import type { ContentType } from '../src/db/schema';

const uid = () => randomUUID().slice(0, 8);

/** A published course owned by `entityId`. */
export async function buildCourse(
  db: Db,
  entityId: number | null,
  o: { title?: string; published?: boolean } = {},
) {
  return db
    .insertInto('courses')
    .values({ entity_id: entityId, title: o.title ?? `Course ${uid()}`, published: o.published ?? true })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface ContentOptions {
  title?: string;
  type?: ContentType;
  published?: boolean;
  adminOnly?: boolean;
  prerequisites?: number[][];
  courseId?: number;
  courseTitle?: string;
}

/** Published elearning content (in a new published course unless `courseId`) owned by `entityId`. */
export async function buildContent(db: Db, entityId: number | null, o: ContentOptions = {}) {
  const courseId = o.courseId ?? (await buildCourse(db, entityId, { title: o.courseTitle })).id;
  return db
    .insertInto('contents')
    .values({
      entity_id: entityId,
      course_id: courseId,
      type: o.type ?? 'elearning',
      title: o.title ?? `Content ${uid()}`,
      published: o.published ?? true,
      admin_only: o.adminOnly ?? false,
      prerequisites: JSON.stringify(o.prerequisites ?? []),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface TopicSpec {
  title?: string;
  hidden?: boolean;
  skippable?: boolean;
  isChild?: boolean;
}

/** A lesson with topics (in this order) linked to the content at `position`. */
export async function buildLesson(
  db: Db,
  contentId: number,
  entityId: number | null,
  topics: TopicSpec[],
  position = 0,
) {
  const lesson = await db
    .insertInto('lessons')
    .values({ entity_id: entityId, title: `Lesson ${uid()}` })
    .returningAll()
    .executeTakeFirstOrThrow();
  await db
    .insertInto('content_lessons')
    .values({ content_id: contentId, lesson_id: lesson.id, position })
    .execute();
  const rows = [];
  for (const [i, t] of topics.entries()) {
    const topic = await db
      .insertInto('topics')
      .values({
        entity_id: entityId,
        title: t.title ?? `Topic ${i + 1}`,
        hidden: t.hidden ?? false,
        skippable: t.skippable ?? false,
        is_child: t.isChild ?? false,
        resources: '[]',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await db
      .insertInto('lesson_topics')
      .values({ lesson_id: lesson.id, topic_id: topic.id, position: i })
      .execute();
    rows.push(topic);
  }
  return { lesson, topics: rows };
}

export interface QuestionSpec {
  text?: string;
  /** Answer texts; the indexes in `correct` are right. */
  answers: string[];
  correct: number[];
}

/** A quiz with questions and answers, linked to the content. */
export async function buildQuiz(
  db: Db,
  contentId: number,
  entityId: number | null,
  questions: QuestionSpec[],
  o: { passMark?: number; randomized?: boolean } = {},
) {
  const quiz = await db
    .insertInto('quizzes')
    .values({
      entity_id: entityId,
      title: `Quiz ${uid()}`,
      published: true,
      pass_mark: o.passMark ?? 80,
      is_randomized: o.randomized ?? false,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await db.insertInto('content_quizzes').values({ content_id: contentId, quiz_id: quiz.id }).execute();
  const built = [];
  for (const [qi, q] of questions.entries()) {
    const question = await db
      .insertInto('questions')
      .values({ quiz_id: quiz.id, text: q.text ?? `Question ${qi + 1}`, position: qi })
      .returningAll()
      .executeTakeFirstOrThrow();
    const answers = [];
    for (const [ai, text] of q.answers.entries()) {
      answers.push(
        await db
          .insertInto('answers')
          .values({ question_id: question.id, text, is_correct: q.correct.includes(ai), position: ai })
          .returningAll()
          .executeTakeFirstOrThrow(),
      );
    }
    built.push({ ...question, answers });
  }
  return { quiz, questions: built };
}

/** A passed result written through the results service (so latest_results follows). */
export async function buildPassedResult(
  db: Db,
  o: {
    userId: number;
    entityId: number;
    courseId: number;
    contentId?: number | null;
    completedAt?: Date;
    suppressed?: boolean;
    /** The recording's clock, for a test that fixes one (the completion may not be after it). */
    now?: Date;
  },
) {
  const { recordResult } = await import('../src/results/service');
  const result = await db.transaction().execute((trx) =>
    recordResult(
      trx,
      {
        userId: o.userId,
        entityId: o.entityId,
        courseId: o.courseId,
        contentId: o.contentId ?? null,
        type: 'elearning',
        passed: true,
        score: 90,
        completedAt: o.completedAt ?? new Date(),
        attemptId: null,
        createdBy: null,
      },
      o.now,
    ),
  );
  if (o.suppressed)
    await db
      .updateTable('results')
      .set({ certificate_suppressed: true })
      .where('id', '=', result.id)
      .execute();
  return result;
}

/** An exemption (an approved, passed result of type exempt) from `courseId`, without an end unless `endsAt`. */
export async function buildExemption(
  db: Db,
  o: { userId: number; entityId: number; courseId: number; startedAt?: Date; endsAt?: Date | null },
) {
  const { recordResult } = await import('../src/results/service');
  return db.transaction().execute((trx) =>
    recordResult(trx, {
      userId: o.userId,
      entityId: o.entityId,
      courseId: o.courseId,
      contentId: null,
      type: 'exempt',
      passed: true,
      score: null,
      completedAt: o.startedAt ?? new Date(),
      expiresAt: o.endsAt ?? null,
      attemptId: null,
      createdBy: null,
    }),
  );
}
