import { sql } from 'kysely';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';
import type { AttemptProgress, AttemptStatus } from '../db/schema';
import type { DbOrTrx } from '../jobs/queries';
import type { Trx } from '../results/queries';
import type { LearnerClauses } from './learner';

/** Contents as the learner side needs them, of those the learner may see, with whether the learner may take each. */
export function learnerContents(db: DbOrTrx, clauses: LearnerClauses) {
  return db
    .selectFrom('contents as c')
    .innerJoin('courses as co', 'co.id', 'c.course_id')
    .select([
      'c.id',
      'c.title',
      'c.type',
      'c.course_id',
      'c.prerequisites',
      'co.title as course_title',
      sql<boolean>`${clauses.takeable}`.as('takeable'),
    ])
    .where(clauses.seen);
}

/** A content as the learner side needs it, with whether the learner may see it. */
export async function findContentForLearner(db: Db, contentId: number, clauses: LearnerClauses) {
  return learnerContents(db, clauses).where('c.id', '=', contentId).executeTakeFirst();
}

export async function contentTitles(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return db.selectFrom('contents').select(['id', 'title']).where('id', 'in', ids).execute();
}

export interface StructureTopic {
  id: number;
  lesson_id: number;
  hidden: boolean;
  skippable: boolean;
  is_child: boolean;
  h5p_id: number | null;
  /** The H5P item's main library (h5ps.library), which says whether it must be passed (verdict.ts h5pMustBePassed). */
  h5p_library: string | null;
}

/** The lessons' topics in reading order (lesson position, then topic position) and the quizzes of a content. */
export async function contentStructure(db: Db, contentId: number) {
  const [topics, quizzes] = await Promise.all([
    db
      .selectFrom('content_lessons as cl')
      .innerJoin('lesson_topics as lt', 'lt.lesson_id', 'cl.lesson_id')
      .innerJoin('topics as t', 't.id', 'lt.topic_id')
      .leftJoin('h5ps as h', 'h.id', 't.h5p_id')
      .select([
        't.id',
        'cl.lesson_id',
        't.hidden',
        't.skippable',
        't.is_child',
        't.h5p_id',
        'h.library as h5p_library',
      ])
      .where('cl.content_id', '=', contentId)
      .orderBy('cl.position')
      .orderBy('cl.lesson_id')
      .orderBy('lt.position')
      .orderBy('t.id')
      .execute(),
    db
      .selectFrom('content_quizzes as cq')
      .innerJoin('quizzes as q', 'q.id', 'cq.quiz_id')
      .select(['q.id', 'q.pass_mark'])
      .where('cq.content_id', '=', contentId)
      .orderBy('cq.position')
      .orderBy('q.id')
      .execute(),
  ]);
  return { topics: topics as StructureTopic[], quizzes };
}

/** Of `contentIds`, those the user has passed: an approved passed result for the content, or a passed attempt. */
export async function passedContentIds(db: Db, userId: number, contentIds: number[]): Promise<Set<number>> {
  if (!contentIds.length) return new Set();
  const [results, attempts] = await Promise.all([
    db
      .selectFrom('results')
      .select('content_id')
      .where('user_id', '=', userId)
      .where('content_id', 'in', contentIds)
      .where('passed', '=', true)
      .where('status', '=', 'approved')
      .where('deleted_at', 'is', null)
      .execute(),
    db
      .selectFrom('attempts')
      .select('content_id')
      .where('user_id', '=', userId)
      .where('content_id', 'in', contentIds)
      .where('status', '=', 'passed')
      .where('deleted_at', 'is', null)
      .execute(),
  ]);
  return new Set(
    [...results.map((r) => r.content_id), ...attempts.map((a) => a.content_id)].filter(
      (id): id is number => id !== null,
    ),
  );
}

/** Attempt columns as the API shows them, with the owner's primary entity (for the tenant check). */
function attemptSelect(db: Db) {
  // The attempt's latest live result (lr) is read once, for its id and its verdict.
  return db
    .selectFrom('attempts as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .innerJoin('contents as c', 'c.id', 'a.content_id')
    .innerJoin('courses as co', 'co.id', 'a.course_id')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('results as r')
          .select(['r.id', 'r.passed'])
          .whereRef('r.attempt_id', '=', 'a.id')
          .where('r.deleted_at', 'is', null)
          .orderBy('r.id', 'desc')
          .limit(1)
          .as('lr'),
      (join) => join.onTrue(),
    )
    .select([
      'a.id',
      'a.uuid',
      'a.user_id',
      'a.content_id',
      'a.course_id',
      'a.status',
      'a.progress',
      'a.cmi',
      'a.score',
      'a.version',
      'a.started_at',
      'a.completed_at',
      'a.updated_at',
      'u.primary_entity_id as user_entity_id',
      'c.title as content_title',
      'c.type as content_type',
      'co.title as course_title',
      'lr.id as result_id',
      // The verdict of that result, so the learner's page shows the certificate for any passed result whatever the
      // content type (a SCORM 'completed' attempt records a pass too).
      'lr.passed as result_passed',
    ])
    .where('a.deleted_at', 'is', null);
}
export type AttemptRow = Awaited<ReturnType<ReturnType<typeof attemptSelect>['execute']>>[number];

export async function findAttempt(db: Db, id: number): Promise<AttemptRow | undefined> {
  return attemptSelect(db).where('a.id', '=', id).executeTakeFirst();
}

export async function findInProgressAttempt(db: Db, userId: number, contentId: number) {
  return attemptSelect(db)
    .where('a.user_id', '=', userId)
    .where('a.content_id', '=', contentId)
    .where('a.status', '=', 'in_progress')
    .executeTakeFirst();
}

/** The user's most recently touched in-progress attempt. */
export async function findCurrentAttempt(db: Db, userId: number) {
  return attemptSelect(db)
    .where('a.user_id', '=', userId)
    .where('a.status', '=', 'in_progress')
    .orderBy('a.updated_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function listAttempts(
  db: Db,
  f: { userId: number; contentId?: number; courseId?: number; status?: AttemptStatus },
  page: { page: number; perPage: number },
) {
  let q = attemptSelect(db).where('a.user_id', '=', f.userId);
  if (f.contentId !== undefined) q = q.where('a.content_id', '=', f.contentId);
  if (f.courseId !== undefined) q = q.where('a.course_id', '=', f.courseId);
  if (f.status !== undefined) q = q.where('a.status', '=', f.status);
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) => filtered.orderBy('a.started_at', 'desc').orderBy('a.id', 'desc'),
    { page: page.page, perPage: page.perPage },
  );
  return { rows, total };
}

/**
 * Inserts an in-progress attempt, or returns undefined when one already exists for the user and content (the partial
 * unique index decides, so two simultaneous starts cannot both win).
 */
export async function insertAttempt(
  trx: Trx,
  a: { userId: number; contentId: number; courseId: number; now: Date },
): Promise<number | undefined> {
  const row = await trx
    .insertInto('attempts')
    .values({
      user_id: a.userId,
      content_id: a.contentId,
      course_id: a.courseId,
      progress: JSON.stringify({ visited_topic_ids: [], completed_topic_ids: [], skipped_topic_ids: [] }),
      cmi: '{}',
      started_at: a.now,
      updated_at: a.now,
    })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'content_id'])
        .where('status', '=', 'in_progress')
        .where('deleted_at', 'is', null)
        .doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** The attempt's row, locked for the rest of the transaction (version checks and completion happen under it). */
export async function lockAttempt(trx: Trx, id: number) {
  return trx
    .selectFrom('attempts')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export async function writeAttempt(
  trx: Trx,
  id: number,
  values: {
    progress?: AttemptProgress;
    cmi?: Record<string, unknown>;
    status?: AttemptStatus;
    score?: number | null;
    completed_at?: Date | null;
    now: Date;
  },
) {
  await trx
    .updateTable('attempts')
    .set({
      ...(values.progress !== undefined ? { progress: JSON.stringify(values.progress) } : {}),
      ...(values.cmi !== undefined ? { cmi: JSON.stringify(values.cmi) } : {}),
      ...(values.status !== undefined ? { status: values.status } : {}),
      ...(values.score !== undefined ? { score: values.score } : {}),
      ...(values.completed_at !== undefined ? { completed_at: values.completed_at } : {}),
      updated_at: values.now,
      version: sql`version + 1`,
    })
    .where('id', '=', id)
    .execute();
}

export async function softDeleteAttempt(db: Db, id: number, now: Date) {
  await db
    .updateTable('attempts')
    .set({ deleted_at: now, updated_at: now, version: sql`version + 1` })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
}

// --- Quizzes

export async function findContentQuiz(db: Db, contentId: number, quizId: number) {
  return db
    .selectFrom('content_quizzes as cq')
    .innerJoin('quizzes as q', 'q.id', 'cq.quiz_id')
    .select(['q.id', 'q.title', 'q.pass_mark', 'q.is_randomized'])
    .where('cq.content_id', '=', contentId)
    .where('cq.quiz_id', '=', quizId)
    .executeTakeFirst();
}

/** Questions and answers of a quiz in authored order, with is_correct (server side only: never presented). */
export async function quizQuestions(db: Db, quizId: number) {
  const questions = await db
    .selectFrom('questions')
    .select(['id', 'text'])
    .where('quiz_id', '=', quizId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const answers = questions.length
    ? await db
        .selectFrom('answers')
        .select(['id', 'question_id', 'text', 'is_correct'])
        .where(
          'question_id',
          'in',
          questions.map((q) => q.id),
        )
        .orderBy('position')
        .orderBy('id')
        .execute()
    : [];
  return questions.map((q) => ({ ...q, answers: answers.filter((a) => a.question_id === q.id) }));
}
export type QuizQuestion = Awaited<ReturnType<typeof quizQuestions>>[number];

export async function findOpenQuizAttempt(db: Db, attemptId: number, quizId: number) {
  return db
    .selectFrom('quiz_attempts')
    .selectAll()
    .where('attempt_id', '=', attemptId)
    .where('quiz_id', '=', quizId)
    .where('submitted_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertQuizAttempt(
  db: Db,
  q: { attemptId: number; quizId: number; questionOrder: number[]; answerOrder: Record<string, number[]> },
) {
  return db
    .insertInto('quiz_attempts')
    .values({
      attempt_id: q.attemptId,
      quiz_id: q.quizId,
      question_order: JSON.stringify(q.questionOrder),
      answer_order: JSON.stringify(q.answerOrder),
      responses: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findQuizAttempt(db: Db, id: number) {
  return db
    .selectFrom('quiz_attempts as qa')
    .innerJoin('attempts as a', 'a.id', 'qa.attempt_id')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .innerJoin('quizzes as q', 'q.id', 'qa.quiz_id')
    .select([
      'qa.id',
      'qa.attempt_id',
      'qa.quiz_id',
      'qa.question_order',
      'qa.submitted_at',
      'a.user_id',
      'a.status as attempt_status',
      'u.primary_entity_id as user_entity_id',
      'q.pass_mark',
    ])
    .where('qa.id', '=', id)
    .where('a.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Marks a quiz attempt submitted; false when someone submitted it first. */
export async function submitQuizAttempt(
  trx: Trx,
  id: number,
  v: { responses: Record<string, number[]>; score: number; passed: boolean; now: Date },
): Promise<boolean> {
  const res = await trx
    .updateTable('quiz_attempts')
    .set({ responses: JSON.stringify(v.responses), score: v.score, passed: v.passed, submitted_at: v.now })
    .where('id', '=', id)
    .where('submitted_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function passedQuizIds(db: Db, attemptId: number): Promise<Set<number>> {
  const rows = await db
    .selectFrom('quiz_attempts')
    .select('quiz_id')
    .where('attempt_id', '=', attemptId)
    .where('passed', '=', true)
    .execute();
  return new Set(rows.map((r) => r.quiz_id));
}

/** The best score per quiz of the attempt (for the attempt's overall score). */
export async function bestQuizScores(db: Db, attemptId: number) {
  return db
    .selectFrom('quiz_attempts')
    .select(['quiz_id', (eb) => eb.fn.max('score').as('score')])
    .where('attempt_id', '=', attemptId)
    .where('submitted_at', 'is not', null)
    .groupBy('quiz_id')
    .execute();
}

/**
 * Claims a write's client id for its user (061_attempt_client_writes), in the transaction that applies the write:
 * true when this is the id's first write, false when it was recorded before (then the caller applies nothing). A
 * concurrent claim of the same id waits on the primary key until the first transaction ends (PostgreSQL).
 */
export async function claimClientWrite(
  trx: Trx,
  v: { userId: number; clientId: string; attemptId: number; quizAttemptId?: number },
): Promise<boolean> {
  const row = await trx
    .insertInto('attempt_client_writes')
    .values({
      user_id: v.userId,
      client_id: v.clientId,
      attempt_id: v.attemptId,
      quiz_attempt_id: v.quizAttemptId ?? null,
    })
    .onConflict((oc) => oc.columns(['user_id', 'client_id']).doNothing())
    .returning('client_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The write a user's client id recorded, if any. */
export async function findClientWrite(db: Db, userId: number, clientId: string) {
  return db
    .selectFrom('attempt_client_writes')
    .select(['attempt_id', 'quiz_attempt_id'])
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

/** What a submitted quiz attempt recorded: its responses, score and verdict. */
export async function submittedQuizAttempt(db: Db, id: number) {
  return db
    .selectFrom('quiz_attempts')
    .select(['responses', 'score', 'passed', 'question_order'])
    .where('id', '=', id)
    .where('submitted_at', 'is not', null)
    .executeTakeFirst();
}
