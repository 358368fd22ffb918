import { formatDate, PRODUCT_NAME } from '@cc/contracts';
import type { MailMessage } from '../mail/mailer';

/** The words of each notification (ours: the spec has none). In-app and e-mail say the same. */

export const LEARNER_LINK = '/learner-dashboard';
export const MANAGER_LINK = '/manager-dashboard';

/**
 * The words of an expiry reminder; `exempt`: the cell is an exemption whose end date this is (issue 28 item 6: after
 * it the course is required again), so the learner hears that the exemption ends, not that training expires.
 */
export function expiryReminderText(course: string, expiresAt: Date, occasion: number, exempt = false) {
  const on = formatDate(expiresAt);
  if (exempt)
    return occasion === 0
      ? {
          title: `Your exemption from ${course} ends today`,
          body: `Your exemption from ${course} ends today (${on}). From now on you need to complete ${course}.`,
        }
      : {
          title: `Your exemption from ${course} ends in ${occasion} days`,
          body: `Your exemption from ${course} ends on ${on}. From then on you need to complete ${course}: take it before then to stay in date.`,
        };
  if (occasion === 0)
    return {
      title: `${course} expires today`,
      body: `Your ${course} training expires today (${on}). Take it again to be back in date.`,
    };
  return {
    title: `${course} expires in ${occasion} days`,
    body: `Your ${course} training expires on ${on}. Take it again before then to stay in date.`,
  };
}

/**
 * An exemption whose end date has come (issue 28 §6; the exemption-end job): the course is required of the person
 * again, and their status is what their other training gives (`inDate`: a pass still in date).
 */
export function exemptionEndedText(course: string, endedOn: Date, inDate: boolean) {
  const on = formatDate(endedOn);
  return {
    title: `Your exemption from ${course} has ended`,
    body: inDate
      ? `Your exemption from ${course} ended on ${on}. ${course} is required of you again; your training is in date for now.`
      : `Your exemption from ${course} ended on ${on}. ${course} is required of you again: please complete it.`,
  };
}

/** The days before a new requirement's due date its "due soon" reminder goes (issue 33 §4). */
export const DUE_SOON_DAYS = 7;

/** A new requirement's "due soon" reminder: a course to complete, or a document to read, by its due date. */
export function dueReminderText(course: string, dueBy: Date, document: boolean) {
  const on = formatDate(dueBy);
  return document
    ? {
        title: `Please read ${course} by ${on}`,
        body: `${course} is a new document for your job role. Read and acknowledge it by ${on} to stay in date.`,
      }
    : {
        title: `${course} is due by ${on}`,
        body: `${course} is new training for your job role. Complete it by ${on} to stay in date.`,
      };
}

/** A manager's "remind those who have not read it" (issue 33 §4), about the document's current version. */
export function documentReminderText(title: string, version: number) {
  return {
    title: `Please read ${title}`,
    body:
      version > 1
        ? `A new version of ${title} (version ${version}) is waiting for you to read and acknowledge it.`
        : `${title} is waiting for you to read and acknowledge it.`,
  };
}

/** A manager's "Remind" on the list of who is behind (issue 33 §7): a Care Certificate or a pathway past its date. */
export function behindReminderText(kind: 'care_certificate' | 'pathway', title: string) {
  return kind === 'care_certificate'
    ? {
        title: `Your ${title} is behind`,
        body: `Your ${title} has passed the date it was expected to be complete. Please add your evidence, or talk to your manager.`,
      }
    : {
        title: `${title}: a step is overdue`,
        body: `A step of your pathway ${title} has passed its due date. Please complete it, or talk to your manager.`,
      };
}

export interface DigestPerson {
  name: string;
  entity_name: string;
  courses: { title: string; expires_at: Date | string | null }[];
}

export function digestText(
  expiring: { people: number; rows: DigestPerson[] },
  outOfDate: { people: number; rows: DigestPerson[] },
) {
  const plural = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`;
  const lines: string[] = [];
  const list = (title: string, l: { people: number; rows: DigestPerson[] }, withDates: boolean) => {
    if (l.people === 0) return;
    lines.push('', `${title}:`);
    for (const p of l.rows) {
      const courses = p.courses
        .map((c) => (withDates && c.expires_at ? `${c.title} (${formatDate(c.expires_at)})` : c.title))
        .join(', ');
      lines.push(`- ${p.name}, ${p.entity_name}: ${courses}`);
    }
    if (l.people > l.rows.length) lines.push(`- and ${l.people - l.rows.length} more`);
  };
  list('Expiring in the next 30 days', expiring, true);
  list('Out of date', outOfDate, false);
  return {
    title: `Weekly digest: ${plural(expiring.people)} expiring, ${plural(outOfDate.people)} out of date`,
    body: [
      `In your homes, ${plural(expiring.people)} have training expiring in the next 30 days and ${plural(outOfDate.people)} are out of date.`,
      ...lines,
    ].join('\n'),
  };
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The e-mail of a ledger row: its words, the link on APP_URL, and where to turn optional ones off. */
export function notificationMail(
  n: { kind: string; occasion?: string; title: string; body: string; link: string; email: string },
  appUrl: string,
): MailMessage {
  const url = `${appUrl.replace(/\/$/, '')}${n.link}`;
  const footer =
    n.kind === 'manager_digest'
      ? 'You get this digest each week as a manager; turn it off under Notification settings.'
      : n.kind === 'care_certificate'
        ? n.occasion?.startsWith('all_selected')
          ? 'You get this because your organisation asks to tell approvers when every standard is ready.'
          : 'You get this because it is about your own certificate.'
        : n.kind === 'document_reminder' || n.kind === 'due_reminder' || n.kind === 'exemption_ended'
          ? 'You get this because it is required for your job role.'
          : n.kind === 'behind_reminder'
            ? 'You get this because your manager sent you a reminder.'
            : 'Reminders 90, 60 and 30 days ahead can be turned off under Notification settings.';
  const paragraphs = n.body.split('\n');
  return {
    to: n.email,
    template: `notification_${n.kind}`,
    subject: n.title,
    text: [n.body, '', `Open ${PRODUCT_NAME}: ${url}`, '', footer, `— ${PRODUCT_NAME}`].join('\n'),
    html: `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#1f2937;max-width:560px;margin:auto;padding:24px">${paragraphs
      .map((l) => `<p style="line-height:1.5;margin:4px 0">${esc(l)}</p>`)
      .join(
        '',
      )}<p><a href="${esc(url)}">Open ${esc(PRODUCT_NAME)}</a></p><p style="font-size:12px;color:#6b7280">${esc(footer)}</p></body></html>`,
  };
}

/** The ISO week of `at` ('2026-W48'): the digest's occasion, so each manager gets one a week. */
export function isoWeek(at: Date): string {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const day = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}
