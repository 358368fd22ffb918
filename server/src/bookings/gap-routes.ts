import { BookingGapQuery, CourseIdParams, GapBookingBody, gapBookedMessage, IdParams } from '@cc/contracts';
import type { App } from '../http/app-types';
import { ok } from '../http/envelope';
import { bookGap, bookingGap } from './gap-booking';

/** Booking the gaps (issue 33 §2; contracts bookings.ts "Booking the gaps"): the gap's people and "Book these people". */
export async function gapRoutes(app: App) {
  const tags = ['bookings'];
  app.get(
    '/booking-gaps/:courseId',
    { schema: { tags, params: CourseIdParams, querystring: BookingGapQuery } },
    async (r) => ok(await bookingGap(r.ctx, r.params.courseId, r.query)),
  );
  app.post(
    '/training-sessions/:id/gap-bookings',
    { schema: { tags, params: IdParams, body: GapBookingBody } },
    async (r) => {
      const data = await bookGap(r.ctx, r.params.id, r.body);
      return ok(data, gapBookedMessage(data));
    },
  );
}
