import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';
import type { Db } from '../db/connect';
import type { DbOrTrx } from '../jobs/queries';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  template: string;
  /** Files sent with the message (a scheduled report); kept in mail_attachments so admins can see them. */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/**
 * One mailer (ARCHITECTURE "Data"): every message is recorded in mail_outbox, which admins and tests can read;
 * with SMTP configured it is also delivered. Nothing sends inside a request (issue 30 §4):
 * - record(trx, message, key) in the transaction of the change that causes the message, with a DELIVER_MAIL job
 *   beside it when SMTP is configured (mail/jobs.ts: queueMail for requests, recordJobMail for jobs), so the mail
 *   exists iff the change committed, and its delivery runs after the commit, in the job queue, with its retries.
 * - deliver(id): the job's part, idempotent (a message already sent is skipped).
 */
export interface Mailer {
  /** True when messages go out over SMTP (record() then needs deliver()); false: the outbox is the mail. */
  readonly delivers: boolean;
  /**
   * Records in the caller's transaction; `created` is false when a message with this key was recorded before (a
   * null key never matches: each call records one).
   */
  record(trx: DbOrTrx, message: MailMessage, key: string | null): Promise<{ id: number; created: boolean }>;
  /** Delivers a recorded message over SMTP unless it was already (a no-op without SMTP: the outbox is the mail). */
  deliver(id: number): Promise<boolean>;
}

/**
 * Issue 30 §8: the Message-ID of an outbox message, the same on every delivery attempt. Delivery is at least once (a
 * crash between the SMTP server's acceptance and our record of it sends again); receivers and relays that
 * de-duplicate by Message-ID then show it once. The row's creation time keeps two installations' ids apart.
 */
export function outboxMessageId(id: number, createdAt: Date, mailFrom: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(mailFrom)?.[1] ?? 'carecompliance.invalid';
  return `<outbox-${id}.${createdAt.getTime()}@${domain}>`;
}

const SMTP_TIMEOUT_MS = 30_000;

/** `smtp`: the transport to deliver with (a test's nodemailer stream transport); default from config.smtp. */
export function createMailer(db: Db, config: Pick<Config, 'smtp' | 'mailFrom'>, smtp?: Transporter): Mailer {
  const transport: Transporter | null = smtp
    ? smtp
    : config.smtp
      ? nodemailer.createTransport({
          host: config.smtp.host,
          port: config.smtp.port,
          secure: config.smtp.secure,
          auth: config.smtp.user ? { user: config.smtp.user, pass: config.smtp.password ?? '' } : undefined,
          // A server that takes the connection and never answers fails the attempt well inside the delivery job's
          // timeout (mail/jobs.ts), which then retries it, rather than holding it for nodemailer's 2 to 10 minutes.
          connectionTimeout: SMTP_TIMEOUT_MS,
          greetingTimeout: SMTP_TIMEOUT_MS,
          socketTimeout: SMTP_TIMEOUT_MS,
        })
      : null;

  async function record(trx: DbOrTrx, message: MailMessage, key: string | null) {
    const row = await trx
      .insertInto('mail_outbox')
      .values({
        to_address: message.to,
        subject: message.subject,
        text_body: message.text,
        html_body: message.html ?? null,
        template: message.template,
        transport: transport ? 'smtp' : 'outbox',
        idempotency_key: key,
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!row) {
      const existing = await trx
        .selectFrom('mail_outbox')
        .select('id')
        .where('idempotency_key', '=', key)
        .executeTakeFirstOrThrow();
      return { id: existing.id, created: false };
    }
    if (message.attachments?.length) {
      await trx
        .insertInto('mail_attachments')
        .values(
          message.attachments.map((a) => ({
            mail_id: row.id,
            filename: a.filename,
            content_type: a.contentType,
            size_bytes: a.content.length,
            content: a.content,
          })),
        )
        .execute();
    }
    return { id: row.id, created: true };
  }

  async function deliver(id: number): Promise<boolean> {
    if (!transport) return false;
    const row = await db
      .selectFrom('mail_outbox')
      .select(['to_address', 'subject', 'text_body', 'html_body', 'sent_at', 'created_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return false;
    if (row.sent_at) return true;
    const attachments = await db
      .selectFrom('mail_attachments')
      .select(['filename', 'content_type', 'content'])
      .where('mail_id', '=', id)
      .orderBy('id')
      .execute();
    try {
      await transport.sendMail({
        messageId: outboxMessageId(id, new Date(row.created_at), config.mailFrom),
        from: config.mailFrom,
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body ?? undefined,
        attachments: attachments.map((a) => ({
          filename: a.filename,
          contentType: a.content_type,
          content: Buffer.from(a.content),
        })),
      });
      await db
        .updateTable('mail_outbox')
        .set({ sent_at: new Date(), error: null })
        .where('id', '=', id)
        .execute();
      return true;
    } catch (error) {
      // Keep the record and the error (the outbox shows it); the delivery job tries again (mail/jobs.ts).
      await db
        .updateTable('mail_outbox')
        .set({ error: String(error) })
        .where('id', '=', id)
        .execute();
      return false;
    }
  }

  return {
    delivers: transport !== null,
    record: (trx, message, key) => record(trx, message, key),
    deliver,
  };
}
