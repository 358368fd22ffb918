import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildEntity, buildRole, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse, buildPassedResult } from '../../test/learning-factories';
import { describeRaces, parallel } from '../../test/parallel';
import type { JobRow } from '../jobs/queries';
import type { JobContext } from '../jobs/queue';
import { registerAllJobs } from '../register-jobs';
import { DELIVER_NOTIFICATION, SEND_REMINDERS, sendReminders } from './jobs';

/**
 * The reminder job run by several workers at once (issue 14: "a reminder job run twice sends once") on PostgreSQL:
 * each run inserts the ledger rows with ON CONFLICT DO NOTHING on the unique key, and only a run that inserted a row
 * queues its e-mail, so concurrent runs record and send each reminder once.
 */
const DAY = 86_400_000;
let h: Harness;
beforeAll(async () => {
  registerAllJobs();
  h = await createHarness();
});
afterAll(async () => h?.close());

/** A run of the job as its own worker would make it (its own job id; finish is the worker's, a no-op here). */
function runAs(id: number, now: Date): JobContext {
  const job = {
    id,
    name: SEND_REMINDERS,
    attempts: 1,
    max_attempts: 5,
    unique_key: null,
  } as unknown as JobRow;
  return { ...h.deps, log: pino({ level: 'silent' }), job, now, finish: async () => {} };
}

describeRaces('reminder job runs in parallel', () => {
  it('eight concurrent runs record each reminder once per channel and queue one e-mail each', async () => {
    const org = await buildEntity(h.db, {
      level: 'A',
      settings: { events_reminder: true, expiry_warning: 90 },
    });
    const role = await buildRole(h.db, org.id);
    const learners = await Promise.all(
      [1, 2, 3].map(() => buildUser(h.db, { entityId: org.id, roleId: role.id })),
    );
    const course = await buildCourse(h.db, org.id);
    await h.db
      .insertInto('compliance_rules')
      .values({
        entity_id: org.id,
        role_id: role.id,
        course_id: course.id,
        type: 'primary',
        validity_months: 12,
      })
      .execute();
    const completedAt = new Date(Date.now() - 300 * DAY);
    for (const l of learners)
      await buildPassedResult(h.db, { userId: l.id, entityId: org.id, courseId: course.id, completedAt });
    const now = new Date(Date.now() + 40 * DAY); // ~25 days before the expiry: the 30-day reminder
    const inserted = await parallel(8, (i) => sendReminders(runAs(1000 + i, now)));
    expect(inserted.reduce((a, b) => a + b, 0)).toBe(6);
    const rows = await h.db
      .selectFrom('notifications')
      .select(['user_id', 'channel', 'occasion'])
      .where(
        'user_id',
        'in',
        learners.map((l) => l.id),
      )
      .execute();
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((r) => r.occasion))).toEqual(new Set(['30']));
    const jobs = await h.db
      .selectFrom('jobs')
      .select('id')
      .where('name', '=', DELIVER_NOTIFICATION)
      .execute();
    expect(jobs).toHaveLength(3);
  });
});
