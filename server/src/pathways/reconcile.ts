import { sql } from 'kysely';
import { type AuditWho, auditVia, systemChange } from '../audit/record';
import { auditEarnedResult } from '../results/audit';
import { afterResultRecorded, recordResult, type Trx } from '../results/service';
import { emitWebhookEvent } from '../webhooks/events';
import { type AllocationListRow, allocationSelect, progressFor } from './allocation-view';
import { allDone } from './progress';

/**
 * Completion (contracts pathways.ts): the ONE place a live allocation changes status because of evidence. Under a
 * row lock of each live allocation of the person (so concurrent sign-offs, results and version changes finish a
 * pathway once), an allocation whose steps are all done becomes
 * - `awaiting_sign_off` when the pathway requires a final sign-off, or
 * - `completed`, recording a 'pathway' result on the backing course in the same transaction (latest_results moves
 *   with it, so the pathway shows in the matrix and counts for compliance rules).
 * An allocation waiting for a sign-off whose steps are no longer all done (a version asked for a redo) goes back to
 * in_progress.
 *
 * Called after a sign-off, after a version change, on allocation, and from recordResult (below) for every result
 * but a 'pathway' one (which this function itself records), which also covers document acknowledgements.
 */
export async function reconcileAllocations(
  trx: Trx,
  userId: number,
  courseIds?: readonly number[],
  o: { now?: Date; pathwayId?: number } = {},
): Promise<void> {
  const now = o.now ?? new Date();
  const ids = await lockLiveAllocations(trx, userId, courseIds, o.pathwayId);
  if (ids.length === 0) return;
  const rows = await allocationSelect(trx).where('a.id', 'in', ids).orderBy('a.id').execute();
  const progress = await progressFor(trx, rows, now);
  for (const row of rows) {
    const done = allDone(progress.get(row.id) ?? []);
    if (done && row.requires_final_sign_off && row.status === 'in_progress')
      await setStatus(trx, row.id, 'awaiting_sign_off', now);
    else if (done && !row.requires_final_sign_off) await completeAllocation(trx, row, now, null);
    else if (!done && row.status === 'awaiting_sign_off') await setStatus(trx, row.id, 'in_progress', now);
  }
}

/**
 * Locks (in id order: two transactions never wait on each other in a cycle) the person's live allocations whose
 * version has a step on one of `courseIds` (a course, or a document backed by it), or all of them.
 */
async function lockLiveAllocations(
  trx: Trx,
  userId: number,
  courseIds: readonly number[] | undefined,
  pathwayId: number | undefined,
): Promise<number[]> {
  if (courseIds && courseIds.length === 0) return [];
  let q = trx
    .selectFrom('pathway_allocations as a')
    .select('a.id')
    .where('a.user_id', '=', userId)
    .where('a.status', 'in', ['in_progress', 'awaiting_sign_off']);
  if (pathwayId !== undefined) q = q.where('a.pathway_id', '=', pathwayId);
  if (courseIds) {
    const list = sql.join(courseIds.map((id) => sql`${id}::int`));
    q = q.where(
      sql<boolean>`EXISTS (SELECT 1 FROM pathway_steps s LEFT JOIN documents d ON d.id = s.document_id
        WHERE s.version_id = a.version_id AND (s.course_id IN (${list}) OR d.course_id IN (${list})))`,
    );
  }
  const rows = await q.orderBy('a.id').forUpdate().execute();
  return rows.map((r) => r.id);
}

async function setStatus(trx: Trx, id: number, status: 'in_progress' | 'awaiting_sign_off', now: Date) {
  await trx
    .updateTable('pathway_allocations')
    .set({ status, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * Completes a live allocation (the caller holds its row lock): a 'pathway' result on the backing course, belonging
 * to the person's primary organisation now, then the allocation points at it. `signedOff`: the final sign-off.
 */
export async function completeAllocation(
  trx: Trx,
  row: Pick<AllocationListRow, 'id' | 'user_id' | 'user_entity_id' | 'pathway_course_id' | 'pathway_title'>,
  now: Date,
  signedOff: { by: number; note: string } | null,
  who: AuditWho = systemChange(now),
): Promise<number> {
  const result = await recordResult(
    trx,
    {
      userId: row.user_id,
      entityId: row.user_entity_id,
      courseId: row.pathway_course_id,
      contentId: null,
      type: 'pathway',
      passed: true,
      score: null,
      completedAt: now,
      attemptId: null,
      createdBy: signedOff?.by ?? null,
    },
    now,
  );
  // The audit trail (issue 35 §3): earned by completing the pathway; the one who signed it off, else the system.
  await auditEarnedResult(
    trx,
    who,
    result.id,
    auditVia({ how: 'pathway', label: row.pathway_title, ref: String(row.id) }),
  );
  await trx
    .updateTable('pathway_allocations')
    .set({
      status: 'completed',
      completed_at: now,
      result_id: result.id,
      updated_at: now,
      ...(signedOff
        ? { signed_off_by: signedOff.by, signed_off_at: now, sign_off_note: signedOff.note }
        : {}),
    })
    .where('id', '=', row.id)
    .execute();
  const completed = {
    user_id: row.user_id,
    allocation_id: row.id,
    pathway_course_id: row.pathway_course_id,
    result_id: result.id,
  };
  await emitWebhookEvent(
    trx,
    {
      entityId: row.user_entity_id,
      type: 'pathway.completed',
      data: { ...completed, signed_off: signedOff !== null, completed_at: now.toISOString() },
    },
    now,
  );
  return result.id;
}

/** A result may finish a step: reconcile the person's allocations that use its course (not for 'pathway' ones). */
async function onResult(trx: Trx, result: { userId: number; courseId: number; type: string }, now: Date) {
  if (result.type === 'pathway') return;
  await reconcileAllocations(trx, result.userId, [result.courseId], { now });
}

afterResultRecorded(onResult);
