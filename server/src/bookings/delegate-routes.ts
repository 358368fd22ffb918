import {
  AddDelegatesBody,
  BookingsMessages,
  BookSessionBody,
  DelegatesQuery,
  IdParams,
  UserBookingsQuery,
  UserRefParams,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import {
  acceptDelegate,
  addDelegates,
  approveDelegate,
  bookSession,
  claimPlace,
  declineDelegate,
  listDelegates,
  rejectDelegate,
  removeDelegate,
  restoreDelegate,
} from './delegate-service';
import { marketplaceRoutes } from './marketplace-routes';
import { orderRoutes } from './orders-routes';
import { userBookings } from './user-bookings';

/** Delegates, bookings, the waitlist's claim, training orders and the marketplace (issue 15; contracts bookings.ts). */
export async function delegateRoutes(app: App) {
  const tags = ['bookings'];
  const byId = { schema: { tags, params: IdParams } };

  app.post(
    '/training-sessions/:id/delegates',
    { schema: { tags, params: IdParams, body: AddDelegatesBody } },
    async (r, reply) =>
      reply
        .status(201)
        .send(ok(await addDelegates(r.ctx, r.params.id, r.body), BookingsMessages.delegatesAdded)),
  );
  app.post(
    '/training-sessions/:id/book',
    { schema: { tags, params: IdParams, body: BookSessionBody } },
    async (r, reply) => {
      const { data, message } = await bookSession(r.ctx, r.params.id, r.body);
      return reply.status(201).send(ok(data, message));
    },
  );
  app.get(
    '/training-sessions/:id/delegates',
    { schema: { tags, params: IdParams, querystring: DelegatesQuery } },
    async (r) => {
      const { data, total } = await listDelegates(r.ctx, r.params.id, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.get(
    '/users/:id/bookings',
    { schema: { tags, params: UserRefParams, querystring: UserBookingsQuery } },
    async (r) => {
      const { data, total } = await userBookings(r.ctx, r.params.id, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.post('/delegates/:id/accept', byId, async (r) =>
    ok(await acceptDelegate(r.ctx, r.params.id), BookingsMessages.delegateUpdated),
  );
  app.post('/delegates/:id/decline', byId, async (r) =>
    ok(await declineDelegate(r.ctx, r.params.id), BookingsMessages.delegateUpdated),
  );
  app.post('/delegates/:id/restore', byId, async (r) =>
    ok(await restoreDelegate(r.ctx, r.params.id), BookingsMessages.delegateUpdated),
  );
  app.post('/delegates/:id/approve', byId, async (r) =>
    ok(await approveDelegate(r.ctx, r.params.id), BookingsMessages.delegateUpdated),
  );
  app.post('/delegates/:id/reject', byId, async (r) =>
    ok(await rejectDelegate(r.ctx, r.params.id), BookingsMessages.delegateUpdated),
  );
  app.post('/delegates/:id/claim', byId, async (r) =>
    ok(await claimPlace(r.ctx, r.params.id), BookingsMessages.placeClaimed),
  );
  app.delete('/delegates/:id', byId, async (r) => done(await removeDelegate(r.ctx, r.params.id)));

  await orderRoutes(app);
  await marketplaceRoutes(app);
}
