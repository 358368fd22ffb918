import { BookingsPerm as P, type UserBookingsQuery, type UserBookingView } from '@cc/contracts';
import { authorize, type Ctx } from '../http/context';
import { loadLearner } from '../learning/learner';
import { userBookingsPage } from './delegate-queries';
import { loadDelegateViews, loadSessionViews } from './presenters';

/** GET /users/{id}/bookings: oneself, or 9/11 with the user in scope (404 outside, like a missing user). */
export async function userBookings(ctx: Ctx, ref: string, query: UserBookingsQuery) {
  const { user, self } = await loadLearner(ctx, ref);
  if (!self) authorize(ctx, [P.createBookings, P.editBooking], 'any');
  const now = ctx.clock();
  const { rows, total } = await userBookingsPage(ctx.db, user.id, query.scope, now, query);
  const [delegates, sessions] = await Promise.all([
    loadDelegateViews(
      ctx.db,
      rows.map((r) => r.id),
    ),
    loadSessionViews(
      ctx,
      rows.map((r) => r.session_id),
    ),
  ]);
  const byId = new Map(sessions.map((v) => [v.id, v]));
  const data: UserBookingView[] = delegates.flatMap((d) => {
    const session = byId.get(d.session_id);
    return session ? [{ ...d, session }] : [];
  });
  return { data, total };
}
