import { type AuditEntry, auditVia, recordAudits, systemChange } from '../audit/record';
import { requirementStatusSql } from '../compliance/queries';
import type { Deps } from '../http/context';
import { type JobContext, registerJob, registerRecurring, unchangedWhenNone } from '../jobs/queue';
import { bothChannels, recordAndQueue } from '../notifications/jobs';
import { exemptionEndedText, LEARNER_LINK } from '../notifications/messages';
import { resultSnapshots } from './audit';
import type { Trx } from './queries';
import { lockLatestResults, refreshLatestResults } from './service';

/**
 * The exemption-end job (issue 28 §6): an exemption's end date has come, so the requirement applies again.
 *
 * The status is right at the end without this job (latest_results then_*, migration 063: an ended exemption counts
 * for nothing from that instant). Each night the job finishes the change, set-based, a batch at a time:
 * - marks the exemptions whose end has come ended (results.exemption_ended_at), under their (person, course) locks:
 *   `UPDATE … WHERE exemption_ended_at IS NULL RETURNING`, so a second run, or one beside it on another worker, ends
 *   none of them again;
 * - picks those pairs' latest results again in one statement (refreshLatestResults), leaving the ended exemptions
 *   out: the matrix cell's details, the lists and the inspection pack then show the result that counts;
 * - writes one audit entry per exemption ("the exemption ended", via exemption_end, by the system);
 * - sends the person the reminder that the course is required of them again (in-app and e-mail through the
 *   notifications ledger, whose unique key sends it once), where the course is still one of theirs, no other
 *   exemption of it runs and their organisation sends reminders.
 * All in one transaction per batch: ended, picked again, audited and reminded commit together.
 */
export const END_EXEMPTIONS = 'results.end-exemptions';
export const END_EXEMPTIONS_EVERY_MS = 86_400_000;
const BATCH = 500;

export async function endExemptions(deps: Pick<Deps, 'db'>, now: Date): Promise<number> {
  const who = systemChange(now);
  let ended = 0;
  for (;;) {
    const n = await deps.db.transaction().execute(async (trx) => {
      const due = trx
        .selectFrom('results')
        .where('type', '=', 'exempt')
        .where('status', '=', 'approved')
        .where('deleted_at', 'is', null)
        .where('exemption_ended_at', 'is', null)
        .where('expires_at', '<=', now);
      const candidates = await due
        .select(['user_id', 'course_id'])
        .distinct()
        .orderBy('user_id')
        .orderBy('course_id')
        .limit(BATCH)
        .execute();
      if (!candidates.length) return 0;
      // The pairs' locks first (the order every writer of a pair takes them), then the rows still not ended.
      await lockLatestResults(
        trx,
        candidates.map((c) => ({ userId: c.user_id, courseId: c.course_id })),
      );
      const rows = await trx
        .updateTable('results')
        .set({ exemption_ended_at: now })
        .where('type', '=', 'exempt')
        .where('status', '=', 'approved')
        .where('deleted_at', 'is', null)
        .where('exemption_ended_at', 'is', null)
        .where('expires_at', '<=', now)
        .where((eb) =>
          eb.or(
            candidates.map((c) => eb.and([eb('user_id', '=', c.user_id), eb('course_id', '=', c.course_id)])),
          ),
        )
        .returning(['id', 'user_id', 'course_id', 'expires_at'])
        .execute();
      if (!rows.length) return candidates.length;
      const pairs = [...new Map(rows.map((r) => [`${r.user_id}:${r.course_id}`, r])).values()];
      await refreshLatestResults(trx, pairs, now);
      await auditEnded(
        trx,
        who,
        rows.map((r) => r.id),
        now,
      );
      await remind(trx, pairs, now);
      ended += rows.length;
      return candidates.length;
    });
    if (n < BATCH) return ended;
  }
}

async function auditEnded(trx: Trx, who: ReturnType<typeof systemChange>, ids: number[], now: Date) {
  const snapshots = await resultSnapshots(trx, ids);
  const entries: AuditEntry[] = snapshots.map((s) => ({
    action: 'updated',
    kind: 'exemption',
    subjectId: s.id as number,
    entityId: (s.primary_entity_id as number | undefined) ?? (s.entity_id as number),
    userId: s.user_id as number,
    label: `${s.user_label}: ${s.course_label}`,
    before: { ...stripEntity(s), ended: false },
    after: { ...stripEntity(s), ended: true },
    via: auditVia({
      how: 'exemption_end',
      label: 'The exemption ended',
      ref: now.toISOString().slice(0, 10),
    }),
  }));
  await recordAudits(trx, who, entries);
}

function stripEntity(s: Record<string, unknown>): Record<string, unknown> {
  const { primary_entity_id: _p, ...rest } = s;
  return rest;
}

/** The reminder that the course is required again, for the pairs where it is and no other exemption runs. */
async function remind(
  trx: Trx,
  pairs: { user_id: number; course_id: number; expires_at: Date | null }[],
  now: Date,
) {
  const status = requirementStatusSql(now, 'ur', 'e');
  const users = pairs.map((p) => p.user_id);
  const rows = await trx
    .selectFrom('user_requirements as ur')
    .innerJoin('users as u', 'u.id', 'ur.user_id')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .innerJoin('courses as c', 'c.id', 'ur.course_id')
    .where('ur.user_id', 'in', users)
    .where('e.events_reminder', '=', true)
    .select(['ur.user_id', 'ur.course_id', 'u.primary_entity_id as entity_id', 'c.title as course_title'])
    .select(status.as('status'))
    .execute();
  const ended = new Map(pairs.map((p) => [`${p.user_id}:${p.course_id}`, p]));
  const notifications = rows.flatMap((r) => {
    const pair = ended.get(`${r.user_id}:${r.course_id}`);
    if (!pair?.expires_at || r.status === 'exempt') return [];
    const endedOn = new Date(pair.expires_at);
    const { title, body } = exemptionEndedText(
      r.course_title,
      endedOn,
      r.status === 'in_date' || r.status === 'expiring',
    );
    return bothChannels(
      {
        kind: 'exemption_ended',
        subject_key: `course:${r.course_id}@${endedOn.toISOString()}`,
        occasion: 'ended',
        user_id: r.user_id,
        entity_id: r.entity_id,
        course_id: r.course_id,
        expires_at: endedOn,
        title,
        body,
        link: LEARNER_LINK,
        created_at: now,
      },
      now,
    );
  });
  await recordAndQueue(trx, notifications, now);
}

export function registerExemptionJobs(): void {
  registerJob(END_EXEMPTIONS, async (job: JobContext) => {
    const ended = await endExemptions(job, job.now);
    if (ended) job.log.info({ ended }, 'exemptions whose end date has come ended');
    return unchangedWhenNone(ended);
  });
  registerRecurring(END_EXEMPTIONS, END_EXEMPTIONS_EVERY_MS);
}
