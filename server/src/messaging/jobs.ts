import { registerJob } from '../jobs/queue';
import { recordJobMail } from '../mail/jobs';
import { messageMail, messagesUrl } from '../mail/templates';
import { recipientMail } from './queries';

/**
 * The e-mail of a message sent with `messageTypes: ['mail']` (ARCHITECTURE "Side effects after commit"): the send
 * records one MESSAGE_MAIL job per recipient in its own transaction (queries.ts enqueueRecipientMails), keyed by
 * (message, recipient); the worker, after that commit, records the mail in the outbox and marks the job done in
 * one transaction (recordJobMail keys the mail by the job's unique key, so a second run records nothing).
 */
export const MESSAGE_MAIL = 'message-mail';
export const MESSAGE_MAIL_OPTIONS = { maxAttempts: 5, timeoutSeconds: 120 } as const;

export interface MessageMailPayload {
  message_id: number;
  recipient_id: number;
}

let registered = false;
export function registerMessagingJobs(): void {
  if (registered) return;
  registered = true;
  registerJob<MessageMailPayload>(
    MESSAGE_MAIL,
    async (ctx, payload) => {
      await ctx.db.transaction().execute(async (trx) => {
        // Gone (the sender or the recipient was deleted since): nothing to send, and nothing to retry.
        const row = await recipientMail(trx, payload.message_id, payload.recipient_id);
        if (row) {
          const to = { name: row.recipient_name, email: row.recipient_email };
          await recordJobMail(ctx, trx, [
            messageMail(to, row.sender_name, row.text, messagesUrl(ctx.config.appUrl)),
          ]);
        }
        await ctx.finish(trx);
      });
    },
    MESSAGE_MAIL_OPTIONS,
  );
}
