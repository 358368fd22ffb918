import { PRODUCT_NAME } from '@cc/contracts';
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';

/**
 * iCalendar (RFC 5545 / iTIP RFC 5546) of face-to-face sessions (issue 15 "Calendar invites that stay right"),
 * written with ical-generator. One VEVENT per session date, with a UID that never changes
 * (`<session uuid>-<date position>@<host>`), so a calendar updates the event in place:
 * - REQUEST: an invite or an update to a delegate who holds a place; SEQUENCE is the delegate's invite_sequence,
 *   which rises with every invite sent to them, so a client always takes the newest.
 * - CANCEL: the delegate was removed or declined, or the session was cancelled (STATUS:CANCELLED, a higher SEQUENCE).
 * - PUBLISH: "add to calendar" and the personal feed (no attendees; SEQUENCE is the session's own).
 * Times are written in UTC: the stored instants of each day (training_session_dates.starts_at/ends_at), which
 * already carry the Europe/London offset of that date.
 */
export type IcalMethod = 'REQUEST' | 'CANCEL' | 'PUBLISH';

/** A session as an invite describes it; `When` is a string in a job's JSON payload, a Date everywhere else. */
export interface IcalSession<When = Date> {
  uuid: string;
  title: string;
  provider: string;
  venue: string | null;
  room: string | null;
  virtual: boolean;
  virtual_url: string | null;
  aim: string | null;
  cancelled: boolean;
  dates: { position: number; starts_at: When; ends_at: When }[];
}

export interface IcalEntry {
  session: IcalSession;
  sequence: number;
  /** STATUS:CANCELLED for this session's events (always for METHOD:CANCEL). */
  cancelled?: boolean;
}

export interface IcalOptions {
  method: IcalMethod;
  /** The host part of every UID (the app's host name). */
  host: string;
  /** Written as DTSTAMP. */
  now: Date;
  /** REQUEST/CANCEL: the organiser (the provider, from the app's sending address). */
  organizer?: { name: string; email: string };
  /** REQUEST/CANCEL: the delegate. */
  attendee?: { name: string; email: string };
  /** The calendar's name (the feed). */
  name?: string;
  /** A link to the session in the app. */
  url?: string;
}

export const eventUid = (sessionUuid: string, position: number, host: string) =>
  `${sessionUuid}-${position}@${host}`;

export function locationOf(
  s: Pick<IcalSession, 'venue' | 'room' | 'virtual' | 'virtual_url'>,
): string | null {
  const place = [s.room, s.venue].filter((p): p is string => !!p).join(', ');
  if (s.virtual) return [place, s.virtual_url ?? 'Online'].filter(Boolean).join(' · ');
  return place || null;
}

const METHODS: Record<IcalMethod, ICalCalendarMethod> = {
  REQUEST: ICalCalendarMethod.REQUEST,
  CANCEL: ICalCalendarMethod.CANCEL,
  PUBLISH: ICalCalendarMethod.PUBLISH,
};

/** The .ics text of one or more sessions (every date of each). */
export function renderCalendar(entries: IcalEntry[], o: IcalOptions): string {
  const calendar = ical({
    prodId: { company: PRODUCT_NAME, product: 'Training sessions', language: 'EN' },
    method: METHODS[o.method],
    name: o.name ?? null,
  });
  for (const { session, sequence, cancelled } of entries) {
    const isCancelled = o.method === 'CANCEL' || cancelled === true || session.cancelled;
    const description = [session.aim, `Run by ${session.provider}.`, session.virtual_url]
      .filter((p): p is string => !!p)
      .join('\n\n');
    const days = session.dates.length;
    for (const date of [...session.dates].sort((a, b) => a.position - b.position)) {
      calendar.createEvent({
        id: eventUid(session.uuid, date.position, o.host),
        sequence,
        stamp: o.now,
        start: date.starts_at,
        end: date.ends_at,
        summary: days > 1 ? `${session.title} (day ${date.position + 1} of ${days})` : session.title,
        description,
        location: locationOf(session),
        url: o.url ?? null,
        status: isCancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
        organizer: o.method === 'PUBLISH' ? null : (o.organizer ?? null),
        attendees:
          o.method === 'PUBLISH' || !o.attendee
            ? []
            : [{ name: o.attendee.name, email: o.attendee.email, rsvp: false }],
      });
    }
  }
  return calendar.toString();
}

/** The sending address inside MAIL_FROM ("Name <address>" or a bare address). */
export function addressOf(mailFrom: string): string {
  const inBrackets = /<([^>]+)>/.exec(mailFrom);
  return (inBrackets?.[1] ?? mailFrom).trim();
}

export const hostOf = (appUrl: string) => {
  try {
    return new URL(appUrl).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
};
