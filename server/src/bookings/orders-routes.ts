import {
  BookingsMessages,
  IdParams,
  NameOrderDelegatesBody,
  TrainingOrderBody,
  TrainingOrdersQuery,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { ok, paginate } from '../http/envelope';
import { cancelOrder, getOrder, listOrders, nameOrderDelegates, placeOrder } from './orders';

/** Training orders (issue 15; contracts bookings.ts "Marketplace and training orders"). */
export async function orderRoutes(app: App) {
  const tags = ['bookings'];
  app.post('/training-orders', { schema: { tags, body: TrainingOrderBody } }, async (r, reply) =>
    reply.status(201).send(ok(await placeOrder(r.ctx, r.body), BookingsMessages.orderPlaced)),
  );
  app.get('/training-orders', { schema: { tags, querystring: TrainingOrdersQuery } }, async (r) => {
    const { data, total } = await listOrders(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.get('/training-orders/:id', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await getOrder(r.ctx, r.params.id)),
  );
  app.post(
    '/training-orders/:id/delegates',
    { schema: { tags, params: IdParams, body: NameOrderDelegatesBody } },
    async (r) =>
      ok((await nameOrderDelegates(r.ctx, r.params.id, r.body)).order, BookingsMessages.orderUpdated),
  );
  app.delete('/training-orders/:id', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await cancelOrder(r.ctx, r.params.id), BookingsMessages.orderCancelled),
  );
}
