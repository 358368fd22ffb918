import type { OfflineRefusal } from '@cc/contracts';
import type { Db } from '../db/connect';
import type { Trx } from '../results/queries';
import type { OfflineAttemptStatus } from './schema';
import './schema';

export async function insertDownload(
  db: Db,
  d: { userId: number; contentId: number; courseId: number; now: Date },
) {
  return db
    .insertInto('offline_downloads')
    .values({ user_id: d.userId, content_id: d.contentId, course_id: d.courseId, downloaded_at: d.now })
    .returning(['id', 'downloaded_at'])
    .executeTakeFirstOrThrow();
}

/** The caller's own download (another user's, or a missing one, is undefined: the same 404). */
export async function findOwnDownload(db: Db | Trx, id: string, userId: number) {
  return db
    .selectFrom('offline_downloads')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Quizzes of the content with their questions and answers, WITHOUT is_correct (two queries, no N+1). */
export async function offlineQuizzes(db: Db, contentId: number) {
  const quizzes = await db
    .selectFrom('content_quizzes as cq')
    .innerJoin('quizzes as q', 'q.id', 'cq.quiz_id')
    .select(['q.id', 'q.title', 'q.pass_mark'])
    .where('cq.content_id', '=', contentId)
    .orderBy('cq.position')
    .orderBy('q.id')
    .execute();
  if (!quizzes.length) return [];
  const quizIds = quizzes.map((q) => q.id);
  const [questions, answers] = await Promise.all([
    db
      .selectFrom('questions')
      .select(['id', 'quiz_id', 'text'])
      .where('quiz_id', 'in', quizIds)
      .orderBy('position')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('answers as a')
      .innerJoin('questions as qu', 'qu.id', 'a.question_id')
      // is_correct is read only to tell "select all that apply" from one answer; it is never sent.
      .select(['a.id', 'a.question_id', 'a.text', 'a.is_correct'])
      .where('qu.quiz_id', 'in', quizIds)
      .orderBy('a.position')
      .orderBy('a.id')
      .execute(),
  ]);
  return quizzes.map((quiz) => ({
    id: quiz.id,
    title: quiz.title,
    pass_mark: quiz.pass_mark,
    questions: questions
      .filter((q) => q.quiz_id === quiz.id)
      .map((q) => {
        const own = answers.filter((a) => a.question_id === q.id);
        return {
          id: q.id,
          text: q.text,
          multiple: own.filter((a) => a.is_correct).length > 1,
          answers: own.map((a) => ({ id: a.id, text: a.text })),
        };
      }),
  }));
}

export function scormPackageOf(db: Db, contentId: number) {
  return db
    .selectFrom('scorm_packages')
    .select([
      'uuid',
      'version',
      'title',
      'launch_path',
      'mastery_score',
      'items',
      'storage_dir',
      'size_bytes',
    ])
    .where('content_id', '=', contentId)
    .executeTakeFirst();
}

/** The H5P packages of the items the content's shown topics hold. */
export function h5pPackagesOf(db: Db, contentId: number) {
  return db
    .selectFrom('h5p_packages as hp')
    .innerJoin('topics as t', 't.h5p_id', 'hp.h5p_id')
    .innerJoin('lesson_topics as lt', 'lt.topic_id', 't.id')
    .innerJoin('content_lessons as cl', 'cl.lesson_id', 'lt.lesson_id')
    .select(['hp.uuid', 'hp.h5p_id', 'hp.title', 'hp.main_library', 'hp.storage_dir', 'hp.size_bytes'])
    .where('cl.content_id', '=', contentId)
    .where('t.hidden', '=', false)
    .distinct()
    .execute();
}

/**
 * The one write that makes a sync idempotent: the first send of (user, client_uuid) inserts and returns the id; a
 * resend, or a second send racing the first, inserts nothing (on PostgreSQL it waits for the first transaction and
 * then sees its row) and returns undefined, so the caller answers with the stored outcome.
 */
export async function claimOfflineAttempt(
  trx: Trx,
  a: {
    userId: number;
    clientUuid: string;
    downloadId: string;
    contentId: number;
    courseId: number;
    payload: Record<string, unknown>;
    deviceStartedAt: Date;
    deviceCompletedAt: Date | null;
    now: Date;
  },
): Promise<number | undefined> {
  const row = await trx
    .insertInto('offline_attempts')
    .values({
      user_id: a.userId,
      client_uuid: a.clientUuid,
      download_id: a.downloadId,
      content_id: a.contentId,
      course_id: a.courseId,
      payload: JSON.stringify(a.payload),
      device_started_at: a.deviceStartedAt,
      device_completed_at: a.deviceCompletedAt,
      synced_at: a.now,
    })
    .onConflict((oc) => oc.constraint('offline_attempts_client_uq').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function settleOfflineAttempt(
  trx: Trx,
  id: number,
  s: {
    attemptId: number | null;
    status: OfflineAttemptStatus;
    score: number | null;
    completedAt: Date | null;
    counted: boolean;
    rule: string;
    refused: OfflineRefusal[];
  },
) {
  await trx
    .updateTable('offline_attempts')
    .set({
      attempt_id: s.attemptId,
      status: s.status,
      score: s.score,
      completed_at: s.completedAt,
      counted: s.counted,
      rule: s.rule,
      refused: JSON.stringify(s.refused),
    })
    .where('id', '=', id)
    .execute();
}

export function findOfflineAttempt(db: Db | Trx, userId: number, clientUuid: string) {
  return db
    .selectFrom('offline_attempts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('client_uuid', '=', clientUuid)
    .executeTakeFirst();
}

/**
 * A finished attempt made offline, stored beside the online ones (never in place of them). It is inserted already
 * finished, so the one-in-progress-attempt constraint never collides with an attempt the learner has open online.
 */
export async function insertFinishedAttempt(
  trx: Trx,
  a: {
    userId: number;
    contentId: number;
    courseId: number;
    status: 'passed' | 'failed' | 'completed';
    score: number | null;
    progress: Record<string, unknown>;
    cmi: Record<string, unknown>;
    startedAt: Date;
    completedAt: Date;
    now: Date;
  },
) {
  const row = await trx
    .insertInto('attempts')
    .values({
      user_id: a.userId,
      content_id: a.contentId,
      course_id: a.courseId,
      status: a.status,
      score: a.score,
      progress: JSON.stringify(a.progress),
      cmi: JSON.stringify(a.cmi),
      started_at: a.startedAt,
      completed_at: a.completedAt,
      updated_at: a.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The learner's latest approved passed result of the course, read under the pair's lock (results/service.ts). */
export function latestPassedResult(trx: Trx, userId: number, courseId: number) {
  return trx
    .selectFrom('results')
    .select(['id', 'completed_at'])
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .where('passed', '=', true)
    .where('status', '=', 'approved')
    .where('deleted_at', 'is', null)
    .orderBy('completed_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The quiz sheets answered offline, stored on the attempt like submitted online ones (one statement). */
export async function insertGradedQuizzes(
  trx: Trx,
  attemptId: number,
  graded: readonly {
    quizId: number;
    questionIds: number[];
    responses: Record<string, number[]>;
    score: number;
    passed: boolean;
    submittedAt: Date;
  }[],
) {
  if (!graded.length) return;
  await trx
    .insertInto('quiz_attempts')
    .values(
      graded.map((g) => ({
        attempt_id: attemptId,
        quiz_id: g.quizId,
        question_order: JSON.stringify(g.questionIds),
        answer_order: '{}',
        responses: JSON.stringify(g.responses),
        score: g.score,
        passed: g.passed,
        submitted_at: g.submittedAt,
      })),
    )
    .execute();
}
