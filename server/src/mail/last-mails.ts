import { sql } from 'kysely';
import type { Db } from '../db/connect';

/**
 * Issue 31 §8: `npm run mail:last` (src/mail-last.ts), the development mail viewer. Without SMTP a password reset,
 * a welcome or a verification mail only lands in mail_outbox, and the in-app outbox masks its links
 * (mask-links.ts); a developer on their own data folder reads the last mails here with their links whole.
 */
export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  template: string;
  createdAt: Date;
  links: string[];
}

const ADDRESS = /\bhttps?:\/\/[^\s"'<>]+/gi;

/** Every http(s) address of a message, once each, in order: HTML entities of `&` undone, closing punctuation off. */
export function linksIn(...bodies: (string | null)[]): string[] {
  const links = new Set<string>();
  for (const body of bodies)
    for (const [found] of (body ?? '').matchAll(ADDRESS))
      links.add(found.replace(/&(?:amp|#38);/g, '&').replace(/[.,;:!?)\]]+$/, ''));
  return [...links];
}

/** The last `count` mails (to one address when `to` is given), oldest first: the newest ends above the prompt. */
export async function lastMails(db: Db, opts: { count: number; to?: string }): Promise<OutboxMail[]> {
  let q = db
    .selectFrom('mail_outbox')
    .select(['id', 'to_address', 'subject', 'template', 'text_body', 'html_body', 'created_at']);
  if (opts.to) q = q.where(sql`lower(to_address)`, '=', opts.to.toLowerCase());
  const rows = await q.orderBy('id', 'desc').limit(opts.count).execute();
  return rows.reverse().map((r) => ({
    id: Number(r.id),
    to: r.to_address,
    subject: r.subject,
    template: r.template,
    createdAt: new Date(r.created_at),
    links: linksIn(r.text_body, r.html_body),
  }));
}

export function formatMails(mails: OutboxMail[]): string {
  if (!mails.length) return 'The outbox is empty.';
  return mails
    .map((m) =>
      [
        `#${m.id}  ${m.createdAt.toISOString()}  to ${m.to}  (${m.template})`,
        `  ${m.subject}`,
        ...(m.links.length ? m.links.map((link) => `  ${link}`) : ['  (no links)']),
      ].join('\n'),
    )
    .join('\n\n');
}
