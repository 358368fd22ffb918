import {
  type AttendanceBody,
  type AttendanceMark,
  attendanceNotYet,
  attendanceOpen,
  calendarDay,
  type DelegateView,
  type GradingMethod,
  BookingsMessages as M,
  SessionMessages,
} from '@cc/contracts';
import { auditVia } from '../audit/record';
import { actorOf, type Ctx } from '../http/context';
import { type FieldErrors, forbidden, invalid, invalidField } from '../http/errors';
import { updateResultRow } from '../results/admin-queries';
import { auditResults, resultSnapshots } from '../results/audit';
import { lockLatestResults, recordResult } from '../results/service';
import { delegateChanged } from './effects';
import { loadDelegateViews } from './presenters';
import { loadSessionForActor, mayMark, sessionScope } from './scope';

/**
 * POST /training-sessions/{id}/attendance (128 in scope, or the session's own trainer): marks accepted delegates and
 * records each mark as a face2face result IN THE SAME TRANSACTION (results/service.ts recordResult), so
 * latest_results, the matrix, compliance and certificates follow at once. Re-marking a delegate soft-deletes the
 * result the earlier mark made (as results/admin-service softDelete does) and records the new one. Marks open on the
 * session's first day (contracts attendanceOpen, UK calendar days by the server's clock): 422 before.
 */

/** Whether a mark passes, by the session's grading method (contracts bookings.ts GRADING_METHODS). */
export function passedOf(
  method: GradingMethod,
  passMark: number | null,
  mark: Pick<AttendanceMark, 'attendance' | 'passed' | 'score'>,
): boolean {
  if (mark.attendance === 'no_show') return false;
  switch (method) {
    case 'attendance':
      return mark.attendance === 'attended';
    case 'pass_fail':
      return mark.passed === true;
    case 'score':
      return (mark.score ?? 0) >= (passMark ?? 0);
  }
}

function markErrors(method: GradingMethod, marks: AttendanceMark[]): FieldErrors {
  const errors: FieldErrors = {};
  const seen = new Set<number>();
  marks.forEach((m, i) => {
    if (seen.has(m.delegate_id)) errors[`marks.${i}.delegate_id`] = [SessionMessages.markedTwice];
    seen.add(m.delegate_id);
    if (m.attendance === 'no_show') return;
    if (method === 'pass_fail' && m.passed === undefined)
      errors[`marks.${i}.passed`] = [SessionMessages.passedRequired];
    if (method === 'score' && m.score === undefined)
      errors[`marks.${i}.score`] = [SessionMessages.scoreRequired];
  });
  return errors;
}

export async function markAttendance(ctx: Ctx, id: number, body: AttendanceBody): Promise<DelegateView[]> {
  const actor = actorOf(ctx);
  const now = ctx.clock();
  await sessionScope(ctx);
  const ids = await ctx.db.transaction().execute(async (trx) => {
    const { session, scope, rel } = await loadSessionForActor(ctx, id, { trx, forUpdate: true });
    if (!mayMark(scope, rel)) throw forbidden();
    if (session.status === 'cancelled') throw invalidField('marks', M.sessionClosed);
    // Never a pass (or any mark) for training that has not happened: the session's first day must have begun.
    const firstDay = calendarDay(new Date(session.starts_at));
    if (!attendanceOpen(firstDay, calendarDay(now))) throw invalidField('marks', attendanceNotYet(firstDay));
    const errors = markErrors(session.grading_method, body.marks);
    const delegates = await trx
      .selectFrom('session_delegates as d')
      .innerJoin('users as u', 'u.id', 'd.user_id')
      .select(['d.id', 'd.user_id', 'd.status', 'd.result_id', 'u.primary_entity_id'])
      .where('d.session_id', '=', id)
      .where(
        'd.id',
        'in',
        body.marks.map((m) => m.delegate_id),
      )
      .orderBy('d.id')
      .forUpdate()
      .execute();
    const byId = new Map(delegates.map((d) => [d.id, d]));
    body.marks.forEach((m, i) => {
      if (byId.get(m.delegate_id)?.status !== 'accepted')
        errors[`marks.${i}.delegate_id`] = [SessionMessages.notAccepted];
    });
    if (Object.keys(errors).length) throw invalid(errors);

    // Every (user, course) pair locked up front, in one sorted order, so two markings never wait in a cycle.
    await lockLatestResults(
      trx,
      delegates.map((d) => ({ userId: d.user_id, courseId: session.course_id })),
    );
    // The audit trail (issue 35 §3): each mark's result, and the one an earlier mark made, as it stood before.
    const earlier = new Map(
      (
        await resultSnapshots(
          trx,
          delegates.flatMap((d) => (d.result_id === null ? [] : [d.result_id])),
        )
      ).map((r) => [r.id as number, r]),
    );
    const content = await trx
      .selectFrom('contents')
      .select('title')
      .where('id', '=', session.content_id)
      .executeTakeFirst();
    const marked: { resultId: number; before: Record<string, unknown> | null; attendance: string }[] = [];
    for (const mark of body.marks) {
      const d = byId.get(mark.delegate_id);
      if (!d) continue;
      if (d.result_id !== null) await updateResultRow(trx, d.result_id, { deleted_at: now }, now);
      const passed = passedOf(session.grading_method, session.pass_mark, mark);
      const score =
        session.grading_method === 'score' && mark.attendance !== 'no_show' ? (mark.score ?? null) : null;
      const result = await recordResult(
        trx,
        {
          userId: d.user_id,
          entityId: d.primary_entity_id,
          courseId: session.course_id,
          contentId: session.content_id,
          type: 'face2face',
          passed,
          score,
          // Marked before the session has ended (a trainer closing early): never a result dated in the future.
          completedAt: new Date(Math.min(new Date(session.ends_at).getTime(), now.getTime())),
          attemptId: null,
          createdBy: actor.userId,
        },
        now,
      );
      await trx
        .updateTable('session_delegates')
        .set({
          attendance: mark.attendance,
          passed,
          score,
          notes: mark.notes ?? null,
          marked_by: actor.userId,
          marked_at: now,
          result_id: result.id,
          updated_at: now,
        })
        .where('id', '=', d.id)
        .execute();
      await delegateChanged(trx, d.id, 'marked', now);
      marked.push({
        resultId: result.id,
        before: d.result_id === null ? null : (earlier.get(d.result_id) ?? null),
        attendance: mark.attendance,
      });
    }
    // One statement for the session's marks: a first mark is a result recorded, a re-mark changes the earlier one's.
    const after = new Map(
      (
        await resultSnapshots(
          trx,
          marked.map((m) => m.resultId),
        )
      ).map((r) => [r.id, r]),
    );
    const viaOf = (attendance: string) =>
      auditVia({ how: 'attendance', label: content?.title ?? null, ref: session.uuid, detail: attendance });
    for (const action of ['created', 'updated'] as const)
      await auditResults(
        trx,
        ctx,
        action,
        marked
          .filter((m) => (m.before === null) === (action === 'created'))
          .map((m) => ({ before: m.before, after: after.get(m.resultId) ?? null, via: viaOf(m.attendance) })),
      );
    return body.marks.map((m) => m.delegate_id);
  });
  return loadDelegateViews(ctx.db, ids);
}
