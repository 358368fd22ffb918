import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser, TEST_PASSWORD } from '../../test/factories';
import { createHarness, type Harness, webLogin } from '../../test/harness';

/**
 * The caller cache (auth/actor-cache.ts) with a long lifetime, so what is checked is the invalidation: a
 * state-changing request must end every remembered caller before its answer is sent.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ actorCacheMs: 60_000 });
});
afterAll(async () => h?.close());

describe('caller cache', () => {
  it('remembers a bearer caller between reads (a row deleted behind its back is not seen until a write)', async () => {
    const user = await buildUser(h.db);
    const headers = await bearer(h.db, user.id);
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers })).statusCode).toBe(200);
    await h.db.deleteFrom('personal_access_tokens').where('user_id', '=', user.id).execute();
    // Remembered: the out-of-band delete is not seen yet (what the lifetime bounds).
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers })).statusCode).toBe(200);
    // Any state-changing request forgets every caller.
    await h.app.inject({ method: 'POST', url: '/api/auth/logout', headers });
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers })).statusCode).toBe(401);
  });

  it('a logout ends the session at once', async () => {
    const user = await buildUser(h.db);
    const web = await webLogin(h.app, user.email, TEST_PASSWORD);
    const read = () =>
      h.app.inject({ method: 'GET', url: '/api/auth/user', cookies: web.cookies(), headers: web.headers() });
    expect((await read()).statusCode).toBe(200);
    const out = await h.app.inject({
      method: 'POST',
      url: '/logout',
      cookies: web.cookies(),
      headers: web.headers(),
    });
    expect(out.statusCode).toBeLessThan(300);
    expect((await read()).statusCode).toBe(401);
  });

  it('a permission revoked through the API applies to the next request', async () => {
    const admin = await buildUser(h.db, { superAdmin: true });
    const adminHeaders = await bearer(h.db, admin.id);
    const user = await buildUser(h.db, { permissions: [21] });
    const headers = await bearer(h.db, user.id);
    const check = async () =>
      (await h.app.inject({ method: 'GET', url: '/api/auth/permissions', headers }))
        .json()
        .data.map((p: { id: number }) => p.id) as number[];
    expect(await check()).toContain(21);
    const revoke = await h.app.inject({
      method: 'POST',
      url: `/api/type-permissions/${user.type.id}/delete`,
      headers: adminHeaders,
      payload: { permission_ids: [21] },
    });
    expect(revoke.statusCode).toBeLessThan(300);
    expect(await check()).not.toContain(21);
  });

  it('a remembered session still expires on time', async () => {
    const user = await buildUser(h.db);
    const web = await webLogin(h.app, user.email, TEST_PASSWORD);
    const read = () =>
      h.app.inject({ method: 'GET', url: '/api/auth/user', cookies: web.cookies(), headers: web.headers() });
    expect((await read()).statusCode).toBe(200);
    const realClock = h.deps.clock;
    try {
      (h.deps as { clock: () => Date }).clock = () => new Date(Date.now() + 24 * 3600_000);
      expect((await read()).statusCode).toBe(401);
    } finally {
      (h.deps as { clock: () => Date }).clock = realClock;
    }
  });
});
