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
 * with SMTP configured it is also delivered.
 * - send(message): records (the message and its attachments in one transaction) and delivers. Call it after the
 *   transaction that caused it has committed.
 * - record(trx, message, key) + deliver(id): for jobs (scheduled and e-mailed reports). The job records its mail in
 *   the transaction that also marks it done, so a crash leaves either both or neither; the key (the job's run and
 *   the recipient, unique in mail_outbox) makes a second run record nothing. Delivery happens after the commit.
 */
export interface Mailer {
  /** True when messages go out over SMTP (record() then needs deliver()); false: the outbox is the mail. */
  readonly delivers: boolean;
  send(message: MailMessage): Promise<{ id: number; delivered: boolean }>;
  /** Records in the caller's transaction; `created` is false when a message with this key was recorded before. */
  record(trx: DbOrTrx, message: MailMessage, key: string): Promise<{ id: number; created: boolean }>;
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
      // Keep the record; the message can be re-sent from the outbox. Never fail the user's request on SMTP.
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
    async send(message) {
      // The message and its attachments commit together: never a scheduled report without its file.
      const { id } = await db.transaction().execute((trx) => record(trx, message, null));
      return { id, delivered: await deliver(id) };
    },
    record: (trx, message, key) => record(trx, message, key),
    deliver,
  };
}

/**
 * Sends messages whose cause has already committed. A failure to record or deliver one is logged, never turned
 * into an error answer: the change the user asked for did happen (the outbox keeps what it could).
 */
export async function sendAfterCommit(
  ctx: { mailer: Mailer; log: { error(obj: unknown, msg?: string): void } },
  ...messages: MailMessage[]
): Promise<void> {
  for (const message of messages) {
    try {
      await ctx.mailer.send(message);
    } catch (err) {
      ctx.log.error({ err, template: message.template }, 'mail could not be recorded');
    }
  }
}
