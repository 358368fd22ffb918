import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildUser, clientFor, TEST_PASSWORD } from '../../test/factories';
import { createHarness, type Harness, webLogin } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const as = async (userId: number) => clientFor(h.app, h.db, userId);
const MINUTE = 60_000;
const ago = (minutes: number) => new Date(Date.now() - minutes * MINUTE);

type EventKind = 'login' | 'logout' | 'failed_login' | 'password_reset' | 'password_changed';
async function authEvent(
  user: { id: number; primary_entity_id: number },
  event: EventKind,
  at: Date,
  o: { ip?: string; agent?: string; via?: string } = {},
) {
  await h.db
    .insertInto('auth_events')
    .values({
      event,
      user_id: user.id,
      entity_id: user.primary_entity_id,
      email: null,
      ip: o.ip ?? '203.0.113.9',
      user_agent: o.agent ?? 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36',
      via: o.via ?? 'web',
      created_at: at,
    })
    .execute();
}

async function signedIn(user: { id: number; primary_entity_id: number }, at: Date, session?: Date) {
  await authEvent(user, 'login', at);
  await h.db.updateTable('users').set({ last_login_at: at }).where('id', '=', user.id).execute();
  if (session)
    await h.db
      .insertInto('sessions')
      .values({
        id: randomUUID(),
        user_id: user.id,
        csrf_token: 'x',
        ip: null,
        user_agent: null,
        created_at: at,
        last_activity_at: session,
        expires_at: new Date(Date.now() + 60 * MINUTE),
      })
      .execute();
}

/** A group with two homes; the manager at the top holds 67, 91, 21, 23. */
async function group() {
  const org = await buildEntity(h.db, { name: 'Maple Group' });
  const homeA = await buildEntity(h.db, { parentId: org.id, name: 'Oak Home' });
  const homeB = await buildEntity(h.db, { parentId: org.id, name: 'Elm Home' });
  const manager = await buildUser(h.db, {
    entityId: org.id,
    permissions: [67, 91, 21, 23],
    name: 'Mia Manager',
  });
  const online = await buildUser(h.db, { entityId: homeA.id, name: 'Olive Online' });
  const recent = await buildUser(h.db, { entityId: homeB.id, name: 'Rita Recent' });
  const old = await buildUser(h.db, { entityId: homeA.id, name: 'Oscar Old' });
  const never = await buildUser(h.db, { entityId: homeA.id, name: 'Nina Never' });
  await signedIn(online, ago(60), ago(2));
  await signedIn(recent, ago(3 * 24 * 60));
  await signedIn(old, ago(45 * 24 * 60));
  return { org, homeA, homeB, manager, online, recent, old, never };
}

describe('GET /auth-events/active', () => {
  it('answers 401 anonymous, 403 without permission 67, 422 for bad input', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/auth-events/active' })).statusCode).toBe(401);
    const { manager, online } = await group();
    expect((await (await as(online.id))('GET', '/api/auth-events/active')).statusCode).toBe(403);
    const bad = await (await as(manager.id))('GET', '/api/auth-events/active?page=0&entityIds=abc');
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(expect.arrayContaining(['page', 'entityIds.0']));
  });

  it('lists who signed in within 30 days or is online now, online first, with sessions and device', async () => {
    const g = await group();
    const res = await (await as(g.manager.id))('GET', '/api/auth-events/active?deep=1');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // The manager is online too: their own requests count.
    expect(body.data.map((u: { name: string }) => u.name)).toEqual([
      'Olive Online',
      'Mia Manager',
      'Rita Recent',
    ]);
    const [olive, mia, rita] = body.data;
    expect(mia).toMatchObject({ online: true, last_login_at: null });
    expect(olive).toMatchObject({
      online: true,
      active_sessions: 1,
      via: 'web',
      primary_entity: { name: 'Oak Home' },
      email: g.online.email,
    });
    expect(olive.device).toContain('Chrome');
    expect(rita).toMatchObject({ online: false, active_sessions: 0 });
    expect(body.meta.total).toBe(3);
    // Without deep: the base entity only.
    const shallow = await (await as(g.manager.id))('GET', '/api/auth-events/active');
    expect(shallow.json().data.map((u: { name: string }) => u.name)).toEqual(['Mia Manager']);
  });

  it('searches name and e-mail, narrows to entityIds, and pages', async () => {
    const g = await group();
    const get = await as(g.manager.id);
    const byName = (await get('GET', '/api/auth-events/active?deep=1&search=rita')).json();
    expect(byName.data.map((u: { name: string }) => u.name)).toEqual(['Rita Recent']);
    const byEmail = (await get('GET', `/api/auth-events/active?deep=1&search=${g.online.email}`)).json();
    expect(byEmail.data.map((u: { name: string }) => u.name)).toEqual(['Olive Online']);
    const home = (await get('GET', `/api/auth-events/active?entityIds=${g.homeB.id}`)).json();
    expect(home.data.map((u: { name: string }) => u.name)).toEqual(['Rita Recent']);
    const paged = (await get('GET', '/api/auth-events/active?deep=1&per_page=1&page=3')).json();
    expect(paged.data.map((u: { name: string }) => u.name)).toEqual(['Rita Recent']);
    expect(paged.meta).toMatchObject({ total: 3, last_page: 3 });
  });

  it('never shows people of another organisation: their ids answer 404', async () => {
    const g = await group();
    const other = await group();
    const get = await as(g.manager.id);
    expect((await get('GET', `/api/auth-events/active?entityIds=${other.homeA.id}`)).statusCode).toBe(404);
    const all = (await get('GET', '/api/auth-events/active?deep=1&per_page=100&search=Olive')).json();
    expect(all.data.map((u: { id: number }) => u.id)).toEqual([g.online.id]);
  });

  it('records a real sign-in (POST /login) as the user signing in', async () => {
    const org = await buildEntity(h.db);
    const manager = await buildUser(h.db, { entityId: org.id, permissions: [67] });
    const carer = await buildUser(h.db, { entityId: org.id, name: 'Carla Carer' });
    const { login } = await webLogin(h.app, carer.email, TEST_PASSWORD);
    expect(login.statusCode).toBeLessThan(300);
    const res = (await (await as(manager.id))('GET', '/api/auth-events/active')).json();
    const carla = res.data.find((u: { id: number }) => u.id === carer.id);
    expect(carla).toMatchObject({ online: true, active_sessions: 1, email: null });
  });
});

describe('POST /auth-events/{entity}/metrics', () => {
  const metrics = async (userId: number, entity: string | number, body: object) =>
    (await as(userId))('POST', `/api/auth-events/${entity}/metrics`, body);

  it('counts sign-ins, people and failed sign-ins per UK hour, every hour present', async () => {
    const org = await buildEntity(h.db);
    const home = await buildEntity(h.db, { parentId: org.id });
    const manager = await buildUser(h.db, { entityId: org.id, permissions: [67] });
    const a = await buildUser(h.db, { entityId: home.id });
    const b = await buildUser(h.db, { entityId: home.id });
    // 1 July (BST, UTC+1): 08:10Z and 08:50Z are 09:xx in the UK; 23:30Z on 30 June is 00:30 on 1 July.
    await authEvent(a, 'login', new Date('2026-07-01T08:10:00Z'));
    await authEvent(a, 'login', new Date('2026-07-01T08:50:00Z'));
    await authEvent(b, 'login', new Date('2026-07-01T08:55:00Z'));
    await authEvent(b, 'failed_login', new Date('2026-07-01T08:54:00Z'));
    await authEvent(a, 'login', new Date('2026-06-30T23:30:00Z'));
    await authEvent(a, 'logout', new Date('2026-07-01T09:30:00Z'));
    await authEvent(a, 'login', new Date('2026-07-01T23:30:00Z')); // 2 July 00:30 UK: outside

    const res = await metrics(manager.id, org.slug, {
      entity: org.slug,
      fromDate: '2026-07-01',
      toDate: '2026-07-01',
      period: 'h',
      deep: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = res.json().data;
    expect(data).toHaveLength(24);
    expect(data[0]).toEqual({ start: '2026-07-01T00:00', sign_ins: 1, users: 1, failed: 0 });
    expect(data[9]).toEqual({ start: '2026-07-01T09:00', sign_ins: 3, users: 2, failed: 1 });
    expect(data[5]).toEqual({ start: '2026-07-01T05:00', sign_ins: 0, users: 0, failed: 0 });
    expect(res.json().data.totals).toEqual({ sign_ins: 4, users: 2, failed: 1 });

    // Not deep: the group entity itself has no sign-ins.
    const shallow = await metrics(manager.id, org.id, {
      fromDate: '2026-07-01',
      toDate: '2026-07-01',
      period: 'h',
    });
    expect(shallow.json().data.totals.sign_ins).toBe(0);

    // By day over a week, by month over a year: zeros where nothing happened.
    const days = (
      await metrics(manager.id, org.slug, {
        fromDate: '2026-06-28',
        toDate: '2026-07-04',
        period: 'd',
        deep: true,
      })
    ).json().data.data;
    expect(days.map((d: { sign_ins: number }) => d.sign_ins)).toEqual([0, 0, 0, 4, 1, 0, 0]);
    const months = (
      await metrics(manager.id, org.slug, {
        fromDate: '2026-01-01',
        toDate: '2026-12-31',
        period: 'm',
        deep: true,
      })
    ).json().data.data;
    expect(months).toHaveLength(12);
    expect(months[6]).toMatchObject({ start: '2026-07-01T00:00', sign_ins: 5, users: 2 });
    const weeks = (
      await metrics(manager.id, org.slug, {
        fromDate: '2026-06-29',
        toDate: '2026-07-12',
        period: 'w',
        deep: true,
      })
    ).json().data.data;
    expect(weeks.map((w: { start: string }) => w.start)).toEqual(['2026-06-29T00:00', '2026-07-06T00:00']);
  });

  it('answers 422 with the envelope for a reversed, unreal or too long range', async () => {
    const org = await buildEntity(h.db);
    const manager = await buildUser(h.db, { entityId: org.id, permissions: [67] });
    const reversed = await metrics(manager.id, org.slug, {
      fromDate: '2026-07-02',
      toDate: '2026-07-01',
      period: 'd',
    });
    expect(reversed.statusCode).toBe(422);
    expect(reversed.json().errors.fromDate).toBeDefined();
    expect(reversed.json().message).toBeTruthy();
    const tooLong = await metrics(manager.id, org.slug, {
      fromDate: '2026-01-01',
      toDate: '2026-03-01',
      period: 'h',
    });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().errors.toDate[0]).toMatch(/At most 31 days/);
    const unreal = await metrics(manager.id, org.slug, {
      fromDate: '2026-02-31',
      toDate: '2026-03-01',
      period: 'd',
    });
    expect(unreal.statusCode).toBe(422);
    const badPeriod = await metrics(manager.id, org.slug, {
      fromDate: '2026-01-01',
      toDate: '2026-01-01',
      period: 'y',
    });
    expect(badPeriod.statusCode).toBe(422);
    expect(badPeriod.json().errors.period).toBeDefined();
  });

  it('answers 403 without 67 and 404 for another organisation or a missing entity', async () => {
    const org = await buildEntity(h.db);
    const other = await buildEntity(h.db);
    const manager = await buildUser(h.db, { entityId: org.id, permissions: [67] });
    const carer = await buildUser(h.db, { entityId: org.id });
    const body = { fromDate: '2026-07-01', toDate: '2026-07-01', period: 'h' };
    expect((await metrics(carer.id, org.slug, body)).statusCode).toBe(403);
    expect((await metrics(manager.id, other.slug, body)).statusCode).toBe(404);
    expect((await metrics(manager.id, other.id, body)).statusCode).toBe(404);
    expect((await metrics(manager.id, 'no-such-org', body)).statusCode).toBe(404);
  });
});

describe('GET /users/{id}/auth-events', () => {
  it("lists the user's account activity newest first, paged", async () => {
    const g = await group();
    await authEvent(g.online, 'failed_login', ago(50), { ip: '198.51.100.7' });
    await authEvent(g.online, 'password_reset', ago(40));
    await authEvent(g.online, 'logout', ago(30));
    const get = await as(g.manager.id);
    const res = await get('GET', `/api/users/${g.online.uuid}/auth-events?per_page=2`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data.map((e: { event: string }) => e.event)).toEqual(['logout', 'password_reset']);
    expect(body.meta.total).toBe(4);
    const page2 = (await get('GET', `/api/users/${g.online.id}/auth-events?per_page=2&page=2`)).json();
    expect(page2.data.map((e: { event: string }) => e.event)).toEqual(['failed_login', 'login']);
    expect(page2.data[0]).toMatchObject({ ip: '198.51.100.7', via: 'web' });
  });

  it('answers 404 for a user of another organisation, 403 without 91, and the user their own', async () => {
    const g = await group();
    const other = await group();
    expect(
      (await (await as(g.manager.id))('GET', `/api/users/${other.online.uuid}/auth-events`)).statusCode,
    ).toBe(404);
    const noPerm = await buildUser(h.db, { entityId: g.org.id, permissions: [21] });
    expect((await (await as(noPerm.id))('GET', `/api/users/${g.online.uuid}/auth-events`)).statusCode).toBe(
      403,
    );
    const own = await (await as(g.online.id))('GET', `/api/users/${g.online.uuid}/auth-events`);
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toHaveLength(1);
    expect((await (await as(g.manager.id))('GET', '/api/users/999999/auth-events')).statusCode).toBe(404);
  });
});
