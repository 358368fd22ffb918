import {
  BookingsMessages,
  type NameOrderDelegatesBody,
  BookingsPerm as P,
  type TrainingOrderBody,
  type TrainingOrdersQuery,
  type TrainingOrderView,
} from '@cc/contracts';
import { entityScope, inScope } from '../entities/scope';
import { actorOf, authorize, type Ctx, can } from '../http/context';
import { conflict, forbidden, HttpError, notFound } from '../http/errors';
import { releasePlaces } from './capacity';
import { findSessionFacts, setDelegateStatus } from './delegate-queries';
import {
  addPeople,
  DelegateErrors,
  holdsPlace,
  isOpen,
  onMarketplaceFor,
  openStatus,
  pastRemovalCutoff,
  peopleInScope,
  transaction,
} from './delegate-service';
import { delegateChanged } from './effects';
import {
  cancelOrderRow,
  findOrder,
  insertOrder,
  lockOrder,
  lockOrderDelegates,
  type OrderRow,
  ordersPage,
} from './orders-queries';
import { loadDelegateViews, loadSessionViews } from './presenters';
import { offerFreedPlaces } from './waitlist';

/**
 * Training orders (issue 15 "Marketplace and training orders"): an organisation (9, its a_entity with
 * can_view_external_bookings) orders places on a training provider's marketplace session. The places are taken at
 * once, all or none (one guarded UPDATE of `places`); delegates are named at once or later, each taking one of the
 * order's unnamed places (training_orders.named, guarded by its CHECK and a guarded UPDATE). Cancelling releases the
 * unnamed places and removes the named delegates (the removal cut-off applies), then offers the places on.
 */
async function present(ctx: Ctx, rows: OrderRow[]): Promise<TrainingOrderView[]> {
  const views = await loadSessionViews(
    ctx,
    rows.map((r) => r.session_id),
  );
  const sessions = new Map(views.map((v) => [v.id, v]));
  return rows.flatMap((r) => {
    const session = sessions.get(r.session_id);
    if (!session) return [];
    return [
      {
        id: r.id,
        uuid: r.uuid,
        session,
        entity: { id: r.entity_id, slug: r.entity_slug, name: r.entity_name },
        places: r.places,
        named: r.named,
        status: r.status,
        notes: r.notes,
        ordered_by:
          r.ordered_by !== null && r.ordered_by_uuid !== null && r.ordered_by_name !== null
            ? { id: r.ordered_by, uuid: r.ordered_by_uuid, name: r.ordered_by_name }
            : null,
        created_at: new Date(r.created_at).toISOString(),
      },
    ];
  });
}

async function presentOne(ctx: Ctx, id: number) {
  const row = await findOrder(ctx.db, id);
  const [view] = row ? await present(ctx, [row]) : [];
  if (!view) throw notFound();
  return view;
}

/** POST /training-orders: places on a marketplace session, delegates named now or later. */
export async function placeOrder(ctx: Ctx, body: TrainingOrderBody): Promise<TrainingOrderView> {
  // 9, then the session: without the a_entity's external flag no marketplace session is seen (404, as missing).
  const actor = authorize(ctx, [P.createBookings]);
  const s = await findSessionFacts(ctx.db, body.session_id);
  if (!s || !(await onMarketplaceFor(ctx.db, s, actor.aEntityId))) throw notFound();
  const scope = await entityScope(ctx);
  const people = await peopleInScope(ctx, scope, body.users);
  if (people.length > body.places)
    throw new HttpError(422, BookingsMessages.notEnoughPlaces, {
      users: [BookingsMessages.notEnoughPlaces],
    });
  const now = ctx.clock();
  if (!isOpen(s, now)) throw new HttpError(422, BookingsMessages.sessionClosed);
  const id = await transaction(ctx, async (trx) => {
    const orderId = await insertOrder(trx, {
      sessionId: s.id,
      entityId: scope.baseId,
      places: body.places,
      notes: body.notes ?? null,
      orderedBy: actor.userId,
      now,
    });
    await addPeople(trx, s, people, {
      context: 'online',
      bookedBy: actor.userId,
      now,
      orderId,
      reserve: body.places,
    });
    return orderId;
  });
  return presentOne(ctx, id);
}

/** The order, when the actor's organisations placed it or (109) it is on their company's session; 404 otherwise. */
async function orderAccess(ctx: Ctx, id: number) {
  const actor = actorOf(ctx);
  const row = await findOrder(ctx.db, id);
  if (!row) throw notFound();
  const scope = await entityScope(ctx);
  const ordering = inScope(scope, row.entity_id);
  const providing = inScope(scope, row.session_entity_id);
  if (!ordering && !providing) throw notFound();
  return { actor, row, scope, ordering, providing };
}

/** GET /training-orders: the actor's organisations' orders, and with 109 the orders on their company's sessions. */
export async function listOrders(ctx: Ctx, query: TrainingOrdersQuery) {
  const actor = authorize(ctx, [P.createBookings, P.editBooking, P.trainingProviderBookings], 'any');
  const scope = await entityScope(ctx);
  const own = scope.accessible === 'all' ? null : [...scope.accessible];
  const ordering = can(actor, [P.createBookings, P.editBooking], 'any');
  const providing = can(actor, [P.trainingProviderBookings]);
  const { rows, total } = await ordersPage(
    ctx.db,
    own === null
      ? { entityIds: null, providerIds: [] }
      : { entityIds: ordering ? own : [], providerIds: providing ? own : [] },
    query,
  );
  return { data: await present(ctx, rows), total };
}

/** GET /training-orders/{id}. */
export async function getOrder(ctx: Ctx, id: number) {
  const a = await orderAccess(ctx, id);
  const allowed =
    (a.ordering && can(a.actor, [P.createBookings, P.editBooking], 'any')) ||
    (a.providing && can(a.actor, [P.trainingProviderBookings]));
  if (!allowed) throw forbidden();
  return presentOne(ctx, id);
}

/** POST /training-orders/{id}/delegates: name more delegates, up to the unnamed places. */
export async function nameOrderDelegates(ctx: Ctx, id: number, body: NameOrderDelegatesBody) {
  const a = await orderAccess(ctx, id);
  if (!a.ordering || !can(a.actor, [P.createBookings])) throw a.ordering ? forbidden() : notFound();
  const people = await peopleInScope(ctx, a.scope, body.users);
  const s = await findSessionFacts(ctx.db, a.row.session_id);
  if (!s) throw notFound();
  const now = ctx.clock();
  if (!isOpen(s, now)) throw new HttpError(422, BookingsMessages.sessionClosed);
  const ids = await transaction(ctx, async (trx) => {
    const order = await lockOrder(trx, id);
    if (order?.status !== 'placed') throw conflict(DelegateErrors.stateChanged);
    return addPeople(trx, s, people, { context: 'online', bookedBy: a.actor.userId, now, orderId: id });
  });
  return {
    order: await presentOne(ctx, id),
    delegates: await loadDelegateViews(ctx.db, ids),
  };
}

/**
 * DELETE /training-orders/{id}: unnamed places released, named delegates removed as DELETE /delegates/{id} does (so
 * within the provider's removal cut-off only with 11), then the freed places offered to the waitlist.
 */
export async function cancelOrder(ctx: Ctx, id: number) {
  const a = await orderAccess(ctx, id);
  if (!a.ordering || !can(a.actor, [P.createBookings])) throw a.ordering ? forbidden() : notFound();
  const s = await findSessionFacts(ctx.db, a.row.session_id);
  if (!s) throw notFound();
  const now = ctx.clock();
  if (!openStatus(s)) throw new HttpError(422, BookingsMessages.sessionClosed);
  if (pastRemovalCutoff(s, now) && !can(a.actor, [P.editBooking]))
    throw new HttpError(422, BookingsMessages.pastRemovalCutoff);
  await transaction(ctx, async (trx) => {
    const order = await lockOrder(trx, id);
    if (order?.status !== 'placed') throw conflict(DelegateErrors.stateChanged);
    const named = await lockOrderDelegates(trx, id);
    let freed = order.places - order.named;
    for (const d of named) {
      await setDelegateStatus(trx, d.id, { status: 'deleted', now });
      if (holdsPlace(d.status)) freed += 1;
      await delegateChanged(trx, d.id, 'removed', now);
    }
    await cancelOrderRow(trx, id, now);
    await releasePlaces(trx, s.id, freed);
    await offerFreedPlaces(trx, s.id, now);
  });
  return presentOne(ctx, id);
}
