import { BookingsMessages } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import {
  type BookingWorld,
  bookingWorld,
  buildSession,
  placesTaken,
  statusCounts,
} from './delegate-fixtures';
import { DelegateErrors } from './delegate-service';

/** The marketplace and training orders (issue 15): every call's 401, 422, 403, 404 and happy path. */
let h: Harness;
let w: BookingWorld;
beforeAll(async () => {
  h = await createHarness();
  w = await bookingWorld(h.db, h.app);
});
afterAll(async () => h?.close());

type Method = 'GET' | 'POST' | 'DELETE';
const anon = (method: Method, url: string, payload?: object) =>
  h.app.inject({ method, url, ...(payload ? { payload } : {}) });

describe('GET /marketplace', () => {
  it('401, 422, 403 without 9/118 or the external flag, then the companies’ open external sessions', async () => {
    const external = await buildSession(h.db, w.company.id, {
      availableTo: 'external',
      title: 'Market Moving',
    });
    const both = await buildSession(h.db, w.company.id, { availableTo: 'all', title: 'Market Fire', max: 1 });
    await buildSession(h.db, w.company.id, { availableTo: 'internal', title: 'Company Only' });
    await buildSession(h.db, w.company.id, { availableTo: 'external', status: 'cancelled', title: 'Gone' });
    await buildSession(h.db, w.company.id, { availableTo: 'external', startsInHours: -5, title: 'Past' });
    // Not a training company: never on the marketplace.
    await buildSession(h.db, w.outsiderOrg.id, { availableTo: 'external', title: 'Not A Provider' });
    expect((await anon('GET', '/api/marketplace')).statusCode).toBe(401);
    expect((await w.m('GET', '/api/marketplace?has_places=maybe')).statusCode).toBe(422);
    expect((await w.l('GET', '/api/marketplace')).statusCode).toBe(403);
    const closedOrg = await buildEntity(h.db, { level: 'A' });
    const noFlag = await buildUser(h.db, { entityId: closedOrg.id, permissions: [9] });
    expect((await (await w.as(noFlag.id))('GET', '/api/marketplace')).statusCode).toBe(403);
    const res = await w.m('GET', '/api/marketplace');
    expect(res.statusCode).toBe(200);
    const titles = res.json().data.map((s: { content: { title: string } }) => s.content.title);
    expect(titles.sort()).toEqual(['Market Fire', 'Market Moving']);
    expect(res.json().data[0]).toMatchObject({ entity: { id: w.company.id }, can: { edit: false } });
    await w.m('POST', '/api/training-orders', { session_id: both.id, places: 1 });
    const free = await w.m('GET', '/api/marketplace?has_places=true');
    expect(free.json().data.map((s: { id: number }) => s.id)).toEqual([external.id]);
  });
});

describe('training orders', () => {
  it('POST /training-orders: 401, 422, 403, 404, then places taken at once and delegates named', async () => {
    const session = await buildSession(h.db, w.company.id, { availableTo: 'external', max: 5 });
    const internal = await buildSession(h.db, w.company.id, { availableTo: 'internal' });
    const body = { session_id: session.id, places: 3, users: [w.learner.id] };
    expect((await anon('POST', '/api/training-orders', body)).statusCode).toBe(401);
    expect((await w.m('POST', '/api/training-orders', { ...body, places: 0 })).statusCode).toBe(422);
    expect((await w.l('POST', '/api/training-orders', body)).statusCode).toBe(403);
    expect((await w.m('POST', '/api/training-orders', { ...body, session_id: internal.id })).statusCode).toBe(
      404,
    );
    const outsiderOnly = await buildSession(h.db, w.outsiderOrg.id, { availableTo: 'external' });
    expect(
      (await w.m('POST', '/api/training-orders', { ...body, session_id: outsiderOnly.id })).statusCode,
    ).toBe(404);
    const stranger = await w.m('POST', '/api/training-orders', { ...body, users: [w.outsider.id] });
    expect(stranger.statusCode).toBe(422);
    expect(stranger.json().errors.users).toEqual([DelegateErrors.outOfScope]);
    const tooMany = await w.m('POST', '/api/training-orders', { ...body, places: 6 });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().message).toBe(BookingsMessages.notEnoughPlaces);
    expect(await placesTaken(h.db, session.id)).toBe(0);

    const res = await w.m('POST', '/api/training-orders', { ...body, notes: 'Night staff' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: BookingsMessages.orderPlaced,
      data: { places: 3, named: 1, status: 'placed', notes: 'Night staff', entity: { id: w.group.id } },
    });
    expect(await placesTaken(h.db, session.id)).toBe(3);
    expect(await statusCounts(h.db, session.id)).toEqual({ accepted: 1 });
    // Named delegates do not take a second place.
    const orderId = res.json().data.id;
    const second = await w.m('POST', `/api/training-orders/${orderId}/delegates`, {
      users: [w.colleague.id, w.idle.id],
    });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ message: BookingsMessages.orderUpdated, data: { named: 3 } });
    expect(await placesTaken(h.db, session.id)).toBe(3);
    const extra = await buildUser(h.db, { entityId: w.home.id });
    const over = await w.m('POST', `/api/training-orders/${orderId}/delegates`, { users: [extra.id] });
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toBe(BookingsMessages.notEnoughPlaces);
    // The same through the session's delegates call with order_id.
    const viaSession = await w.m('POST', `/api/training-sessions/${session.id}/delegates`, {
      users: [extra.id],
      order_id: orderId,
    });
    expect(viaSession.statusCode).toBe(422);
    // Only 2 places are left: an order of 3 is refused whole.
    const short = await w.m('POST', '/api/training-orders', { session_id: session.id, places: 3 });
    expect(short.statusCode).toBe(422);
    expect(short.json().message).toBe(BookingsMessages.notEnoughPlaces);
    expect(await placesTaken(h.db, session.id)).toBe(3);
  });

  it('GET /training-orders and /training-orders/{id}: the orderer’s, the provider’s (109), nobody else’s', async () => {
    const session = await buildSession(h.db, w.company.id, { availableTo: 'all' });
    const placed = await w.m('POST', '/api/training-orders', { session_id: session.id, places: 2 });
    const id = placed.json().data.id;
    expect((await anon('GET', '/api/training-orders')).statusCode).toBe(401);
    expect((await w.m('GET', '/api/training-orders?per_page=0')).statusCode).toBe(422);
    expect((await w.l('GET', '/api/training-orders')).statusCode).toBe(403);
    const mine = await w.m('GET', '/api/training-orders');
    expect(mine.json().data.map((o: { id: number }) => o.id)).toContain(id);
    const provider = await w.p('GET', '/api/training-orders');
    expect(provider.json().data.map((o: { id: number }) => o.id)).toContain(id);
    const only109 = await buildUser(h.db, { entityId: w.company.id, permissions: [109] });
    const theirs = await (await w.as(only109.id))('GET', '/api/training-orders');
    expect(theirs.json().data.map((o: { id: number }) => o.id)).toContain(id);
    const other = await w.o('GET', '/api/training-orders');
    expect(other.json().data.map((o: { id: number }) => o.id)).not.toContain(id);
    // session_id narrows to one session's orders (the session page's list).
    const elsewhere = await buildSession(h.db, w.company.id, { availableTo: 'all' });
    await w.m('POST', '/api/training-orders', { session_id: elsewhere.id, places: 1 });
    const onSession = await w.m('GET', `/api/training-orders?session_id=${session.id}`);
    expect(onSession.json().data.map((o: { id: number }) => o.id)).toEqual([id]);

    expect((await anon('GET', `/api/training-orders/${id}`)).statusCode).toBe(401);
    expect((await w.m('GET', '/api/training-orders/zero')).statusCode).toBe(422);
    const plain = await buildUser(h.db, { entityId: w.group.id, permissions: [108] });
    expect((await (await w.as(plain.id))('GET', `/api/training-orders/${id}`)).statusCode).toBe(403);
    expect((await w.l('GET', `/api/training-orders/${id}`)).statusCode).toBe(404); // a home sees not the group's
    expect((await w.o('GET', `/api/training-orders/${id}`)).statusCode).toBe(404);
    const one = await w.p('GET', `/api/training-orders/${id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().data).toMatchObject({ id, places: 2, named: 0, session: { id: session.id } });
  });

  it('POST /training-orders/{id}/delegates and DELETE /training-orders/{id}: 401, 422, 403, 404, cancel frees all', async () => {
    const session = await buildSession(h.db, w.company.id, { availableTo: 'external', max: 3 });
    const placed = await w.m('POST', '/api/training-orders', {
      session_id: session.id,
      places: 2,
      users: [w.learner.id],
    });
    const id = placed.json().data.id;
    const nameUrl = `/api/training-orders/${id}/delegates`;
    expect((await anon('POST', nameUrl, { users: [w.colleague.id] })).statusCode).toBe(401);
    expect((await w.m('POST', nameUrl, { users: [] })).statusCode).toBe(422);
    expect((await w.p('POST', nameUrl, { users: [w.colleague.id] })).statusCode).toBe(404);
    expect((await w.o('POST', nameUrl, { users: [w.colleague.id] })).statusCode).toBe(404);
    const viewer = await buildUser(h.db, { entityId: w.group.id, permissions: [11] });
    expect((await (await w.as(viewer.id))('POST', nameUrl, { users: [w.colleague.id] })).statusCode).toBe(
      403,
    );

    // Someone waits for the session's last place (the outsider organisation's learner books it, then another waits).
    const first = await buildUser(h.db, { entityId: w.outsiderOrg.id, permissions: [108] });
    const waiter = await buildUser(h.db, { entityId: w.outsiderOrg.id, permissions: [108] });
    await (await w.as(first.id))('POST', `/api/training-sessions/${session.id}/book`, {});
    const waiting = await (await w.as(waiter.id))('POST', `/api/training-sessions/${session.id}/book`, {});
    expect(waiting.json().data.status).toBe('waitlisted');

    const url = `/api/training-orders/${id}`;
    expect((await anon('DELETE', url)).statusCode).toBe(401);
    expect((await w.m('DELETE', '/api/training-orders/x')).statusCode).toBe(422);
    expect((await (await w.as(viewer.id))('DELETE', url)).statusCode).toBe(403);
    expect((await w.o('DELETE', url)).statusCode).toBe(404);
    const cancelled = await w.m('DELETE', url);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({
      message: BookingsMessages.orderCancelled,
      data: { status: 'cancelled' },
    });
    // 2 places freed: the waiting delegate is offered one, the other stays free.
    expect(await statusCounts(h.db, session.id)).toEqual({ deleted: 1, pending: 1, offered: 1 });
    expect(await placesTaken(h.db, session.id)).toBe(2);
    expect((await w.m('DELETE', url)).statusCode).toBe(409);
  });
});
