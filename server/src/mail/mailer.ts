import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config';
import type { Db } from '../db/connect';

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
 * with SMTP configured it is also delivered. Call it after the transaction that caused it has committed.
 */
export interface Mailer {
  send(message: MailMessage): Promise<{ id: number; delivered: boolean }>;
}

export function createMailer(db: Db, config: Pick<Config, 'smtp' | 'mailFrom'>): Mailer {
  const transport: Transporter | null = config.smtp
    ? nodemailer.createTransport({
        host: config.smtp.host,
        port: config.smtp.port,
        secure: config.smtp.secure,
        auth: config.smtp.user ? { user: config.smtp.user, pass: config.smtp.password ?? '' } : undefined,
      })
    : null;

  return {
    async send(message) {
      const row = await db
        .insertInto('mail_outbox')
        .values({
          to_address: message.to,
          subject: message.subject,
          text_body: message.text,
          html_body: message.html ?? null,
          template: message.template,
          transport: transport ? 'smtp' : 'outbox',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (message.attachments?.length) {
        await db
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
      if (!transport) return { id: row.id, delivered: false };
      try {
        await transport.sendMail({
          from: config.mailFrom,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          attachments: message.attachments?.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: a.content,
          })),
        });
        await db.updateTable('mail_outbox').set({ sent_at: new Date() }).where('id', '=', row.id).execute();
        return { id: row.id, delivered: true };
      } catch (error) {
        // Keep the record; the message can be re-sent from the outbox. Never fail the user's request on SMTP.
        await db
          .updateTable('mail_outbox')
          .set({ error: String(error) })
          .where('id', '=', row.id)
          .execute();
        return { id: row.id, delivered: false };
      }
    },
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
