import {
  type CoursePickerQuery,
  type ResultListQuery,
  ResultsMessages,
  ResultsPerm,
  type ResultType,
  type ResultView,
  type UserResultsQuery,
} from '@cc/contracts';
import { visibleCourseClause } from '../courses/visibility';
import { actorOf, authorize, type Ctx } from '../http/context';
import { conflict, notFound } from '../http/errors';
import { loadLearner } from '../learning/learner';
import { findEvidenceFile, listResults, updateResultRow, visibleCourses } from './admin-queries';
import { listBound, softDelete } from './admin-service';
import { dayStart, loadResult, presentResult, reloadResult } from './admin-shared';
import { auditResult, resultSnapshot } from './audit';
import { recomputeLatestResult } from './service';

/**
 * Pending results, deleting a training record, suppressing a certificate, evidence downloads, a user's results and
 * the course picker of the results forms (issue 5 item 1). 404 (scope) before 403 (permission) before 409/422.
 */
const P = ResultsPerm;

/** GET /results/{id}: the caller's own result, or 24/25 with the learner in scope. */
export async function getResult(ctx: Ctx, id: number): Promise<ResultView> {
  const { row, self } = await loadResult(ctx, id, { allowSelf: true });
  if (!self) authorize(ctx, [P.searchTrainingRecords, P.updateRecord], 'any');
  return presentResult(row);
}

/** GET /results/pending/{type} (24 or 25): the approval queue of one result type, over the caller's scope. */
export async function listPending(ctx: Ctx, type: ResultType, q: ResultListQuery) {
  authorize(ctx, [P.searchTrainingRecords, P.updateRecord], 'any');
  const entityIds = await listBound(ctx, q);
  const { rows, total } = await listResults(
    ctx.db,
    {
      entityIds,
      type,
      status: 'pending',
      userId: q.user_id,
      courseId: q.course_id,
      search: q.search || undefined,
    },
    { page: q.page, perPage: q.per_page },
  );
  return { data: rows.map(presentResult), total };
}

/** POST /results/pending/{id}/approve (25): status approved, latest_results recomputed in the same transaction. */
export async function approvePending(ctx: Ctx, id: number): Promise<ResultView> {
  const { row } = await loadResult(ctx, id);
  const actor = authorize(ctx, [P.updateRecord]);
  if (row.status !== 'pending') throw conflict(ResultsMessages.notPending);
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    const before = await resultSnapshot(trx, row.id);
    // Guarded on status so two approvers racing cannot both "approve".
    const changed = await trx
      .updateTable('results')
      .set({ status: 'approved', approved_by: actor.userId, approved_at: now, updated_at: now })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) throw conflict(ResultsMessages.notPending);
    await recomputeLatestResult(trx, row.user_id, row.course_id, now);
    await auditResult(trx, ctx, 'approved', before, await resultSnapshot(trx, row.id));
  });
  return reloadResult(ctx, row.id);
}

/** DELETE /results/pending/{id} (85): refuse a pending result (soft delete). */
export async function deletePending(ctx: Ctx, id: number): Promise<void> {
  const { row } = await loadResult(ctx, id);
  authorize(ctx, [P.deleteTrainingRecord]);
  if (row.status !== 'pending') throw conflict(ResultsMessages.notPending);
  await softDelete(ctx, row);
}

/** DELETE /results/{id} (85, delete training record): any result, soft-deleted; latest_results recomputed. */
export async function deleteResult(ctx: Ctx, id: number): Promise<void> {
  const { row } = await loadResult(ctx, id);
  authorize(ctx, [P.deleteTrainingRecord]);
  await softDelete(ctx, row);
}

/**
 * PATCH /results/{id}/suppress-certificate (124). A suppressed certificate is not downloadable by the learner or
 * by managers without 124 (certificates/service.ts answers 404 for it).
 */
export async function suppressCertificate(ctx: Ctx, id: number, suppressed: boolean): Promise<ResultView> {
  const { row } = await loadResult(ctx, id);
  authorize(ctx, [P.suppressCertificate]);
  await ctx.db
    .transaction()
    .execute((trx) => updateResultRow(trx, row.id, { certificate_suppressed: suppressed }, ctx.clock()));
  return reloadResult(ctx, row.id);
}

/**
 * GET /results/{id}/evidence: the learner themself, or 24 with the learner in scope. Always an attachment with the
 * stored (detected) type and nosniff, so an uploaded file never renders in our origin.
 */
export async function evidenceDownload(ctx: Ctx, id: number) {
  const { row, self } = await loadResult(ctx, id, { allowSelf: true });
  if (!self) authorize(ctx, [P.searchTrainingRecords]);
  const file =
    row.evidence_file_id !== null ? await findEvidenceFile(ctx.db, row.evidence_file_id) : undefined;
  if (!file) throw notFound(ResultsMessages.noEvidence);
  const bytes = await ctx.storage.get(file.storage_key);
  if (!bytes) throw notFound(ResultsMessages.noEvidence);
  return { bytes, mimeType: file.mime_type, filename: file.original_name };
}

/**
 * GET /users/{id}/results: self, or 24 with the user in scope. spec 2 §4 "Results defaults": dated by completion,
 * assessments and admin-only results included; date_by, include_assessments and include_admin_only change them.
 */
export async function listUserResults(ctx: Ctx, ref: string, q: UserResultsQuery) {
  const { user, self } = await loadLearner(ctx, ref);
  if (!self) authorize(ctx, [P.searchTrainingRecords]);
  const to = q.to ? new Date(dayStart(q.to).getTime() + 24 * 3600 * 1000) : undefined;
  const { rows, total } = await listResults(
    ctx.db,
    {
      entityIds: null, // bounded by the user, who is in scope
      userId: user.id,
      type: q.type,
      status: q.status,
      courseId: q.course_id,
      includeAssessments: q.include_assessments,
      includeAdminOnly: q.include_admin_only,
      dateBy: q.date_by,
      from: q.from ? dayStart(q.from) : undefined,
      to,
      search: q.search || undefined,
    },
    { page: q.page, perPage: q.per_page },
  );
  return { data: rows.map(presentResult), total };
}

/**
 * GET /results/courses?search=: the course picker of the results forms (24, 25, 26 or 35): the courses the caller
 * may see (courses/visibility.ts), searched on the server. /courses needs the content creator (63), which a
 * manager recording training does not hold.
 */
export async function pickCourses(ctx: Ctx, q: CoursePickerQuery) {
  // self=1: a carer recording their own past training (a pending historical result, which needs no permission)
  // picks from the courses their organisation offers learners; the same scope, narrowed to what a learner may take.
  if (!q.self) authorize(ctx, [P.searchTrainingRecords, P.updateRecord, P.addRecord, P.addUserEvents], 'any');
  else actorOf(ctx);
  const clause = await visibleCourseClause(ctx, { forLearner: Boolean(q.self) });
  const { rows, total } = await visibleCourses(ctx.db, clause, {
    search: q.search || undefined,
    page: q.page,
    perPage: q.per_page,
  });
  return { data: rows, total };
}
