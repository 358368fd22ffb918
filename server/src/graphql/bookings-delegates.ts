import {
  DELEGATE_STATUSES,
  DelegatesQuery,
  type DelegateView,
  IdParams,
  MarketplaceQuery,
  TrainingOrderBody,
  type TrainingOrderView,
  USER_BOOKING_SCOPES,
  UserBookingsQuery,
  type UserBookingView,
  UserRefParams,
} from '@cc/contracts';
import { z } from 'zod';
import { listDelegates, removeDelegate } from '../bookings/delegate-service';
import { marketplace } from '../bookings/marketplace';
import { placeOrder } from '../bookings/orders';
import { loadDelegateViews } from '../bookings/presenters';
import { userBookings } from '../bookings/user-bookings';
import { actorOf } from '../http/context';
import { EntityRefRef } from './auth';
import { PersonObject, TrainingSessionObject, TrainingSessionPaginator } from './bookings-sessions';
import { builder } from './builder';
import { nullless, parseInput } from './input';
import { pageArgs, pageOf, paginatorOf } from './paging';

/**
 * Bookings and delegates over GraphQL (spec 2 §7; issue 15): queries `bookings` (a user's), `delegates` (of a
 * session) and `marketplace`; mutations `cancelBookings` and `trainingOrder`. Every resolver calls the REST route's
 * service (bookings/delegate-service.ts, user-bookings.ts, marketplace.ts, orders.ts): the same rules and answers.
 */
export const DelegateObject = builder.objectRef<DelegateView>('Delegate').implement({
  description: 'A delegate of a training session (GET /api/training-sessions/{id}/delegates).',
  fields: (t) => ({
    id: t.exposeID('id'),
    session_id: t.exposeInt('session_id'),
    user: t.field({ type: PersonObject, resolve: (d) => d.user }),
    entity: t.field({ type: EntityRefRef, resolve: (d) => d.entity }),
    status: t.exposeString('status', { description: DELEGATE_STATUSES.join(', ') }),
    context: t.exposeString('context'),
    order_id: t.exposeInt('order_id', { nullable: true }),
    waitlist_position: t.exposeInt('waitlist_position', { nullable: true }),
    offer_expires_at: t.exposeString('offer_expires_at', { nullable: true }),
    attendance: t.exposeString('attendance', { nullable: true }),
    passed: t.exposeBoolean('passed', { nullable: true }),
    score: t.exposeFloat('score', { nullable: true }),
    notes: t.exposeString('notes', { nullable: true }),
    checked_in_at: t.exposeString('checked_in_at', { nullable: true }),
    marked_at: t.exposeString('marked_at', { nullable: true }),
    result_id: t.exposeInt('result_id', { nullable: true }),
    booked_by: t.field({ type: PersonObject, nullable: true, resolve: (d) => d.booked_by }),
    created_at: t.exposeString('created_at'),
    updated_at: t.exposeString('updated_at'),
  }),
});
const DelegatePaginator = paginatorOf(DelegateObject, 'Delegate');

const BookingObject = builder.objectRef<UserBookingView>('Booking').implement({
  description: "One of a user's bookings (GET /api/users/{id}/bookings): the delegate row and its session.",
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.exposeString('status', { description: DELEGATE_STATUSES.join(', ') }),
    waitlist_position: t.exposeInt('waitlist_position', { nullable: true }),
    offer_expires_at: t.exposeString('offer_expires_at', { nullable: true }),
    delegate: t.field({ type: DelegateObject, resolve: ({ session: _session, ...d }) => d }),
    session: t.field({ type: TrainingSessionObject, resolve: (b) => b.session }),
  }),
});
const BookingPaginator = paginatorOf(BookingObject, 'Booking');

const TrainingOrderObject = builder.objectRef<TrainingOrderView>('TrainingOrder').implement({
  description:
    "An organisation's order of places on a training provider's session (GET /api/training-orders/{id}).",
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    session: t.field({ type: TrainingSessionObject, resolve: (o) => o.session }),
    entity: t.field({ type: EntityRefRef, resolve: (o) => o.entity }),
    places: t.exposeInt('places'),
    named: t.exposeInt('named'),
    status: t.exposeString('status'),
    notes: t.exposeString('notes', { nullable: true }),
    ordered_by: t.field({ type: PersonObject, nullable: true, resolve: (o) => o.ordered_by }),
    created_at: t.exposeString('created_at'),
  }),
});

builder.queryField('bookings', (t) =>
  t.field({
    type: BookingPaginator,
    description: "GET /api/users/{id}/bookings: a user's bookings (oneself, or 9/11 with the user in scope).",
    args: {
      ...pageArgs(t.arg),
      user: t.arg.id({ required: true, description: 'The user (id or uuid).' }),
      scope: t.arg.string({ description: USER_BOOKING_SCOPES.join(', ') }),
    },
    resolve: async (_root, { user, ...args }, ctx) => {
      actorOf(ctx);
      const { id } = parseInput(UserRefParams, { id: String(user) });
      return pageOf(UserBookingsQuery, args, (q) => userBookings(ctx, id, q));
    },
  }),
);

builder.queryField('delegates', (t) =>
  t.field({
    type: DelegatePaginator,
    description: "GET /api/training-sessions/{id}/delegates: a session's delegates.",
    args: {
      ...pageArgs(t.arg),
      session: t.arg.id({ required: true }),
      status: t.arg.string({ description: DELEGATE_STATUSES.join(', ') }),
      search: t.arg.string(),
    },
    resolve: async (_root, { session, ...args }, ctx) => {
      actorOf(ctx);
      const { id } = parseInput(IdParams, { id: session });
      return pageOf(DelegatesQuery, args, (q) => listDelegates(ctx, id, q));
    },
  }),
);

builder.queryField('marketplace', (t) =>
  t.field({
    type: TrainingSessionPaginator,
    description: "GET /api/marketplace: training providers' open sessions offered to other organisations.",
    args: {
      ...pageArgs(t.arg),
      search: t.arg.string(),
      from: t.arg.string({ description: 'YYYY-MM-DD: sessions with a day on or after.' }),
      to: t.arg.string({ description: 'YYYY-MM-DD: sessions with a day on or before.' }),
      content_id: t.arg.int(),
      has_places: t.arg.boolean(),
    },
    resolve: async (_root, args, ctx) => {
      actorOf(ctx);
      return pageOf(MarketplaceQuery, args, (q) => marketplace(ctx, q));
    },
  }),
);

builder.mutationField('cancelBookings', (t) =>
  t.field({
    type: [DelegateObject],
    description:
      'DELETE /api/delegates/{id} for each id, in order, with its rules (123 in scope, the cut-off, self-cancel). ' +
      'Each is its own change: a refusal stops there, the ones before it stay cancelled.',
    args: { ids: t.arg.idList({ required: true }) },
    resolve: async (_root, { ids }, ctx) => {
      actorOf(ctx);
      const parsed = parseInput(z.array(IdParams.shape.id).min(1).max(100), ids);
      for (const id of parsed) await removeDelegate(ctx, id);
      return loadDelegateViews(ctx.db, parsed);
    },
  }),
);

const TrainingOrderInput = builder.inputType('TrainingOrderInput', {
  fields: (t) => ({
    session_id: t.int({ required: true }),
    places: t.int({ required: true }),
    users: t.intList(),
    notes: t.string(),
  }),
});

builder.mutationField('trainingOrder', (t) =>
  t.field({
    type: TrainingOrderObject,
    description: 'POST /api/training-orders: places on a marketplace session, delegates named now or later.',
    args: { input: t.arg({ type: TrainingOrderInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      actorOf(ctx);
      return placeOrder(ctx, parseInput(TrainingOrderBody, nullless({ ...input })));
    },
  }),
);
