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

/** Delegates (issue 15; contracts bookings.ts "Delegates"): every call's 401, 422, 403, 404 and happy path. */
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
const person = (o: { entityId?: number; permissions?: number[]; name?: string } = {}) =>
  buildUser(h.db, { entityId: o.entityId ?? w.home.id, permissions: o.permissions ?? [108], name: o.name });

describe('POST /training-sessions/{id}/delegates', () => {
  it('401, 422, 403, 404 for another organisation, then adds with places, the waitlist and skips', async () => {
    const session = await buildSession(h.db, w.group.id, { max: 2 });
    const url = `/api/training-sessions/${session.id}/delegates`;
    // One after another, so their ids (the order places are given in) follow a, b, c on every engine.
    const a = await person();
    const b = await person();
    const c = await person();
    expect((await anon('POST', url, { users: [a.id] })).statusCode).toBe(401);
    expect((await w.m('POST', url, { users: [] })).statusCode).toBe(422);
    expect((await w.m('POST', '/api/training-sessions/abc/delegates', { users: [a.id] })).statusCode).toBe(
      422,
    );
    expect((await w.l('POST', url, { users: [a.id] })).statusCode).toBe(403);
    const outside = await w.o('POST', url, { users: [a.id] });
    expect(outside.statusCode).toBe(404);
    expect((await w.m('POST', '/api/training-sessions/999999/delegates', { users: [a.id] })).statusCode).toBe(
      404,
    );
    // Anyone out of scope refuses the whole list.
    const refused = await w.m('POST', url, { users: [a.id, w.outsider.id] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.users).toEqual([DelegateErrors.outOfScope]);
    expect(await statusCounts(h.db, session.id)).toEqual({});

    const res = await w.m('POST', url, { users: [a.id, b.id, c.id], context: 'download' });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(BookingsMessages.delegatesAdded);
    expect(res.json().data.map((d: { status: string }) => d.status)).toEqual([
      'accepted',
      'accepted',
      'waitlisted',
    ]);
    expect(res.json().data[0]).toMatchObject({ context: 'download', booked_by: { id: w.manager.id } });
    expect(await placesTaken(h.db, session.id)).toBe(2);
    // Already on the session: skipped.
    const again = await w.m('POST', url, { users: [a.id, c.id] });
    expect(again.statusCode).toBe(201);
    expect(again.json().data).toEqual([]);
    // A deleted row is reused: same id, back on the waitlist (full).
    const aId = res.json().data[0].id;
    expect((await w.m('DELETE', `/api/delegates/${aId}`)).statusCode).toBe(200);
    const reused = await w.m('POST', url, { users: [a.id] });
    expect(reused.json().data[0].id).toBe(aId);
    // Closed sessions take nobody.
    const cancelled = await buildSession(h.db, w.group.id, { status: 'cancelled' });
    const closed = await w.m('POST', `/api/training-sessions/${cancelled.id}/delegates`, { users: [a.id] });
    expect(closed.statusCode).toBe(422);
    expect(closed.json().message).toBe(BookingsMessages.sessionClosed);
  });

  it('the training company (109) adds its own delegates to its sessions; 9 alone is not enough there', async () => {
    const session = await buildSession(h.db, w.company.id, { availableTo: 'external' });
    const trainee = await buildUser(h.db, { entityId: w.company.id });
    const res = await w.p('POST', `/api/training-sessions/${session.id}/delegates`, { users: [trainee.id] });
    expect(res.statusCode).toBe(201);
    expect(res.json().data[0].status).toBe('accepted');
    // The care group's manager sees the marketplace session but may not add to it outside an order.
    const m = await w.m('POST', `/api/training-sessions/${session.id}/delegates`, { users: [w.learner.id] });
    expect(m.statusCode).toBe(403);
  });
});

describe('POST /training-sessions/{id}/book', () => {
  it('401, 422, 403, 404, then booked, 409 already booked, 422 closed', async () => {
    const session = await buildSession(h.db, w.group.id, { max: 1 });
    const url = `/api/training-sessions/${session.id}/book`;
    expect((await anon('POST', url, {})).statusCode).toBe(401);
    expect((await w.l('POST', url, { context: 'paper' })).statusCode).toBe(422);
    expect((await (await w.as(w.idle.id))('POST', url, {})).statusCode).toBe(403);
    expect((await w.o('POST', url, {})).statusCode).toBe(404);
    const res = await w.l('POST', url, {});
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ message: BookingsMessages.booked, data: { status: 'accepted' } });
    const twice = await w.l('POST', url, {});
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(BookingsMessages.alreadyBooked);
    const colleague = await w.as(w.colleague.id);
    expect((await colleague('POST', url, {})).json()).toMatchObject({
      message: BookingsMessages.waitlisted,
      data: { status: 'waitlisted', waitlist_position: 1 },
    });
    const past = await buildSession(h.db, w.group.id, { startsInHours: -3 });
    const closed = await w.l('POST', `/api/training-sessions/${past.id}/book`, {});
    expect(closed.statusCode).toBe(422);
    expect(closed.json().message).toBe(BookingsMessages.sessionClosed);
  });

  it('118 books someone in scope; approval required → requested, then the manager approves or rejects', async () => {
    const approvingHome = await buildEntity(h.db, { parentId: w.group.id, name: 'Elm Home' });
    await h.db
      .insertInto('delegate_settings')
      .values({ entity_id: approvingHome.id, require_approval: true })
      .execute();
    const [x, y] = await Promise.all([
      person({ entityId: approvingHome.id }),
      person({ entityId: approvingHome.id }),
    ]);
    const session = await buildSession(h.db, w.group.id, { max: 5 });
    const url = `/api/training-sessions/${session.id}/book`;
    // 118 for someone out of scope: 422 on user_id (like the delegates list); without 118: 403.
    const stranger = await w.m('POST', url, { user_id: w.outsider.id });
    expect(stranger.statusCode).toBe(422);
    expect(stranger.json().errors.user_id).toEqual([DelegateErrors.outOfScope]);
    expect((await w.l('POST', url, { user_id: x.id })).statusCode).toBe(403);
    const asked = await w.m('POST', url, { user_id: x.id });
    expect(asked.statusCode).toBe(201);
    expect(asked.json()).toMatchObject({
      message: BookingsMessages.requested,
      data: { status: 'requested' },
    });
    const own = await (await w.as(y.id))('POST', url, {});
    expect(own.json().data.status).toBe('requested');
    expect(await placesTaken(h.db, session.id)).toBe(0);

    const xId = asked.json().data.id;
    const yId = own.json().data.id;
    expect((await anon('POST', `/api/delegates/${xId}/approve`)).statusCode).toBe(401);
    expect((await w.m('POST', '/api/delegates/x/approve')).statusCode).toBe(422);
    expect((await w.p('POST', `/api/delegates/${xId}/approve`)).statusCode).toBe(404);
    expect((await w.o('POST', `/api/delegates/${xId}/approve`)).statusCode).toBe(404);
    expect((await (await w.as(x.id))('POST', `/api/delegates/${xId}/approve`)).statusCode).toBe(403);
    const approved = await w.m('POST', `/api/delegates/${xId}/approve`);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data.status).toBe('accepted');
    expect((await w.m('POST', `/api/delegates/${xId}/approve`)).statusCode).toBe(409);

    expect((await anon('POST', `/api/delegates/${yId}/reject`)).statusCode).toBe(401);
    expect((await w.o('POST', `/api/delegates/${yId}/reject`)).statusCode).toBe(404);
    expect((await (await w.as(y.id))('POST', `/api/delegates/${yId}/reject`)).statusCode).toBe(403);
    const rejected = await w.m('POST', `/api/delegates/${yId}/reject`);
    expect(rejected.json().data.status).toBe('declined');
    expect(await placesTaken(h.db, session.id)).toBe(1);
  });
});

describe('provider decisions, restore, claim and remove', () => {
  it('accept and decline a pending delegate (109 on the company side); restore a declined one', async () => {
    const session = await buildSession(h.db, w.company.id, { max: 1, availableTo: 'external' });
    const booked = await w.l('POST', `/api/training-sessions/${session.id}/book`, {});
    expect(booked.json().data.status).toBe('pending');
    const id = booked.json().data.id;
    const second = await (await w.as(w.colleague.id))(
      'POST',
      `/api/training-sessions/${session.id}/book`,
      {},
    );
    expect(second.json().data.status).toBe('waitlisted');

    for (const action of ['accept', 'decline']) {
      const url = `/api/delegates/${id}/${action}`;
      expect((await anon('POST', url)).statusCode).toBe(401);
      expect((await w.p('POST', `/api/delegates/0/${action}`)).statusCode).toBe(422);
      expect((await w.m('POST', url)).statusCode).toBe(403); // the delegate's manager is not the provider
      expect((await w.o('POST', url)).statusCode).toBe(404);
    }
    const declined = await w.p('POST', `/api/delegates/${id}/decline`);
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toMatchObject({
      message: BookingsMessages.delegateUpdated,
      data: { status: 'declined' },
    });
    // The freed place is offered to the waitlist.
    expect(await statusCounts(h.db, session.id)).toEqual({ declined: 1, offered: 1 });
    expect((await w.p('POST', `/api/delegates/${id}/accept`)).statusCode).toBe(409);

    const restoreUrl = `/api/delegates/${id}/restore`;
    expect((await anon('POST', restoreUrl)).statusCode).toBe(401);
    expect((await w.p('POST', '/api/delegates/-1/restore')).statusCode).toBe(422);
    expect((await w.l('POST', restoreUrl)).statusCode).toBe(403);
    expect((await w.o('POST', restoreUrl)).statusCode).toBe(404);
    const restored = await w.p('POST', restoreUrl);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data.status).toBe('waitlisted'); // full: the offer holds the one place
    expect(await placesTaken(h.db, session.id)).toBe(1);

    // Accept: a second pending delegate on a fresh session.
    const other = await buildSession(h.db, w.company.id, { availableTo: 'all' });
    const pending = await w.l('POST', `/api/training-sessions/${other.id}/book`, {});
    const accepted = await w.p('POST', `/api/delegates/${pending.json().data.id}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data.status).toBe('accepted');
  });

  it('claim: 401, 422, 403 for others, 404 outside, 409 when nothing is offered', async () => {
    const session = await buildSession(h.db, w.group.id, { max: 1 });
    const res = await w.l('POST', `/api/training-sessions/${session.id}/book`, {});
    const url = `/api/delegates/${res.json().data.id}/claim`;
    expect((await anon('POST', url)).statusCode).toBe(401);
    expect((await w.l('POST', '/api/delegates/nope/claim')).statusCode).toBe(422);
    expect((await w.m('POST', url)).statusCode).toBe(403);
    expect((await w.o('POST', url)).statusCode).toBe(404);
    const nothing = await w.l('POST', url);
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().message).toBe(DelegateErrors.notOffered);
  });

  it('DELETE: 401, 422, 403, 404; 123 removes; the delegate cancels their own; cut-off needs 11', async () => {
    const session = await buildSession(h.db, w.group.id, { max: 3 });
    const mine = await w.l('POST', `/api/training-sessions/${session.id}/book`, {});
    const theirs = await (await w.as(w.colleague.id))(
      'POST',
      `/api/training-sessions/${session.id}/book`,
      {},
    );
    const url = `/api/delegates/${theirs.json().data.id}`;
    expect((await anon('DELETE', url)).statusCode).toBe(401);
    expect((await w.m('DELETE', '/api/delegates/1.5')).statusCode).toBe(422);
    expect((await w.l('DELETE', url)).statusCode).toBe(403);
    expect((await w.o('DELETE', url)).statusCode).toBe(404);
    const removed = await w.m('DELETE', url);
    expect(removed.json()).toEqual({ message: BookingsMessages.delegateDeleted });
    const cancelled = await w.l('DELETE', `/api/delegates/${mine.json().data.id}`);
    expect(cancelled.json()).toEqual({ message: BookingsMessages.bookingCancelled });
    expect(await placesTaken(h.db, session.id)).toBe(0);
    expect((await w.l('DELETE', `/api/delegates/${mine.json().data.id}`)).statusCode).toBe(409);

    // Self-cancel switched off by the organisation.
    await h.db
      .insertInto('delegate_settings')
      .values({ entity_id: w.group.id, allow_self_cancel: false })
      .execute();
    const again = await w.l('POST', `/api/training-sessions/${session.id}/book`, {});
    const refused = await w.l('DELETE', `/api/delegates/${again.json().data.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(DelegateErrors.selfCancelOff);
    await h.db.deleteFrom('delegate_settings').where('entity_id', '=', w.group.id).execute();

    // Inside the removal cut-off (48 h by default): 123 alone is refused, 11 passes.
    const soon = await buildSession(h.db, w.group.id, { startsInHours: 10 });
    const remover = await buildUser(h.db, { entityId: w.group.id, permissions: [123] });
    const added = await w.m('POST', `/api/training-sessions/${soon.id}/delegates`, { users: [w.learner.id] });
    const soonUrl = `/api/delegates/${added.json().data[0].id}`;
    const late = await (await w.as(remover.id))('DELETE', soonUrl);
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toBe(BookingsMessages.pastRemovalCutoff);
    expect((await w.l('DELETE', soonUrl)).statusCode).toBe(422);
    expect((await w.m('DELETE', soonUrl)).statusCode).toBe(200);

    // A cancelled session keeps its delegates: no removal, no claim, no decision (its places were all released).
    const gone = await buildSession(h.db, w.group.id);
    const kept = await w.l('POST', `/api/training-sessions/${gone.id}/book`, {});
    await h.db
      .updateTable('training_sessions')
      .set({ status: 'cancelled', places_taken: 0 })
      .where('id', '=', gone.id)
      .execute();
    const refused2 = await w.m('DELETE', `/api/delegates/${kept.json().data.id}`);
    expect(refused2.statusCode).toBe(422);
    expect(refused2.json().message).toBe(BookingsMessages.sessionClosed);
    expect((await w.l('POST', `/api/delegates/${kept.json().data.id}/claim`)).statusCode).toBe(422);
    expect(await placesTaken(h.db, gone.id)).toBe(0);
  });
});

describe('GET /training-sessions/{id}/delegates and GET /users/{id}/bookings', () => {
  it('lists delegates for 9/11/109/123/128 or the trainer; others see only their own staff', async () => {
    const trainer = await buildUser(h.db, { entityId: w.company.id, isTrainer: true });
    const session = await buildSession(h.db, w.company.id, {
      availableTo: 'external',
      trainerId: trainer.id,
    });
    const url = `/api/training-sessions/${session.id}/delegates`;
    await w.l('POST', `/api/training-sessions/${session.id}/book`, {});
    const outsiderLearner = await buildUser(h.db, { entityId: w.outsiderOrg.id, permissions: [108] });
    await (await w.as(outsiderLearner.id))('POST', `/api/training-sessions/${session.id}/book`, {});
    expect((await anon('GET', url)).statusCode).toBe(401);
    expect((await w.p('GET', `${url}?status=lost`)).statusCode).toBe(422);
    expect((await w.l('GET', url)).statusCode).toBe(403); // booked on it, so sees it, but manages nothing
    const plain = await buildUser(h.db, { entityId: w.company.id });
    expect((await (await w.as(plain.id))('GET', url)).statusCode).toBe(404); // no bookings permission: not staff
    const stranger = await buildUser(h.db, { permissions: [9, 11] });
    expect((await (await w.as(stranger.id))('GET', url)).statusCode).toBe(404);
    const provider = await w.p('GET', url);
    expect(provider.statusCode).toBe(200);
    expect(provider.json().meta.total).toBe(2);
    expect((await (await w.as(trainer.id))('GET', url)).json().meta.total).toBe(2);
    // The care group's manager sees only the group's delegate; the outsider's manager only theirs.
    const m = await w.m('GET', url);
    expect(m.json().data.map((d: { user: { id: number } }) => d.user.id)).toEqual([w.learner.id]);
    const o = await w.o('GET', url);
    expect(o.json().data.map((d: { user: { id: number } }) => d.user.id)).toEqual([outsiderLearner.id]);
    expect(JSON.stringify(o.json())).not.toContain('Casey Learner');
  });

  it('a user bookings: oneself, or 9/11 with the user in scope; upcoming, waitlisted, past', async () => {
    const learner = await person({ name: 'Bo Booker' });
    const c = await w.as(learner.id);
    const url = `/api/users/${learner.id}/bookings`;
    const full = await buildSession(h.db, w.group.id, { max: 1, title: 'Full Workshop' });
    await w.l('POST', `/api/training-sessions/${full.id}/book`, {});
    const open = await buildSession(h.db, w.group.id, { title: 'Open Workshop' });
    expect((await c('POST', `/api/training-sessions/${open.id}/book`, {})).statusCode).toBe(201);
    expect((await c('POST', `/api/training-sessions/${full.id}/book`, {})).json().data.status).toBe(
      'waitlisted',
    );
    await h.db
      .insertInto('session_delegates')
      .values({
        session_id: (await buildSession(h.db, w.group.id, { startsInHours: -48, title: 'Old Workshop' })).id,
        user_id: learner.id,
        entity_id: w.home.id,
        status: 'accepted',
      })
      .execute();
    expect((await anon('GET', url)).statusCode).toBe(401);
    expect((await c('GET', `${url}?scope=never`)).statusCode).toBe(422);
    expect((await (await w.as(w.colleague.id))('GET', url)).statusCode).toBe(403);
    expect((await w.o('GET', url)).statusCode).toBe(404);
    const titles = (res: { json(): { data: { session: { content: { title: string } } }[] } }) =>
      res.json().data.map((b) => b.session.content.title);
    const upcoming = await c('GET', url);
    expect(upcoming.statusCode).toBe(200);
    expect(titles(upcoming)).toEqual(['Open Workshop']);
    expect(upcoming.json().data[0].session).toMatchObject({
      my_booking: { status: 'accepted' },
      places_taken: 1,
    });
    expect(titles(await c('GET', `${url}?scope=waitlisted`))).toEqual(['Full Workshop']);
    expect(titles(await c('GET', `${url}?scope=past`))).toEqual(['Old Workshop']);
    expect((await c('GET', `${url}?scope=all`)).json().meta.total).toBe(3);
    expect(titles(await w.m('GET', url))).toEqual(['Open Workshop']);
  });
});
