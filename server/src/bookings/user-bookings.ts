import { BookingsPerm as P, type UserBookingsQuery, type UserBookingView } from '@cc/contracts';
import { entityScope, inScope } from '../entities/scope';
import { authorize, type Ctx } from '../http/context';
import { loadLearner } from '../learning/learner';
import { presentDelegate, sessionViews } from './delegate-presenters';
import { userBookingsPage } from './delegate-queries';

/** GET /users/{id}/bookings: oneself, or 9/11 with the user in scope (404 outside, like a missing user). */
export async function userBookings(ctx: Ctx, ref: string, query: UserBookingsQuery) {
  const { actor, user, self } = await loadLearner(ctx, ref);
  if (!self) authorize(ctx, [P.createBookings, P.editBooking], 'any');
  const now = ctx.clock();
  const { rows, total } = await userBookingsPage(ctx.db, user.id, query.scope, now, query);
  const scope = await entityScope(ctx);
  const views = await sessionViews(
    ctx.db,
    rows.map((r) => r.session_id),
    { actor, inScope: (id) => inScope(scope, id), now },
  );
  const data: UserBookingView[] = [];
  for (const r of rows) {
    const session = views.get(r.session_id);
    if (session) data.push({ ...presentDelegate(r), session });
  }
  return { data, total };
}
