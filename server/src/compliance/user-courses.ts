import {
  ComplianceMessages,
  CompliancePerm,
  type ComplianceType,
  ResultsMessages,
  type UserComplianceCourse,
} from '@cc/contracts';
import { authorize, type Ctx } from '../http/context';
import { type FieldErrors, invalid, invalidField } from '../http/errors';
import { loadLearner } from '../learning/learner';
import { updateResultRow } from '../results/admin-queries';
import { dayStart, exemptionEndErrors } from '../results/admin-shared';
import { auditResult, auditResults, resultSnapshot, resultSnapshots } from '../results/audit';
import { lockLatestResults, recomputeLatestResult, recordResult } from '../results/service';
import { activeExemptions, softDeleteResults, userComplianceCourses } from './rule-queries';
import { markScoresStale } from './scores-cache';
import { requirementStatus } from './status';

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
  const data = presentRows(rows, ctx.clock());
  return { data, total };
}

/**
 * PATCH /users/{id}/compliance-courses/{courseId} (43). Only the fields sent change:
 * - `exempt: true` records an exemption (an exempt result from today) with its reason (`notes`, required: issue 28
 *   item 6) and an optional end date after today, from which the requirement applies again;
 * - `exempt: false` removes the user's exemptions for the course;
 * - `notes` or `end_date` alone (or beside `exempt: true` on an exemption that runs) change that exemption's reason or
 *   end date; without a running exemption they are refused (422 on exempt).
 * latest_results in the same transaction. The course must be one of the user's compliance courses (422 otherwise).
 */
export async function setUserCourseExemption(
  ctx: Ctx,
  ref: string,
  courseId: number,
  body: { exempt?: boolean; notes?: string; end_date?: string | null },
): Promise<UserComplianceCourse> {
  const { user, actor } = await loadLearner(ctx, ref);
  authorize(ctx, [CompliancePerm.updateUserComplianceCourses]);
  const now = ctx.clock();
  const errors: FieldErrors = {};
  if (body.notes !== undefined && !body.notes.trim()) errors.notes = [ResultsMessages.reasonRequired];
  const endErrors =
    body.exempt !== false && body.end_date !== undefined ? exemptionEndErrors(body.end_date, now) : null;
  if (endErrors) errors.end_date = endErrors;
  const required = await userComplianceCourses(ctx.db, user, now, { page: 1, perPage: 1000 });
  if (!required.rows.some((r) => r.course_id === courseId))
    errors.courseId = [ComplianceMessages.notRequired];
  if (Object.keys(errors).length) throw invalid(errors);
  await ctx.db.transaction().execute(async (trx) => {
    // "Is there one already?" under the pair's lock: two parallel exempt: true record one exemption, not two.
    await lockLatestResults(trx, [{ userId: user.id, courseId }]);
    const existing = await activeExemptions(trx, user.id, courseId);
    // One that has ended excuses nobody: exempting again records a new one.
    const running = existing.find((e) => e.expires_at === null || new Date(e.expires_at) > now);
    if (body.exempt === false) {
      if (!existing.length) return;
      const before = await resultSnapshots(
        trx,
        existing.map((e) => e.id),
      );
      await softDeleteResults(
        trx,
        existing.map((e) => e.id),
        now,
      );
      await recomputeLatestResult(trx, user.id, courseId, now);
      await auditResults(
        trx,
        ctx,
        'deleted',
        before.map((b) => ({ before: b, after: null })),
      );
      return;
    }
    if (running) {
      // Its reason or end date, where sent; exempt: true alone changes nothing.
      const changes = {
        ...(body.notes !== undefined ? { notes: body.notes.trim() } : {}),
        ...(body.end_date !== undefined
          ? { expires_at: body.end_date ? dayStart(body.end_date) : null }
          : {}),
      };
      if (!Object.keys(changes).length) return;
      const before = await resultSnapshot(trx, running.id);
      await updateResultRow(trx, running.id, changes, now);
      if ('expires_at' in changes) await recomputeLatestResult(trx, user.id, courseId, now);
      await auditResult(trx, ctx, 'updated', before, await resultSnapshot(trx, running.id));
      return;
    }
    if (body.exempt !== true) {
      if (body.notes !== undefined || body.end_date !== undefined)
        throw invalidField('exempt', ComplianceMessages.notExempt);
      return;
    }
    if (!body.notes?.trim()) throw invalidField('notes', ResultsMessages.reasonRequired);
    const result = await recordResult(
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
        expiresAt: body.end_date ? dayStart(body.end_date) : null,
        attemptId: null,
        createdBy: actor.userId,
      },
      now,
    );
    await updateResultRow(trx, result.id, { notes: body.notes.trim() }, now);
    await auditResult(trx, ctx, 'created', null, await resultSnapshot(trx, result.id));
  });
  markScoresStale();
  const after = await userComplianceCourses(ctx.db, user, ctx.clock(), { page: 1, perPage: 1000 });
  const row = presentRows(after.rows, now).find((r) => r.course.id === courseId);
  if (!row) throw invalidField('courseId', ComplianceMessages.notRequired);
  return row;
}

type Row = Awaited<ReturnType<typeof userComplianceCourses>>['rows'][number];

/** The one status of a compliance course row (contracts courseStatus over the row's facts). */
export const statusOfRow = (r: Row, now: Date) =>
  requirementStatus({ ...r, exempt: r.result_type === 'exempt' }, now);

/** The latest result is an exemption that still runs at `now` (one whose end has come no longer counts). */
const runningExemption = (r: Row, now: Date) =>
  r.result_type === 'exempt' && (r.expires_at === null || new Date(r.expires_at).getTime() > now.getTime());

function presentRows(rows: Row[], now: Date) {
  return rows.map((r): UserComplianceCourse => {
    const s = statusOfRow(r, now);
    const exempt = runningExemption(r, now);
    return {
      course: { id: r.course_id, title: r.course_title },
      type: r.type,
      validity: r.validity_months,
      inherited: r.inherited,
      rule_id: r.rule_id,
      status: s.cell,
      course_status: s.status,
      status_date: s.date,
      out_of_date: s.outOfDate,
      exempt,
      // The exemption, running or ended (the row says which one ended until the nightly job picks again).
      exemption:
        r.result_type === 'exempt'
          ? { reason: r.result_notes, end_date: r.expires_at ? iso(r.expires_at).slice(0, 10) : null }
          : null,
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
    };
  });
}
