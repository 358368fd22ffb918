import { registerJob } from '../jobs/queue';
import { recordJobMail } from '../mail/jobs';
import { inviteMail, LEARNER_BOOKINGS_LINK } from './calendar-messages';
import { recipientOf } from './calendar-queries';
import { addressOf, hostOf, type IcalSession, renderCalendar } from './ical';

/**
 * The invite e-mail (ARCHITECTURE "Side effects after commit"): effects.ts records this job in the transaction of
 * the change, with the session as it was at that SEQUENCE; after the commit the worker renders the .ics, records the
 * mail with it attached and marks the job done in one transaction (recordJobMail keys the mail by the job's unique
 * key `booking-invite:<delegate>:<sequence>`, so a second run records nothing).
 */
export const BOOKING_INVITE = 'booking-invite';

/** The session as the invite describes it (dates as ISO instants: the payload is JSON). */
export type InviteSession = IcalSession<string>;

export interface BookingInvitePayload {
  delegate_id: number;
  user_id: number;
  method: 'REQUEST' | 'CANCEL';
  sequence: number;
  /** A REQUEST after an earlier REQUEST: the words say "updated". */
  update: boolean;
  /** A CANCEL of days dropped from a session the delegate is still booked on (not of the booking). */
  droppedDays?: boolean;
  /** When the change happened (DTSTAMP). */
  at: string;
  session: InviteSession;
}

export const inviteJobKey = (delegateId: number, sequence: number, part = '') =>
  `${BOOKING_INVITE}:${delegateId}:${sequence}${part}`;

export const bookingsUrl = (appUrl: string) => `${appUrl.replace(/\/$/, '')}${LEARNER_BOOKINGS_LINK}`;

let registered = false;
export function registerCalendarJobs(): void {
  if (registered) return;
  registered = true;
  registerJob<BookingInvitePayload>(
    BOOKING_INVITE,
    async (ctx, p) => {
      await ctx.db.transaction().execute(async (trx) => {
        // Deleted since: nobody to send to, and nothing to retry.
        const to = await recipientOf(trx, p.user_id);
        if (to) {
          const session = {
            ...p.session,
            dates: p.session.dates.map((d) => ({
              position: d.position,
              starts_at: new Date(d.starts_at),
              ends_at: new Date(d.ends_at),
            })),
          };
          const ics = renderCalendar([{ session, sequence: p.sequence }], {
            method: p.method,
            host: hostOf(ctx.config.appUrl),
            now: new Date(p.at),
            organizer: { name: session.provider, email: addressOf(ctx.config.mailFrom) },
            attendee: { name: to.name, email: to.email },
            url: bookingsUrl(ctx.config.appUrl),
          });
          const first = session.dates[0];
          const mail = inviteMail(
            to,
            p.droppedDays ? 'DROPPED' : p.method,
            p.update,
            { ...session, starts_at: first?.starts_at ?? new Date(p.at) },
            bookingsUrl(ctx.config.appUrl),
          );
          await recordJobMail(ctx, trx, [
            {
              ...mail,
              attachments: [
                {
                  filename: p.method === 'CANCEL' ? 'cancel.ics' : 'invite.ics',
                  contentType: `text/calendar; charset=utf-8; method=${p.method}`,
                  content: Buffer.from(ics, 'utf8'),
                },
              ],
            },
          ]);
        }
        await ctx.finish(trx);
      });
    },
    { maxAttempts: 5, timeoutSeconds: 120, keepsCaches: true },
  );
}
