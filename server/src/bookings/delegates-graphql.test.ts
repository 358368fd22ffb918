import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { type BookingWorld, bookingWorld, buildSession, placesTaken } from './delegate-fixtures';

/** GraphQL of bookings (spec 2 §7): bookings, delegates, marketplace, cancelBookings, trainingOrder. */
let h: Harness;
let w: BookingWorld;
beforeAll(async () => {
  h = await createHarness();
  w = await bookingWorld(h.db, h.app);
});
afterAll(async () => h?.close());

interface GqlBody {
  // biome-ignore lint/suspicious/noExplicitAny: GraphQL answers are read by shape in the assertions.
  data?: Record<string, any> | null;
  errors?: { message: string; extensions?: { code?: string; validation?: Record<string, string[]> } }[];
}
async function gql(userId: number | null, query: string, variables: Record<string, unknown> = {}) {
  const headers = userId === null ? {} : await bearer(h.db, userId);
  const res = await h.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
  return res.json() as GqlBody;
}
const codes = (b: GqlBody) => b.errors?.map((e) => e.extensions?.code);

const BOOKINGS = `query ($user: ID!, $scope: String) {
  bookings(user: $user, scope: $scope) {
    data { id status delegate { user { id } context } session { id content { title } my_booking { status } } }
    paginatorInfo { total }
  }
}`;
const DELEGATES = `query ($session: ID!, $status: String) {
  delegates(session: $session, status: $status) { data { id status user { name } waitlist_position } paginatorInfo { total } }
}`;
const MARKET = `query ($has: Boolean) { marketplace(has_places: $has) { data { id places_free entity { id } } paginatorInfo { total } } }`;
const CANCEL = `mutation ($ids: [ID!]!) { cancelBookings(ids: $ids) { id status } }`;
const ORDER = `mutation ($input: TrainingOrderInput!) {
  trainingOrder(input: $input) { id places named status session { id places_taken } entity { id } }
}`;

describe('GraphQL bookings', () => {
  it('bookings and delegates: 401, 422, 403, 404, then the same answers as REST', async () => {
    const session = await buildSession(h.db, w.group.id, { max: 1, title: 'Graph Workshop' });
    const booked = await w.l('POST', `/api/training-sessions/${session.id}/book`, {});
    const waiting = await (await w.as(w.colleague.id))(
      'POST',
      `/api/training-sessions/${session.id}/book`,
      {},
    );
    expect(waiting.json().data.status).toBe('waitlisted');

    expect(codes(await gql(null, BOOKINGS, { user: w.learner.id }))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gql(w.learner.id, BOOKINGS, { user: w.learner.id, scope: 'never' }))).toEqual([
      'BAD_USER_INPUT',
    ]);
    expect(codes(await gql(w.colleague.id, BOOKINGS, { user: w.learner.id }))).toEqual(['FORBIDDEN']);
    expect(codes(await gql(w.outsider.id, BOOKINGS, { user: w.learner.id }))).toEqual(['NOT_FOUND']);
    const mine = await gql(w.learner.id, BOOKINGS, { user: w.learner.id });
    expect(mine.errors).toBeUndefined();
    expect(mine.data?.bookings.data).toEqual([
      {
        id: String(booked.json().data.id),
        status: 'accepted',
        delegate: { user: { id: String(w.learner.id) }, context: 'online' },
        session: {
          id: String(session.id),
          content: { title: 'Graph Workshop' },
          my_booking: { status: 'accepted' },
        },
      },
    ]);

    expect(codes(await gql(null, DELEGATES, { session: session.id }))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gql(w.manager.id, DELEGATES, { session: session.id, status: 'lost' }))).toEqual([
      'BAD_USER_INPUT',
    ]);
    expect(codes(await gql(w.learner.id, DELEGATES, { session: session.id }))).toEqual(['FORBIDDEN']);
    expect(codes(await gql(w.outsider.id, DELEGATES, { session: session.id }))).toEqual(['NOT_FOUND']);
    const list = await gql(w.manager.id, DELEGATES, { session: session.id, status: 'waitlisted' });
    expect(list.data?.delegates).toEqual({
      data: [
        {
          id: String(waiting.json().data.id),
          status: 'waitlisted',
          user: { name: 'Dee Colleague' },
          waitlist_position: 1,
        },
      ],
      paginatorInfo: { total: 1 },
    });
  });

  it('cancelBookings: DELETE rules per id; the freed place is offered on', async () => {
    const session = await buildSession(h.db, w.group.id, { max: 1 });
    const booked = await w.l('POST', `/api/training-sessions/${session.id}/book`, {});
    await (await w.as(w.colleague.id))('POST', `/api/training-sessions/${session.id}/book`, {});
    const ids = [booked.json().data.id];
    expect(codes(await gql(null, CANCEL, { ids }))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gql(w.manager.id, CANCEL, { ids: [] }))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await gql(w.colleague.id, CANCEL, { ids }))).toEqual(['FORBIDDEN']);
    expect(codes(await gql(w.outsider.id, CANCEL, { ids }))).toEqual(['NOT_FOUND']);
    const res = await gql(w.learner.id, CANCEL, { ids });
    expect(res.errors).toBeUndefined();
    expect(res.data?.cancelBookings).toEqual([{ id: String(ids[0]), status: 'deleted' }]);
    const offered = await gql(w.manager.id, DELEGATES, { session: session.id, status: 'offered' });
    expect(offered.data?.delegates.paginatorInfo.total).toBe(1);
  });

  it('marketplace and trainingOrder: 401, 422, 403, 404, then an order of places', async () => {
    const session = await buildSession(h.db, w.company.id, { availableTo: 'external', max: 4 });
    expect(codes(await gql(null, MARKET))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gql(w.learner.id, MARKET))).toEqual(['FORBIDDEN']);
    const market = await gql(w.manager.id, MARKET, { has: true });
    expect(market.data?.marketplace.data).toContainEqual({
      id: String(session.id),
      places_free: 4,
      entity: { id: String(w.company.id) },
    });

    const input = { session_id: session.id, places: 2, users: [w.learner.id] };
    expect(codes(await gql(null, ORDER, { input }))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gql(w.manager.id, ORDER, { input: { ...input, places: 0 } }))).toEqual([
      'BAD_USER_INPUT',
    ]);
    expect(codes(await gql(w.learner.id, ORDER, { input }))).toEqual(['FORBIDDEN']);
    const internal = await buildSession(h.db, w.outsiderOrg.id, { availableTo: 'all' });
    expect(codes(await gql(w.manager.id, ORDER, { input: { ...input, session_id: internal.id } }))).toEqual([
      'NOT_FOUND',
    ]);
    const order = await gql(w.manager.id, ORDER, { input });
    expect(order.errors).toBeUndefined();
    expect(order.data?.trainingOrder).toMatchObject({
      places: 2,
      named: 1,
      status: 'placed',
      session: { id: String(session.id), places_taken: 2 },
      entity: { id: String(w.group.id) },
    });
    expect(await placesTaken(h.db, session.id)).toBe(2);
  });
});
