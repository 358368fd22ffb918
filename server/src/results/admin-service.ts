import {
  calendarDay,
  ExemptResultBody,
  HistoricalResultBody,
  type ResultListQuery,
  ResultsMessages,
  ResultsPerm,
  type ResultView,
  UpdateExemptResultBody,
  UpdateHistoricalResultBody,
} from '@cc/contracts';
import { assertEntityInScope, entityScope } from '../entities/scope';
import { subtreeIds } from '../entities/tree';
import { actorOf, authorize, type Ctx, can } from '../http/context';
import { type FieldErrors, forbidden, invalid, notFound } from '../http/errors';
import {
  deleteFileRow,
  insertEvidenceFile,
  listResults,
  lockResultRow,
  updateResultRow,
} from './admin-queries';
import {
  courseVisible,
  dayStart,
  evidenceRequired,
  exemptionEndErrors,
  loadLearnerById,
  loadResult,
  presentResult,
  reloadResult,
  scopeIds,
} from './admin-shared';
import { auditResult, resultSnapshot } from './audit';
import { completedDateErrors, completedInFuture } from './completion-date';
import { evidenceErrors, type FormInput, storeEvidence } from './evidence';
import type { Trx } from './queries';
import { expiresAtFor, lockLatestResults, recomputeLatestResult, recordResult } from './service';

/**
 * Historical results and exemptions (issue 5 item 1; spec 2 §2 /results/historical/..., /results/exempt/...).
 * Order of checks everywhere: the learner or result in scope (404), then the permission (403), then the input (422).
 * Every write goes through recordResult / recomputeLatestResult so latest_results moves in the same transaction.
 */
const P = ResultsPerm;

/** Stores the evidence (outside the transaction), runs `write` with the files row, and cleans up on failure. */
async function withEvidence<T>(
  ctx: Ctx,
  evidence: FormInput['evidence'],
  ownerEntityId: number,
  write: (trx: Trx, fileId: number | null) => Promise<T>,
): Promise<T> {
  const stored = evidence ? await storeEvidence(ctx, evidence) : null;
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const file = stored ? await insertEvidenceFile(trx, { entity_id: ownerEntityId, ...stored }) : null;
      return write(trx, file?.id ?? null);
    });
  } catch (error) {
    if (stored) await ctx.storage.remove(stored.storage_key).catch(() => undefined);
    throw error;
  }
}

/**
 * POST /results/historical/create. With 26 the result is approved at once; a learner without 26 may record one for
 * themself, which waits in /results/pending/historical until someone with 25 approves it. Where the learner's
 * organisation sets require_training_record_evidence, a result without an evidence file is refused (422 `evidence`).
 */
export async function createHistorical(
  ctx: Ctx,
  read: () => Promise<FormInput>,
): Promise<{ result: ResultView; pending: boolean }> {
  const actor = actorOf(ctx);
  const form = await read();
  const body = HistoricalResultBody.parse(form.fields);
  const user = await loadLearnerById(ctx, body.user_id);
  const pending = !can(actor, [P.addRecord]);
  if (pending && user.id !== actor.userId) throw forbidden();

  const errors: FieldErrors = {};
  if (!(await courseVisible(ctx, body.course_id))) errors.course_id = [ResultsMessages.courseInvalid];
  const future = completedDateErrors(body.completed_at, ctx.clock());
  if (future) errors.completed_at = future;
  if (form.evidence) {
    const evidence = evidenceErrors(form.evidence);
    if (evidence) errors.evidence = evidence;
  } else if (await evidenceRequired(ctx, user.primary_entity_id)) {
    errors.evidence = [ResultsMessages.evidenceRequired];
  }
  if (Object.keys(errors).length) throw invalid(errors);

  const now = ctx.clock();
  const id = await withEvidence(ctx, form.evidence, user.primary_entity_id, async (trx, fileId) => {
    const result = await recordResult(
      trx,
      {
        userId: user.id,
        entityId: user.primary_entity_id,
        courseId: body.course_id,
        contentId: null,
        type: 'historical',
        status: pending ? 'pending' : 'approved',
        passed: body.passed,
        score: body.score ?? null,
        completedAt: dayStart(body.completed_at),
        attemptId: null,
        createdBy: actor.userId,
      },
      now,
    );
    await updateResultRow(trx, result.id, { notes: body.notes ?? null, evidence_file_id: fileId }, now);
    await auditResult(trx, ctx, 'created', null, await resultSnapshot(trx, result.id));
    return result.id;
  });
  return { result: await reloadResult(ctx, id), pending };
}

/**
 * PATCH /results/historical/{id} (25). Changing the course, date or outcome re-dates the result (expiresAtFor) and
 * recomputes latest_results for the old and the new course. A new evidence file replaces the old one; removing it
 * is refused where evidence is required.
 */
export async function updateHistorical(
  ctx: Ctx,
  id: number,
  read: () => Promise<FormInput>,
): Promise<ResultView> {
  const { row } = await loadResult(ctx, id);
  authorize(ctx, [P.updateRecord]);
  if (row.type !== 'historical') throw notFound();
  const form = await read();
  const body = UpdateHistoricalResultBody.parse(form.fields);

  const errors: FieldErrors = {};
  if (
    body.course_id !== undefined &&
    body.course_id !== row.course_id &&
    !(await courseVisible(ctx, body.course_id))
  )
    errors.course_id = [ResultsMessages.courseInvalid];
  const future = completedDateErrors(body.completed_at, ctx.clock());
  if (future) errors.completed_at = future;
  if (form.evidence) {
    const evidence = evidenceErrors(form.evidence);
    if (evidence) errors.evidence = evidence;
  } else if (
    body.remove_evidence &&
    row.evidence_file_id !== null &&
    (await evidenceRequired(ctx, row.user_entity_id))
  ) {
    errors.evidence = [ResultsMessages.evidenceRequired];
  }
  if (Object.keys(errors).length) throw invalid(errors);

  const now = ctx.clock();
  const oldKey = await withEvidence(ctx, form.evidence, row.user_entity_id, async (trx, fileId) => {
    // The values below come from the row as locked now, not as read before: two edits at once apply one after the
    // other (the second moves the course the first left, and removes the evidence the first stored).
    const current = await lockResultRow(trx, row.id);
    if (!current) throw notFound();
    const before = await resultSnapshot(trx, row.id);
    const courseId = body.course_id ?? current.course_id;
    const completedAt = body.completed_at ? dayStart(body.completed_at) : new Date(current.completed_at);
    const passed = body.passed ?? current.passed;
    const replacesFile =
      (form.evidence !== null || body.remove_evidence === true) && current.evidence_file_id !== null;
    const oldFile = replacesFile ? current.evidence_file_id : null;
    await lockLatestResults(trx, [
      { userId: current.user_id, courseId },
      { userId: current.user_id, courseId: current.course_id },
    ]);
    const redate =
      courseId !== current.course_id || body.completed_at !== undefined || body.passed !== undefined;
    await updateResultRow(
      trx,
      row.id,
      {
        course_id: courseId,
        completed_at: completedAt,
        passed,
        ...(redate
          ? {
              expires_at: await expiresAtFor(trx, {
                userId: current.user_id,
                courseId,
                completedAt,
                type: 'historical',
                passed,
              }),
            }
          : {}),
        ...(body.score !== undefined ? { score: body.score } : {}),
        ...(body.notes !== undefined ? { notes: body.notes } : {}),
        ...(fileId !== null
          ? { evidence_file_id: fileId }
          : body.remove_evidence
            ? { evidence_file_id: null }
            : {}),
      },
      now,
    );
    await recomputeLatestResult(trx, current.user_id, courseId, now);
    if (courseId !== current.course_id)
      await recomputeLatestResult(trx, current.user_id, current.course_id, now);
    await auditResult(trx, ctx, 'updated', before, await resultSnapshot(trx, row.id));
    if (oldFile === null) return null;
    const old = await trx
      .selectFrom('files')
      .select('storage_key')
      .where('id', '=', oldFile)
      .executeTakeFirst();
    await deleteFileRow(trx, oldFile);
    return old?.storage_key ?? null;
  });
  // After the commit: no reader can reach the old key any more; a failure only leaves an orphan on disk.
  if (oldKey)
    await ctx.storage.remove(oldKey).catch((err) => ctx.log.warn({ err }, 'could not remove evidence'));
  return reloadResult(ctx, row.id);
}

// --- Exemptions ------------------------------------------------------------------------------------------------

/** The learners a results list covers: an entity's subtree (in scope, 404 otherwise), else the caller's scope. */
export async function listBound(
  ctx: Ctx,
  q: { entity_id?: number; deep?: boolean },
): Promise<number[] | null> {
  if (q.entity_id !== undefined) {
    await assertEntityInScope(ctx, q.entity_id);
    return q.deep === false ? [q.entity_id] : subtreeIds(ctx.db, q.entity_id);
  }
  if (q.deep === false) return [(await entityScope(ctx)).baseId];
  return scopeIds(ctx);
}

/** GET /results/exempt (24): exemptions of the learners in scope, filtered by entity, user and course. */
export async function listExempt(ctx: Ctx, q: ResultListQuery) {
  authorize(ctx, [P.searchTrainingRecords]);
  const entityIds = await listBound(ctx, q);
  const { rows, total } = await listResults(
    ctx.db,
    {
      entityIds,
      type: 'exempt',
      userId: q.user_id,
      courseId: q.course_id,
      search: q.search || undefined,
    },
    { page: q.page, perPage: q.per_page },
  );
  return { data: rows.map(presentResult), total };
}

/** An exemption counts from its start (its completed_at): never from a day after today (completion-date.ts). */
function exemptDateErrors(start: string, end: string | null | undefined, now: Date): FieldErrors {
  const errors: FieldErrors = {};
  if (completedInFuture(start, now)) errors.start_date = [ResultsMessages.startInFuture];
  if (end && dayStart(end) <= dayStart(start)) errors.end_date = [ResultsMessages.endBeforeStart];
  return errors;
}

/**
 * POST /results/exempt (26): an exemption is a result of type exempt, passed, which counts as in date from
 * start_date (default today) until end_date (after today), or for ever without one (ARCHITECTURE "Compliance
 * rules"); its reason (notes) is required.
 */
export async function createExempt(ctx: Ctx, input: unknown): Promise<ResultView> {
  const actor = actorOf(ctx);
  const body = ExemptResultBody.parse(input);
  const user = await loadLearnerById(ctx, body.user_id);
  authorize(ctx, [P.addRecord]);
  const now = ctx.clock();
  const start = body.start_date ?? calendarDay(now);
  const errors = exemptDateErrors(start, body.end_date, now);
  const endErrors = exemptionEndErrors(body.end_date, now);
  if (endErrors && !errors.end_date) errors.end_date = endErrors;
  if (!(await courseVisible(ctx, body.course_id))) errors.course_id = [ResultsMessages.courseInvalid];
  if (Object.keys(errors).length) throw invalid(errors);
  const id = await ctx.db.transaction().execute(async (trx) => {
    const result = await recordResult(
      trx,
      {
        userId: user.id,
        entityId: user.primary_entity_id,
        courseId: body.course_id,
        contentId: null,
        type: 'exempt',
        passed: true,
        score: null,
        completedAt: dayStart(start),
        expiresAt: body.end_date ? dayStart(body.end_date) : null,
        attemptId: null,
        createdBy: actor.userId,
      },
      now,
    );
    await updateResultRow(trx, result.id, { notes: body.notes }, now);
    await auditResult(trx, ctx, 'created', null, await resultSnapshot(trx, result.id));
    return result.id;
  });
  return reloadResult(ctx, id);
}

/** An exemption's start and end after an edit: the dates sent, else the stored ones. */
function exemptDates(
  body: { start_date?: string; end_date?: string | null },
  row: { completed_at: Date | string; expires_at: Date | string | null },
): [string, string | null] {
  const day = (d: Date | string) => new Date(d).toISOString().slice(0, 10);
  const start = body.start_date ?? day(row.completed_at);
  const end = body.end_date !== undefined ? body.end_date : row.expires_at ? day(row.expires_at) : null;
  return [start, end];
}

/** PATCH /results/exempt/{id} (25). */
export async function updateExempt(ctx: Ctx, id: number, input: unknown): Promise<ResultView> {
  const { row } = await loadResult(ctx, id);
  authorize(ctx, [P.updateRecord]);
  if (row.type !== 'exempt') throw notFound();
  const body = UpdateExemptResultBody.parse(input);
  const errors = exemptDateErrors(...exemptDates(body, row), ctx.clock());
  // A new end date must be after today; an edit that sends the stored one back (even one passed) keeps it.
  const storedEnd = row.expires_at ? new Date(row.expires_at).toISOString().slice(0, 10) : null;
  const endErrors = body.end_date !== storedEnd ? exemptionEndErrors(body.end_date, ctx.clock()) : null;
  if (endErrors && !errors.end_date) errors.end_date = endErrors;
  if (
    body.course_id !== undefined &&
    body.course_id !== row.course_id &&
    !(await courseVisible(ctx, body.course_id))
  )
    errors.course_id = [ResultsMessages.courseInvalid];
  if (Object.keys(errors).length) throw invalid(errors);
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    // Missing fields keep the row's values as locked now (issue 10 §3), so two edits at once apply one after the other.
    const current = await lockResultRow(trx, row.id);
    if (!current) throw notFound();
    const before = await resultSnapshot(trx, row.id);
    const [start, end] = exemptDates(body, current);
    // Checked above against the row as read; again against the row as locked, which another edit may have moved.
    const dateErrors = exemptDateErrors(start, end, now);
    if (Object.keys(dateErrors).length) throw invalid(dateErrors);
    const courseId = body.course_id ?? current.course_id;
    await lockLatestResults(trx, [
      { userId: current.user_id, courseId },
      { userId: current.user_id, courseId: current.course_id },
    ]);
    await updateResultRow(
      trx,
      row.id,
      {
        course_id: courseId,
        completed_at: dayStart(start),
        expires_at: end ? dayStart(end) : null,
        ...(body.notes !== undefined ? { notes: body.notes } : {}),
      },
      now,
    );
    await recomputeLatestResult(trx, current.user_id, courseId, now);
    if (courseId !== current.course_id)
      await recomputeLatestResult(trx, current.user_id, current.course_id, now);
    await auditResult(trx, ctx, 'updated', before, await resultSnapshot(trx, row.id));
  });
  return reloadResult(ctx, row.id);
}

/** DELETE /results/exempt/{id} (85, delete training record): soft delete, latest_results recomputed. */
export async function deleteExempt(ctx: Ctx, id: number): Promise<void> {
  const { row } = await loadResult(ctx, id);
  authorize(ctx, [P.deleteTrainingRecord]);
  if (row.type !== 'exempt') throw notFound();
  await softDelete(ctx, row);
}

/** Soft-deletes one result and recomputes its (user, course) in the same transaction. */
export async function softDelete(ctx: Ctx, row: { id: number; user_id: number; course_id: number }) {
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    const before = await resultSnapshot(trx, row.id);
    await updateResultRow(trx, row.id, { deleted_at: now }, now);
    await recomputeLatestResult(trx, row.user_id, row.course_id, now);
    await auditResult(trx, ctx, 'deleted', before, null);
  });
}
