import { sql } from 'kysely';
import { auditVia } from '../audit/record';
import { effectiveRuleFor } from '../compliance/queries';
import { expiryOf } from '../compliance/rules';
import { markScoresStale } from '../compliance/scores-cache';
import type { Db } from '../db/connect';
import { lockKeys } from '../db/locks';
import type { ResultType } from '../db/schema';
import type { Ctx } from '../http/context';
import { auditEarnedResult } from './audit';
import { assertNotCompletedInFuture } from './completion-date';
import { insertResult, type NewResult, type Trx } from './queries';

export type { Trx } from './queries';

/**
 * How long a pass of this course stays valid for this learner: the validity (months) of the compliance rule that
 * applies through the learner's role in their primary entity (level A rows inherited by level B). No rule, no
 * validity, a fail or an exemption: no expiry.
 */
export async function expiresAtFor(
  trx: Trx,
  input: { userId: number; courseId: number; completedAt: Date; type: ResultType; passed?: boolean },
): Promise<Date | null> {
  if (input.type === 'exempt' || input.passed === false) return null;
  const rule = await effectiveRuleFor(trx, input.userId, input.courseId);
  return expiryOf(input.completedAt, rule?.validity_months ?? null);
}

/**
 * Serialises writers of these (user, course) pairs until the transaction ends (issue 10 §3): without it, two
 * results of one pair committed at once each pick "the latest" from a history that lacks the other's row, and the
 * last upsert wins with a wrong result and result_count. A transaction that recomputes several pairs locks them all
 * first (sorted, db/locks.ts), so two of them never wait for each other in a cycle.
 */
export async function lockLatestResults(
  trx: Trx,
  pairs: readonly { userId: number; courseId: number }[],
): Promise<void> {
  await lockKeys(
    trx,
    'latest_results',
    pairs.map((p) => [p.userId, p.courseId]),
  );
}

/**
 * Keeps latest_results true for (user, course): the latest approved passed result wins, else the latest approved
 * one; an exemption whose end has come at `now` no longer counts (issue 28 §6); no result at all removes the row.
 * One rule for every writer: the database's latest_results_refresh (migration 063), set-based. Call it in the same
 * transaction as any write or delete of results (ARCHITECTURE "Data": the matrix reads latest_results, never the
 * history).
 */
export async function recomputeLatestResult(
  trx: Trx,
  userId: number,
  courseId: number,
  now: Date = new Date(),
): Promise<void> {
  // Under the pair's lock, this statement's snapshot holds every result other writers of the pair committed.
  await lockLatestResults(trx, [{ userId, courseId }]);
  await refreshLatestResults(trx, [{ user_id: userId, course_id: courseId }], now);
}

/**
 * latest_results for many (user, course) pairs in one statement (latest_results_refresh, migration 063); the caller
 * holds the pairs' locks (lockLatestResults). user_requirements follows by its triggers.
 */
export async function refreshLatestResults(
  trx: Trx | Db,
  pairs: readonly { user_id: number; course_id: number }[],
  now: Date,
): Promise<void> {
  if (!pairs.length) return;
  // Cached entity scores are made of latest_results (compliance/scores-cache.ts).
  markScoresStale();
  await sql`SELECT latest_results_refresh(${pairs.map((p) => p.user_id)}::int[],
    ${pairs.map((p) => p.course_id)}::int[], ${now}::timestamptz)`.execute(trx);
}

export type RecordResultInput = Omit<NewResult, 'expiresAt'> & { expiresAt?: Date | null };

/** A result just written, as listeners see it. */
export interface RecordedResult {
  userId: number;
  courseId: number;
  type: ResultType;
}
export type ResultListener = (trx: Trx, result: RecordedResult, now: Date) => Promise<void>;
const resultListeners: ResultListener[] = [];

/**
 * Capabilities built on results (pathways: a step done may finish a pathway) register here instead of results/
 * importing them. Listeners run inside recordResult's transaction, after latest_results moved, so what they
 * write commits or rolls back with the result. Registering the same function twice keeps one.
 */
export function afterResultRecorded(listener: ResultListener): void {
  if (!resultListeners.includes(listener)) resultListeners.push(listener);
}

/**
 * Writes a result and updates latest_results IN THE SAME TRANSACTION (issue 4 item 3). Used by elearning completion
 * (learning/progress.ts) and by the SCORM runtime (type 'scorm'). expires_at defaults to expiresAtFor(...).
 */
export async function recordResult(trx: Trx, input: RecordResultInput, now: Date = new Date()) {
  // The last guard of every writer (their own checks answer first, with their own field): nothing dated in the future.
  assertNotCompletedInFuture(input.completedAt, now);
  const expiresAt =
    input.expiresAt !== undefined
      ? input.expiresAt
      : await expiresAtFor(trx, {
          userId: input.userId,
          courseId: input.courseId,
          completedAt: input.completedAt,
          type: input.type,
          passed: input.passed,
        });
  const result = await insertResult(trx, { ...input, expiresAt });
  await recomputeLatestResult(trx, input.userId, input.courseId, now);
  await runResultListeners(trx, [{ userId: input.userId, courseId: input.courseId, type: input.type }], now);
  return result;
}

/**
 * Tells the listeners (pathways, webhooks) about results written in bulk, after latest_results moved in the same
 * transaction (the importer's set-based apply): each person and course once.
 */
export async function runResultListeners(
  trx: Trx,
  results: readonly RecordedResult[],
  now: Date,
): Promise<void> {
  const seen = new Set<string>();
  for (const result of results) {
    const key = `${result.userId}:${result.courseId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const listener of resultListeners) await listener(trx, result, now);
  }
}

/**
 * The result of a finished attempt (elearning or scorm), written in the attempt's transaction so latest_results
 * moves with it (ARCHITECTURE "Data"). The result belongs to the learner's primary entity at the time. Its audit
 * entry (issue 35 §3) is written in the same transaction: the learner earned it by taking the content online.
 */
export async function recordAttemptResult(
  trx: Trx,
  ctx: Ctx,
  attempt: { id: number; user_id: number; content_id: number; course_id: number },
  outcome: { type: 'elearning' | 'scorm'; passed: boolean; score: number | null; createdBy: number | null },
  now: Date,
) {
  const learner = await trx
    .selectFrom('users')
    .select('primary_entity_id')
    .where('id', '=', attempt.user_id)
    .executeTakeFirstOrThrow();
  const result = await recordResult(
    trx,
    {
      userId: attempt.user_id,
      entityId: learner.primary_entity_id,
      courseId: attempt.course_id,
      contentId: attempt.content_id,
      type: outcome.type,
      passed: outcome.passed,
      score: outcome.score,
      completedAt: now,
      attemptId: attempt.id,
      createdBy: outcome.createdBy,
    },
    now,
  );
  const content = await trx
    .selectFrom('contents')
    .select('title')
    .where('id', '=', attempt.content_id)
    .executeTakeFirst();
  await auditEarnedResult(
    trx,
    ctx,
    result.id,
    auditVia({ how: outcome.type, label: content?.title ?? null, ref: String(attempt.id) }),
  );
  return result;
}
