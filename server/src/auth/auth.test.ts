import { CSRF_COOKIE, SESSION_COOKIE } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildUser, signedInBearer, TEST_PASSWORD } from '../../test/factories';
import { cookiesOf, createHarness, type Harness, webLogin } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('web login (spec 1 §4, §7)', () => {
  it('sets the XSRF-TOKEN cookie and no session cookie while signed out (issue 11 §12)', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
    expect(res.statusCode).toBe(204);
    const jar = cookiesOf(res);
    expect(jar[CSRF_COOKIE]).toBeTruthy();
    expect(jar[SESSION_COOKIE]).toBeUndefined();
  });

  it('logs in with cookie and XSRF header, then reads /api/auth/user', async () => {
    const user = await buildUser(h.db, { permissions: [21, 22] });
    const web = await webLogin(h.app, user.email, TEST_PASSWORD);
    expect(web.login.statusCode).toBe(200);
    expect(web.login.json().data.email).toBe(user.email);
    const me = await h.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      cookies: web.cookies(),
      headers: web.headers(),
    });
    expect(me.statusCode).toBe(200);
    const body = me.json().data;
    expect(body).toMatchObject({
      id: user.id,
      uuid: user.uuid,
      super_admin: false,
      emailVerified: true,
      is_trainer: false,
    });
    expect(body.primary_entity.slug).toBeTruthy();
    expect(body.a_entity).toHaveProperty('can_see_new_dashboards');
    expect(body.permissions.map((p: { id: number }) => p.id).sort()).toEqual([21, 22]);
    expect(body.type).toEqual({ id: user.type.id, name: user.type.name });
  });

  it('issues a new session id at login, replacing the session the browser had', async () => {
    const user = await buildUser(h.db);
    const first = await webLogin(h.app, user.email, TEST_PASSWORD);
    const login = await h.app.inject({
      method: 'POST',
      url: '/login',
      cookies: first.cookies(),
      headers: first.headers(),
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const after = cookiesOf(login);
    expect(after[SESSION_COOKIE]).toBeTruthy();
    expect(after[SESSION_COOKIE]).not.toBe(first.jar[SESSION_COOKIE]);
    expect(after[CSRF_COOKIE]).not.toBe(first.jar[CSRF_COOKIE]);
    // The replaced session is gone: its cookie no longer authenticates a state change.
    const old = await h.app.inject({
      method: 'POST',
      url: '/logout',
      cookies: first.cookies(),
      headers: first.headers(),
    });
    expect(old.statusCode).toBe(419);
  });

  it('answers 419 without the XSRF header or with a wrong one', async () => {
    const csrf = await h.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
    const jar = cookiesOf(csrf);
    const missing = await h.app.inject({
      method: 'POST',
      url: '/login',
      cookies: jar,
      payload: { email: 'a@b.test', password: 'x' },
    });
    expect(missing.statusCode).toBe(419);
    const wrong = await h.app.inject({
      method: 'POST',
      url: '/login',
      cookies: jar,
      headers: { 'x-xsrf-token': 'nope' },
      payload: { email: 'a@b.test', password: 'x' },
    });
    expect(wrong.statusCode).toBe(419);
    expect(wrong.json().message).toBe('CSRF token mismatch.');
    const noSession = await h.app.inject({
      method: 'POST',
      url: '/login',
      payload: { email: 'a@b.test', password: 'x' },
    });
    expect(noSession.statusCode).toBe(419);
  });

  it('rejects bad input with 422 and field errors', async () => {
    const csrf = await h.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
    const jar = cookiesOf(csrf);
    const res = await h.app.inject({
      method: 'POST',
      url: '/login',
      cookies: jar,
      headers: { 'x-xsrf-token': jar[CSRF_COOKIE] },
      payload: { email: 'not-an-email' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email).toBeDefined();
    expect(res.json().errors.password).toBeDefined();
  });

  it('rejects wrong credentials with 422 and records a failed login', async () => {
    const user = await buildUser(h.db);
    const web = await webLogin(h.app, user.email, 'wrong-password');
    expect(web.login.statusCode).toBe(422);
    expect(web.login.json().errors.email[0]).toBe('These credentials do not match our records.');
    const events = await h.db.selectFrom('auth_events').selectAll().where('user_id', '=', user.id).execute();
    expect(events.map((e) => e.event)).toEqual(['failed_login']);
  });

  it('rate-limits login per account with 429 (growing delays: auth/throttle.test.ts)', async () => {
    const user = await buildUser(h.db);
    const at = new Date(); // one moment: the 1 s delay after the third failure cannot run out under a slow machine
    h.deps.clock = () => at;
    try {
      for (let i = 0; i < 3; i++)
        expect((await webLogin(h.app, user.email, 'wrong')).login.statusCode).toBe(422);
      const blocked = await webLogin(h.app, user.email, TEST_PASSWORD);
      expect(blocked.login.statusCode).toBe(429);
      expect(blocked.login.json().message).toMatch(/Too many login attempts/);
    } finally {
      h.deps.clock = () => new Date();
    }
  });

  it('logs out, records the event, and the session stops working', async () => {
    const user = await buildUser(h.db);
    const web = await webLogin(h.app, user.email, TEST_PASSWORD);
    const out = await h.app.inject({
      method: 'POST',
      url: '/logout',
      cookies: web.cookies(),
      headers: web.headers(),
    });
    expect(out.statusCode).toBe(200);
    const me = await h.app.inject({ method: 'GET', url: '/api/auth/user', cookies: web.cookies() });
    expect(me.statusCode).toBe(401);
    const events = await h.db
      .selectFrom('auth_events')
      .select('event')
      .where('user_id', '=', user.id)
      .orderBy('id')
      .execute();
    expect(events.map((e) => e.event)).toEqual(['login', 'logout']);
  });
});

describe('mobile login (spec 1 §7)', () => {
  it('returns a bearer token that authenticates without cookies or XSRF', async () => {
    const user = await buildUser(h.db, { permissions: [21] });
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD, device_name: 'Google Pixel 8' },
    });
    expect(res.statusCode).toBe(200);
    const { token } = res.json().data;
    expect(token).toMatch(/^\d+\|/);
    const stored = await h.db
      .selectFrom('personal_access_tokens')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(stored.name).toBe('Google Pixel 8');
    expect(stored.token_hash).not.toContain(token.split('|')[1]);
    const me = await h.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.json().data.id).toBe(user.id);
    const out = await h.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.statusCode).toBe(200);
    const again = await h.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(again.statusCode).toBe(401);
  });

  it('requires device_name', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'x@y.test', password: 'p' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.device_name).toBeDefined();
  });

  it('ends another session of the same user, and not one of another user (404)', async () => {
    const user = await buildUser(h.db);
    const other = await buildUser(h.db);
    const mine = await signedInBearer(h.db, user.id);
    const phone = await h.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD, device_name: 'phone' },
    });
    const phoneToken = phone.json().data.token as string;
    const otherWeb = await webLogin(h.app, other.email, TEST_PASSWORD);
    const otherSessions = await h.app.inject({
      method: 'GET',
      url: '/api/auth/sessions',
      cookies: otherWeb.cookies(),
    });
    const otherSessionId = otherSessions.json().data[0].id;
    const denied = await h.app.inject({
      method: 'POST',
      url: `/api/auth/logout/${otherSessionId}`,
      headers: mine,
    });
    expect(denied.statusCode).toBe(404);
    const ended = await h.app.inject({
      method: 'POST',
      url: `/api/auth/logout/${phoneToken.split('|')[0]}`,
      headers: mine,
    });
    expect(ended.statusCode).toBe(200);
    expect(
      (
        await h.app.inject({
          method: 'GET',
          url: '/api/auth/user',
          headers: { authorization: `Bearer ${phoneToken}` },
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('permissions of the caller', () => {
  it('checks all or any; super_admin passes', async () => {
    const user = await buildUser(h.db, { permissions: [21, 22] });
    const headers = await bearer(h.db, user.id);
    const check = (permission_ids: number[], mode?: string) =>
      h.app
        .inject({
          method: 'POST',
          url: '/api/auth/permission-check',
          headers,
          payload: { permission_ids, mode },
        })
        .then((r) => r.json().data.allowed);
    expect(await check([21, 22])).toBe(true);
    expect(await check([21, 3])).toBe(false);
    expect(await check([21, 3], 'any')).toBe(true);
    const admin = await buildUser(h.db, { superAdmin: true });
    const adminHeaders = await bearer(h.db, admin.id);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/auth/permission-check',
      headers: adminHeaders,
      payload: { permission_ids: [1, 2, 3] },
    });
    expect(res.json().data.allowed).toBe(true);
    const bad = await h.app.inject({
      method: 'POST',
      url: '/api/auth/permission-check',
      headers,
      payload: { permission_ids: [] },
    });
    expect(bad.statusCode).toBe(422);
  });

  it('limits effective permissions to what the entity allows', async () => {
    const entity = await buildEntity(h.db, { allowed: [21] });
    const user = await buildUser(h.db, { entityId: entity.id, permissions: [21, 22] });
    const res = await h.app.inject({
      method: 'GET',
      url: '/api/auth/permissions',
      headers: await bearer(h.db, user.id),
    });
    expect(res.json().data.map((p: { id: number }) => p.id)).toEqual([21]);
  });

  it('answers 401 to anonymous calls', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user' })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/permissions' })).statusCode).toBe(401);
  });
});

describe('system', () => {
  it('answers version, time and check', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/version' })).json()).toEqual({
      major: 1,
      minor: 0,
      patch: 0,
    });
    expect(Date.parse((await h.app.inject({ method: 'GET', url: '/api/time' })).json().data)).toBeGreaterThan(
      0,
    );
    expect((await h.app.inject({ method: 'GET', url: '/api/check' })).json().data.status).toBe('ok');
  });
});
