import { CareCertificatePerm } from '@cc/contracts';
import { sql } from 'kysely';
import { managersOf } from '../bookings/calendar-queries';
import { enqueue } from '../jobs/queue';
import { DELIVER_NOTIFICATION, DELIVERY_ATTEMPTS } from '../notifications/jobs';
import {
  holdNotifications,
  insertNotifications,
  type NewNotification,
  quietHoursOf,
} from '../notifications/queries';
import { quietHoursEnd } from '../notifications/quiet-hours';
import type { Trx } from '../results/queries';

/**
 * `notify_all_standards_selected` (entities column, spec 1 §3): when a selection for approval leaves every standard
 * of a certificate awaiting approval or approved, and the person's organisation or its level A organisation has the
 * setting on, the approvers are told: the users holding approve (93) whose organisation is the person's or one above
 * it (their scope covers the person), not the person themself. In-app and by e-mail through the notifications
 * ledger (kind 'care_certificate'): one row per approver and channel, keyed by the certificate and the time, the
 * e-mails queued after commit (held through the organisation's quiet hours, like reminders).
 *
 * The person hears the same way of each decision on their standards (notifyLearner): approved, returned with the
 * reasons, or, for the last approval, that the certificate is complete (that one notice instead of the approval's).
 */
export const CERTIFICATE_LINK = (uuid: string) => `/care-certificate/${uuid}`;

/** On when the person's organisation, or its level A organisation, has it on. */
export async function wantsAllSelectedNotice(trx: Trx, entityId: number): Promise<boolean> {
  const { rows } = await sql<{ on: boolean }>`
    SELECT (e.notify_all_standards_selected OR COALESCE(p.notify_all_standards_selected, false)) AS on
      FROM entities e LEFT JOIN entities p ON p.id = e.parent_id AND p.level = 'A'
     WHERE e.id = ${entityId}`.execute(trx);
  return rows[0]?.on === true;
}

export function allSelectedText(personName: string) {
  return {
    title: `${personName}: every standard is ready for approval`,
    body: `${personName} has selected every standard of their certificate for approval. Review the evidence and approve or return each standard.`,
  };
}

type NoticeCert = { id: number; uuid: string; user_id: number; user_entity_id: number };

/**
 * Records one notice about the certificate for each recipient, in-app (sent) and by e-mail (pending), in the caller's
 * transaction, and queues the e-mails' delivery (visible once it commits), held through the person's organisation's
 * quiet hours. The ledger's unique key (certificate, occasion, recipient, channel) keeps it to one each.
 */
async function recordNotices(
  trx: Trx,
  cert: NoticeCert,
  recipients: number[],
  occasion: string,
  words: { title: string; body: string },
  now: Date,
): Promise<void> {
  if (recipients.length === 0) return;
  const base = {
    kind: 'care_certificate' as const,
    subject_key: `care_certificate:${cert.id}`,
    occasion,
    entity_id: cert.user_entity_id,
    course_id: null,
    expires_at: null,
    ...words,
    link: CERTIFICATE_LINK(cert.uuid),
    created_at: now,
  };
  const rows: NewNotification[] = recipients.flatMap((user_id) => [
    { ...base, user_id, channel: 'in_app' as const, state: 'sent' as const, sent_at: now },
    { ...base, user_id, channel: 'email' as const, state: 'pending' as const },
  ]);
  const inserted = await insertNotifications(trx, rows);
  const emails = inserted.filter((r) => r.channel === 'email');
  const quiet = (await quietHoursOf(trx, [cert.user_entity_id])).get(cert.user_entity_id);
  const until = quiet ? quietHoursEnd(now, quiet.start, quiet.end) : null;
  for (const r of emails)
    await enqueue(
      trx,
      DELIVER_NOTIFICATION,
      { notification_id: r.id },
      { runAt: until ?? now, uniqueKey: `notification:${r.id}`, maxAttempts: DELIVERY_ATTEMPTS },
    );
  if (until)
    await holdNotifications(
      trx,
      emails.map((r) => r.id),
      until,
    );
}

async function nameOf(trx: Trx, userId: number): Promise<string | undefined> {
  const row = await trx.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirst();
  return row?.name;
}

/** Records and queues the notice for one certificate. Returns how many approvers were told. */
export async function notifyAllStandardsSelected(trx: Trx, cert: NoticeCert, now: Date): Promise<number> {
  if (!(await wantsAllSelectedNotice(trx, cert.user_entity_id))) return 0;
  const approvers = (await managersOf(trx, [cert.user_entity_id], CareCertificatePerm.approve)).filter(
    (m) => m.user_id !== cert.user_id,
  );
  if (approvers.length === 0) return 0;
  const words = allSelectedText((await nameOf(trx, cert.user_id)) ?? 'Someone');
  await recordNotices(
    trx,
    cert,
    approvers.map((a) => a.user_id),
    `all_selected@${now.toISOString()}`,
    words,
    now,
  );
  return approvers.length;
}

/** A decision on one of the person's standards: approved, returned with reasons, or approved as the last one. */
export type LearnerNotice =
  | { event: 'approved'; standardId: number }
  | { event: 'returned'; standardId: number; reasons: string }
  | { event: 'complete'; standardId: number };

export function learnerText(
  n: { event: LearnerNotice['event']; reasons?: string },
  standard: string,
  actorName: string,
) {
  if (n.event === 'complete')
    return {
      title: 'Your certificate is complete',
      body: `${actorName} approved ${standard}, your last standard. Your certificate is complete: well done. You can download it from your certificate page.`,
    };
  if (n.event === 'returned')
    return {
      title: `${standard} was returned`,
      body: `${actorName} returned ${standard} with these reasons:\n${n.reasons ?? ''}\nAdd what is asked for, then send the standard to your assessor again.`,
    };
  return {
    title: `${standard} is approved`,
    body: `${actorName} approved ${standard} of your certificate.`,
  };
}

/**
 * Tells the person (bell and e-mail) of a decision on their certificate, in the decision's transaction. Nothing when
 * they decided it themselves (one holding 93 may approve their own). Returns whether they were told.
 */
export async function notifyLearner(
  trx: Trx,
  cert: NoticeCert,
  notice: LearnerNotice,
  actorId: number,
  now: Date,
): Promise<boolean> {
  if (actorId === cert.user_id) return false;
  const standard = await trx
    .selectFrom('care_certificate_standards')
    .select(['number', 'title'])
    .where('id', '=', notice.standardId)
    .executeTakeFirst();
  const label = standard ? `Standard ${standard.number}: ${standard.title}` : 'A standard';
  const words = learnerText(
    { event: notice.event, reasons: notice.event === 'returned' ? notice.reasons : undefined },
    label,
    (await nameOf(trx, actorId)) ?? 'Your approver',
  );
  const occasion =
    notice.event === 'complete' ? 'complete' : `${notice.event}:${notice.standardId}@${now.toISOString()}`;
  await recordNotices(trx, cert, [cert.user_id], occasion, words, now);
  return true;
}
