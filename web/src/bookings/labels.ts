import {
  type Attendance,
  type AvailableTo,
  type DelegateStatus,
  formatDate,
  type GradingMethod,
  type SessionStatus,
  type TrainingSessionView,
} from '@cc/contracts';
import type { BadgeTone } from '../ui';

/** The words and badge colours of the bookings screens (status is always text as well as colour). */

export const SESSION_STATUS: Record<SessionStatus, { label: string; tone: BadgeTone }> = {
  scheduled: { label: 'Scheduled', tone: 'primary' },
  confirmed: { label: 'Confirmed', tone: 'success' },
  completed: { label: 'Completed', tone: 'neutral' },
  incomplete: { label: 'Incomplete', tone: 'warning' },
  cancelled: { label: 'Cancelled', tone: 'danger' },
};

export const DELEGATE_STATUS: Record<DelegateStatus, { label: string; tone: BadgeTone }> = {
  requested: { label: 'Awaiting approval', tone: 'warning' },
  pending: { label: 'Awaiting acceptance', tone: 'warning' },
  accepted: { label: 'Booked', tone: 'success' },
  waitlisted: { label: 'Waiting list', tone: 'neutral' },
  offered: { label: 'Place offered', tone: 'primary' },
  declined: { label: 'Declined', tone: 'danger' },
  deleted: { label: 'Removed', tone: 'danger' },
};

export const ATTENDANCE_LABEL: Record<Attendance, string> = {
  attended: 'Attended',
  partial: 'Partly attended',
  no_show: 'Did not attend',
};

export const GRADING_LABEL: Record<GradingMethod, { label: string; hint: string }> = {
  attendance: { label: 'Attendance', hint: 'Attended passes; partly attended or did not attend does not.' },
  pass_fail: {
    label: 'Pass or fail',
    hint: 'The trainer records a pass or a fail for each delegate who attended.',
  },
  score: {
    label: 'Score',
    hint: 'The trainer records a score out of 100; the pass mark decides who passes.',
  },
};

export const AVAILABLE_TO_LABEL: Record<AvailableTo, { label: string; hint: string }> = {
  internal: { label: 'Our staff', hint: 'People of this organisation and the places below it.' },
  external: {
    label: 'Other organisations',
    hint: 'Offered on the marketplace to organisations that order places.',
  },
  all: { label: 'Everyone', hint: 'Our staff and, through the marketplace, other organisations.' },
};

/** '09:30' from '09:30' or '09:30:00'. */
export const hhmm = (t: string) => t.slice(0, 5);

/** "07/05/2026, 09:30–16:00" for one day; multi-day sessions add "(+2 days)". */
export function sessionWhen(
  s: Pick<TrainingSessionView, 'date' | 'startTime' | 'endTime' | 'dates'>,
): string {
  const first = `${formatDate(s.date)}, ${hhmm(s.startTime)}–${hhmm(s.endTime)}`;
  const more = (s.dates?.length ?? 1) - 1;
  return more > 0 ? `${first} (+${more} ${more === 1 ? 'day' : 'days'})` : first;
}

/**
 * The host a web link leads to ("meet.example"), shown beside every link a training company puts on a session so
 * people see where it goes before they click (issue 29 §7); null for anything that is not an http(s) link, which is
 * then not offered as a link at all (the server accepts only http(s) links; this guards older rows too).
 */
export function linkHost(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.hostname || null : null;
  } catch {
    return null;
  }
}

/** "Room 2, Oakfield House", or "Online (meet.example)" with the joining link's host. */
export function sessionWhere(
  s: Pick<TrainingSessionView, 'virtual' | 'venue' | 'room'> & { virtual_url?: string | null },
): string {
  if (s.virtual) {
    const host = linkHost(s.virtual_url);
    return host ? `Online (${host})` : 'Online';
  }
  return [s.room, s.venue].filter(Boolean).join(', ') || 'Venue to be confirmed';
}

/** "8 of 12 places taken" with the waiting list when there is one. */
export function placesText(
  s: Pick<TrainingSessionView, 'places_taken' | 'maxDelegates' | 'waitlist_count'>,
): string {
  const base = `${s.places_taken} of ${s.maxDelegates} places taken`;
  return s.waitlist_count > 0 ? `${base}, ${s.waitlist_count} waiting` : base;
}
