import {
  type CertificateReportBody,
  type ComplianceReportBody,
  type ExportFormat,
  PRODUCT_NAME,
  type ReportPreset,
} from '@cc/contracts';
import { loadActor } from '../auth/actor';
import { monthOf, writeSnapshots } from '../compliance/queries';
import type { Db } from '../db/connect';
import { resolveActingAs } from '../entities/scope';
import type { Ctx } from '../http/context';
import { HttpError } from '../http/errors';
import { enqueue, type JobContext, PermanentJobError, registerJob, registerRecurring } from '../jobs/queue';
import { recordJobMail } from '../mail/jobs';
import { registerReportRenderer, toBuffer } from '../presets/renderers';
import type { Trx } from '../results/queries';
import { startTask, type TaskTracker, trackJobTask } from '../tasks/service';
import { complianceFile, type ReportFile } from './compliance-export';
import { certificateFile } from './lists-service';
import { allEntityIds, backfillSnapshots, snapshotMonthExists } from './queries';

/**
 * The reports' background work:
 * - COMPLIANCE_SNAPSHOTS (hourly slot): once a month has ended, writes its snapshot for every entity (the trend of
 *   POST /reports/compliance). In the first day of the new month it records the live figures (writeSnapshots, as
 *   the month closed); later (the server was down at the turn of the month) it back-fills them from the results
 *   history as they stood at the month end.
 * - EMAIL_REPORT: an emailFormat request (a compliance report too large to show, spec 2 §4) rendered as the
 *   requester and e-mailed to them with the file attached.
 * - the 'certificate' renderer of scheduled reports (presets/renderers.ts).
 */
export const COMPLIANCE_SNAPSHOTS = 'compliance-snapshots';
export const EMAIL_REPORT = 'email-report';

const DAY = 86_400_000;
const monthStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));

/** Writes the snapshot of the month before `now` if it is missing. Returns the rows written. */
export async function snapshotPreviousMonth(db: Db, now: Date): Promise<number> {
  const start = monthStart(now);
  const previous = monthOf(new Date(start.getTime() - DAY));
  if (await snapshotMonthExists(db, previous)) return 0;
  const ids = await allEntityIds(db);
  return db
    .transaction()
    .execute((trx) =>
      now.getTime() - start.getTime() < DAY
        ? writeSnapshots(trx, ids, previous, now)
        : backfillSnapshots(trx, ids, previous, start),
    );
}

/**
 * Back-fill the last `months` whole months before `now` from results history (demo seed, bench, a new install that
 * imported past results). Each month is as it stood at its end.
 */
export async function backfillComplianceHistory(db: Db, now: Date, months: number, entityIds?: number[]) {
  const ids = entityIds ?? (await allEntityIds(db));
  let written = 0;
  for (let i = months; i >= 1; i--)
    written += await db.transaction().execute((trx) => backfillMonth(trx, ids, now, i));
  return written;
}

/** The same inside the caller's transaction (the demo seed). */
export async function backfillComplianceHistoryIn(trx: Trx, now: Date, months: number, entityIds?: number[]) {
  const ids = entityIds ?? (await allEntityIds(trx));
  let written = 0;
  for (let i = months; i >= 1; i--) written += await backfillMonth(trx, ids, now, i);
  return written;
}

function backfillMonth(trx: Trx, ids: number[], now: Date, monthsAgo: number) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo + 1, 1));
  return backfillSnapshots(trx, ids, monthOf(start), end);
}

export interface EmailReportPayload {
  user_id: number;
  acting_as_slug: string | null;
  report: 'compliance';
  body: ComplianceReportBody;
  format: ExportFormat;
}

/** Records an emailFormat request on the queue (after the caller's checks passed). */
export async function enqueueEmailReport(ctx: Ctx, payload: EmailReportPayload) {
  // The user follows it on /tasks-in-progress: the task commits with the job (issue 18).
  return ctx.db.transaction().execute(async (trx) => {
    const jobId = await enqueue(trx, EMAIL_REPORT, payload as unknown as Record<string, unknown>, {
      runAt: ctx.clock(),
    });
    await startTask(trx, {
      userId: payload.user_id,
      entityId: ctx.actor?.actingAs?.id ?? ctx.actor?.primaryEntity.id ?? null,
      kind: 'emailed_report',
      title: `Compliance report (${payload.format}) by e-mail`,
      jobId,
    });
    return jobId;
  });
}

async function sendEmailReport(job: JobContext, payload: EmailReportPayload) {
  await trackJobTask(job, (tracker) => emailReport(job, payload, tracker));
}

async function emailReport(job: JobContext, payload: EmailReportPayload, tracker: TaskTracker) {
  const actor = await loadActor(job.db, payload.user_id, { via: 'session', sessionId: `job:${job.job.id}` });
  if (!actor) throw new PermanentJobError('The user who asked for this report no longer exists.');
  const base: Ctx = { ...job, actor, ip: null, userAgent: null, memo: new Map(), clock: () => job.now };
  let file: ReportFile;
  try {
    if (payload.acting_as_slug) actor.actingAs = await resolveActingAs(base, payload.acting_as_slug, actor);
    const b = payload.body;
    file = await complianceFile(
      base,
      {
        entities: b.entities,
        deep: b.deep,
        roles: b.roles,
        courses: b.courses,
        compliance_type: b.compliance_type,
        new_starters_filter: b.new_starters_filter,
        previousMonths: b.previousMonths,
      },
      payload.format === 'PDF' ? 'pdf' : 'xlsx',
    );
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) throw new PermanentJobError(error.message);
    throw error;
  }
  const content = await toBuffer(file.stream);
  const message = {
    to: actor.email,
    template: 'emailed_report',
    subject: 'Your compliance report',
    text: [
      `Hello ${actor.name},`,
      '',
      'The compliance report you asked for is attached.',
      '',
      `— ${PRODUCT_NAME}`,
    ].join('\n'),
    attachments: [{ filename: file.filename, contentType: file.contentType, content }],
  };
  // The mail and "job done" commit together; the key makes a second run of this job record nothing (mail/jobs.ts).
  await job.db.transaction().execute(async (trx) => {
    await recordJobMail(job, trx, [message]);
    await job.finish(trx);
  });
  const stored = await tracker.storeFile(content, {
    filename: file.filename,
    contentType: file.contentType,
    extension: payload.format === 'PDF' ? 'pdf' : 'xlsx',
  });
  return { file: stored, summary: `E-mailed to ${actor.email}.` };
}

/** The certificate report of a preset (scheduled reports), with the preset's filters. */
export async function renderCertificatePreset(ctx: Ctx, preset: ReportPreset, format: ExportFormat) {
  const body: CertificateReportBody = {
    entities: preset.entities.length ? preset.entities : undefined,
    deep: true,
    users: preset.users.length ? preset.users : undefined,
    courses: preset.courses.length ? preset.courses : undefined,
    roles: preset.roles.length ? preset.roles : undefined,
    period: preset.period,
    from_date: preset.from_date,
    to_date: preset.to_date,
    filter_by: preset.filter_by,
    course_type: preset.course_type,
    grade: preset.grade,
    date_completion: preset.date_completion,
    new_starters_filter: preset.includeStarters ? preset.new_starters_filter : 'exclude_new_starters',
  };
  const file = await certificateFile(ctx, body, format);
  return { filename: file.filename, contentType: file.contentType, body: file.stream };
}

let renderersRegistered = false;
export function registerReportRenderers(): void {
  if (renderersRegistered) return;
  renderersRegistered = true;
  registerReportRenderer('certificate', renderCertificatePreset);
}

let jobsRegistered = false;
/** Registers the report jobs and renderers (once per process). */
export function registerReportJobs(): void {
  registerReportRenderers();
  if (jobsRegistered) return;
  jobsRegistered = true;
  registerJob(COMPLIANCE_SNAPSHOTS, async (ctx) => void (await snapshotPreviousMonth(ctx.db, ctx.now)), {
    maxAttempts: 3,
    timeoutSeconds: 1800,
  });
  registerRecurring(COMPLIANCE_SNAPSHOTS, 3_600_000);
  registerJob<EmailReportPayload>(EMAIL_REPORT, sendEmailReport, { maxAttempts: 3, timeoutSeconds: 900 });
}
