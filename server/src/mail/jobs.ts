import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { enqueue, type JobContext, registerJob } from '../jobs/queue';
import type { MailMessage } from './mailer';

/**
 * Mail sent by jobs (scheduled and e-mailed reports; ARCHITECTURE "Side effects after commit"):
 * - recordJobMail records each recipient's message in the job's transaction under a key of (the job's run, the
 *   recipient): the job's unique key when it has one (a schedule's due time), else its id, which retries keep. The
 *   handler commits it with ctx.finish(trx), so the mail and "done" commit together, and a second run of the same
 *   job (its worker died first, or it was reclaimed while still running) records nothing new.
 * - with SMTP, each new message gets a DELIVER_MAIL job in the same transaction; delivery is idempotent (a message
 *   already sent is skipped), and a failed delivery is retried by the queue.
 */
export const DELIVER_MAIL = 'deliver-mail';

export async function recordJobMail(
  ctx: JobContext,
  trx: Transaction<Database>,
  messages: MailMessage[],
): Promise<void> {
  const run = ctx.job.unique_key ?? `job:${ctx.job.id}`;
  for (const message of messages) {
    const { id, created } = await ctx.mailer.record(trx, message, `${run}:${message.to.toLowerCase()}`);
    if (created && ctx.mailer.delivers)
      await enqueue(trx, DELIVER_MAIL, { mail_id: id }, { runAt: ctx.now, uniqueKey: `mail:${id}` });
  }
}

let registered = false;
export function registerMailJobs(): void {
  if (registered) return;
  registered = true;
  registerJob<{ mail_id: number }>(
    DELIVER_MAIL,
    async (ctx, payload) => {
      if (!(await ctx.mailer.deliver(payload.mail_id)))
        throw new Error('The SMTP server did not take the message (see the outbox).');
    },
    { maxAttempts: 5, timeoutSeconds: 120 },
  );
}
