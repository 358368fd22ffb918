import { BookingsMessages, BookingsPerm } from '@cc/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDelegate, buildFace2face, buildSession } from '../../test/calendar-factories';
import { bearer, buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildPassedResult } from '../../test/learning-factories';
import { describeRaces, parallel } from '../../test/parallel';

/**
 * Booking the gaps (issue 33 §2): GET /booking-gaps/{courseId} lists the people to book most overdue first, and
 * POST /training-sessions/{id}/gap-bookings gives places in that order (not the user id order), waitlists the rest in
 * that order, tells each person, never overfills a session under parallel requests, and keeps to the caller's scope.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

async function world() {
  const org = await buildEntity(h.db, {
    level: 'A',
    name: 'Elm Care',
    settings: { can_manage_bookings: true, can_view_internal_bookings: true },
  });
  const site = await buildEntity(h.db, { level: 'B', parentId: org.id, name: 'Elm Home' });
  const role = await buildRole(h.db, org.id, { name: 'Carer' });
  const mh = await buildFace2face(h.db, org.id, 'Moving and handling');
  await h.db
    .insertInto('compliance_rules')
    .values({
      entity_id: org.id,
      role_id: role.id,
      course_id: mh.course_id,
      type: 'primary',
      validity_months: 12,
    })
    .execute();
  const person = (name: string, startDate = '2023-06-01') =>
    buildUser(h.db, { entityId: site.id, roleId: role.id, name, startDate });
  // Made in this order so the id order (ed < eve < noel < nina) is the reverse of the overdue order.
  const ed = await person('Ed Expired Lately');
  const eve = await person('Eve Expired Long Ago');
  const noel = await person('Noel Never Done');
  const nina = await person('Nina Never Done', '2019-01-01');
  const dan = await person('Dan New Starter', new Date().toISOString().slice(0, 10));
  const fine = await person('Fay In Date');
  const held = await person('Hal Already Booked');
  await buildPassedResult(h.db, {
    userId: ed.id,
    entityId: site.id,
    courseId: mh.course_id,
    completedAt: daysAgo(400),
  });
  await buildPassedResult(h.db, {
    userId: eve.id,
    entityId: site.id,
    courseId: mh.course_id,
    completedAt: daysAgo(1100),
  });
  await buildPassedResult(h.db, {
    userId: fine.id,
    entityId: site.id,
    courseId: mh.course_id,
    completedAt: daysAgo(10),
  });
  const manager = await buildUser(h.db, {
    entityId: org.id,
    permissions: [BookingsPerm.createBookings, BookingsPerm.editBooking],
    name: 'Mia Manager',
  });
  const later = await buildSession(h.db, {
    entityId: org.id,
    contentId: mh.id,
    days: [{ start: new Date(Date.now() + 30 * DAY) }],
  });
  await buildDelegate(h.db, { sessionId: later.id, userId: held.id, entityId: site.id, status: 'accepted' });
  const session = await buildSession(h.db, {
    entityId: org.id,
    contentId: mh.id,
    days: [{ start: new Date(Date.now() + 14 * DAY) }],
    max: 2,
  });
  const other = await buildEntity(h.db, { level: 'A', settings: { can_manage_bookings: true } });
  const stranger = await buildUser(h.db, { entityId: other.id, roleId: null, name: 'Sid Stranger' });
  const m = await clientFor(h.app, h.db, manager.id);
  return { org, site, mh, ed, eve, noel, nina, dan, fine, held, manager, session, later, stranger, other, m };
}

const names = (rows: { user: { name: string } }[]) => rows.map((r) => r.user.name);

describe('GET /api/booking-gaps/{courseId}', () => {
  it('401 without sign-in, 403 without 9/11/109, 404 for a course nobody in scope must take', async () => {
    const w = await world();
    expect(
      (await h.app.inject({ method: 'GET', url: `/api/booking-gaps/${w.mh.course_id}` })).statusCode,
    ).toBe(401);
    const learner = await clientFor(h.app, h.db, w.ed.id);
    expect((await learner('GET', `/api/booking-gaps/${w.mh.course_id}`)).statusCode).toBe(403);
    const elsewhere = await buildUser(h.db, {
      entityId: w.other.id,
      permissions: [BookingsPerm.createBookings],
    });
    const res = await (await clientFor(h.app, h.db, elsewhere.id))(
      'GET',
      `/api/booking-gaps/${w.mh.course_id}`,
    );
    expect(res.statusCode).toBe(404);
    expect((await w.m('GET', '/api/booking-gaps/99999999')).statusCode).toBe(404);
  });

  it('lists the people to book most overdue first, with their status, and the sessions to book them on', async () => {
    const w = await world();
    const res = await w.m('GET', `/api/booking-gaps/${w.mh.course_id}?actingAs=${w.org.slug}&deep=true`);
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d.course).toEqual({ id: w.mh.course_id, title: 'Moving and handling' });
    // Never done (longest-serving first), expired (oldest expiry first), then due by a date; the in-date and the
    // already-booked are not gaps.
    expect(names(d.people)).toEqual([
      'Nina Never Done',
      'Noel Never Done',
      'Eve Expired Long Ago',
      'Ed Expired Lately',
      'Dan New Starter',
    ]);
    expect(d.people.map((p: { status: string }) => p.status)).toEqual([
      'missing',
      'missing',
      'expired',
      'expired',
      'due',
    ]);
    expect(d.people[2].date).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(d.sessions.map((s: { id: number }) => s.id)).toEqual([w.session.id, w.later.id]);
  });
});

describe('POST /api/training-sessions/{id}/gap-bookings', () => {
  it('gives places most overdue first, waitlists the rest in that order and tells each person', async () => {
    const w = await world();
    const ids = [w.ed.id, w.eve.id, w.noel.id, w.nina.id, w.dan.id, w.held.id];
    // The held person is already on the other session, not this one: they are booked here like anyone else,
    // after the others (not a gap of the course). Put them on this session first to see "already booked".
    await buildDelegate(h.db, {
      sessionId: w.session.id,
      userId: w.held.id,
      entityId: w.site.id,
      status: 'waitlisted',
    });
    const res = await w.m('POST', `/api/training-sessions/${w.session.id}/gap-bookings`, { users: ids });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('2 people booked, 3 on the waiting list, 1 already on this session.');
    const d = body.data;
    expect([d.booked, d.waitlisted, d.already_booked]).toEqual([2, 3, 1]);
    expect(
      d.people.map((p: { user: { name: string }; outcome: string; waitlist_position: number | null }) => [
        p.user.name,
        p.outcome,
        p.waitlist_position,
      ]),
    ).toEqual([
      ['Nina Never Done', 'booked', null],
      ['Noel Never Done', 'booked', null],
      // Behind the one already waiting.
      ['Eve Expired Long Ago', 'waitlisted', 2],
      ['Ed Expired Lately', 'waitlisted', 3],
      ['Dan New Starter', 'waitlisted', 4],
      ['Hal Already Booked', 'already_booked', null],
    ]);
    const rows = await h.db
      .selectFrom('session_delegates')
      .select(['user_id', 'status'])
      .where('session_id', '=', w.session.id)
      .execute();
    const statusOf = new Map(rows.map((r) => [r.user_id, r.status]));
    expect([w.nina.id, w.noel.id, w.eve.id, w.ed.id, w.dan.id].map((id) => statusOf.get(id))).toEqual([
      'accepted',
      'accepted',
      'waitlisted',
      'waitlisted',
      'waitlisted',
    ]);
    const s = await h.db
      .selectFrom('training_sessions')
      .select('places_taken')
      .where('id', '=', w.session.id)
      .executeTakeFirstOrThrow();
    expect(s.places_taken).toBe(2);
    // Each person is told: a booking notice in the ledger, and an invite queued for those with a place.
    const told = await h.db
      .selectFrom('notifications')
      .select(['user_id'])
      .where('kind', '=', 'booking')
      .where('user_id', 'in', [w.nina.id, w.noel.id, w.eve.id, w.ed.id, w.dan.id])
      .execute();
    expect(new Set(told.map((t) => t.user_id))).toEqual(
      new Set([w.nina.id, w.noel.id, w.eve.id, w.ed.id, w.dan.id]),
    );
    const { rows: invites } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM jobs WHERE name = 'booking-invite'
         AND (payload->>'delegate_id')::int IN (SELECT id FROM session_delegates
              WHERE session_id = ${w.session.id} AND status = 'accepted')`.execute(h.db);
    expect(invites[0]?.n).toBe(2);
    // They are no longer a gap.
    const gap = (await w.m('GET', `/api/booking-gaps/${w.mh.course_id}?deep=true`)).json().data;
    expect(names(gap.people)).toEqual([]);
  });

  it("404 for anyone outside the caller's scope, and nobody is booked", async () => {
    const w = await world();
    const res = await w.m('POST', `/api/training-sessions/${w.session.id}/gap-bookings`, {
      users: [w.nina.id, w.stranger.id],
    });
    expect(res.statusCode).toBe(404);
    expect(
      (await w.m('POST', `/api/training-sessions/${w.session.id}/gap-bookings`, { users: [99999999] }))
        .statusCode,
    ).toBe(404);
    const count = await h.db
      .selectFrom('session_delegates')
      .select('id')
      .where('session_id', '=', w.session.id)
      .execute();
    expect(count).toHaveLength(0);
    // Another organisation's manager cannot see the session at all.
    const theirs = await buildUser(h.db, {
      entityId: w.other.id,
      permissions: [BookingsPerm.createBookings],
    });
    const c = await clientFor(h.app, h.db, theirs.id);
    expect(
      (await c('POST', `/api/training-sessions/${w.session.id}/gap-bookings`, { users: [w.stranger.id] }))
        .statusCode,
    ).toBe(404);
  });

  it('422 for no one chosen, a past or cancelled session, and a full session whose waiting list is closed', async () => {
    const w = await world();
    const empty = await w.m('POST', `/api/training-sessions/${w.session.id}/gap-bookings`, { users: [] });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.users).toBeDefined();
    const past = await buildSession(h.db, {
      entityId: w.org.id,
      contentId: w.mh.id,
      days: [{ start: daysAgo(2) }],
    });
    const r1 = await w.m('POST', `/api/training-sessions/${past.id}/gap-bookings`, { users: [w.nina.id] });
    expect([r1.statusCode, r1.json().message]).toEqual([422, BookingsMessages.sessionClosed]);
    await h.db
      .updateTable('training_sessions')
      .set({ status: 'cancelled' })
      .where('id', '=', w.later.id)
      .execute();
    const r2 = await w.m('POST', `/api/training-sessions/${w.later.id}/gap-bookings`, { users: [w.nina.id] });
    expect([r2.statusCode, r2.json().message]).toEqual([422, BookingsMessages.sessionClosed]);
    // Starts in 3 hours (inside the default 24-hour waitlist cut-off), its one place taken: no place, no waitlist.
    const full = await buildSession(h.db, {
      entityId: w.org.id,
      contentId: w.mh.id,
      days: [{ start: new Date(Date.now() + 3 * 3_600_000) }],
      max: 1,
    });
    await h.db.updateTable('training_sessions').set({ places_taken: 1 }).where('id', '=', full.id).execute();
    const r3 = await w.m('POST', `/api/training-sessions/${full.id}/gap-bookings`, { users: [w.nina.id] });
    expect([r3.statusCode, r3.json().message]).toEqual([422, BookingsMessages.sessionFull]);
    const none = await h.db
      .selectFrom('session_delegates')
      .select('id')
      .where('user_id', '=', w.nina.id)
      .execute();
    expect(none).toHaveLength(0);
  });
});

describe('GraphQL bookingGap and bookGap', () => {
  it('answers as the REST routes: the same order, places and scope', async () => {
    const w = await world();
    const headers = await bearer(h.db, w.manager.id);
    const gql = async (query: string, variables: Record<string, unknown>) =>
      (
        await h.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } })
      ).json();
    const gap = await gql(
      'query ($c: ID!) { bookingGap(course: $c, deep: true) { course { title } people { user { id name } status } sessions { id } } }',
      { c: w.mh.course_id },
    );
    expect(gap.errors).toBeUndefined();
    expect(names(gap.data.bookingGap.people).slice(0, 2)).toEqual(['Nina Never Done', 'Noel Never Done']);
    const ids = gap.data.bookingGap.people.map((p: { user: { id: string } }) => Number(p.user.id));
    const BOOK = `mutation ($s: ID!, $u: [Int!]!) {
      bookGap(session: $s, users: $u) { booked waitlisted already_booked people { user { name } outcome waitlist_position } }
    }`;
    const booked = await gql(BOOK, { s: w.session.id, u: ids });
    expect(booked.errors).toBeUndefined();
    expect([booked.data.bookGap.booked, booked.data.bookGap.waitlisted]).toEqual([2, 3]);
    expect(names(booked.data.bookGap.people).slice(0, 3)).toEqual([
      'Nina Never Done',
      'Noel Never Done',
      'Eve Expired Long Ago',
    ]);
    const outside = await gql(BOOK, { s: w.session.id, u: [w.stranger.id] });
    expect(outside.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

describeRaces('gap bookings in parallel', () => {
  it('two managers booking at once never overfill a session', async () => {
    const w = await world();
    const role = await h.db
      .selectFrom('users')
      .select('role_id')
      .where('id', '=', w.ed.id)
      .executeTakeFirstOrThrow();
    const more = await parallel(8, (i) =>
      buildUser(h.db, {
        entityId: w.site.id,
        roleId: role.role_id,
        name: `Pat ${i}`,
        startDate: '2022-01-01',
      }),
    );
    const second = await buildUser(h.db, {
      entityId: w.org.id,
      permissions: [BookingsPerm.createBookings],
      name: 'Max Manager',
    });
    const m2 = await clientFor(h.app, h.db, second.id);
    const session = await buildSession(h.db, {
      entityId: w.org.id,
      contentId: w.mh.id,
      days: [{ start: new Date(Date.now() + 9 * DAY) }],
      max: 3,
    });
    const url = `/api/training-sessions/${session.id}/gap-bookings`;
    const [a, b] = await Promise.all([
      w.m('POST', url, { users: more.slice(0, 4).map((u) => u.id) }),
      m2('POST', url, { users: more.slice(4).map((u) => u.id) }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().data.booked + b.json().data.booked).toBe(3);
    expect(a.json().data.waitlisted + b.json().data.waitlisted).toBe(5);
    const { rows } = await sql<{ taken: number; held: number; waiting: number }>`
      SELECT s.places_taken AS taken,
        (SELECT count(*)::int FROM session_delegates d WHERE d.session_id = s.id AND d.status = 'accepted') AS held,
        (SELECT count(*)::int FROM session_delegates d WHERE d.session_id = s.id AND d.status = 'waitlisted') AS waiting
      FROM training_sessions s WHERE s.id = ${session.id}`.execute(h.db);
    expect(rows[0]).toEqual({ taken: 3, held: 3, waiting: 5 });
  });
});
