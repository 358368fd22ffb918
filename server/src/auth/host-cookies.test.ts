import { CSRF_COOKIE, SESSION_COOKIE } from '@cc/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, TEST_PASSWORD } from '../../test/factories';
import { cookiesOf, createHarness, type Harness } from '../../test/harness';

/**
 * Issue 29 §1, cookie tossing: with packages on a sibling subdomain (app.example.com, packages.example.com) a package's
 * script can set `cc_session=<attacker's>; domain=example.com` and an XSRF-TOKEN the same way. On https the server's
 * cookies are __Host- prefixed (Secure, Path=/, no Domain: a sibling cannot set them), and it reads those names only,
 * so a planted bare cookie neither signs the viewer in as the attacker nor out.
 */
const HOST_SESSION = `__Host-${SESSION_COOKIE}`;
const HOST_CSRF = `__Host-${CSRF_COOKIE}`;

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ appUrl: 'https://app.example.com' });
});
afterAll(async () => h?.close());

const setCookie = (res: LightMyRequestResponse, name: string) =>
  ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((line) => line.startsWith(`${name}=`)) ?? '';

/** What the __Host- prefix demands of a Set-Cookie line (RFC 6265bis §4.1.3.2). */
function expectHostCookie(line: string, httpOnly: boolean) {
  expect(line).toMatch(/; Secure/);
  expect(line).toMatch(/; Path=\/(;|$)/);
  expect(line).not.toMatch(/; Domain=/i);
  expect(/; HttpOnly/.test(line)).toBe(httpOnly);
}

async function signIn(email: string, extra: Record<string, string> = {}) {
  const csrf = await h.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
  const guest = cookiesOf(csrf);
  const login = await h.app.inject({
    method: 'POST',
    url: '/login',
    headers: { 'x-xsrf-token': guest[HOST_CSRF] ?? '' },
    cookies: { ...guest, ...extra },
    payload: { email, password: TEST_PASSWORD },
  });
  return { csrf, login, jar: { ...guest, ...cookiesOf(login) } };
}

const me = (cookies: Record<string, string>) =>
  h.app.inject({ method: 'GET', url: '/api/auth/user', cookies, headers: { accept: 'application/json' } });

describe('__Host- cookies on https (issue 29 §1)', () => {
  it('sets __Host-XSRF-TOKEN, __Host-cc_session and __Host-cc_device: Secure, Path=/, no Domain', async () => {
    const user = await buildUser(h.db);
    const { csrf, login } = await signIn(user.email);
    expectHostCookie(setCookie(csrf, HOST_CSRF), false);
    expect(setCookie(csrf, CSRF_COOKIE)).toBe('');
    expect(login.statusCode).toBe(200);
    expectHostCookie(setCookie(login, HOST_SESSION), true);
    expectHostCookie(setCookie(login, HOST_CSRF), false);
    expectHostCookie(setCookie(login, '__Host-cc_device'), true);
    expect(setCookie(login, SESSION_COOKIE)).toBe('');
  });

  it('ignores a planted bare cc_session: the viewer stays themselves, and it alone signs nobody in', async () => {
    const viewer = await buildUser(h.db);
    const attacker = await buildUser(h.db);
    const theirs = await signIn(attacker.email);
    const ours = await signIn(viewer.email);
    const planted = { [SESSION_COOKIE]: theirs.jar[HOST_SESSION] as string };

    const both = await me({ ...planted, [HOST_SESSION]: ours.jar[HOST_SESSION] as string });
    expect(both.statusCode).toBe(200);
    expect(both.json().data.email).toBe(viewer.email);
    expect((await me(planted)).statusCode).toBe(401);
  });

  it('a planted bare XSRF-TOKEN does not stop the viewer signing in (no "Page expired")', async () => {
    const viewer = await buildUser(h.db);
    const attackerGuest = cookiesOf(await h.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' }));
    const { login } = await signIn(viewer.email, { [CSRF_COOKIE]: attackerGuest[HOST_CSRF] as string });
    expect(login.statusCode).toBe(200);
  });

  it('logout clears the __Host- cookies with the attributes they were set with', async () => {
    const user = await buildUser(h.db);
    const { jar } = await signIn(user.email);
    const out = await h.app.inject({
      method: 'POST',
      url: '/logout',
      cookies: jar,
      headers: { 'x-xsrf-token': jar[HOST_CSRF] ?? '' },
    });
    expect(out.statusCode).toBeLessThan(300);
    for (const name of [HOST_SESSION, HOST_CSRF]) {
      const line = setCookie(out, name);
      expect(line).toMatch(/Expires=Thu, 01 Jan 1970/);
      expectHostCookie(line, name === HOST_SESSION);
    }
  });
});
