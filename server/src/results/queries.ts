import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/connect';
import type { Database, ResultType } from '../db/schema';

/** Writes take a transaction by type (STYLE "Transactions"): a result and its latest_results row move together. */
export type Trx = Transaction<Database>;

export interface NewResult {
  userId: number;
  entityId: number;
  courseId: number;
  contentId: number | null;
  type: ResultType;
  passed: boolean;
  score: number | null;
  completedAt: Date;
  expiresAt: Date | null;
  attemptId: number | null;
  createdBy: number | null;
  status?: 'approved' | 'pending';
}

export async function insertResult(trx: Trx, r: NewResult) {
  return trx
    .insertInto('results')
    .values({
      user_id: r.userId,
      entity_id: r.entityId,
      course_id: r.courseId,
      content_id: r.contentId,
      type: r.type,
      status: r.status ?? 'approved',
      passed: r.passed,
      score: r.score,
      completed_at: r.completedAt,
      expires_at: r.expiresAt,
      attempt_id: r.attemptId,
      created_by: r.createdBy,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The result that represents (user, course): the latest approved PASSED one, else the latest approved one.
 * Ties on completed_at go to the newer row.
 */
export async function pickLatestResult(trx: Trx, userId: number, courseId: number) {
  return trx
    .selectFrom('results')
    .select(['id', 'passed', 'completed_at', 'expires_at', 'type'])
    .select(sql<number>`count(*) OVER ()::int`.as('result_count'))
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .where('status', '=', 'approved')
    .where('deleted_at', 'is', null)
    .orderBy('passed', 'desc')
    .orderBy('completed_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function upsertLatestResult(
  trx: Trx,
  row: {
    user_id: number;
    course_id: number;
    result_id: number;
    passed: boolean;
    completed_at: Date;
    expires_at: Date | null;
    type: ResultType;
    result_count: number;
  },
  now: Date,
) {
  await trx
    .insertInto('latest_results')
    .values({ ...row, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['user_id', 'course_id']).doUpdateSet({
        result_id: row.result_id,
        passed: row.passed,
        completed_at: row.completed_at,
        expires_at: row.expires_at,
        type: row.type,
        result_count: row.result_count,
        updated_at: now,
      }),
    )
    .execute();
}

export async function deleteLatestResult(trx: Trx, userId: number, courseId: number) {
  await trx
    .deleteFrom('latest_results')
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .execute();
}

/** A certificate's facts: the result with its learner, course and the learner's entity at the time. */
export async function findCertificateResult(
  db: Db,
  where: { userId: number; courseId?: number; resultId?: number },
) {
  let q = db
    .selectFrom('results as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .innerJoin('courses as c', 'c.id', 'r.course_id')
    .leftJoin('contents as ct', 'ct.id', 'r.content_id')
    .select([
      'r.id',
      'r.uuid',
      'r.type',
      'r.passed',
      'r.score',
      'r.completed_at',
      'r.expires_at',
      'r.entity_id',
      'r.certificate_suppressed',
      'u.name as user_name',
      'c.id as course_id',
      'c.title as course_title',
      'c.short_title as course_short_title',
      'ct.title as content_title',
      'ct.cpd_accredited',
    ])
    .where('r.user_id', '=', where.userId)
    .where('r.passed', '=', true)
    .where('r.status', '=', 'approved')
    .where('r.deleted_at', 'is', null);
  if (where.resultId !== undefined) q = q.where('r.id', '=', where.resultId);
  if (where.courseId !== undefined) q = q.where('r.course_id', '=', where.courseId);
  return q.orderBy('r.completed_at', 'desc').orderBy('r.id', 'desc').limit(1).executeTakeFirst();
}
