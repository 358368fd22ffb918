import { describeRecurrence, PRESET_PERMISSIONS, PRODUCT_NAME, PresetMessages } from '@cc/contracts';
import { loadActor } from '../auth/actor';
import { resolveActingAs } from '../entities/scope';
import { type Ctx, can } from '../http/context';
import { HttpError } from '../http/errors';
import {
  enqueue,
  type JobContext,
  PermanentJobError,
  registerJob,
  registerRecurring,
  unchangedWhenNone,
} from '../jobs/queue';
import { recordJobMail } from '../mail/jobs';
import type { MailMessage } from '../mail/mailer';
import { presentPreset } from './presenters';
import {
  advanceSchedule,
  dueSchedules,
  findOwnPreset,
  findSchedule,
  recordRun,
  type ScheduleRow,
} from './queries';
import { reportRenderer, toBuffer } from './renderers';
import { nextRunAfter, SEND_SCHEDULED_REPORT } from './schedules-service';
import { ctxActingAs } from './service';

/**
 * Scheduled reports on the durable queue:
 * - ENQUEUE_DUE_SCHEDULES runs once a minute (one row per minute slot, whichever process claims it). For each
 *   active schedule whose next_run_at has come, it moves next_run_at on (only if still at the due time) and, in
 *   the same transaction, enqueues one send with a unique key of (schedule, due time): one run per due time, even
 *   with two processes. A server that was down sends one catch-up run, not a backlog.
 * - SEND_SCHEDULED_REPORT renders the preset as its owner (acting as the preset's entity, with their current
 *   permissions) through the registered renderer and e-mails it to each recipient as an attachment. The result
 *   (or the error) is recorded on the schedule for the schedules page.
 */
export const ENQUEUE_DUE_SCHEDULES = 'enqueue-due-schedules';

export async function enqueueDueSchedules(ctx: JobContext): Promise<number> {
  let queued = 0;
  for (;;) {
    const due = await dueSchedules(ctx.db, ctx.now, 100);
    if (due.length === 0) return queued;
    for (const s of due) {
      const dueAt = s.next_run_at as Date;
      await ctx.db.transaction().execute(async (trx) => {
        const next = nextRunAfter(s.cron, s.timezone, ctx.now);
        if (!(await advanceSchedule(trx, s.id, dueAt, next, ctx.now))) return;
        await enqueue(
          trx,
          SEND_SCHEDULED_REPORT,
          { schedule_id: s.id, due_at: dueAt.toISOString() },
          { runAt: ctx.now, uniqueKey: `schedule:${s.id}@${dueAt.toISOString()}` },
        );
        queued += 1;
      });
    }
    if (due.length < 100) return queued;
  }
}

function reportMail(schedule: ScheduleRow, to: string, attachment: MailMessage['attachments']): MailMessage {
  const when = describeRecurrence({
    frequency: schedule.frequency,
    time: schedule.time_of_day,
    weekday: schedule.weekday,
    day_of_month: schedule.day_of_month,
  });
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const lines = [
    `Your scheduled ${schedule.report_type} report "${schedule.preset_name}" for ${schedule.entity_name} is attached.`,
    `This report is sent ${when.charAt(0).toLowerCase()}${when.slice(1)} (${schedule.timezone}).`,
    'To change or stop it, open Reports > Schedules.',
  ];
  return {
    to,
    template: 'scheduled_report',
    subject: `${schedule.preset_name}: scheduled ${schedule.report_type} report`,
    text: [...lines, '', `— ${PRODUCT_NAME}`].join('\n'),
    html: `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#1f2937;max-width:560px;margin:auto;padding:24px">${lines
      .map((l) => `<p style="line-height:1.5">${esc(l)}</p>`)
      .join('')}<p style="font-size:12px;color:#6b7280">${esc(PRODUCT_NAME)}</p></body></html>`,
    attachments: attachment,
  };
}

/** Renders one run into each recipient's message; throws on failure (PermanentJobError when retrying cannot help). */
async function renderRun(ctx: JobContext, schedule: ScheduleRow): Promise<MailMessage[]> {
  const presetRow = await findOwnPreset(ctx.db, schedule.preset_id, schedule.user_id);
  if (!presetRow) throw new PermanentJobError('The preset of this schedule no longer exists.');
  const actor = await loadActor(ctx.db, schedule.user_id, { via: 'session', sessionId: `job:${ctx.job.id}` });
  if (!actor) throw new PermanentJobError('The owner of this schedule no longer exists.');
  if (!can(actor, [PRESET_PERMISSIONS.schedules]))
    throw new PermanentJobError('The owner of this schedule no longer holds the schedules permission.');
  const base: Ctx = { ...ctx, actor, ip: null, userAgent: null, memo: new Map() };
  let entity = actor.primaryEntity;
  if (presetRow.entity_id !== actor.primaryEntity.id) {
    const resolved = await resolveActingAs(base, presetRow.entity_slug, actor).catch(() => null);
    if (!resolved) throw new PermanentJobError(`The owner can no longer report on ${presetRow.entity_name}.`);
    entity = resolved;
  }
  const renderer = reportRenderer(presetRow.report_type);
  if (!renderer) throw new PermanentJobError(PresetMessages.noRenderer(presetRow.report_type));
  const runCtx = { ...ctxActingAs(base, actor, entity), clock: () => ctx.now };
  let rendered: Awaited<ReturnType<typeof renderer>>;
  try {
    rendered = await renderer(runCtx, presentPreset(presetRow), schedule.format);
  } catch (error) {
    // A refusal (403, 404, 422) will not change on retry; anything else may be transient.
    if (error instanceof HttpError && error.status < 500) throw new PermanentJobError(error.message);
    throw error;
  }
  const content = await toBuffer(rendered.body);
  const attachment = [{ filename: rendered.filename, contentType: rendered.contentType, content }];
  return schedule.recipients.map((to) => reportMail(schedule, to, attachment));
}

export async function sendScheduledReport(ctx: JobContext, payload: { schedule_id: number }): Promise<void> {
  const schedule = await findSchedule(ctx.db, payload.schedule_id);
  if (!schedule) return; // deleted since: nothing to send
  try {
    const messages = await renderRun(ctx, schedule);
    // The mail, the run's status and "job done" commit together (issue 10 §3): a crash before the commit sends
    // nothing and the job runs again; after it, the job is done. Keys per recipient make a second run a no-op.
    await ctx.db.transaction().execute(async (trx) => {
      await recordJobMail(ctx, trx, messages);
      await recordRun(trx, schedule.id, { last_run_at: ctx.now, last_status: 'sent', last_error: null });
      await ctx.finish(trx);
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await recordRun(ctx.db, schedule.id, {
      last_run_at: ctx.now,
      last_status: 'failed',
      last_error: message,
    });
    throw error;
  }
}

let registered = false;
/** Registers the schedule jobs with the queue (once per process). */
export function registerScheduleJobs(): void {
  if (registered) return;
  registered = true;
  registerJob(ENQUEUE_DUE_SCHEDULES, async (ctx) => unchangedWhenNone(await enqueueDueSchedules(ctx)), {
    maxAttempts: 3,
    timeoutSeconds: 120,
  });
  registerRecurring(ENQUEUE_DUE_SCHEDULES, 60_000);
  registerJob<{ schedule_id: number }>(SEND_SCHEDULED_REPORT, sendScheduledReport, {
    maxAttempts: 4,
    timeoutSeconds: 900,
    backoffMs: (attempt) => 60_000 * 5 ** (attempt - 1),
  });
}
