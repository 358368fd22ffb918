import { formatDate, formatDateTime, PRODUCT_NAME } from '@cc/contracts';
import type { MailMessage } from '../mail/mailer';
import { locationOf } from './ical';

/** The words of booking notices and invite e-mails (ours: the spec has none). In-app and e-mail say the same. */

export const LEARNER_BOOKINGS_LINK = '/your-bookings';
export const MANAGER_BOOKINGS_LINK = '/manage-bookings';

export type NoticeKind =
  | 'requested'
  | 'booked'
  | 'accepted'
  | 'waitlisted'
  | 'offered'
  | 'declined'
  | 'removed'
  | 'updated'
  | 'confirmed'
  | 'cancelled';

export interface NoticeSession {
  title: string;
  starts_at: Date | string;
  venue: string | null;
  room: string | null;
  virtual: boolean;
  virtual_url: string | null;
}

const whenOf = (s: NoticeSession) => formatDateTime(s.starts_at);
const whereOf = (s: NoticeSession) => {
  const place = locationOf(s);
  return place ? ` at ${place}` : '';
};

/** What the delegate is told. */
export function delegateNotice(
  kind: NoticeKind,
  s: NoticeSession,
  offerExpiresAt?: Date | string | null,
): { title: string; body: string } {
  const on = `${s.title} on ${whenOf(s)}`;
  switch (kind) {
    case 'requested':
      return {
        title: `Place requested: ${s.title}`,
        body: `A place on ${on} has been asked for you. Your manager needs to approve it.`,
      };
    case 'booked':
      return { title: `Booked: ${s.title}`, body: `You have a place on ${on}${whereOf(s)}.` };
    case 'accepted':
      return { title: `Place confirmed: ${s.title}`, body: `Your place on ${on}${whereOf(s)} is confirmed.` };
    case 'waitlisted':
      return {
        title: `Waiting list: ${s.title}`,
        body: `${on} is full, so you are on its waiting list. We will tell you if a place frees up.`,
      };
    case 'offered':
      return {
        title: `A place is free: ${s.title}`,
        body: `A place on ${on} is free for you.${
          offerExpiresAt
            ? ` Claim it by ${formatDateTime(offerExpiresAt)} or it goes to the next person.`
            : ''
        }`,
      };
    case 'declined':
      return { title: `Booking declined: ${s.title}`, body: `Your booking on ${on} was declined.` };
    case 'removed':
      return { title: `Booking removed: ${s.title}`, body: `You no longer have a place on ${on}.` };
    case 'updated':
      return {
        title: `Session changed: ${s.title}`,
        body: `The details of ${on}${whereOf(s)} have changed.`,
      };
    case 'confirmed':
      return { title: `Going ahead: ${s.title}`, body: `${on}${whereOf(s)} is going ahead.` };
    case 'cancelled':
      return { title: `Session cancelled: ${s.title}`, body: `${on} has been cancelled.` };
  }
}

/** What the delegate's managers are told (about one of their staff). */
export function managerNotice(
  kind: NoticeKind,
  person: string,
  s: NoticeSession,
): { title: string; body: string } | null {
  const on = `${s.title} on ${whenOf(s)}`;
  switch (kind) {
    case 'requested':
      return { title: `Approval needed: ${s.title}`, body: `${person} asked for a place on ${on}.` };
    case 'booked':
      return { title: `${person} is booked: ${s.title}`, body: `${person} has a place on ${on}.` };
    case 'waitlisted':
      return { title: `${person} is on a waiting list`, body: `${person} is on the waiting list of ${on}.` };
    case 'declined':
    case 'removed':
      return {
        title: `${person} is no longer booked: ${s.title}`,
        body: `${person} no longer has a place on ${on}.`,
      };
    case 'cancelled':
      return {
        title: `Session cancelled: ${s.title}`,
        body: `${on}, which ${person} was booked on, is cancelled.`,
      };
    default:
      return null;
  }
}

/** The e-mail that carries an invite (.ics attached by the job). */
export function inviteMail(
  to: { name: string; email: string },
  method: 'REQUEST' | 'CANCEL' | 'DROPPED',
  update: boolean,
  s: NoticeSession,
  link: string,
): Omit<MailMessage, 'attachments'> {
  const on = `${s.title} on ${formatDate(s.starts_at)}`;
  const subject =
    method === 'DROPPED'
      ? `Day removed: ${on}`
      : method === 'CANCEL'
        ? `Cancelled: ${on}`
        : update
          ? `Updated invitation: ${on}`
          : `Invitation: ${on}`;
  const lead =
    method === 'DROPPED'
      ? `${s.title} on ${whenOf(s)} is no longer a day of the session; your other days stay booked.`
      : method === 'CANCEL'
        ? `${s.title} on ${whenOf(s)} is no longer in your diary: the booking was cancelled.`
        : update
          ? `The details of ${s.title} on ${whenOf(s)}${whereOf(s)} have changed.`
          : `You have a place on ${s.title} on ${whenOf(s)}${whereOf(s)}.`;
  return {
    to: to.email,
    template: method === 'REQUEST' ? 'booking-invite' : 'booking-cancel',
    subject,
    text: [
      `Hello ${to.name},`,
      '',
      lead,
      'The calendar file attached updates the event in your calendar.',
      '',
      `Your bookings: ${link}`,
      '',
      `— ${PRODUCT_NAME}`,
    ].join('\n'),
  };
}
