import { CSRF_COOKIE, Messages, PASSWORD_CONFIRM_MINUTES, Perm, SESSION_COOKIE } from '@cc/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { bearer, buildUser, signedInBearer, TEST_PASSWORD } from '../../test/factories';
import { cookiesOf, createHarness, type Harness, webLogin } from '../../test/harness';
import { closeSocketsOf } from '../realtime/socket-registry';
import { registerAllJobs } from '../register-jobs';
import { personalTokenHeaders } from '../tokens/tenancy-tokens';
import { guest, lastMail, linkIn, runJobs } from './flows-test-support';
import { createAccessToken, purgeExpiredCredentials, sessionLifetimeOf } from './queries';

/**
 * Issue 11 §4, §10, §12: sessions and device tokens end (logout, password change or reset, ending one from
 * "Sessions and devices", absolute lifetime, token expiry), and so do the websockets that used them; a signed-out
 * browser's csrf cookie stores nothing.
 */

let h: Harness;
const realClock = () => new Date();
// A long idle lifetime, so the absolute one is what ends a session in these tests.
const IDLE_MINUTES = 48 * 60;
const ABSOLUTE_HOURS = 12;
const TOKEN_DAYS = 30;
beforeAll(async () => {
  h = await createHarness({
    sessionLifetimeMinutes: IDLE_MINUTES,
    sessionAbsoluteLifetimeHours: ABSOLUTE_HOURS,
    tokenLifetimeDays: TOKEN_DAYS,
  });
  registerAllJobs();
});
afterEach(() => {
  (h.deps as { clock: () => Date }).clock = realClock;
});
afterAll(async () => h?.close());

const NEW_PASSWORD = 'Quiet-Meadow-Lantern-81';
const at = (ms: number) => {
  (h.deps as { clock: () => Date }).clock = () => new Date(Date.now() + ms);
};
const HOUR = 3600_000;
const DAY = 24 * HOUR;

const status = async (o: { cookies?: Record<string, string>; headers?: Record<string, string> }) =>
  (await h.app.inject({ method: 'GET', url: '/api/auth/user', ...o })).statusCode;

// ---- websocket helpers (the realtime tests' pattern: src/matrix/routes.test.ts) ----

interface LiveSocket {
  ws: WebSocket;
  messages: Record<string, unknown>[];
  closed: Promise<number>;
  next(type: string): Promise<Record<string, unknown>>;
}

async function openSocket(o: { cookies?: Record<string, string>; token?: string }): Promise<LiveSocket> {
  if (!h.app.server.listening) await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as { port: number };
  const cookie = o.cookies
    ? Object.entries(o.cookies)
        .map(([k, v]) => `${k}=${v}`)
        .join('; ')
    : undefined;
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/ws`, { headers: cookie ? { cookie } : {} });
  const messages: Record<string, unknown>[] = [];
  const waiters: { type: string; resolve: (m: Record<string, unknown>) => void }[] = [];
  ws.on('message', (raw) => {
    const m = JSON.parse(String(raw));
    messages.push(m);
    for (const w of waiters.filter((x) => x.type === m.type)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(m);
    }
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const socket: LiveSocket = {
    ws,
    messages,
    closed,
    next: (type) => new Promise((resolve) => waiters.push({ type, resolve })),
  };
  if (o.token) {
    const authenticated = socket.next('authenticated');
    ws.send(JSON.stringify({ type: 'auth', token: o.token }));
    await authenticated;
  }
  // The socket answers: it is open and serving.
  const pong = socket.next('pong');
  ws.send(JSON.stringify({ type: 'ping' }));
  await pong;
  return socket;
}

/** The close code, or 'open' when the socket is still open after a grace period. */
const closeCodeOf = (s: LiveSocket, ms = 1500) =>
  Promise.race([s.closed, new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), ms))]);

const subscribe = (s: LiveSocket) =>
  s.ws.send(JSON.stringify({ type: 'subscribe', channel: 'matrix', id: 'm1', filters: {} }));

describe('the matrix websocket ends with its session or token (issue 11 §4)', () => {
  it('closes a browser socket at logout', async () => {
    const user = await buildUser(h.db, { permissions: [12, 14, 15] });
    const web = await webLogin(h.app, user.email, TEST_PASSWORD);
    const socket = await openSocket({ cookies: web.cookies() });
    const out = await h.app.inject({
      method: 'POST',
      url: '/logout',
      cookies: web.cookies(),
      headers: web.headers(),
    });
    expect(out.statusCode).toBe(200);
    expect(await closeCodeOf(socket)).toBe(4401);
    expect(socket.messages.at(-1)).toMatchObject({ type: 'error', status: 401 });
  });

  it('closes a device socket at mobile logout', async () => {
    const user = await buildUser(h.db, { permissions: [12, 14, 15] });
    const headers = await bearer(h.db, user.id);
    const socket = await openSocket({ token: headers.authorization.slice(7) });
    expect((await h.app.inject({ method: 'POST', url: '/api/auth/logout', headers })).statusCode).toBe(200);
    expect(await closeCodeOf(socket)).toBe(4401);
  });

  it("closes the other sessions' sockets at a password change, and keeps the caller's", async () => {
    const user = await buildUser(h.db, { permissions: [12, 14, 15, Perm.updatePassword] });
    const web = await webLogin(h.app, user.email, TEST_PASSWORD);
    const other = await webLogin(h.app, user.email, TEST_PASSWORD);
    const phone = await bearer(h.db, user.id);
    const mine = await openSocket({ cookies: web.cookies() });
    const others = await openSocket({ cookies: other.cookies() });
    const phones = await openSocket({ token: phone.authorization.slice(7) });
    const changed = await h.app.inject({
      method: 'POST',
      url: '/api/auth/update-password',
      cookies: web.cookies(),
      headers: web.headers(),
      payload: {
        current_password: TEST_PASSWORD,
        password: NEW_PASSWORD,
        password_confirmation: NEW_PASSWORD,
      },
    });
    expect(changed.statusCode).toBe(200);
    expect(await closeCodeOf(others)).toBe(4401);
    expect(await closeCodeOf(phones)).toBe(4401);
    expect(await closeCodeOf(mine, 200)).toBe('open');
    mine.ws.terminate();
  });

  it('closes every socket of the user at a password reset', async () => {
    const user = await buildUser(h.db, { permissions: [12, 14, 15] });
    const web = await webLogin(h.app, user.email, TEST_PASSWORD);
    const socket = await openSocket({ cookies: web.cookies() });
    const g = await guest(h.app);
    const post = (url: string, payload: object) =>
      h.app.inject({ method: 'POST', url, cookies: g.cookies(), headers: g.headers(), payload });
    expect((await post('/api/auth/forgot-password', { email: user.email })).statusCode).toBe(200);
    await runJobs(h);
    const link = linkIn((await lastMail(h, user.email, 'reset_password'))?.text_body ?? '', 'reset-password');
    const reset = await post('/api/auth/reset-password', {
      token: link.token,
      email: user.email,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(reset.statusCode).toBe(200);
    expect(await closeCodeOf(socket)).toBe(4401);
  });

  it('closes the socket of a session ended from "Sessions and devices"', async () => {
    const user = await buildUser(h.db, { permissions: [12, 14, 15] });
    const laptop = await webLogin(h.app, user.email, TEST_PASSWORD);
    const phone = await signedInBearer(h.db, user.id);
    const socket = await openSocket({ cookies: laptop.cookies() });
    const list = await h.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: phone });
    const session = list.json().data.find((s: { kind: string }) => s.kind === 'session');
    const ended = await h.app.inject({
      method: 'POST',
      url: `/api/auth/logout/${session.id}`,
      headers: phone,
    });
    expect(ended.statusCode).toBe(200);
    expect(await closeCodeOf(socket)).toBe(4401);
  });

  it('refuses a subscribe once the session has ended elsewhere (another server process)', async () => {
    const user = await buildUser(h.db, { permissions: [12, 14, 15] });
    const web = await webLogin(h.app, user.email, TEST_PASSWORD);
    const socket = await openSocket({ cookies: web.cookies() });
    // Another process deleted the row: this process's registry never heard of it.
    await h.db.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    subscribe(socket);
    expect(await closeCodeOf(socket)).toBe(4401);
    expect(socket.messages.some((m) => m.type === 'subscribed' || m.type === 'fetch_data')).toBe(false);
  });

  it("closeSocketsOf({ userId }) closes all of a user's sockets (for e-mail changes and the like)", async () => {
    const user = await buildUser(h.db, { permissions: [12, 14, 15] });
    const web = await webLogin(h.app, user.email, TEST_PASSWORD);
    const a = await openSocket({ cookies: web.cookies() });
    const b = await openSocket({ token: (await bearer(h.db, user.id)).authorization.slice(7) });
    expect(closeSocketsOf({ userId: user.id })).toBe(2);
    expect(await closeCodeOf(a)).toBe(4401);
    expect(await closeCodeOf(b)).toBe(4401);
  });
});

describe('session and token lifetimes (issue 11 §10)', () => {
  it('ends a web session at its absolute lifetime, however active', async () => {
    const user = await buildUser(h.db);
    const web = await webLogin(h.app, user.email, TEST_PASSWORD);
    at(6 * HOUR);
    expect(await status({ cookies: web.cookies() })).toBe(200);
    at(11 * HOUR);
    expect(await status({ cookies: web.cookies() })).toBe(200);
    at(ABSOLUTE_HOURS * HOUR + 60_000);
    expect(await status({ cookies: web.cookies() })).toBe(401);
  });

  it('issues a device token that expires after TOKEN_LIFETIME_DAYS', async () => {
    const user = await buildUser(h.db);
    const login = await h.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD, device_name: 'Pixel 8' },
    });
    const headers = { authorization: `Bearer ${login.json().data.token}` };
    const row = await h.db
      .selectFrom('personal_access_tokens')
      .select('expires_at')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.expires_at).not.toBeNull();
    at((TOKEN_DAYS - 1) * DAY);
    expect(await status({ headers })).toBe(200);
    at(TOKEN_DAYS * DAY + 60_000);
    expect(await status({ headers })).toBe(401);
  });

  it('ends a token stored without an expiry TOKEN_LIFETIME_DAYS after it was issued', async () => {
    const user = await buildUser(h.db);
    const token = await createAccessToken(h.db, { userId: user.id, name: 'old phone' });
    const headers = { authorization: `Bearer ${token.plainText}` };
    expect(await status({ headers })).toBe(200);
    at(TOKEN_DAYS * DAY + 60_000);
    expect(await status({ headers })).toBe(401);
  });

  it('sweeps expired sessions and tokens away, and names them for their sockets', async () => {
    const user = await buildUser(h.db);
    await webLogin(h.app, user.email, TEST_PASSWORD);
    await createAccessToken(h.db, { userId: user.id, name: 'tablet' });
    const ended = await purgeExpiredCredentials(h.db, new Date(Date.now() + TOKEN_DAYS * DAY + 60_000), {
      session: sessionLifetimeOf(h.deps.config),
      tokenDays: TOKEN_DAYS,
    });
    expect(ended.sessionIds.length).toBeGreaterThanOrEqual(1);
    expect(ended.tokenIds.length).toBeGreaterThanOrEqual(1);
    const left = await h.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute();
    expect(left).toEqual([]);
  });
});

describe('a user sees and ends their own sessions and devices (issue 11 §10)', () => {
  it('lists sessions and tokens with the current one marked', async () => {
    const user = await buildUser(h.db);
    const web = await webLogin(h.app, user.email, TEST_PASSWORD);
    await h.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD, device_name: 'Samsung Galaxy S24' },
    });
    const res = await h.app.inject({ method: 'GET', url: '/api/auth/sessions', cookies: web.cookies() });
    expect(res.statusCode).toBe(200);
    const rows = res.json().data as Record<string, unknown>[];
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ kind: 'session', current: true });
    expect(rows[1]).toMatchObject({ kind: 'token', name: 'Samsung Galaxy S24', current: false });
    for (const r of rows) {
      expect(typeof r.created_at).toBe('string');
      expect(typeof r.expires_at).toBe('string');
    }
  });

  it("never lists or ends another user's: 404 like a missing one", async () => {
    const user = await buildUser(h.db);
    const other = await buildUser(h.db);
    const mine = await signedInBearer(h.db, user.id);
    const theirs = await webLogin(h.app, other.email, TEST_PASSWORD);
    const theirToken = await createAccessToken(h.db, { userId: other.id, name: 'their phone' });
    const listed = await h.app.inject({ method: 'GET', url: '/api/auth/sessions', headers: mine });
    expect(listed.json().data.map((r: { name: string }) => r.name)).toEqual(['test']);
    const theirSession = (
      await h.app.inject({ method: 'GET', url: '/api/auth/sessions', cookies: theirs.cookies() })
    ).json().data[0].id;
    for (const id of [
      theirSession,
      String(theirToken.id),
      '00000000-0000-0000-0000-000000000000',
      '999999',
    ]) {
      const res = await h.app.inject({ method: 'POST', url: `/api/auth/logout/${id}`, headers: mine });
      expect(res.statusCode).toBe(404);
    }
    expect(await status({ cookies: theirs.cookies() })).toBe(200);
    expect(await status({ headers: { authorization: `Bearer ${theirToken.plainText}` } })).toBe(200);
  });

  it('ends every other session and device, keeping the current one', async () => {
    const user = await buildUser(h.db);
    const other = await buildUser(h.db);
    const web = await webLogin(h.app, user.email, TEST_PASSWORD);
    const second = await webLogin(h.app, user.email, TEST_PASSWORD);
    const phone = await bearer(h.db, user.id);
    const bystander = await bearer(h.db, other.id);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/auth/logout-others',
      cookies: web.cookies(),
      headers: web.headers(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(Messages.otherSessionsEnded);
    expect(await status({ cookies: web.cookies() })).toBe(200);
    expect(await status({ cookies: second.cookies() })).toBe(401);
    expect(await status({ headers: phone })).toBe(401);
    expect(await status({ headers: bystander })).toBe(200);
  });
});

describe('GET /sanctum/csrf-cookie stores nothing for a signed-out browser (issue 11 §12)', () => {
  const sessionRows = async () =>
    Number(
      (
        await h.db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('200 anonymous calls leave no new rows', async () => {
    const before = await sessionRows();
    for (let i = 0; i < 200; i++) {
      const res = await h.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
      expect(res.statusCode).toBe(204);
    }
    expect(await sessionRows()).toBe(before);
  });

  it('still lets that browser sign in with the token (and only with it)', async () => {
    const user = await buildUser(h.db);
    const g = await guest(h.app);
    expect(g.jar[SESSION_COOKIE]).toBeUndefined();
    const login = (headers: Record<string, string>, cookies: Record<string, string> = g.cookies()) =>
      h.app.inject({
        method: 'POST',
        url: '/login',
        cookies: Object.fromEntries(Object.entries(cookies).filter(([, v]) => v !== undefined)),
        headers,
        payload: { email: user.email, password: TEST_PASSWORD },
      });
    // A token not signed by this server, even echoed in the header, is refused.
    const forged = '0.abc.def';
    expect(
      (await login({ 'x-xsrf-token': forged }, { [CSRF_COOKIE]: forged } as Record<string, string>))
        .statusCode,
    ).toBe(419);
    expect((await login({ 'x-xsrf-token': 'nope' })).statusCode).toBe(419);
    const ok = await login(g.headers());
    expect(ok.statusCode).toBe(200);
    const jar = cookiesOf(ok);
    expect(jar[SESSION_COOKIE]).toBeTruthy();
    expect(jar[CSRF_COOKIE]).not.toBe(g.jar[CSRF_COOKIE]);
    expect(await status({ cookies: { [SESSION_COOKIE]: jar[SESSION_COOKIE]! } })).toBe(200);
  });

  it('refuses a guest token past the idle lifetime', async () => {
    const user = await buildUser(h.db);
    const g = await guest(h.app);
    at(IDLE_MINUTES * 60_000 + 60_000);
    const res = await h.app.inject({
      method: 'POST',
      url: '/login',
      cookies: { [CSRF_COOKIE]: g.jar[CSRF_COOKIE]! },
      headers: g.headers(),
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(419);
  });
});

describe('managing sessions and devices needs the password, recently (issue 29 §6)', () => {
  const sessionsOf = (o: { cookies?: Record<string, string>; headers?: Record<string, string> }) =>
    h.app.inject({ method: 'GET', url: '/api/auth/sessions', ...o });

  it('refuses a personal access token whatever its abilities: no list, no ending, and it cannot hide itself', async () => {
    const user = await buildUser(h.db, { permissions: [21] });
    const laptop = await webLogin(h.app, user.email, TEST_PASSWORD);
    const phone = await h.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD, device_name: 'Owner phone' },
    });
    const phoneHeaders = { authorization: `Bearer ${phone.json().data.token}` };
    const pat = await personalTokenHeaders(h.db, user.id, [21]); // one unrelated ability
    const patId = (
      await h.db
        .selectFrom('personal_access_tokens')
        .select('id')
        .where('user_id', '=', user.id)
        .where('kind', '=', 'personal')
        .executeTakeFirstOrThrow()
    ).id;
    const laptopId = (await sessionsOf({ cookies: laptop.cookies() })).json().data[0].id;

    const list = await sessionsOf({ headers: pat });
    expect(list.statusCode).toBe(403);
    expect(list.json().message).toBe(Messages.sessionsViaToken);
    expect(list.body).not.toContain('Owner phone');
    for (const url of [
      '/api/auth/logout-others',
      `/api/auth/logout/${laptopId}`,
      `/api/auth/logout/${String(patId)}`,
    ])
      expect((await h.app.inject({ method: 'POST', url, headers: pat })).statusCode, url).toBe(403);
    const confirm = await h.app.inject({
      method: 'POST',
      url: '/api/auth/confirm-password',
      headers: pat,
      payload: { password: TEST_PASSWORD },
    });
    expect(confirm.statusCode).toBe(403);
    // Everything of the owner still stands.
    expect(await status({ cookies: laptop.cookies() })).toBe(200);
    expect(await status({ headers: phoneHeaders })).toBe(200);
    expect(await status({ headers: pat })).toBe(200);

    // Signing itself out revokes it; it stays on the tokens page, marked revoked.
    expect((await h.app.inject({ method: 'POST', url: '/api/auth/logout', headers: pat })).statusCode).toBe(
      200,
    );
    expect(await status({ headers: pat })).toBe(401);
    const row = await h.db
      .selectFrom('personal_access_tokens')
      .select('revoked_at')
      .where('id', '=', patId)
      .executeTakeFirst();
    expect(row?.revoked_at).toBeInstanceOf(Date);
  });

  it('asks a session for its password again after 15 minutes (423), a wrong one counts, the right one opens it', async () => {
    const user = await buildUser(h.db);
    const web = await webLogin(h.app, user.email, TEST_PASSWORD);
    const second = await webLogin(h.app, user.email, TEST_PASSWORD);
    const browser = { cookies: web.cookies(), headers: web.headers() };
    // Signed in with the password a moment ago: allowed.
    const fresh = await sessionsOf(browser);
    expect(fresh.statusCode).toBe(200);
    const secondId = (fresh.json().data as { id: string; current: boolean }[]).find((r) => !r.current)?.id;

    at((PASSWORD_CONFIRM_MINUTES + 1) * 60_000);
    const stale = await sessionsOf(browser);
    expect(stale.statusCode).toBe(423);
    expect(stale.json().message).toBe(Messages.passwordConfirmationRequired);
    for (const url of ['/api/auth/logout-others', `/api/auth/logout/${secondId}`])
      expect((await h.app.inject({ method: 'POST', url, ...browser })).statusCode, url).toBe(423);
    expect(await status({ cookies: second.cookies() })).toBe(200);

    const confirm = (password: string) =>
      h.app.inject({ method: 'POST', url: '/api/auth/confirm-password', ...browser, payload: { password } });
    const wrong = await confirm('not-the-password');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.password).toEqual([Messages.incorrectPassword]);
    const failures = await h.db
      .selectFrom('auth_events')
      .select('event')
      .where('user_id', '=', user.id)
      .where('event', '=', 'failed_login')
      .execute();
    expect(failures).toHaveLength(1);
    expect((await sessionsOf(browser)).statusCode).toBe(423);

    const right = await confirm(TEST_PASSWORD);
    expect(right.statusCode).toBe(200);
    expect(right.json().message).toBe(Messages.passwordConfirmed);
    expect((await sessionsOf(browser)).statusCode).toBe(200);
    const ended = await h.app.inject({ method: 'POST', url: `/api/auth/logout/${secondId}`, ...browser });
    expect(ended.statusCode).toBe(200);
    expect(await status({ cookies: second.cookies() })).toBe(401);
  });

  it('lets a device that signed in with the password manage them, and asks one signed in long ago', async () => {
    const user = await buildUser(h.db);
    const phone = await h.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD, device_name: 'phone' },
    });
    expect(
      (await sessionsOf({ headers: { authorization: `Bearer ${phone.json().data.token}` } })).statusCode,
    ).toBe(200);
    const old = await bearer(h.db, user.id); // no password given on it since the change
    expect((await sessionsOf({ headers: old })).statusCode).toBe(423);
    const confirmed = await h.app.inject({
      method: 'POST',
      url: '/api/auth/confirm-password',
      headers: old,
      payload: { password: TEST_PASSWORD },
    });
    expect(confirmed.statusCode).toBe(200);
    expect((await sessionsOf({ headers: old })).statusCode).toBe(200);
  });
});
