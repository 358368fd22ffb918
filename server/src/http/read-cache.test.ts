import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildUser, TEST_PASSWORD } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { enqueue, registerJob, runDueJobs, UNCHANGED } from '../jobs/queue';

/**
 * The read cache (http/read-cache.ts) with a long lifetime, so what is checked is whose answer is served and when it
 * is forgotten: a caller's repeat is answered from memory, never another caller's, and any write forgets everything.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ actorCacheMs: 60_000 });
});
afterAll(async () => h?.close());

const nameOf = async (headers: Record<string, string>) => {
  const res = await h.app.inject({ method: 'GET', url: '/api/auth/user', headers });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('application/json');
  return res.json().data.name as string;
};

describe('read cache', () => {
  it("answers a caller's repeat from memory until any write, then reads again", async () => {
    const user = await buildUser(h.db);
    const headers = await bearer(h.db, user.id);
    const before = await nameOf(headers);
    await h.db
      .updateTable('users')
      .set({ name: 'Renamed Behind Its Back' })
      .where('id', '=', user.id)
      .execute();
    expect(await nameOf(headers)).toBe(before);
    // A state-changing request, even a refused one, forgets every answer.
    await h.app.inject({ method: 'POST', url: '/api/reports/presets', headers, payload: {} });
    expect(await nameOf(headers)).toBe('Renamed Behind Its Back');
  });

  it("never serves one caller another caller's answer", async () => {
    const a = await buildUser(h.db);
    const b = await buildUser(h.db);
    const aHeaders = await bearer(h.db, a.id);
    const bHeaders = await bearer(h.db, b.id);
    expect(await nameOf(aHeaders)).toBe(a.name);
    expect(await nameOf(bHeaders)).toBe(b.name);
    // The same person with a second token is a second credential: its own entry.
    const aSecond = await bearer(h.db, a.id);
    await h.db.updateTable('users').set({ name: 'Second Token Sees This' }).where('id', '=', a.id).execute();
    expect(await nameOf(aSecond)).toBe('Second Token Sees This');
    expect(await nameOf(aHeaders)).toBe(a.name);
  });

  it('keeps each URL apart and stores only successful answers', async () => {
    const admin = await buildUser(h.db, { superAdmin: true });
    await buildUser(h.db, { entityId: admin.primary_entity_id });
    const headers = await bearer(h.db, admin.id);
    const page = (n: number) =>
      h.app.inject({ method: 'GET', url: `/api/users?page=${n}&per_page=1`, headers });
    const [first, second] = [await page(1), await page(2)];
    expect(first.json().data[0].id).not.toBe(second.json().data[0].id);
    const bad = await h.app.inject({ method: 'GET', url: '/api/users?page=0', headers });
    expect(bad.statusCode).toBe(422);
    expect((await h.app.inject({ method: 'GET', url: '/api/users?page=0', headers })).statusCode).toBe(422);
  });

  it('keeps hosts apart (the white-label answers by the Host header)', async () => {
    const sub = `cached${Date.now()}`;
    const branded = await buildEntity(h.db, { settings: { subdomain: sub } });
    const user = await buildUser(h.db);
    const headers = await bearer(h.db, user.id);
    const entityFor = async (host: string) =>
      (await h.app.inject({ method: 'GET', url: '/api/whitelabel', headers: { ...headers, host } })).json()
        .data.entity;
    expect(await entityFor('unknown.example.com')).toBeNull();
    expect((await entityFor(`${sub}.example.com`))?.id).toBe(branded.id);
  });

  it('keeps every answer over a report asked for with a POST, and answers its repeat from memory (issue 12 §2)', async () => {
    const admin = await buildUser(h.db, { superAdmin: true });
    const headers = await bearer(h.db, admin.id);
    const before = await nameOf(headers);
    await h.db
      .updateTable('users')
      .set({ name: 'Renamed Under A Report' })
      .where('id', '=', admin.id)
      .execute();
    const report = (payload: Record<string, unknown>) =>
      h.app.inject({ method: 'POST', url: '/api/reports/compliance', headers, payload });
    const first = await report({ previousMonths: 2 });
    expect(first.statusCode).toBe(200);
    // A report reads only: the caller and their everyday reads stay remembered.
    expect(await nameOf(headers)).toBe(before);
    expect((await report({ previousMonths: 2 })).body).toBe(first.body);
    // Another body is another report, read now.
    await new Promise((r) => setTimeout(r, 5));
    const other = await report({ previousMonths: 1 });
    expect(other.json().data.generated_at).not.toBe(first.json().data.generated_at);
  });

  it('keeps every answer over a device login, and forgets them all at a logout', async () => {
    const user = await buildUser(h.db);
    const headers = await bearer(h.db, user.id);
    const before = await nameOf(headers);
    await h.db
      .updateTable('users')
      .set({ name: 'Renamed Under A Login' })
      .where('id', '=', user.id)
      .execute();
    const login = await h.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD, device_name: 'phone' },
    });
    expect(login.statusCode).toBe(200);
    expect(await nameOf(headers)).toBe(before);
    const phone = { authorization: `Bearer ${login.json().data.token}` };
    expect(await nameOf(phone)).toBe('Renamed Under A Login');
    expect(
      (await h.app.inject({ method: 'POST', url: '/api/auth/logout', headers: phone })).statusCode,
    ).toBeLessThan(300);
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: phone })).statusCode).toBe(
      401,
    );
    expect(await nameOf(headers)).toBe('Renamed Under A Login');
  });

  it('forgets every answer when a background job ends, but not when a delivery job does or a job answers UNCHANGED', async () => {
    const user = await buildUser(h.db);
    const headers = await bearer(h.db, user.id);
    const before = await nameOf(headers);
    const rename = (name: string) => async () => {
      await h.db.updateTable('users').set({ name }).where('id', '=', user.id).execute();
    };
    const suffix = Math.random().toString(36).slice(2, 8);
    registerJob(`test-delivery-${suffix}`, rename('Renamed By A Delivery'), { keepsCaches: true });
    registerJob(`test-import-${suffix}`, rename('Renamed By An Import'));
    // A recurring scan that found nothing due (here it wrote, to show the caches stayed: a real one writes nothing).
    registerJob(`test-idle-scan-${suffix}`, async () => {
      await rename('Renamed By An Idle Scan')();
      return UNCHANGED;
    });

    // Only this job runs (the oldest due comes first): others that files before this one left due would empty the
    // caches themselves.
    const runOnly = async (name: string) => {
      await enqueue(h.db, name, {}, { runAt: new Date('1971-01-01T00:00:00Z') });
      expect(await runDueJobs(h.deps, new Date(), { max: 1 })).toEqual({ ran: 1, failed: 0 });
    };
    await runOnly(`test-delivery-${suffix}`);
    expect(await nameOf(headers)).toBe(before);
    await runOnly(`test-idle-scan-${suffix}`);
    expect(await nameOf(headers)).toBe(before);

    await runOnly(`test-import-${suffix}`);
    expect(await nameOf(headers)).toBe('Renamed By An Import');
  });

  it('still refuses a caller whose credential is gone (authentication runs before the cache)', async () => {
    const user = await buildUser(h.db);
    const headers = await bearer(h.db, user.id);
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers })).statusCode).toBe(200);
    const anonymous = await h.app.inject({ method: 'GET', url: '/api/auth/user' });
    expect(anonymous.statusCode).toBe(401);
  });
});
