import { BookingsMessages, BookingsPerm, DashboardsPerm } from '@cc/contracts';
import ICAL from 'ical.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDelegate, buildSession, setDelegateStatus } from '../../test/calendar-factories';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { runDueJobs } from '../jobs/queue';
import { registerAllJobs } from '../register-jobs';
import { BOOKING_INVITE } from './calendar-jobs';
import { type DelegateEvent, delegateChanged, type SessionEvent, sessionChanged } from './effects';

/**
 * Calendar invites (iCal parsed back with ical.js: stable UID per date, SEQUENCE rising on every change,
 * METHOD:CANCEL on removal and cancellation), booking notices, the personal feed and "add to calendar".
 */
let h: Harness;
beforeAll(async () => {
  registerAllJobs();
  h = await createHarness();
});
afterAll(async () => h?.close());

const HOST = 'localhost';
const DAY = 86_400_000;

async function world(o: { sendInvites?: boolean; notifyManagers?: boolean } = {}) {
  const company = await buildEntity(h.db, { level: 'A', isTrainingCompany: true, name: 'Skills Co' });
  const home = await buildEntity(h.db, { level: 'A', name: 'Oak Care' });
  const site = await buildEntity(h.db, { level: 'B', parentId: home.id, name: 'Oak Home' });
  if (o.sendInvites !== undefined || o.notifyManagers !== undefined)
    await h.db
      .insertInto('delegate_settings')
      .values({
        entity_id: home.id,
        send_calendar_invites: o.sendInvites ?? true,
        notify_managers: o.notifyManagers ?? true,
      })
      .execute();
  const learner = await buildUser(h.db, { entityId: site.id, name: 'Casey Learner' });
  const colleague = await buildUser(h.db, { entityId: site.id, name: 'Dee Colleague' });
  const manager = await buildUser(h.db, {
    entityId: site.id,
    name: 'Sam Manager',
    permissions: [DashboardsPerm.managerDashboard],
  });
  const start = new Date(Date.UTC(2031, 2, 10, 9, 30));
  const session = await buildSession(h.db, {
    entityId: company.id,
    days: [{ start }, { start: new Date(start.getTime() + DAY) }],
    venue: 'Skills Centre',
  });
  return { company, home, site, learner, colleague, manager, session, start };
}

const onDelegate = (id: number, event: DelegateEvent, now = new Date()) =>
  h.db.transaction().execute((trx) => delegateChanged(trx, id, event, now));
const onSession = (id: number, event: SessionEvent, now = new Date()) =>
  h.db.transaction().execute((trx) => sessionChanged(trx, id, event, now));

/** The invites e-mailed to an address, oldest first, each .ics parsed back. */
async function invitesTo(email: string) {
  await runDueJobs(h.deps, new Date(Date.now() + 1000));
  const rows = await h.db
    .selectFrom('mail_outbox as m')
    .innerJoin('mail_attachments as a', 'a.mail_id', 'm.id')
    .select(['m.subject', 'm.template', 'a.filename', 'a.content_type', 'a.content'])
    .where('m.to_address', '=', email)
    .orderBy('m.id')
    .execute();
  return rows.map((r) => {
    const text = Buffer.from(r.content).toString('utf8');
    const calendar = new ICAL.Component(ICAL.parse(text));
    const events = calendar.getAllSubcomponents('vevent').map((v) => ({
      uid: String(v.getFirstPropertyValue('uid')),
      sequence: Number(v.getFirstPropertyValue('sequence')),
      status: String(v.getFirstPropertyValue('status')),
      start: (v.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
      summary: String(v.getFirstPropertyValue('summary')),
      attendee: String(v.getFirstPropertyValue('attendee') ?? ''),
    }));
    return { ...r, method: String(calendar.getFirstPropertyValue('method')), events };
  });
}

const noticesOf = (userId: number) =>
  h.db
    .selectFrom('notifications')
    .select(['kind', 'title', 'body', 'link', 'channel', 'state'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();

describe('calendar invites', () => {
  it('REQUEST with one event per date and stable UIDs; SEQUENCE rises on each change; CANCEL on removal', async () => {
    const w = await world();
    const d = await buildDelegate(h.db, {
      sessionId: w.session.id,
      userId: w.learner.id,
      entityId: w.site.id,
      status: 'pending',
    });
    await onDelegate(d.id, 'booked');
    // Accepting a pending booking changes nothing in the diary: no second invite.
    await setDelegateStatus(h.db, d.id, 'accepted');
    await onDelegate(d.id, 'accepted');
    let invites = await invitesTo(w.learner.email);
    expect(invites).toHaveLength(1);
    const [first] = invites;
    expect(first?.method).toBe('REQUEST');
    expect(first?.filename).toBe('invite.ics');
    expect(first?.content_type).toContain('text/calendar');
    expect(first?.subject).toMatch(/^Invitation: /);
    const uids = [`${w.session.uuid}-0@${HOST}`, `${w.session.uuid}-1@${HOST}`];
    expect(first?.events.map((e) => e.uid)).toEqual(uids);
    expect(first?.events.map((e) => e.sequence)).toEqual([1, 1]);
    expect(first?.events.map((e) => e.status)).toEqual(['CONFIRMED', 'CONFIRMED']);
    expect(first?.events[0]?.start).toBe(w.start.toISOString());
    expect(first?.events[1]?.summary).toMatch(/day 2 of 2/);
    expect(first?.events[0]?.attendee).toContain(w.learner.email);

    // The session changes: the same events, a higher SEQUENCE.
    await h.db
      .updateTable('training_sessions')
      .set({ venue: 'New Hall' })
      .where('id', '=', w.session.id)
      .execute();
    await onSession(w.session.id, 'updated');
    invites = await invitesTo(w.learner.email);
    expect(invites).toHaveLength(2);
    expect(invites[1]?.method).toBe('REQUEST');
    expect(invites[1]?.subject).toMatch(/^Updated invitation: /);
    expect(invites[1]?.events.map((e) => e.uid)).toEqual(uids);
    expect(invites[1]?.events.map((e) => e.sequence)).toEqual([2, 2]);

    // Removed: METHOD:CANCEL, STATUS:CANCELLED, the same UIDs, higher again.
    await setDelegateStatus(h.db, d.id, 'deleted');
    await onDelegate(d.id, 'removed');
    invites = await invitesTo(w.learner.email);
    expect(invites).toHaveLength(3);
    expect(invites[2]?.method).toBe('CANCEL');
    expect(invites[2]?.subject).toMatch(/^Cancelled: /);
    expect(invites[2]?.events.map((e) => e.uid)).toEqual(uids);
    expect(invites[2]?.events.map((e) => [e.sequence, e.status])).toEqual([
      [3, 'CANCELLED'],
      [3, 'CANCELLED'],
    ]);
    const row = await h.db
      .selectFrom('session_delegates')
      .select('invite_sequence')
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow();
    expect(row.invite_sequence).toBe(3);

    // A second removal sends nothing more (the last invite was already a CANCEL).
    await onDelegate(d.id, 'removed');
    expect(await invitesTo(w.learner.email)).toHaveLength(3);

    // Notices: booked, confirmed, changed, removed (twice: each change is told), all in-app.
    const notices = await noticesOf(w.learner.id);
    expect(notices.map((n) => n.title)).toEqual([
      `Booked: ${first?.events[0]?.summary.replace(/ \(day.*$/, '')}`,
      expect.stringMatching(/^Place confirmed: /),
      expect.stringMatching(/^Session changed: /),
      expect.stringMatching(/^Booking removed: /),
      expect.stringMatching(/^Booking removed: /),
    ]);
    expect(notices.every((n) => n.kind === 'booking' && n.channel === 'in_app' && n.state === 'sent')).toBe(
      true,
    );
    // The manager was told of the booking and the removal, not of the session's details.
    const told = await noticesOf(w.manager.id);
    expect(told.map((n) => n.title)).toEqual([
      `Casey Learner is booked: ${notices[0]?.title.replace('Booked: ', '')}`,
      expect.stringMatching(/^Casey Learner is no longer booked/),
      expect.stringMatching(/^Casey Learner is no longer booked/),
    ]);
    expect(told[0]?.link).toBe('/manage-bookings');
  });

  it('a cancelled session sends CANCEL to everyone invited and tells everyone booked or waiting', async () => {
    const w = await world();
    const a = await buildDelegate(h.db, {
      sessionId: w.session.id,
      userId: w.learner.id,
      entityId: w.site.id,
      status: 'accepted',
    });
    const b = await buildDelegate(h.db, {
      sessionId: w.session.id,
      userId: w.colleague.id,
      entityId: w.site.id,
      status: 'waitlisted',
    });
    await onDelegate(a.id, 'booked');
    await onDelegate(b.id, 'waitlisted');
    await h.db
      .updateTable('training_sessions')
      .set({ status: 'cancelled' })
      .where('id', '=', w.session.id)
      .execute();
    await onSession(w.session.id, 'cancelled');
    const invites = await invitesTo(w.learner.email);
    expect(invites.map((i) => i.method)).toEqual(['REQUEST', 'CANCEL']);
    expect(invites[1]?.events.map((e) => [e.sequence, e.status])).toEqual([
      [2, 'CANCELLED'],
      [2, 'CANCELLED'],
    ]);
    // The waitlisted colleague never had an invite: no CANCEL, but told.
    expect(await invitesTo(w.colleague.email)).toEqual([]);
    expect((await noticesOf(w.colleague.id)).map((n) => n.title)).toEqual([
      expect.stringMatching(/^Waiting list: /),
      expect.stringMatching(/^Session cancelled: /),
    ]);
  });

  it('no invites where the organisation turned them off; no manager notices where it said so', async () => {
    const w = await world({ sendInvites: false, notifyManagers: false });
    const d = await buildDelegate(h.db, {
      sessionId: w.session.id,
      userId: w.learner.id,
      entityId: w.site.id,
      status: 'accepted',
    });
    await onDelegate(d.id, 'booked');
    expect(await invitesTo(w.learner.email)).toEqual([]);
    const jobs = await h.db
      .selectFrom('jobs')
      .select('id')
      .where('name', '=', BOOKING_INVITE)
      .where(sql`payload->>'delegate_id'`, '=', String(d.id))
      .execute();
    expect(jobs).toEqual([]);
    expect(await noticesOf(w.learner.id)).toHaveLength(1);
    expect(await noticesOf(w.manager.id)).toEqual([]);
  });

  it("a manager who books someone is not told of their own booking; the delegate's other managers are", async () => {
    const w = await world();
    const second = await buildUser(h.db, {
      entityId: w.home.id,
      name: 'Gus Group',
      permissions: [DashboardsPerm.managerDashboard],
    });
    const d = await buildDelegate(h.db, {
      sessionId: w.session.id,
      userId: w.learner.id,
      entityId: w.site.id,
      status: 'accepted',
    });
    await h.db
      .updateTable('session_delegates')
      .set({ booked_by: w.manager.id })
      .where('id', '=', d.id)
      .execute();
    await onDelegate(d.id, 'booked');
    expect(await noticesOf(w.manager.id)).toEqual([]);
    expect((await noticesOf(second.id)).map((n) => n.title)).toEqual([
      expect.stringMatching(/^Casey Learner is booked: /),
    ]);
  });

  it('an offered place tells the claim deadline and sends no invite until claimed', async () => {
    const w = await world();
    const d = await buildDelegate(h.db, {
      sessionId: w.session.id,
      userId: w.learner.id,
      entityId: w.site.id,
      status: 'offered',
      offerExpiresAt: new Date(Date.UTC(2031, 2, 5, 17, 0)),
    });
    await onDelegate(d.id, 'offered');
    expect(await invitesTo(w.learner.email)).toEqual([]);
    const [notice] = await noticesOf(w.learner.id);
    expect(notice?.title).toMatch(/^A place is free: /);
    expect(notice?.body).toContain('Claim it by 05/03/2031 17:00');
    await setDelegateStatus(h.db, d.id, 'accepted');
    await onDelegate(d.id, 'accepted');
    expect((await invitesTo(w.learner.email)).map((i) => i.method)).toEqual(['REQUEST']);
  });
});

describe('a day dropped from a multi-day session', () => {
  it('is cancelled on its own (its old UID and times), while the other day is updated', async () => {
    const w = await world();
    const d = await buildDelegate(h.db, {
      sessionId: w.session.id,
      userId: w.learner.id,
      entityId: w.site.id,
      status: 'accepted',
    });
    await onDelegate(d.id, 'booked');
    const secondDay = new Date(w.start.getTime() + DAY).toISOString();
    await h.db
      .deleteFrom('training_session_dates')
      .where('session_id', '=', w.session.id)
      .where('position', '=', 1)
      .execute();
    await onSession(w.session.id, 'updated');
    const invites = await invitesTo(w.learner.email);
    expect(invites.map((i) => [i.method, i.subject.split(':')[0]])).toEqual([
      ['REQUEST', 'Invitation'],
      ['REQUEST', 'Updated invitation'],
      ['CANCEL', 'Day removed'],
    ]);
    expect(invites[1]?.events.map((e) => [e.uid, e.sequence])).toEqual([[`${w.session.uuid}-0@${HOST}`, 2]]);
    expect(invites[2]?.events.map((e) => [e.uid, e.sequence, e.status, e.start])).toEqual([
      [`${w.session.uuid}-1@${HOST}`, 2, 'CANCELLED', secondDay],
    ]);
    // Removed afterwards: the CANCEL covers the day still booked (the dropped one is already cancelled).
    await setDelegateStatus(h.db, d.id, 'deleted');
    await onDelegate(d.id, 'removed');
    const last = (await invitesTo(w.learner.email)).at(-1);
    expect(last?.method).toBe('CANCEL');
    expect(last?.events.map((e) => [e.uid, e.sequence])).toEqual([[`${w.session.uuid}-0@${HOST}`, 3]]);
  });
});

describe('/api/users/{id}/calendar-feed and /api/calendar/{token}.ics', () => {
  it('401 without sign-in; 403 for someone else in scope; 404 for another organisation', async () => {
    const w = await world();
    const url = `/api/users/${w.learner.id}/calendar-feed`;
    expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'POST', url })).statusCode).toBe(401);
    const manager = await clientFor(h.app, h.db, w.manager.id);
    expect((await manager('GET', url)).statusCode).toBe(403);
    expect((await manager('POST', url)).statusCode).toBe(403);
    const outsider = await clientFor(h.app, h.db, (await buildUser(h.db)).id);
    expect((await outsider('GET', url)).statusCode).toBe(404);
    expect((await outsider('DELETE', url)).statusCode).toBe(404);
    const feeds = await h.db
      .selectFrom('calendar_feeds')
      .select('id')
      .where('user_id', '=', w.learner.id)
      .execute();
    expect(feeds).toEqual([]);
  });

  it('makes a link shown once, serves the sessions held without sign-in, and a revoked link is 404', async () => {
    const w = await world();
    const held = await buildDelegate(h.db, {
      sessionId: w.session.id,
      userId: w.learner.id,
      entityId: w.site.id,
      status: 'accepted',
    });
    // Not held: waitlisted elsewhere; long past: out of the feed.
    const other = await buildSession(h.db, { entityId: w.company.id });
    await buildDelegate(h.db, {
      sessionId: other.id,
      userId: w.learner.id,
      entityId: w.site.id,
      status: 'waitlisted',
    });
    const old = await buildSession(h.db, {
      entityId: w.company.id,
      days: [{ start: new Date(Date.now() - 200 * DAY) }],
    });
    await buildDelegate(h.db, {
      sessionId: old.id,
      userId: w.learner.id,
      entityId: w.site.id,
      status: 'accepted',
    });
    expect(held.id).toBeGreaterThan(0);

    const me = await clientFor(h.app, h.db, w.learner.id);
    const url = `/api/users/${w.learner.uuid}/calendar-feed`;
    expect((await me('GET', url)).json().data).toEqual({
      active: false,
      url: null,
      created_at: null,
      last_used_at: null,
    });
    const made = await me('POST', url);
    expect(made.statusCode).toBe(201);
    expect(made.json().message).toBe(BookingsMessages.calendarFeedCreated);
    const link = made.json().data.url as string;
    expect(link).toMatch(/^http:\/\/localhost:3000\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    const path = new URL(link).pathname;
    // Shown once: GET says active but not the URL; only the hash is stored.
    expect((await me('GET', url)).json().data).toMatchObject({ active: true, url: null, last_used_at: null });
    const token = path.split('/').at(-1)?.replace('.ics', '') ?? '';
    const stored = await h.db
      .selectFrom('calendar_feeds')
      .select('token_hash')
      .where('user_id', '=', w.learner.id)
      .execute();
    expect(stored.map((s) => s.token_hash)).not.toContain(token);

    const feed = await h.app.inject({ method: 'GET', url: path });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toContain('text/calendar');
    expect(feed.headers['set-cookie']).toBeUndefined();
    const calendar = new ICAL.Component(ICAL.parse(feed.body));
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    const uids = calendar.getAllSubcomponents('vevent').map((v) => v.getFirstPropertyValue('uid'));
    expect(uids).toEqual([`${w.session.uuid}-0@${HOST}`, `${w.session.uuid}-1@${HOST}`]);
    expect((await me('GET', url)).json().data.last_used_at).not.toBeNull();

    // A new link revokes the old one.
    const again = await me('POST', url);
    const path2 = new URL(again.json().data.url).pathname;
    expect((await h.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'GET', url: path2 })).statusCode).toBe(200);
    const revoked = await me('DELETE', url);
    expect(revoked.json()).toMatchObject({
      message: BookingsMessages.calendarFeedRevoked,
      data: { active: false, url: null },
    });
    expect((await h.app.inject({ method: 'GET', url: path2 })).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'GET', url: '/api/calendar/not-a-token.ics' })).statusCode).toBe(
      404,
    );
    expect(
      (await h.app.inject({ method: 'GET', url: `/api/calendar/${'A'.repeat(43)}.ics` })).statusCode,
    ).toBe(404);
  });
});

describe('/api/training-sessions/{id}/calendar.ics', () => {
  it("401 anonymous, 404 without a booking (or for another organisation), the caller's booking as PUBLISH", async () => {
    const w = await world();
    await buildDelegate(h.db, {
      sessionId: w.session.id,
      userId: w.learner.id,
      entityId: w.site.id,
      status: 'accepted',
    });
    const url = `/api/training-sessions/${w.session.id}/calendar.ics`;
    expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const colleague = await clientFor(h.app, h.db, w.colleague.id);
    expect((await colleague('GET', url)).statusCode).toBe(404);
    const outsider = await clientFor(h.app, h.db, (await buildUser(h.db)).id);
    expect((await outsider('GET', url)).statusCode).toBe(404);
    expect((await colleague('GET', '/api/training-sessions/999999999/calendar.ics')).statusCode).toBe(404);
    const me = await clientFor(h.app, h.db, w.learner.id);
    const res = await me('GET', `/api/training-sessions/${w.session.uuid}/calendar.ics`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/calendar');
    const calendar = new ICAL.Component(ICAL.parse(res.body));
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(calendar.getAllSubcomponents('vevent')).toHaveLength(2);
  });
});

describe('invites through the session routes', () => {
  it('PATCH of a session sends an updated REQUEST; cancelling it sends CANCEL', async () => {
    const w = await world();
    const manager = await buildUser(h.db, {
      entityId: w.company.id,
      permissions: [BookingsPerm.createBookings, BookingsPerm.editBooking],
    });
    const c = await clientFor(h.app, h.db, manager.id);
    const d = await buildDelegate(h.db, {
      sessionId: w.session.id,
      userId: w.learner.id,
      entityId: w.site.id,
      status: 'accepted',
    });
    await onDelegate(d.id, 'booked');
    const patched = await c('PATCH', `/api/training-sessions/${w.session.id}`, { venue: 'Another Hall' });
    expect(patched.statusCode, patched.body).toBe(200);
    const reason = await h.db.selectFrom('cancellation_reasons').select('id').executeTakeFirstOrThrow();
    const cancelled = await c('POST', `/api/training-sessions/${w.session.id}/cancel`, {
      cancellation_reason_id: reason.id,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const invites = await invitesTo(w.learner.email);
    expect(invites.map((i) => [i.method, i.events[0]?.sequence])).toEqual([
      ['REQUEST', 1],
      ['REQUEST', 2],
      ['CANCEL', 3],
    ]);
    expect(new Set(invites.flatMap((i) => i.events.map((e) => e.uid))).size).toBe(2);
  });
});
