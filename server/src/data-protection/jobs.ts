import { calendarDay } from '@cc/contracts';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { recordAudit } from '../audit/record';
import type { Ctx, Deps } from '../http/context';
import { type JobContext, registerJob, registerRecurring } from '../jobs/queue';
import { deletePerson, lockExpiredLeavers } from './queries';

export const REMOVE_EXPIRED_RECORDS = 'data-protection.remove-expired-records';
const DAY_MS = 86_400_000;
const BATCH = 200;
const silent = pino({ level: 'silent' });

/**
 * Issue 35 §4: once a day (one run per UTC day, by whichever process gets there first), the training records of erased
 * leavers whose organisation's retention period has passed (left_on + retention_years <= today) are removed with the
 * person's row. Each removal writes an audit entry in its transaction; rows another process holds are skipped
 * (SKIP LOCKED) and taken by the next run. Leavers not yet erased keep everything: erasure is a person's decision.
 */
export async function removeExpiredRecords(
  deps: Deps,
  now: Date,
  log: FastifyBaseLogger = silent,
): Promise<number> {
  const ctx: Ctx = {
    ...deps,
    clock: () => now,
    actor: null,
    ip: null,
    userAgent: null,
    log,
    memo: new Map(),
  };
  const today = calendarDay(now);
  let removed = 0;
  for (;;) {
    const n = await ctx.db.transaction().execute(async (trx) => {
      const due = await lockExpiredLeavers(trx, today, BATCH);
      for (const person of due) {
        await deletePerson(trx, person.id);
        await recordAudit(trx, ctx, {
          action: 'deleted',
          kind: 'personal_data',
          subjectId: person.id,
          entityId: person.primary_entity_id,
          userId: person.id,
          label: person.name,
          before: { left_on: person.left_on },
          after: { removed_on: today },
        });
      }
      return due.length;
    });
    removed += n;
    if (n < BATCH) return removed;
  }
}

export function registerDataProtectionJobs(): void {
  registerJob(REMOVE_EXPIRED_RECORDS, async (job: JobContext) => {
    const removed = await removeExpiredRecords(job, job.now, job.log);
    if (removed) job.log.info({ removed }, 'training records past their retention period removed');
  });
  registerRecurring(REMOVE_EXPIRED_RECORDS, DAY_MS);
}
