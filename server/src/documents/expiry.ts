import type { Trx } from '../results/queries';
import { lockLatestResults, recomputeLatestResult } from '../results/service';

/**
 * A new version asks everyone again: every acknowledgement result on the document's backing course that is still in
 * date expires now, and latest_results (hence user_requirements and the matrix) moves in the same transaction. All
 * the (user, course) pairs are locked first, sorted, so this never waits in a cycle with another recompute.
 */
export async function expireAcknowledgements(trx: Trx, courseId: number, now: Date): Promise<number> {
  const expired = await trx
    .updateTable('results')
    .set({ expires_at: now, updated_at: now })
    .where('course_id', '=', courseId)
    .where('type', '=', 'document')
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .returning('user_id')
    .execute();
  const users = [...new Set(expired.map((r) => r.user_id))];
  await lockLatestResults(
    trx,
    users.map((userId) => ({ userId, courseId })),
  );
  for (const userId of users) await recomputeLatestResult(trx, userId, courseId, now);
  return users.length;
}
