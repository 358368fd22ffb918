import { DashboardsPerm, type DelegateSettingsBody } from '@cc/contracts';
import { enqueue } from '../jobs/queue';
import type { NewNotification } from '../notifications/queries';
import { insertNotifications } from '../notifications/queries';
import type { Trx } from '../results/queries';
import { emitWebhookEvent } from '../webhooks/events';
import { bookingChangedData } from '../webhooks/payloads';
import { BOOKING_INVITE, type BookingInvitePayload, type InviteSession, inviteJobKey } from './calendar-jobs';
import {
  delegateNotice,
  LEARNER_BOOKINGS_LINK,
  MANAGER_BOOKINGS_LINK,
  managerNotice,
  type NoticeKind,
} from './calendar-messages';
import {
  bumpInviteSequence,
  type CalendarSession,
  type DelegateFacts,
  delegateFacts,
  delegatesOfSession,
  managersOf,
  recordInvite,
  sessionsForCalendar,
} from './calendar-queries';
import { appliedDelegateSettings } from './settings';

/**
 * What delegates and their managers are told when a booking or a session changes (issue 15): iCal invites by e-mail
 * (REQUEST with a rising SEQUENCE, CANCEL on removal or cancellation) and in-app notices. Called by the session and
 * delegate services inside their transaction, after the row has changed; anything sent goes out through the job
 * queue after commit.
 *
 * Invites (ical.ts): a delegate who holds a place (pending or accepted; an offered place once claimed) gets a
 * REQUEST when they first hold it and again whenever the session is updated; someone whose last invite was a
 * REQUEST gets a CANCEL when they are removed or declined, or the session is cancelled. Every invite raises the
 * delegate's invite_sequence (one UPDATE) and is its SEQUENCE. New REQUESTs go only where the delegate's
 * organisation (or the nearest one above it with settings) sends calendar invites; a CANCEL always follows an
 * earlier REQUEST, so no calendar keeps an event that is not happening.
 *
 * Notices (the notifications ledger, kind 'booking', in-app): the delegate for requested, booked, accepted,
 * waitlisted, offered (with the claim deadline), declined, removed, and the session updated, confirmed or cancelled;
 * their managers (holders of the manager dashboard at the delegate's organisation or above) for requested, booked,
 * waitlisted, declined, removed and cancelled, where the organisation's delegate settings say notify_managers.
 */
export type DelegateEvent =
  | 'requested'
  | 'booked'
  | 'waitlisted'
  | 'offered'
  | 'accepted'
  | 'declined'
  | 'removed'
  | 'restored'
  | 'approved'
  | 'marked';
export type SessionEvent = 'updated' | 'cancelled' | 'confirmed' | 'completed' | 'incomplete';

type Status = DelegateFacts['status'];
const HOLDS_INVITE: readonly Status[] = ['pending', 'accepted'];

/** The notice a delegate event gives, by the state the delegate is now in (restore lands on a place or the list). */
function noticeOf(event: DelegateEvent, status: Status): NoticeKind | null {
  switch (event) {
    case 'requested':
      return 'requested';
    case 'booked':
    case 'approved':
    case 'restored':
      if (status === 'waitlisted') return 'waitlisted';
      if (status === 'offered') return 'offered';
      if (status === 'requested') return 'requested';
      return HOLDS_INVITE.includes(status) ? 'booked' : null;
    case 'accepted':
      return 'accepted';
    case 'waitlisted':
      return 'waitlisted';
    case 'offered':
      return 'offered';
    case 'declined':
      return 'declined';
    case 'removed':
      return 'removed';
    case 'marked':
      return null;
  }
}

function inviteSession(s: CalendarSession, cancelled: boolean): InviteSession {
  return {
    uuid: s.uuid,
    title: s.title,
    provider: s.provider,
    venue: s.venue,
    room: s.room,
    virtual: s.virtual,
    virtual_url: s.virtual_url,
    aim: s.aim,
    cancelled,
    dates: s.dates.map((d) => ({
      position: d.position,
      starts_at: d.starts_at.toISOString(),
      ends_at: d.ends_at.toISOString(),
    })),
  };
}

/**
 * Records one invite: the next SEQUENCE, the last-invite row (with the days it describes), and the mail job (sent
 * after commit). A REQUEST after a REQUEST that described days the session no longer has (a multi-day session cut
 * short) also cancels those days, by their old times, under the same SEQUENCE: no calendar keeps a day that is gone.
 * A CANCEL cancels the days the last REQUEST described as well as the current ones.
 */
async function sendInvite(
  trx: Trx,
  d: DelegateFacts,
  method: 'REQUEST' | 'CANCEL',
  session: CalendarSession,
  now: Date,
) {
  const sequence = await bumpInviteSequence(trx, d.id);
  const current = inviteSession(session, method === 'CANCEL');
  const positions = new Set(current.dates.map((x) => x.position));
  const dropped =
    d.last_invite === 'REQUEST' ? (d.last_dates ?? []).filter((x) => !positions.has(x.position)) : [];
  const dates = method === 'CANCEL' ? [...current.dates, ...dropped] : current.dates;
  await recordInvite(trx, d.id, { method, sequence, dates }, now);
  const base = { delegate_id: d.id, user_id: d.user_id, sequence, at: now.toISOString() };
  const payload: BookingInvitePayload = {
    ...base,
    method,
    update: method === 'REQUEST' && d.last_invite === 'REQUEST',
    session: { ...current, dates },
  };
  await enqueue(trx, BOOKING_INVITE, { ...payload }, { runAt: now, uniqueKey: inviteJobKey(d.id, sequence) });
  if (method === 'REQUEST' && dropped.length) {
    const cancel: BookingInvitePayload = {
      ...base,
      method: 'CANCEL',
      update: false,
      droppedDays: true,
      session: { ...current, cancelled: true, dates: dropped },
    };
    await enqueue(
      trx,
      BOOKING_INVITE,
      { ...cancel },
      { runAt: now, uniqueKey: inviteJobKey(d.id, sequence, ':dropped') },
    );
  }
}

interface Notice {
  user_id: number;
  entity_id: number;
  course_id: number;
  subject_key: string;
  title: string;
  body: string;
  link: string;
}

async function recordNotices(trx: Trx, notices: Notice[], occasion: string, now: Date) {
  const rows: NewNotification[] = notices.map((n) => ({
    kind: 'booking',
    subject_key: n.subject_key,
    occasion,
    user_id: n.user_id,
    entity_id: n.entity_id,
    channel: 'in_app',
    state: 'sent',
    course_id: n.course_id,
    expires_at: null,
    title: n.title,
    body: n.body,
    link: n.link,
    created_at: now,
    sent_at: now,
  }));
  await insertNotifications(trx, rows);
}

const BY_BOOKER: readonly NoticeKind[] = ['requested', 'booked', 'waitlisted'];

/** Notices to the delegates' managers (one per manager and person), where their organisation wants them. */
async function managerNotices(
  trx: Trx,
  kind: NoticeKind,
  delegates: DelegateFacts[],
  session: CalendarSession,
  settingsOf: (entityId: number) => DelegateSettingsBody,
): Promise<Notice[]> {
  const told = delegates.filter((d) => settingsOf(d.entity_id).notify_managers);
  if (told.length === 0) return [];
  const managers = await managersOf(
    trx,
    [...new Set(told.map((d) => d.entity_id))],
    DashboardsPerm.managerDashboard,
  );
  return told.flatMap((d) => {
    const words = managerNotice(kind, d.user_name, session);
    if (!words) return [];
    return (
      managers
        // Not the delegate themself, nor the manager who just booked them (they know).
        .filter(
          (m) =>
            m.entity_id === d.entity_id &&
            m.user_id !== d.user_id &&
            !(BY_BOOKER.includes(kind) && m.user_id === d.booked_by),
        )
        .map((m) => ({
          user_id: m.user_id,
          entity_id: d.entity_id,
          course_id: d.course_id,
          subject_key: `delegate:${d.id}`,
          ...words,
          link: MANAGER_BOOKINGS_LINK,
        }))
    );
  });
}

export async function delegateChanged(
  trx: Trx,
  delegateId: number,
  event: DelegateEvent,
  now: Date,
): Promise<void> {
  const d = await delegateFacts(trx, delegateId);
  if (!d) return;
  const [session] = await sessionsForCalendar(trx, [d.session_id]);
  if (!session) return;
  const booking = bookingChangedData(event, d, session);
  await emitWebhookEvent(trx, { entityId: d.entity_id, type: 'booking.changed', data: booking }, now);
  const settingsOf = await appliedDelegateSettings(trx, [d.entity_id]);

  if (event !== 'marked' && session.status !== 'cancelled') {
    if (HOLDS_INVITE.includes(d.status)) {
      if (d.last_invite !== 'REQUEST' && settingsOf(d.entity_id).send_calendar_invites)
        await sendInvite(trx, d, 'REQUEST', session, now);
    } else if (d.status !== 'offered' && d.last_invite === 'REQUEST') {
      await sendInvite(trx, d, 'CANCEL', session, now);
    }
  }

  const kind = noticeOf(event, d.status);
  if (!kind) return;
  const notices: Notice[] = [
    {
      user_id: d.user_id,
      entity_id: d.entity_id,
      course_id: d.course_id,
      subject_key: `delegate:${d.id}`,
      ...delegateNotice(kind, session, d.offer_expires_at),
      link: LEARNER_BOOKINGS_LINK,
    },
    ...(await managerNotices(trx, kind, [d], session, settingsOf)),
  ];
  await recordNotices(trx, notices, `${kind}@${now.toISOString()}`, now);
}

/** Those told about a session change: everyone still booked, asked for or waiting. */
const INTERESTED: readonly Status[] = ['requested', 'pending', 'accepted', 'waitlisted', 'offered'];

export async function sessionChanged(
  trx: Trx,
  sessionId: number,
  event: SessionEvent,
  now: Date,
): Promise<void> {
  if (event === 'completed' || event === 'incomplete') return;
  const [session] = await sessionsForCalendar(trx, [sessionId]);
  if (!session) return;
  const delegates = await delegatesOfSession(trx, sessionId);
  const settingsOf = await appliedDelegateSettings(
    trx,
    delegates.map((d) => d.entity_id),
  );

  for (const d of delegates) {
    if (event === 'cancelled') {
      const booking = bookingChangedData('session_cancelled', d, session);
      await emitWebhookEvent(trx, { entityId: d.entity_id, type: 'booking.changed', data: booking }, now);
      if (d.last_invite === 'REQUEST') await sendInvite(trx, d, 'CANCEL', session, now);
    } else if (event === 'updated' && HOLDS_INVITE.includes(d.status)) {
      if (d.last_invite === 'REQUEST' || settingsOf(d.entity_id).send_calendar_invites)
        await sendInvite(trx, d, 'REQUEST', session, now);
    }
  }

  const interested = delegates.filter((d) =>
    event === 'cancelled'
      ? INTERESTED.includes(d.status)
      : HOLDS_INVITE.includes(d.status) || d.status === 'offered',
  );
  const notices: Notice[] = interested.map((d) => ({
    user_id: d.user_id,
    entity_id: d.entity_id,
    course_id: d.course_id,
    subject_key: `session:${sessionId}`,
    ...delegateNotice(event, session),
    link: LEARNER_BOOKINGS_LINK,
  }));
  if (event === 'cancelled')
    notices.push(...(await managerNotices(trx, 'cancelled', interested, session, settingsOf)));
  await recordNotices(trx, notices, `${event}@${now.toISOString()}`, now);
}
