import { BookingsPerm } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDelegate, buildFace2face, buildSession } from '../../test/calendar-factories';
import { buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent, buildPassedResult } from '../../test/learning-factories';
import { ukWeek } from './bookings';

/** GET /dashboards/bookings: sessions this week with free places, and the face-to-face gaps a session would close. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const DAY = 86_400_000;
const todayUk = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());

async function world() {
  const org = await buildEntity(h.db, {
    level: 'A',
    name: 'Oak Care',
    settings: { can_manage_bookings: true, can_view_external_bookings: true },
  });
  const site = await buildEntity(h.db, { level: 'B', parentId: org.id, name: 'Oak Home' });
  const company = await buildEntity(h.db, { level: 'A', isTrainingCompany: true, name: 'Skills Co' });
  const role = await buildRole(h.db, org.id, { name: 'Carer' });
  const firstAid = await buildFace2face(h.db, org.id, 'First aid');
  const infection = await buildFace2face(h.db, org.id, 'Infection control');
  const elearning = await buildContent(h.db, org.id, { courseTitle: 'Fire safety' });
  for (const [courseId, type] of [
    [firstAid.course_id, 'primary'],
    [elearning.course_id, 'primary'],
    [infection.course_id, 'secondary'],
  ] as const)
    await h.db
      .insertInto('compliance_rules')
      .values({ entity_id: org.id, role_id: role.id, course_id: courseId, type, validity_months: 12 })
      .execute();
  const ann = await buildUser(h.db, { entityId: site.id, roleId: role.id, name: 'Ann' });
  const bob = await buildUser(h.db, { entityId: site.id, roleId: role.id, name: 'Bob' });
  const cat = await buildUser(h.db, { entityId: site.id, roleId: role.id, name: 'Cat' });
  for (const u of [ann, bob, cat])
    await buildPassedResult(h.db, { userId: u.id, entityId: site.id, courseId: infection.course_id });
  await buildPassedResult(h.db, { userId: cat.id, entityId: site.id, courseId: firstAid.course_id });
  const manager = await buildUser(h.db, { entityId: org.id, permissions: [BookingsPerm.createBookings] });

  // This week: an Infection control session at the home (3 of 8 places taken), still ahead. An hour ahead, not a
  // minute: buildSession moves a start after 23:59 UTC back to 23:58, which a minute ahead of 23:58 UTC put in the past.
  const soon = await buildSession(h.db, {
    entityId: site.id,
    contentId: infection.id,
    days: [{ start: new Date(Date.now() + 3_600_000) }],
    max: 8,
  });
  await h.db
    .updateTable('training_session_dates')
    .set({ date: todayUk() })
    .where('session_id', '=', soon.id)
    .execute();
  await h.db.updateTable('training_sessions').set({ places_taken: 3 }).where('id', '=', soon.id).execute();
  // First aid: the group's own session in 20 days (Bob booked), a full provider session in 2 days (skipped), an open
  // provider session on the marketplace in 10 days (the next one), and another organisation's internal one (unseen).
  const own = await buildSession(h.db, {
    entityId: org.id,
    contentId: firstAid.id,
    days: [{ start: new Date(Date.now() + 20 * DAY) }],
  });
  await buildDelegate(h.db, { sessionId: own.id, userId: bob.id, entityId: site.id, status: 'accepted' });
  await buildSession(h.db, {
    entityId: company.id,
    courseId: firstAid.course_id,
    days: [{ start: new Date(Date.now() + 2 * DAY) }],
    availableTo: 'external',
    max: 1,
  }).then((s) =>
    h.db.updateTable('training_sessions').set({ places_taken: 1 }).where('id', '=', s.id).execute(),
  );
  const market = await buildSession(h.db, {
    entityId: company.id,
    courseId: firstAid.course_id,
    days: [{ start: new Date(Date.now() + 10 * DAY) }],
    availableTo: 'all',
  });
  const other = await buildEntity(h.db, { level: 'A' });
  await buildSession(h.db, {
    entityId: other.id,
    courseId: firstAid.course_id,
    days: [{ start: new Date(Date.now() + 1 * DAY) }],
  });
  return { org, site, other, manager, firstAid, soon, own, market };
}

describe('GET /api/dashboards/bookings', () => {
  it('401 without sign-in', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/dashboards/bookings' })).statusCode).toBe(401);
  });

  it('422 for a malformed query', async () => {
    const w = await world();
    const res = await (await clientFor(h.app, h.db, w.manager.id))(
      'GET',
      '/api/dashboards/bookings?deep=maybe',
    );
    expect(res.statusCode).toBe(422);
  });

  it('403 without 9/11/109, or where the organisation does not manage bookings', async () => {
    const w = await world();
    const learner = await buildUser(h.db, { entityId: w.site.id, permissions: [BookingsPerm.ownBookings] });
    expect(
      (await (await clientFor(h.app, h.db, learner.id))('GET', '/api/dashboards/bookings')).statusCode,
    ).toBe(403);
    const elsewhere = await buildUser(h.db, { permissions: [BookingsPerm.createBookings] });
    expect(
      (await (await clientFor(h.app, h.db, elsewhere.id))('GET', '/api/dashboards/bookings')).statusCode,
    ).toBe(403);
  });

  it('404 when acting as another organisation', async () => {
    const w = await world();
    const c = await clientFor(h.app, h.db, w.manager.id);
    expect((await c('GET', `/api/dashboards/bookings?actingAs=${w.other.slug}`)).statusCode).toBe(404);
  });

  it("this week's sessions, their free places, and the gaps with who is booked and the next open session", async () => {
    const w = await world();
    const c = await clientFor(h.app, h.db, w.manager.id);
    const res = await c('GET', '/api/dashboards/bookings?deep=1');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.sessions_this_week.map((s: { id: number }) => s.id)).toEqual([w.soon.id]);
    expect(data.sessions_this_week[0]).toMatchObject({ places_taken: 3, places_free: 5 });
    expect(data.places_free_this_week).toBe(5);
    // First aid: Ann and Bob are not in date (Cat is), Bob is booked; Fire safety has no face-to-face content and
    // Infection control is in date for everyone.
    expect(data.gaps).toHaveLength(1);
    expect(data.gaps[0]).toMatchObject({
      course: { id: w.firstAid.course_id, title: 'First aid' },
      people_not_in_date: 2,
      people_booked: 1,
    });
    expect(data.gaps[0].next_session).toMatchObject({ id: w.market.id, places_free: 10 });

    // Without external bookings, the group's own session is the next one.
    await h.db
      .updateTable('entities')
      .set({ can_view_external_bookings: false })
      .where('id', '=', w.org.id)
      .execute();
    const internal = (await c('GET', '/api/dashboards/bookings?deep=1')).json().data;
    expect(internal.gaps[0].next_session.id).toBe(w.own.id);

    // Not deep: only the group's own people (none of them at the group level), so no gaps.
    const shallow = (await c('GET', '/api/dashboards/bookings')).json().data;
    expect(shallow.gaps).toEqual([]);
    expect(shallow.sessions_this_week).toEqual([]);
  });

  it('the UK week runs Monday to Sunday', () => {
    expect(ukWeek(new Date('2026-11-26T10:00:00Z'))).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(ukWeek(new Date('2026-11-29T23:30:00Z'))).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(ukWeek(new Date('2026-06-28T23:30:00Z'))).toEqual({ from: '2026-06-29', to: '2026-07-05' });
  });
});
