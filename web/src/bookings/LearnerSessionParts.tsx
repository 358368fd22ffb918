import {
  type Attendance,
  type DelegateStatus,
  formatDate,
  formatDateTime,
  type TrainingSessionView,
  type UserBookingView,
} from '@cc/contracts';
import type { ReactNode } from 'react';
import { Badge, type BadgeTone } from '../ui';

/**
 * The pieces of a training session as a learner reads them (cards, not tables: they hold at 375 px): the course, its
 * days and times, where (venue and room, or online), the trainer, the places, and a booking's state in words.
 */

/** Today's date in the organisation's zone (sessions' days are Europe/London calendar days). */
export function londonToday(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/London',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** True when one of the session's days is today (self check-in is open on the day only). */
export function isSessionToday(session: Pick<TrainingSessionView, 'dates'>, today = londonToday()): boolean {
  return (session.dates ?? []).some((d) => d.date === today);
}

/** "12/12/2026, 09:30–12:30" for each day of the session. */
export function sessionDays(session: Pick<TrainingSessionView, 'dates' | 'date' | 'startTime' | 'endTime'>) {
  const days = session.dates?.length
    ? session.dates
    : [{ date: session.date, startTime: session.startTime, endTime: session.endTime }];
  return days.map((d) => ({ key: d.date, text: `${formatDate(d.date)}, ${d.startTime}–${d.endTime}` }));
}

/** Where: "Online" for a virtual session, else the venue and room. */
export function sessionPlace(session: Pick<TrainingSessionView, 'virtual' | 'venue' | 'room'>): string {
  if (session.virtual) return 'Online';
  return [session.venue, session.room].filter(Boolean).join(', ') || 'Venue to be confirmed';
}

/** The course, and the content's own title when it says more. */
export function sessionTitle(session: Pick<TrainingSessionView, 'course' | 'content'>): string {
  return session.course.title;
}

export function placesText(session: Pick<TrainingSessionView, 'places_free' | 'waitlist_count'>): string {
  if (session.places_free > 0)
    return session.places_free === 1 ? '1 place free' : `${session.places_free} places free`;
  return session.waitlist_count > 0
    ? `Full: waiting list (${session.waitlist_count} waiting)`
    : 'Full: waiting list';
}

const STATUS: Record<DelegateStatus, { label: string; tone: BadgeTone }> = {
  requested: { label: 'Requested', tone: 'warning' },
  pending: { label: 'Booked, awaiting confirmation', tone: 'primary' },
  accepted: { label: 'Booked', tone: 'success' },
  waitlisted: { label: 'On the waiting list', tone: 'warning' },
  offered: { label: 'Place offered', tone: 'primary' },
  declined: { label: 'Declined', tone: 'danger' },
  deleted: { label: 'Cancelled', tone: 'neutral' },
};

export function statusLabel(status: DelegateStatus): string {
  return STATUS[status].label;
}

export function StatusBadge({ status }: { status: DelegateStatus }) {
  const s = STATUS[status];
  return <Badge tone={s.tone}>{s.label}</Badge>;
}

/** What the state means for the learner, in a sentence. */
export function statusDetail(b: Pick<UserBookingView, 'status' | 'waitlist_position' | 'offer_expires_at'>) {
  switch (b.status) {
    case 'requested':
      return 'Your request is waiting for your manager’s approval.';
    case 'pending':
      return 'You hold a place; the training provider will confirm it.';
    case 'accepted':
      return 'Your place is confirmed.';
    case 'waitlisted':
      return b.waitlist_position
        ? `You are number ${b.waitlist_position} on the waiting list. If a place frees, it is offered to you.`
        : 'You are on the waiting list. If a place frees, it is offered to you.';
    case 'offered':
      return b.offer_expires_at
        ? `A place has freed for you. Claim it by ${formatDateTime(b.offer_expires_at)} or it goes to the next person.`
        : 'A place has freed for you. Claim it before it goes to the next person.';
    case 'declined':
      return 'This booking was declined.';
    case 'deleted':
      return 'This booking was cancelled.';
  }
}

const ATTENDANCE: Record<Attendance, string> = {
  attended: 'Attended',
  partial: 'Partly attended',
  no_show: 'Did not attend',
};

/** A past booking: how it ended (session cancelled, not marked yet, attendance and result). */
export function PastOutcome({ b }: { b: UserBookingView }) {
  if (b.session.cancelled)
    return (
      <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
        <Badge tone="neutral">Session cancelled</Badge>
        {b.session.cancellation_reason ? <span>{b.session.cancellation_reason}</span> : null}
      </p>
    );
  if (b.status !== 'accepted' && b.status !== 'pending')
    return (
      <p className="text-sm">
        <StatusBadge status={b.status} />
      </p>
    );
  if (!b.attendance)
    return (
      <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
        <Badge tone="neutral">Attendance not recorded yet</Badge>
        {b.checked_in_at ? <span>Checked in {formatDateTime(b.checked_in_at)}</span> : null}
      </p>
    );
  const result =
    b.attendance === 'no_show' ? null : b.passed === true ? (
      <Badge tone="success">Passed{b.score !== null ? ` (${b.score}%)` : ''}</Badge>
    ) : b.passed === false ? (
      <Badge tone="danger">Not passed{b.score !== null ? ` (${b.score}%)` : ''}</Badge>
    ) : null;
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
      <Badge
        tone={b.attendance === 'attended' ? 'success' : b.attendance === 'partial' ? 'warning' : 'danger'}
      >
        {ATTENDANCE[b.attendance]}
      </Badge>
      {result}
    </p>
  );
}

/** The facts of a session: days, place, trainer. */
export function SessionFacts({ session, extra }: { session: TrainingSessionView; extra?: ReactNode }) {
  const days = sessionDays(session);
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm text-slate-700">
      <dt className="font-medium text-slate-600">{days.length > 1 ? 'Days' : 'When'}</dt>
      <dd>
        <ul>
          {days.map((d) => (
            <li key={d.key}>{d.text}</li>
          ))}
        </ul>
      </dd>
      <dt className="font-medium text-slate-600">Where</dt>
      <dd className="wrap-anywhere">{sessionPlace(session)}</dd>
      {session.trainer ? (
        <>
          <dt className="font-medium text-slate-600">Trainer</dt>
          <dd>{session.trainer.name}</dd>
        </>
      ) : null}
      {extra}
    </dl>
  );
}

/** The session's heading: the course, and the content's title below when it differs. */
export function SessionHeading({ session, as = 'h3' }: { session: TrainingSessionView; as?: 'h2' | 'h3' }) {
  const Tag = as;
  return (
    <div className="min-w-0">
      <Tag className="font-semibold text-slate-900 wrap-anywhere">{sessionTitle(session)}</Tag>
      {session.content.title && session.content.title !== session.course.title ? (
        <p className="text-sm text-slate-600 wrap-anywhere">{session.content.title}</p>
      ) : null}
    </div>
  );
}
