import { BookingsMessages } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { registeredJobNames, runDueJobs } from '../jobs/queue';
import { registerAllJobs } from '../register-jobs';
import {
  type BookingWorld,
  bookingWorld,
  buildSession,
  placesTaken,
  statusCounts,
} from './delegate-fixtures';
import { AUTO_ACCEPT_DELEGATES, autoAcceptDelegates, EXPIRE_OFFERS, expireOffers } from './delegate-jobs';

/** The waitlist (issue 15 "Waitlist with automatic promotion"), offer expiry and auto-accept jobs. */
let h: Harness;
let w: BookingWorld;
beforeAll(async () => {
  h = await createHarness();
  w = await bookingWorld(h.db, h.app);
});
afterAll(async () => h?.close());

const HOUR_MS = 3_600_000;
const learner = async () => {
  const user = await buildUser(h.db, { entityId: w.home.id, permissions: [108] });
  return { user, c: await w.as(user.id) };
};
const statusOf = async (id: number) =>
  await h.db
    .selectFrom('session_delegates')
    .select(['status', 'offer_expires_at', 'waitlisted_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('waitlist promotion', () => {
  it('raising the maximum offers the new places to the waiting list at once', async () => {
    const session = await buildSession(h.db, w.group.id, { max: 1 });
    const holder = await learner();
    expect((await holder.c('POST', `/api/training-sessions/${session.id}/book`, {})).statusCode).toBe(201);
    const waiting = await learner();
    const booked = await waiting.c('POST', `/api/training-sessions/${session.id}/book`, {});
    expect(booked.json().data.status).toBe('waitlisted');
    const raised = await w.m('PATCH', `/api/training-sessions/${session.id}`, { maxDelegates: 2 });
    expect(raised.statusCode, raised.body).toBe(200);
    expect((await statusOf(booked.json().data.id)).status).toBe('offered');
    expect(await placesTaken(h.db, session.id)).toBe(2);
    // Claimed, so no offer is left for the expiry tests below (the job runs over every session).
    expect((await waiting.c('POST', `/api/delegates/${booked.json().data.id}/claim`)).statusCode).toBe(200);
  });

  it('a freed place goes to the longest waiting; claim; expiry sends it to the back and offers the next', async () => {
    const session = await buildSession(h.db, w.group.id, { max: 2 });
    const holders = await Promise.all([learner(), learner()]);
    const added = await w.m('POST', `/api/training-sessions/${session.id}/delegates`, {
      users: holders.map((x) => x.user.id),
    });
    expect(added.statusCode).toBe(201);
    const holderIds = added.json().data.map((d: { id: number }) => d.id) as number[];
    const waiting: { id: number; c: Awaited<ReturnType<typeof learner>>['c'] }[] = [];
    for (let i = 0; i < 3; i++) {
      const x = await learner();
      const res = await x.c('POST', `/api/training-sessions/${session.id}/book`, {});
      expect(res.statusCode).toBe(201);
      expect(res.json().message).toBe(BookingsMessages.waitlisted);
      expect(res.json().data).toMatchObject({ status: 'waitlisted', waitlist_position: i + 1 });
      waiting.push({ id: res.json().data.id, c: x.c });
    }
    const [a, b, c] = waiting as [(typeof waiting)[0], (typeof waiting)[0], (typeof waiting)[0]];

    // Remove a holder: the longest waiting (a) is offered the place for 24 hours (the default claim time).
    const before = Date.now();
    expect((await w.m('DELETE', `/api/delegates/${holderIds[0]}`)).json().message).toBe(
      BookingsMessages.delegateDeleted,
    );
    const offered = await statusOf(a.id);
    expect(offered.status).toBe('offered');
    const expires = new Date(offered.offer_expires_at as Date).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + 24 * HOUR_MS - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 24 * HOUR_MS + 1000);
    expect(await placesTaken(h.db, session.id)).toBe(2);

    // Only a may claim it; claiming makes it theirs.
    expect((await b.c('POST', `/api/delegates/${a.id}/claim`)).statusCode).toBe(403);
    const claim = await a.c('POST', `/api/delegates/${a.id}/claim`);
    expect(claim.statusCode).toBe(200);
    expect(claim.json()).toMatchObject({
      message: BookingsMessages.placeClaimed,
      data: { status: 'accepted' },
    });
    expect((await a.c('POST', `/api/delegates/${a.id}/claim`)).statusCode).toBe(409);

    // Another place frees: b is offered; b lets it expire: b goes to the back of the queue, c is offered.
    await w.m('DELETE', `/api/delegates/${holderIds[1]}`);
    expect((await statusOf(b.id)).status).toBe('offered');
    expect(await expireOffers(h.db, new Date(Date.now() + 1000))).toBe(0);
    const later = new Date(Date.now() + 25 * HOUR_MS);
    expect(await expireOffers(h.db, later)).toBe(1);
    const back = await statusOf(b.id);
    expect(back.status).toBe('waitlisted');
    expect(new Date(back.waitlisted_at as Date).getTime()).toBe(later.getTime());
    expect((await statusOf(c.id)).status).toBe('offered');
    expect(await placesTaken(h.db, session.id)).toBe(2);
    const list = await w.m('GET', `/api/training-sessions/${session.id}/delegates?status=waitlisted`);
    expect(
      list.json().data.map((d: { id: number; waitlist_position: number }) => [d.id, d.waitlist_position]),
    ).toEqual([[b.id, 1]]);

    // c claims too late: 422, and the offer stays for the expiry job.
    await h.db
      .updateTable('session_delegates')
      .set({ offer_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', c.id)
      .execute();
    const late = await c.c('POST', `/api/delegates/${c.id}/claim`);
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toBe(BookingsMessages.offerExpired);
  });

  it('no promotion within the waitlist cut-off before the start; the claim time is the provider setting', async () => {
    const soon = await buildSession(h.db, w.group.id, { max: 1, startsInHours: 12 });
    const holder = await learner();
    const first = await holder.c('POST', `/api/training-sessions/${soon.id}/book`, {});
    expect(first.json().data.status).toBe('accepted');
    const waiter = await learner();
    const wait = await waiter.c('POST', `/api/training-sessions/${soon.id}/book`, {});
    expect(wait.json().data.status).toBe('waitlisted');
    expect((await holder.c('DELETE', `/api/delegates/${first.json().data.id}`)).statusCode).toBe(422); // cut-off 48 h
    expect((await w.m('DELETE', `/api/delegates/${first.json().data.id}`)).statusCode).toBe(200); // 11 passes it
    expect((await statusOf(wait.json().data.id)).status).toBe('waitlisted');
    expect(await placesTaken(h.db, soon.id)).toBe(0);

    // The company's own settings: a 2-hour claim.
    await h.db
      .insertInto('training_provider_settings')
      .values({ entity_id: w.company.id, waitlist_claim_hours: 2, delegate_auto_accept_period: 0 })
      .execute();
    const session = await buildSession(h.db, w.company.id, { max: 1, availableTo: 'external' });
    const one = await learner();
    const booked = await one.c('POST', `/api/training-sessions/${session.id}/book`, {});
    expect(booked.json().data.status).toBe('accepted'); // auto-accept period 0: no waiting for the provider
    const two = await learner();
    const queued = await two.c('POST', `/api/training-sessions/${session.id}/book`, {});
    expect(queued.json().data.status).toBe('waitlisted');
    expect((await w.p('DELETE', `/api/delegates/${booked.json().data.id}`)).statusCode).toBe(200);
    const offer = await statusOf(queued.json().data.id);
    expect(offer.status).toBe('offered');
    expect(new Date(offer.offer_expires_at as Date).getTime() - Date.now()).toBeLessThanOrEqual(
      2 * HOUR_MS + 1000,
    );
  });

  it('pending delegates are accepted by the job after the provider auto-accept period', async () => {
    const session = await buildSession(h.db, w.company.id, { max: 3, availableTo: 'all' });
    // The company's settings row of the previous test has period 0: make it 48 hours again.
    await h.db
      .updateTable('training_provider_settings')
      .set({ delegate_auto_accept_period: 48 })
      .where('entity_id', '=', w.company.id)
      .execute();
    const x = await learner();
    const res = await x.c('POST', `/api/training-sessions/${session.id}/book`, {});
    expect(res.json()).toMatchObject({ message: BookingsMessages.booked, data: { status: 'pending' } });
    expect(await autoAcceptDelegates(h.db, new Date(Date.now() + 47 * HOUR_MS))).toBe(0);
    expect(await autoAcceptDelegates(h.db, new Date(Date.now() + 49 * HOUR_MS))).toBe(1);
    expect((await statusOf(res.json().data.id)).status).toBe('accepted');
    expect(await statusCounts(h.db, session.id)).toEqual({ accepted: 1 });
  });

  it('the worker runs both as recurring jobs: an expired offer goes back to the waitlist', async () => {
    registerAllJobs();
    expect(registeredJobNames()).toEqual(expect.arrayContaining([EXPIRE_OFFERS, AUTO_ACCEPT_DELEGATES]));
    const session = await buildSession(h.db, w.group.id, { max: 1 });
    const x = await learner();
    const booked = await x.c('POST', `/api/training-sessions/${session.id}/book`, {});
    const y = await learner();
    const queued = await y.c('POST', `/api/training-sessions/${session.id}/book`, {});
    await w.m('DELETE', `/api/delegates/${booked.json().data.id}`);
    expect((await statusOf(queued.json().data.id)).status).toBe('offered');
    await runDueJobs(h.deps, new Date(Date.now() + 30 * HOUR_MS));
    // Alone on the waitlist, they are offered the place again, with a new claim time.
    const again = await statusOf(queued.json().data.id);
    expect(again.status).toBe('offered');
    expect(new Date(again.offer_expires_at as Date).getTime()).toBeGreaterThan(Date.now() + 50 * HOUR_MS);
    expect(await placesTaken(h.db, session.id)).toBe(1);
  });
});
