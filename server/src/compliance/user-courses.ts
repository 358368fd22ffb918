import {
  ComplianceMessages,
  CompliancePerm,
  type ComplianceType,
  type UserComplianceCourse,
} from '@cc/contracts';
import { authorize, type Ctx } from '../http/context';
import { invalidField } from '../http/errors';
import { loadLearner } from '../learning/learner';
import { lockLatestResults, recomputeLatestResult, recordResult } from '../results/service';
import { activeExemptions, softDeleteResults, userComplianceCourses } from './rule-queries';
import { markScoresStale } from './scores-cache';

/**
 * A user's compliance courses (issue 5 item 2, permission 43): the effective compliance rows of their job role in
 * their primary entity (ARCHITECTURE "A user's required courses are the rows for their role in their primary
 * entity"), each with the engine's cell status. The spec shows no per-user compliance rows, so "changing" a user's
 * compliance courses (43) is exempting them from a required course (an exempt result: in date, spec ARCHITECTURE)
 * or lifting that exemption; both go through results so the matrix, reports and scores agree.
 */

const iso = (d: Date | string) => new Date(d).toISOString();

/** Self always; someone else in scope needs 24 (search training records) or 43 (404 outside the scope). */
async function userFor(ctx: Ctx, ref: string) {
  const { user, self } = await loadLearner(ctx, ref);
  if (!self)
    authorize(ctx, [CompliancePerm.searchTrainingRecords, CompliancePerm.updateUserComplianceCourses], 'any');
  return user;
}

/** GET /users/{id}/compliance-courses. */
export async function listUserComplianceCourses(
  ctx: Ctx,
  ref: string,
  query: { page: number; per_page: number; search?: string; type?: ComplianceType | 'all' },
) {
  const user = await userFor(ctx, ref);
  const { rows, total } = await userComplianceCourses(ctx.db, user, ctx.clock(), {
    type: query.type && query.type !== 'all' ? query.type : undefined,
    search: query.search || undefined,
    page: query.page,
    perPage: query.per_page,
  });
  const data = presentRows(rows);
  return { data, total };
}

/**
 * PATCH /users/{id}/compliance-courses/{courseId} (43): `exempt: true` records an exemption (an exempt result from
 * today, no end), `exempt: false` removes the user's exemptions for the course; latest_results in the same
 * transaction. The course must be one of the user's compliance courses (422 otherwise).
 */
export async function setUserCourseExemption(
  ctx: Ctx,
  ref: string,
  courseId: number,
  exempt: boolean,
): Promise<UserComplianceCourse> {
  const { user, actor } = await loadLearner(ctx, ref);
  authorize(ctx, [CompliancePerm.updateUserComplianceCourses]);
  const now = ctx.clock();
  const required = await userComplianceCourses(ctx.db, user, now, { page: 1, perPage: 1000 });
  if (!required.rows.some((r) => r.course_id === courseId))
    throw invalidField('courseId', ComplianceMessages.notRequired);
  await ctx.db.transaction().execute(async (trx) => {
    // "Is there one already?" under the pair's lock: two parallel exempt: true record one exemption, not two.
    await lockLatestResults(trx, [{ userId: user.id, courseId }]);
    const existing = await activeExemptions(trx, user.id, courseId);
    if (exempt && existing.length === 0)
      await recordResult(
        trx,
        {
          userId: user.id,
          entityId: user.primary_entity_id,
          courseId,
          contentId: null,
          type: 'exempt',
          passed: true,
          score: null,
          completedAt: now,
          expiresAt: null,
          attemptId: null,
          createdBy: actor.userId,
        },
        now,
      );
    if (!exempt && existing.length) {
      await softDeleteResults(
        trx,
        existing.map((e) => e.id),
        now,
      );
      await recomputeLatestResult(trx, user.id, courseId, now);
    }
  });
  markScoresStale();
  const after = await userComplianceCourses(ctx.db, user, ctx.clock(), { page: 1, perPage: 1000 });
  const row = presentRows(after.rows).find((r) => r.course.id === courseId);
  if (!row) throw invalidField('courseId', ComplianceMessages.notRequired);
  return row;
}

function presentRows(rows: Awaited<ReturnType<typeof userComplianceCourses>>['rows']) {
  return rows.map(
    (r): UserComplianceCourse => ({
      course: { id: r.course_id, title: r.course_title },
      type: r.type,
      validity: r.validity_months,
      inherited: r.inherited,
      rule_id: r.rule_id,
      status: r.status as UserComplianceCourse['status'],
      exempt: r.result_type === 'exempt',
      latest_result:
        r.result_id !== null && r.completed_at !== null
          ? {
              result_id: r.result_id,
              type: r.result_type ?? 'elearning',
              passed: r.passed === true,
              completed_at: iso(r.completed_at),
              expires_at: r.expires_at ? iso(r.expires_at) : null,
              result_count: r.result_count ?? 1,
            }
          : null,
    }),
  );
}
