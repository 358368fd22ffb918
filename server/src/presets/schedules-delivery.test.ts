import { Readable } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { crashOnce, removeCrashes } from '../../test/crash';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { completeJob } from '../jobs/queries';
import { type JobContext, runDueJobs } from '../jobs/queue';
import { registerAllJobs } from '../register-jobs';
import {
  type ReportRenderer,
  registerReportRenderer,
  reportRenderer,
  unregisterReportRenderer,
} from './renderers';
import { sendScheduledReport } from './schedules-jobs';

/**
 * Scheduled reports survive crashes (issue 10 §3): the mail of a run, its status and "job done" commit in one
 * transaction, and each recipient's message has a key (the run + the recipient), so a run that crashed part-way or
 * ran twice leaves exactly one message per recipient, each with its attachment (crashes: test/crash.ts).
 */
let h: Harness;
let as: Awaited<ReturnType<typeof clientFor>>;
let presetId: number;
let n = 0;

/** The real renderer, put back when the file ends: the PostgreSQL lane runs later files in this same process. */
let realMatrixRenderer: ReportRenderer | undefined;
beforeAll(async () => {
  registerAllJobs();
  realMatrixRenderer = reportRenderer('matrix');
  // The clock travels years ahead of the tokens issued here; they must outlive it (TOKEN_LIFETIME_DAYS).
  h = await createHarness({ tokenLifetimeDays: 36_500 });
  const org = await buildEntity(h.db, { level: 'A' });
  const manager = await buildUser(h.db, { entityId: org.id, permissions: [12, 14, 15, 19, 117] });
  as = await clientFor(h.app, h.db, manager.id);
  presetId = (await as('POST', '/api/reports/presets', { name: 'Matrix', report_type: 'matrix' })).json().data
    .id;
  registerReportRenderer('matrix', async () => ({
    filename: 'matrix.xlsx',
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    body: Readable.from([Buffer.from('PK-report')]),
  }));
});
afterAll(async () => {
  unregisterReportRenderer('matrix');
  if (realMatrixRenderer) registerReportRenderer('matrix', realMatrixRenderer);
  await h?.close();
});
afterEach(async () => {
  await removeCrashes(h.db);
  (h.deps as { clock: () => Date }).clock = () => new Date();
});

/** A schedule for two new recipients, queued to run now (at `at`). */
async function queuedRun(at: string) {
  n += 1;
  const recipients = [`first-${n}@example.test`, `second-${n}@example.test`];
  (h.deps as { clock: () => Date }).clock = () => new Date(at);
  const s = (
    await as('POST', '/api/reports/schedules', {
      preset_id: presetId,
      frequency: 'daily',
      time: '07:30',
      recipients,
      format: 'XLSX',
    })
  ).json().data;
  expect((await as('POST', `/api/reports/schedules/${s.id}/run`)).statusCode).toBe(202);
  return { scheduleId: s.id as number, recipients };
}

/** Each recipient's messages, with their attachments' names and bytes. */
async function mailsTo(recipients: string[]) {
  const rows = await h.db
    .selectFrom('mail_outbox as m')
    .leftJoin('mail_attachments as a', 'a.mail_id', 'm.id')
    .select(['m.id', 'm.to_address', 'a.filename', 'a.content'])
    .where('m.to_address', 'in', recipients)
    .orderBy('m.id')
    .execute();
  const byMail = new Map<number, { to: string; files: string[] }>();
  for (const r of rows) {
    const mail = byMail.get(r.id) ?? { to: r.to_address, files: [] };
    if (r.filename) mail.files.push(`${r.filename}:${Buffer.from(r.content as Uint8Array).toString()}`);
    byMail.set(r.id, mail);
  }
  return [...byMail.values()];
}

const oneEach = (recipients: string[]) => recipients.map((to) => ({ to, files: ['matrix.xlsx:PK-report'] }));

describe('scheduled report mail and crashes', () => {
  it('a crash while recording the second recipient’s mail sends nothing twice and nothing without its file', async () => {
    const run = await queuedRun('2032-01-05T09:00:00Z');
    await crashOnce(h.db, 'mail_attachments', 2);
    await runDueJobs(h.deps, new Date('2032-01-05T09:00:00Z'));
    // The retry (after the job's backoff of a minute).
    await runDueJobs(h.deps, new Date('2032-01-05T09:02:00Z'));
    expect(await mailsTo(run.recipients)).toEqual(oneEach(run.recipients));
    const schedule = (await as('GET', `/api/reports/schedules/${run.scheduleId}`)).json().data;
    expect(schedule.last_status).toBe('sent');
  });

  it('a crash after the mail is recorded, before the job is marked done, does not send it again', async () => {
    const run = await queuedRun('2032-02-05T09:00:00Z');
    await crashOnce(h.db, 'jobs', 1, `NEW.status = 'done'`);
    await runDueJobs(h.deps, new Date('2032-02-05T09:00:00Z'));
    await runDueJobs(h.deps, new Date('2032-02-05T09:02:00Z'));
    expect(await mailsTo(run.recipients)).toEqual(oneEach(run.recipients));
    const jobs = await h.db
      .selectFrom('jobs')
      .select('status')
      .where('unique_key', 'like', `schedule:${run.scheduleId}:manual@%`)
      .execute();
    expect(jobs).toEqual([{ status: 'done' }]);
  });

  it('the same run handled twice (a reclaimed job) records one message per recipient', async () => {
    const run = await queuedRun('2032-03-05T09:00:00Z');
    const job = await h.db
      .selectFrom('jobs')
      .selectAll()
      .where('unique_key', 'like', `schedule:${run.scheduleId}:manual@%`)
      .executeTakeFirstOrThrow();
    const now = new Date('2032-03-05T09:00:00Z');
    const ctx = (worker: string): JobContext => ({
      ...h.deps,
      log: pino({ level: 'silent' }),
      job: { ...job, id: Number(job.id) },
      now,
      finish: (trx) => completeJob(trx, Number(job.id), worker, now),
    });
    const payload = job.payload as { schedule_id: number };
    // Two workers at once on PostgreSQL; one after the other on PGlite (one connection).
    await Promise.all([sendScheduledReport(ctx('one'), payload), sendScheduledReport(ctx('two'), payload)]);
    await sendScheduledReport(ctx('three'), payload);
    expect(await mailsTo(run.recipients)).toEqual(oneEach(run.recipients));
  });
});
