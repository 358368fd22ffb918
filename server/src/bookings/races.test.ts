import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';
import {
  type BookingWorld,
  bookingWorld,
  buildSession,
  placesTaken,
  statusCounts,
} from './delegate-fixtures';

/**
 * Capacity under concurrency (issue 15 "Capacity enforced by the database") on PostgreSQL: parallel bookings, adds,
 * restores, claims and removals never pass max_delegates, and the seat count always equals the places held.
 */
let h: Harness;
let w: BookingWorld;
beforeAll(async () => {
  h = await createHarness();
  w = await bookingWorld(h.db, h.app);
});
afterAll(async () => h?.close());

/** places_taken = delegates holding a place outside orders + orders' unnamed places, and never above the maximum. */
async function expectConsistent(sessionId: number) {
  const { rows } = await sql<{ taken: number; max: number; held: number; unnamed: number }>`
    SELECT s.places_taken AS taken, s.max_delegates AS max,
      (SELECT count(*)::int FROM session_delegates d WHERE d.session_id = s.id
         AND d.status IN ('pending', 'accepted', 'offered')) AS held,
      (SELECT coalesce(sum(o.places - o.named), 0)::int FROM training_orders o
         WHERE o.session_id = s.id AND o.status = 'placed') AS unnamed
    FROM training_sessions s WHERE s.id = ${sessionId}`.execute(h.db);
  const [r] = rows;
  expect(r).toBeDefined();
  expect(r?.taken).toBe((r?.held ?? 0) + (r?.unnamed ?? 0));
  expect(r?.taken).toBeLessThanOrEqual(r?.max ?? 0);
  return r;
}

const learners = (n: number) =>
  parallel(n, () => buildUser(h.db, { entityId: w.home.id, permissions: [108] }));

describeRaces('bookings in parallel never overbook', () => {
  it('50 parallel bookings for 10 places: exactly 10 hold a place, 40 are waitlisted, places_taken = 10', async () => {
    const session = await buildSession(h.db, w.group.id, { max: 10 });
    const people = await learners(50);
    const clients = await Promise.all(people.map((p) => w.as(p.id)));
    const responses = await parallel(50, (i) =>
      (clients[i] as (typeof clients)[number])('POST', `/api/training-sessions/${session.id}/book`, {}),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(50).fill(201));
    const messages = responses.map((r) => r.json().message as string);
    expect(messages.filter((m) => m === 'You are booked on this session.')).toHaveLength(10);
    expect(messages.filter((m) => m === 'This session is full: you are on the waiting list.')).toHaveLength(
      40,
    );
    expect(await statusCounts(h.db, session.id)).toEqual({ accepted: 10, waitlisted: 40 });
    expect(await placesTaken(h.db, session.id)).toBe(10);
    await expectConsistent(session.id);
    // The waitlist is a strict order: positions 1..40, each once.
    const list = await w.m(
      'GET',
      `/api/training-sessions/${session.id}/delegates?status=waitlisted&per_page=100`,
    );
    expect(list.statusCode).toBe(200);
    const positions = list.json().data.map((d: { waitlist_position: number }) => d.waitlist_position);
    expect([...positions].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('the same person booking 10 times at once gets one booking and nine 409s', async () => {
    const session = await buildSession(h.db, w.group.id, { max: 3 });
    const [person] = await learners(1);
    const c = await w.as(person?.id as number);
    const responses = await parallel(10, () => c('POST', `/api/training-sessions/${session.id}/book`, {}));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(await placesTaken(h.db, session.id)).toBe(1);
    await expectConsistent(session.id);
  });

  it('parallel adds (overlapping lists), books and restores on 5 places never overbook', async () => {
    const session = await buildSession(h.db, w.group.id, { max: 5 });
    const people = await learners(30);
    const ids = people.map((p) => p.id);
    // 10 of them were on the session and were removed (deleted rows, to be restored or re-added).
    const first = await w.m('POST', `/api/training-sessions/${session.id}/delegates`, {
      users: ids.slice(0, 5),
    });
    expect(first.statusCode).toBe(201);
    const removed = first.json().data.map((d: { id: number }) => d.id) as number[];
    for (const id of removed) expect((await w.m('DELETE', `/api/delegates/${id}`)).statusCode).toBe(200);
    expect(await placesTaken(h.db, session.id)).toBe(0);
    const clients = await Promise.all(people.slice(10).map((p) => w.as(p.id)));
    const responses = await parallel(30, (i) => {
      if (i < 5) return w.m('POST', `/api/delegates/${removed[i]}/restore`);
      if (i < 10)
        return w.m('POST', `/api/training-sessions/${session.id}/delegates`, { users: ids.slice(5, 15) });
      const client = clients[i - 10] as (typeof clients)[number];
      return client('POST', `/api/training-sessions/${session.id}/book`, {});
    });
    expect(responses.map((r) => r.statusCode).filter((c) => c >= 500)).toEqual([]);
    const counts = await statusCounts(h.db, session.id);
    expect((counts.accepted ?? 0) + (counts.pending ?? 0) + (counts.offered ?? 0)).toBe(5);
    expect(await placesTaken(h.db, session.id)).toBe(5);
    await expectConsistent(session.id);
  });

  it('parallel removals offer each freed place once; parallel claims and removals stay consistent', async () => {
    const session = await buildSession(h.db, w.group.id, { max: 6 });
    const people = await learners(16);
    const added = await w.m('POST', `/api/training-sessions/${session.id}/delegates`, {
      users: people.map((p) => p.id),
    });
    expect(added.statusCode).toBe(201);
    const rows = added.json().data as { id: number; status: string; user: { id: number } }[];
    const holders = rows.filter((d) => d.status === 'accepted');
    expect(holders).toHaveLength(6);
    // Remove 4 holders at once, each twice: 4 removals succeed, 4 answer 409; 4 offers go out.
    const removals = await parallel(8, (i) => w.m('DELETE', `/api/delegates/${holders[i % 4]?.id}`));
    expect(removals.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 409, 409, 409, 409]);
    expect(await statusCounts(h.db, session.id)).toMatchObject({
      accepted: 2,
      offered: 4,
      deleted: 4,
      waitlisted: 6,
    });
    await expectConsistent(session.id);
    // The offered claim while holders are removed and waitlisted people are removed too.
    const offered = await h.db
      .selectFrom('session_delegates')
      .select(['id', 'user_id'])
      .where('session_id', '=', session.id)
      .where('status', '=', 'offered')
      .execute();
    const claimers = await Promise.all(offered.map((d) => w.as(d.user_id)));
    const rest = holders.slice(4);
    const mixed = await parallel(offered.length * 2 + rest.length, (i) => {
      if (i < offered.length * 2) {
        const k = i % offered.length;
        return (claimers[k] as (typeof claimers)[number])('POST', `/api/delegates/${offered[k]?.id}/claim`);
      }
      return w.m('DELETE', `/api/delegates/${rest[i - offered.length * 2]?.id}`);
    });
    expect(mixed.map((r) => r.statusCode).filter((c) => c >= 500)).toEqual([]);
    expect(mixed.filter((r) => r.statusCode === 200)).toHaveLength(offered.length + rest.length);
    const counts = await statusCounts(h.db, session.id);
    expect((counts.accepted ?? 0) + (counts.offered ?? 0)).toBe(6);
    await expectConsistent(session.id);
  });

  it('parallel training orders and bookings on one provider session never overbook; orders are all or nothing', async () => {
    const session = await buildSession(h.db, w.company.id, { availableTo: 'external', max: 10 });
    const outsiders = await parallel(10, () =>
      buildUser(h.db, { entityId: w.outsiderOrg.id, permissions: [108] }),
    );
    const clients = await Promise.all(outsiders.map((p) => w.as(p.id)));
    const responses = await parallel(16, (i) =>
      i < 6
        ? w.m('POST', '/api/training-orders', { session_id: session.id, places: 3 })
        : (clients[i - 6] as (typeof clients)[number])(
            'POST',
            `/api/training-sessions/${session.id}/book`,
            {},
          ),
    );
    expect(responses.map((r) => r.statusCode).filter((c) => c >= 500)).toEqual([]);
    const orders = await h.db
      .selectFrom('training_orders')
      .select(['places'])
      .where('session_id', '=', session.id)
      .execute();
    const counts = await statusCounts(h.db, session.id);
    const held = (counts.pending ?? 0) + (counts.accepted ?? 0);
    expect(orders.length * 3 + held).toBeLessThanOrEqual(10);
    // Every refused order left nothing behind, and the places are full up to what fits.
    expect(responses.slice(0, 6).filter((r) => r.statusCode === 201)).toHaveLength(orders.length);
    expect(10 - (orders.length * 3 + held)).toBeLessThan(3);
    await expectConsistent(session.id);
  });
});
