import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { DbOrTrx } from '../jobs/queries';
import { enqueue, type JobContext, registerJob } from '../jobs/queue';
import type { Mailer, MailMessage } from './mailer';

/**
 * Mail goes through the job queue (ARCHITECTURE "Side effects after commit"; issue 30 §4): a message is recorded in
 * the outbox in the transaction of the change that causes it and, with SMTP, a DELIVER_MAIL job is recorded beside
 * it. The job delivers after the commit, idempotently (a message already sent is skipped), and the queue retries a
 * failed delivery with backoff. So nothing talks to the SMTP server inside a request (a silent one made each user
 * creation take 30 s), a change that rolls back sends nothing, and a crash after the commit loses no mail (any
 * process's worker delivers it).
 * - queueMail: the mail of a request (a welcome, a reset, a verify link), in the request's transaction.
 * - recordJobMail: the mail of a job (scheduled and e-mailed reports), keyed by (the job's run, the recipient): the
 *   job's unique key when it has one (a schedule's due time), else its id, which retries keep. The handler commits
 *   it with ctx.finish(trx), so the mail and "done" commit together, and a second run of the same job (its worker
 *   died first, or it was reclaimed while still running) records nothing new.
 */
export const DELIVER_MAIL = 'deliver-mail';

async function queueDelivery(trx: DbOrTrx, mailer: Mailer, id: number, now: Date): Promise<void> {
  if (mailer.delivers)
    await enqueue(trx, DELIVER_MAIL, { mail_id: id }, { runAt: now, uniqueKey: `mail:${id}` });
}

/**
 * Records `messages` and their delivery in `db`, the caller's transaction (a database handle gets a transaction of
 * its own: a message and its attachments commit together). Returns the outbox ids.
 */
export async function queueMail(
  ctx: { mailer: Mailer; clock(): Date },
  db: DbOrTrx,
  ...messages: MailMessage[]
): Promise<number[]> {
  if (!messages.length) return [];
  if (!db.isTransaction) return db.transaction().execute((trx) => queueMail(ctx, trx, ...messages));
  const now = ctx.clock();
  const ids: number[] = [];
  for (const message of messages) {
    const { id } = await ctx.mailer.record(db, message, null);
    await queueDelivery(db, ctx.mailer, id, now);
    ids.push(id);
  }
  return ids;
}

export async function recordJobMail(
  ctx: JobContext,
  trx: Transaction<Database>,
  messages: MailMessage[],
): Promise<void> {
  const run = ctx.job.unique_key ?? `job:${ctx.job.id}`;
  for (const message of messages) {
    const { id, created } = await ctx.mailer.record(trx, message, `${run}:${message.to.toLowerCase()}`);
    if (created) await queueDelivery(trx, ctx.mailer, id, ctx.now);
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
    { maxAttempts: 5, timeoutSeconds: 120, keepsCaches: true },
  );
}
