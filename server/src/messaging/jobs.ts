import { type JobContext, registerJob } from '../jobs/queue';
import { recordJobMail } from '../mail/jobs';
import { messageMail, messagesUrl } from '../mail/templates';
import { pushToUser } from '../push/deliver';
import { recipientMail, recipientPush } from './queries';

/**
 * The e-mail of a message sent with `messageTypes: ['mail']` (ARCHITECTURE "Side effects after commit"): the send
 * records one MESSAGE_MAIL job per recipient in its own transaction (queries.ts enqueueRecipientMails), keyed by
 * (message, recipient); the worker, after that commit, records the mail in the outbox and marks the job done in
 * one transaction (recordJobMail keys the mail by the job's unique key, so a second run records nothing).
 */
export const MESSAGE_MAIL = 'message-mail';
export const MESSAGE_MAIL_OPTIONS = { maxAttempts: 5, timeoutSeconds: 120 } as const;

/**
 * The push of a message (issue 19): one MESSAGE_PUSH job per recipient with a phone, queued with the send. It
 * pushes once (no retry: a push late by minutes is worse than the message waiting in the app) and records each
 * phone's attempt in the delivery ledger (kind 'message'). A message's e-mail is the sender's choice (MESSAGE_MAIL,
 * above), not a fallback: a message not mailed stays in the recipient's mailbox whatever the push did.
 */
export const MESSAGE_PUSH = 'message-push';
export const MESSAGE_PUSH_OPTIONS = { maxAttempts: 1, timeoutSeconds: 120 } as const;
const PUSH_TEXT_LENGTH = 200;

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
    { ...MESSAGE_MAIL_OPTIONS, keepsCaches: true },
  );
  registerJob<MessageMailPayload>(MESSAGE_PUSH, pushMessage, { ...MESSAGE_PUSH_OPTIONS, keepsCaches: true });
}

async function pushMessage(ctx: JobContext, payload: MessageMailPayload): Promise<void> {
  const row = await recipientPush(ctx.db, payload.message_id, payload.recipient_id);
  if (!row) return;
  const text = row.text.replace(/\s+/g, ' ').trim();
  await pushToUser(
    ctx,
    {
      kind: 'message',
      subject_key: `message:${payload.message_id}`,
      occasion: '',
      user_id: payload.recipient_id,
      entity_id: row.entity_id,
      course_id: null,
      expires_at: null,
      title: `${row.sender_name} sent you a message`,
      body: text.length > PUSH_TEXT_LENGTH ? `${text.slice(0, PUSH_TEXT_LENGTH - 1)}…` : text,
      link: '/messages',
    },
    ctx.job.attempts,
    ctx.now,
  );
}
