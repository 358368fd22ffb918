import type { Transaction } from 'kysely';
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
