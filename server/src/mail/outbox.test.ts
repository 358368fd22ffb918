import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('GET /api/mail/outbox', () => {
  it('is for super admins only, newest first, filtered by recipient', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/mail/outbox' })).statusCode).toBe(401);
    const manager = await buildUser(h.db, { permissions: [1, 2, 3, 18, 21] });
    expect(
      (
        await h.app.inject({
          method: 'GET',
          url: '/api/mail/outbox',
          headers: await bearer(h.db, manager.id),
        })
      ).statusCode,
    ).toBe(403);

    await h.deps.mailer.send({ to: 'a@example.test', subject: 'First', text: 'one', template: 't' });
    await h.deps.mailer.send({ to: 'b@example.test', subject: 'Second', text: 'two', template: 't' });
    const admin = await buildUser(h.db, { superAdmin: true });
    const headers = await bearer(h.db, admin.id);
    const all = await h.app.inject({ method: 'GET', url: '/api/mail/outbox', headers });
    expect(all.statusCode).toBe(200);
    expect(all.json().data.map((m: { subject: string }) => m.subject)).toEqual(['Second', 'First']);
    const one = await h.app.inject({ method: 'GET', url: '/api/mail/outbox?to=A@example.test', headers });
    expect(one.json().data).toHaveLength(1);
    expect(one.json().meta.total).toBe(1);
    const bad = await h.app.inject({ method: 'GET', url: '/api/mail/outbox?per_page=1000', headers });
    expect(bad.statusCode).toBe(422);
  });
});
