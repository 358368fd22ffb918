import { DashboardsPerm, NOTIFICATION_PREFERENCES } from '@cc/contracts';
import { countPeople, peoplePage } from '../dashboards/queries';
import { subtreeIds } from '../entities/tree';
import type { DbOrTrx } from '../jobs/queries';
import { enqueue, type JobContext, PermanentJobError, registerJob, registerRecurring } from '../jobs/queue';
import { pushToUser } from '../push/deliver';
import {
  DUE_SOON_DAYS,
  digestText,
  dueReminderText,
  expiryReminderText,
  isoWeek,
  LEARNER_LINK,
  MANAGER_LINK,
  notificationMail,
} from './messages';
import {
  dueExpiryReminders,
  dueSoonReminders,
  findEmailNotification,
  holdNotifications,
  insertNotifications,
  managersDueDigest,
  type NewNotification,
  quietHoursOf,
  updateNotification,
} from './queries';
import { quietHoursEnd } from './quiet-hours';

/**
 * The reminder job and e-mail delivery of the ledger (issue 14):
 * - SEND_REMINDERS runs hourly (a recurring slot, whichever process claims it). In one transaction it records the
 *   due expiry reminders and weekly digests, in-app and e-mail, with ON CONFLICT DO NOTHING on the ledger's unique
 *   key, and enqueues one DELIVER_NOTIFICATION per e-mail row it inserted (runAt: now, or the end of the
 *   organisation's quiet hours, the row then 'held'). A second run, or a concurrent one, inserts nothing and so
 *   sends nothing.
 * - DELIVER_NOTIFICATION first pushes it to the recipient's phones (issue 19; push/deliver.ts records each attempt
 *   in the ledger): when one took it, the e-mail row is 'skipped'; otherwise the row keeps why (its fallback) and
 *   the e-mail goes as before. The push is tried once, on the first run; the retries below are the e-mail's.
 * - The e-mail: DELIVER_NOTIFICATION records the message in the outbox (once: keyed by the row) and, with SMTP, delivers it.
 *   A failure is thrown back to the job queue, which retries with the backoff below; each attempt, the next attempt's
 *   time and the error are written on the ledger row, and after the last attempt the row is 'failed'.
 */
export const SEND_REMINDERS = 'send-reminders';
export const DELIVER_NOTIFICATION = 'deliver-notification';
export const REMINDER_EVERY_MS = 3_600_000;
export const DELIVERY_ATTEMPTS = 5;

/** Before attempt n+1: 1 min × 4^(n-1) (1, 4, 16, 64 min), so a mail server down for an hour still gets it. */
export const deliveryBackoffMs = (attempt: number) => 60_000 * 4 ** Math.max(0, attempt - 1);

const DIGEST_LIST = 10;

/** Ledger rows of one notification: in-app (delivered at once) and e-mail (queued). */
export function bothChannels(row: Omit<NewNotification, 'channel' | 'state'>, now: Date): NewNotification[] {
  return [
    { ...row, channel: 'in_app', state: 'sent', sent_at: now },
    { ...row, channel: 'email', state: 'pending' },
  ];
}

async function expiryReminderRows(db: DbOrTrx, now: Date): Promise<NewNotification[]> {
  const due = await dueExpiryReminders(db, now, {
    90: NOTIFICATION_PREFERENCES.expiry90,
    60: NOTIFICATION_PREFERENCES.expiry60,
    30: NOTIFICATION_PREFERENCES.expiry30,
  });
  // An exemption that has ended gets its own reminder from the exemption-end job (results/exemption-end.ts), once.
  return due.flatMap((d) => {
    if (d.exempt && d.occasion === 0) return [];
    const expiresAt = new Date(d.expires_at);
    const { title, body } = expiryReminderText(d.course_title, expiresAt, d.occasion, d.exempt);
    return bothChannels(
      {
        kind: 'expiry_reminder',
        subject_key: `course:${d.course_id}@${expiresAt.toISOString()}`,
        occasion: String(d.occasion),
        user_id: d.user_id,
        entity_id: d.entity_id,
        course_id: d.course_id,
        expires_at: expiresAt,
        title,
        body,
        link: LEARNER_LINK,
        created_at: now,
      },
      now,
    );
  });
}

/** "Due soon": a new requirement's due date within DUE_SOON_DAYS, for the people who have not done it (issue 33 §4). */
async function dueReminderRows(db: DbOrTrx, now: Date): Promise<NewNotification[]> {
  const due = await dueSoonReminders(db, now, DUE_SOON_DAYS);
  return due.flatMap((d) => {
    if (!d.due_at) return [];
    const dueAt = new Date(d.due_at);
    const { title, body } = dueReminderText(d.course_title, dueAt, d.document);
    return bothChannels(
      {
        kind: 'due_reminder',
        subject_key: `course:${d.course_id}@${dueAt.toISOString()}`,
        occasion: String(DUE_SOON_DAYS),
        user_id: d.user_id,
        entity_id: d.entity_id,
        course_id: d.course_id,
        expires_at: dueAt,
        title,
        body,
        link: LEARNER_LINK,
        created_at: now,
      },
      now,
    );
  });
}

/** Each manager due this week's digest, about their homes (their organisation and everything below it). */
async function digestRows(ctx: JobContext, now: Date): Promise<NewNotification[]> {
  const week = isoWeek(now);
  const managers = await managersDueDigest(
    ctx.db,
    week,
    DashboardsPerm.managerDashboard,
    NOTIFICATION_PREFERENCES.managerDigest,
  );
  const rows: NewNotification[] = [];
  for (const m of managers) {
    const scope = { entityIds: await subtreeIds(ctx.db, m.entity_id), type: null, now };
    const page = { limit: DIGEST_LIST, offset: 0 };
    const [expiringCount, expiring, outCount, out] = await Promise.all([
      countPeople(ctx.db, scope, { kind: 'expiring', days: 30 }),
      peoplePage(ctx.db, scope, { kind: 'expiring', days: 30 }, page),
      countPeople(ctx.db, scope, { kind: 'out_of_date' }),
      peoplePage(ctx.db, scope, { kind: 'out_of_date' }, page),
    ]);
    // Nothing to act on: no digest this week (a manager learns to ignore one that is always empty).
    if (expiringCount.people === 0 && outCount.people === 0) continue;
    const { title, body } = digestText(
      { people: expiringCount.people, rows: expiring },
      { people: outCount.people, rows: out },
    );
    rows.push(
      ...bothChannels(
        {
          kind: 'manager_digest',
          subject_key: 'digest',
          occasion: week,
          user_id: m.id,
          entity_id: m.entity_id,
          course_id: null,
          expires_at: null,
          title,
          body,
          link: MANAGER_LINK,
          created_at: now,
        },
        now,
      ),
    );
  }
  return rows;
}

/**
 * Records ledger rows (in-app and e-mail; those already recorded are skipped by the unique key) and queues one
 * DELIVER_NOTIFICATION per e-mail row inserted, held to the end of the organisation's quiet hours: the one way a
 * notification is sent (the reminder job, a manager's "remind those who have not read it"). Returns what it inserted.
 */
export async function recordAndQueue(trx: DbOrTrx, rows: NewNotification[], now: Date) {
  const inserted: Awaited<ReturnType<typeof insertNotifications>> = [];
  for (let i = 0; i < rows.length; i += 500)
    inserted.push(...(await insertNotifications(trx, rows.slice(i, i + 500))));
  const emails = inserted.filter((r) => r.channel === 'email');
  const quiet = await quietHoursOf(trx, [...new Set(emails.map((r) => r.entity_id))]);
  const heldUntil = new Map<number, Date>();
  for (const r of emails) {
    const q = quiet.get(r.entity_id);
    const until = q ? quietHoursEnd(now, q.start, q.end) : null;
    if (until) heldUntil.set(r.id, until);
    await enqueue(
      trx,
      DELIVER_NOTIFICATION,
      { notification_id: r.id },
      { runAt: until ?? now, uniqueKey: `notification:${r.id}`, maxAttempts: DELIVERY_ATTEMPTS },
    );
  }
  for (const until of new Set([...heldUntil.values()].map((d) => d.getTime())))
    await holdNotifications(
      trx,
      [...heldUntil].filter(([, d]) => d.getTime() === until).map(([id]) => id),
      new Date(until),
    );
  return inserted;
}

/** One run of the reminder job at `ctx.now`; returns how many ledger rows it recorded. */
export async function sendReminders(ctx: JobContext): Promise<number> {
  const now = ctx.now;
  const digests = await digestRows(ctx, now);
  return ctx.db.transaction().execute(async (trx) => {
    const rows = [...(await expiryReminderRows(trx, now)), ...(await dueReminderRows(trx, now)), ...digests];
    const inserted = await recordAndQueue(trx, rows, now);
    await ctx.finish(trx);
    return inserted.length;
  });
}

/** Plain words for a mail failure (shown to managers on the user's page). */
function plainError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return `The mail server did not take the message (${text.slice(0, 300)}).`;
}

export async function deliverNotification(
  ctx: JobContext,
  payload: { notification_id: number },
): Promise<void> {
  const n = await findEmailNotification(ctx.db, payload.notification_id);
  if (!n || n.state === 'sent' || n.state === 'failed' || n.state === 'skipped') return;
  const now = ctx.now;
  // Quiet hours set (or moved) since it was queued: hold it again rather than wake someone on a night shift.
  const until = quietHoursEnd(now, n.quiet_hours_start, n.quiet_hours_end);
  if (until) {
    await ctx.db.transaction().execute(async (trx) => {
      await updateNotification(trx, n.id, { state: 'held', next_attempt_at: until });
      await enqueue(
        trx,
        DELIVER_NOTIFICATION,
        { notification_id: n.id },
        {
          runAt: until,
          uniqueKey: `notification:${n.id}@${until.toISOString()}`,
          maxAttempts: DELIVERY_ATTEMPTS,
        },
      );
      await ctx.finish(trx);
    });
    return;
  }
  // Push first, once (retries are the e-mail's): the e-mail goes only when no phone took it, saying why.
  if (n.mail_id === null && n.fallback === null) {
    const push = await pushToUser(ctx, n, ctx.job.attempts, now);
    if (push.delivered) {
      await updateNotification(ctx.db, n.id, { state: 'skipped', next_attempt_at: null, last_error: null });
      return;
    }
    await updateNotification(ctx.db, n.id, { fallback: push.fallback });
  }
  let mailId = n.mail_id;
  if (mailId === null) {
    mailId = await ctx.db.transaction().execute(async (trx) => {
      const { id } = await ctx.mailer.record(
        trx,
        notificationMail(n, ctx.config.appUrl),
        `notification:${n.id}`,
      );
      await updateNotification(trx, n.id, { mail_id: id });
      return id;
    });
  }
  const attempt = ctx.job.attempts;
  let failure: string | null = null;
  if (ctx.mailer.delivers) {
    try {
      if (!(await ctx.mailer.deliver(mailId))) failure = plainError(await outboxError(ctx, mailId));
    } catch (error) {
      failure = plainError(error);
    }
  }
  if (failure === null) {
    await updateNotification(ctx.db, n.id, {
      state: 'sent',
      sent_at: now,
      attempts: attempt,
      next_attempt_at: null,
      last_error: null,
    });
    return;
  }
  const last = attempt >= ctx.job.max_attempts;
  await updateNotification(ctx.db, n.id, {
    state: last ? 'failed' : 'pending',
    attempts: attempt,
    last_error: failure,
    next_attempt_at: last ? null : new Date(now.getTime() + deliveryBackoffMs(attempt)),
  });
  throw last ? new PermanentJobError(failure) : new Error(failure);
}

async function outboxError(ctx: JobContext, mailId: number): Promise<string> {
  const row = await ctx.db
    .selectFrom('mail_outbox')
    .select('error')
    .where('id', '=', mailId)
    .executeTakeFirst();
  return row?.error ?? 'no answer';
}

let registered = false;
export function registerNotificationJobs(): void {
  if (registered) return;
  registered = true;
  registerJob(SEND_REMINDERS, async (ctx) => {
    await sendReminders(ctx);
  });
  registerRecurring(SEND_REMINDERS, REMINDER_EVERY_MS);
  registerJob(DELIVER_NOTIFICATION, deliverNotification, {
    maxAttempts: DELIVERY_ATTEMPTS,
    timeoutSeconds: 120,
    backoffMs: deliveryBackoffMs,
    keepsCaches: true,
  });
}
