import type { OfflineRule } from '@cc/contracts';

/**
 * The device's clock is the learner's, not ours: it may be wrong or set on purpose. A time it reports is kept as
 * evidence (offline_attempts.device_*), but the time we record is bounded by two times the server itself knows:
 * the download (the copy did not exist before, so nothing was taken earlier) and the sync (nothing sent can have
 * happened later). A forged date can therefore move a completion only inside that window.
 */
export function boundDeviceTime(device: Date, downloadedAt: Date, syncedAt: Date): Date {
  const t = device.getTime();
  if (Number.isNaN(t) || t < downloadedAt.getTime()) return new Date(downloadedAt);
  if (t > syncedAt.getTime()) return new Date(syncedAt);
  return new Date(t);
}

export type OfflineVerdict = 'passed' | 'failed' | 'completed' | 'incomplete';

export interface OfflineDecisionInput {
  /** What the server made of the offline attempt (graded answers, or the package's own data). */
  offline: { status: OfflineVerdict; completedAt: Date | null };
  /** The learner's latest passed result of the course already on record (online, or an earlier sync), if any. */
  recordedPass: { completedAt: Date } | null;
  /**
   * Whether a fail of this content type is a result online: a SCORM package's own fail is (learning/scorm-completion.ts
   * commitScorm records it), an e-learning quiz fail is not (the attempt stays open to try again).
   */
  failIsResult?: boolean;
}

export interface OfflineDecision {
  /** Whether a result (a pass, or a SCORM fail) is recorded from the offline attempt. The attempt is kept in every case. */
  counts: boolean;
  rule: OfflineRule;
}

/**
 * Which attempt counts for the learner's result and compliance when an offline attempt arrives (issue 19: "a sync
 * conflict never discards the learner's data"). Whatever the answer, the server has already stored the offline
 * attempt and never touches the online one: this only decides whether the offline one gives a result.
 *
 * - offline_incomplete: not finished offline (the learner stopped part way). Kept as data, no result.
 * - offline_failed: an e-learning fail gives no result (as online: a failed quiz leaves the attempt open to try
 *   again). Kept, visible in the attempts.
 * - failed_result: a SCORM fail is a failed result, exactly as the online runtime records one. It never replaces a
 *   pass: latest_results picks a pass before any fail (results/queries.ts pickLatestResult).
 * - only_pass: a pass (or a completion of content with nothing to pass) and no pass on record: it counts.
 * - later_pass_counts / earlier_pass_kept: two passes: the later completion counts (its validity runs from then, as
 *   a retake online would), with the offline time bounded by download and sync times (boundDeviceTime), so a device
 *   clock set forward cannot beat a pass made online after the attempt was really synced. On equal times the pass
 *   on record stays (it was there first; nothing changes for the learner's managers).
 */
export function decideOfflineOutcome(input: OfflineDecisionInput): OfflineDecision {
  const { offline, recordedPass } = input;
  if (offline.status === 'incomplete' || offline.completedAt === null)
    return { counts: false, rule: 'offline_incomplete' };
  if (offline.status === 'failed')
    return input.failIsResult
      ? { counts: true, rule: 'failed_result' }
      : { counts: false, rule: 'offline_failed' };
  if (!recordedPass) return { counts: true, rule: 'only_pass' };
  return offline.completedAt.getTime() > recordedPass.completedAt.getTime()
    ? { counts: true, rule: 'later_pass_counts' }
    : { counts: false, rule: 'earlier_pass_kept' };
}
