import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { runDueJobs } from '../jobs/queue';
import { secretBox } from '../security/sealing';
import { emitWebhookEvent } from './events';
import { webhookWorld } from './fixtures';
import { registerWebhookJobs } from './jobs';
import { sealClearWebhookSecrets } from './secrets';
import { newSigningSecret } from './signing';
import { type Receiver, startReceiver } from './test-receiver';

/** Webhooks (issue 18): routes, Standard Webhooks signatures checked by an independent implementation, retries. */
let h: Harness;
let rx: Receiver;
beforeAll(async () => {
  h = await createHarness({ webhooksAllowPrivate: true });
  registerWebhookJobs();
  rx = await startReceiver();
});
afterAll(async () => {
  await rx?.close();
  await h?.close();
});

const later = (ms: number) => new Date(Date.now() + ms);
const allEvents = ['result.recorded', 'user.created'];

async function endpoint(w: Awaited<ReturnType<typeof webhookWorld>>, body: Record<string, unknown> = {}) {
  const c = await w.as(w.manager.id);
  const res = await c('POST', '/api/webhooks', { url: rx.url, event_types: allEvents, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; secret: string; url: string };
}

function verify(secret: string, i: number) {
  const got = rx.received[i];
  if (!got) throw new Error(`nothing received at ${i}`);
  return new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as {
    type: string;
    data: Record<string, unknown>;
  };
}

describe('routes', () => {
  it('401 without a login', async () => {
    for (const [method, url] of [
      ['GET', '/api/webhooks'],
      ['POST', '/api/webhooks'],
      ['GET', '/api/webhooks/1'],
      ['PATCH', '/api/webhooks/1'],
      ['DELETE', '/api/webhooks/1'],
      ['POST', '/api/webhooks/1/rotate-secret'],
      ['POST', '/api/webhooks/1/test'],
      ['GET', '/api/webhooks/1/deliveries'],
      ['POST', '/api/webhooks/deliveries/1/resend'],
      ['GET', '/api/webhooks/event-types'],
    ] as const) {
      const res = await h.app.inject({
        method,
        url,
        payload: method === 'POST' || method === 'PATCH' ? {} : undefined,
      });
      expect([401, 419], `${method} ${url}`).toContain(res.statusCode);
    }
  });

  it('422 with a message by each field', async () => {
    const w = await webhookWorld(h);
    const c = await w.as(w.manager.id);
    const res = await c('POST', '/api/webhooks', { url: '', event_types: [] });
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors;
    expect(errors.url[0]).toMatch(/web address/);
    expect(errors.event_types[0]).toBe('Choose at least one event.');
    const bad = await c('POST', '/api/webhooks', { url: 'ftp://example.com', event_types: ['nope'] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors['event_types.0'][0]).toBe('Choose events from the list.');
    const ftp = await c('POST', '/api/webhooks', { url: 'ftp://example.com/x', event_types: allEvents });
    expect(ftp.json().errors.url[0]).toMatch(/starting with https/);
    const creds = await c('POST', '/api/webhooks', { url: 'http://a:b@127.0.0.1/x', event_types: allEvents });
    expect(creds.json().errors.url[0]).toMatch(/user name and password/);
    const status = await c('GET', '/api/webhooks/1/deliveries?status=lost');
    expect(status.statusCode).toBe(422);
    expect(
      await h.db.selectFrom('webhook_endpoints').select('id').where('entity_id', '=', w.group.id).execute(),
    ).toEqual([]);
  });

  it('403 without permission 112', async () => {
    const w = await webhookWorld(h);
    const e = await endpoint(w);
    const c = await w.as(w.nobody.id);
    expect((await c('GET', '/api/webhooks')).statusCode).toBe(403);
    expect((await c('POST', '/api/webhooks', { url: rx.url, event_types: allEvents })).statusCode).toBe(403);
    expect((await c('GET', `/api/webhooks/${e.id}`)).statusCode).toBe(403);
    expect((await c('DELETE', `/api/webhooks/${e.id}`)).statusCode).toBe(403);
    expect((await c('POST', `/api/webhooks/${e.id}/test`)).statusCode).toBe(403);
    expect((await c('GET', '/api/webhooks/event-types')).statusCode).toBe(403);
    expect(rx.received.length).toBeGreaterThanOrEqual(0);
  });

  it("404 for another organisation's endpoint and delivery; nothing changes", async () => {
    const w = await webhookWorld(h);
    const e = await endpoint(w);
    const sent = await (await w.as(w.manager.id))('POST', `/api/webhooks/${e.id}/test`);
    expect(sent.statusCode).toBe(200);
    const delivery = await h.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('endpoint_id', '=', e.id)
      .executeTakeFirstOrThrow();
    const outsider = await buildUser(h.db, { permissions: [112] });
    const c = await clientFor(h.app, h.db, outsider.id);
    const before = JSON.stringify(
      await h.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', e.id).execute(),
    );
    const count = rx.received.length;
    for (const [method, url, body] of [
      ['GET', `/api/webhooks/${e.id}`, undefined],
      ['PATCH', `/api/webhooks/${e.id}`, { enabled: false }],
      ['DELETE', `/api/webhooks/${e.id}`, undefined],
      ['POST', `/api/webhooks/${e.id}/rotate-secret`, undefined],
      ['POST', `/api/webhooks/${e.id}/test`, undefined],
      ['GET', `/api/webhooks/${e.id}/deliveries`, undefined],
      ['POST', `/api/webhooks/deliveries/${delivery.id}/resend`, undefined],
      ['GET', '/api/webhooks/999999', undefined],
    ] as const) {
      expect((await c(method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect(
      (await c('POST', '/api/webhooks', { entity: w.group.slug, url: rx.url, event_types: allEvents }))
        .statusCode,
    ).toBe(404);
    expect((await c('GET', '/api/webhooks')).json().data).toEqual([]);
    expect(
      JSON.stringify(await h.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', e.id).execute()),
    ).toBe(before);
    expect(rx.received.length).toBe(count);
  });

  it('creates, lists, reads, updates only what is sent, and deletes', async () => {
    const w = await webhookWorld(h);
    const c = await w.as(w.manager.id);
    const created = await c('POST', '/api/webhooks', {
      url: rx.url,
      description: 'Payroll system',
      event_types: ['user.created', 'result.recorded'],
      entity: w.home.slug,
    });
    expect(created.statusCode).toBe(201);
    const e = created.json().data;
    expect(e.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(e.entity.id).toBe(w.home.id);
    // Stored in the list's order, whatever the order sent.
    expect(e.event_types).toEqual(['result.recorded', 'user.created']);
    const list = await c('GET', '/api/webhooks');
    expect(list.json().meta.total).toBe(1);
    expect(list.json().data[0].secret).toBeUndefined();
    expect(list.json().data[0].last_delivery).toBeNull();
    const patched = await c('PATCH', `/api/webhooks/${e.id}`, { enabled: false });
    expect(patched.json().data).toMatchObject({ enabled: false, description: 'Payroll system', url: rx.url });
    expect(patched.json().data.event_types).toEqual(['result.recorded', 'user.created']);
    const described = await c('PATCH', `/api/webhooks/${e.id}`, { description: null });
    expect(described.json().data).toMatchObject({ enabled: false, description: null });
    expect((await c('DELETE', `/api/webhooks/${e.id}`)).statusCode).toBe(200);
    expect((await c('GET', `/api/webhooks/${e.id}`)).statusCode).toBe(404);
  });

  it('documents every event type with an example (and in the OpenAPI document)', async () => {
    const w = await webhookWorld(h);
    const res = await (await w.as(w.manager.id))('GET', '/api/webhooks/event-types');
    expect(res.statusCode).toBe(200);
    const types = res.json().data.map((d: { type: string }) => d.type);
    expect(types).toContain('compliance.status_changed');
    expect(types).toContain('webhook.test');
    const docs = await h.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(docs.statusCode).toBe(200);
    const paths = docs.json().paths;
    expect(paths['/api/webhooks/event-types'].get.responses['200']).toBeDefined();
    expect(JSON.stringify(paths['/api/webhooks/event-types'])).toContain('webhook.test');
  });
});

describe('deliveries', () => {
  it('signs with Standard Webhooks, retries a 500 with the same webhook-id, and logs both attempts', async () => {
    const w = await webhookWorld(h);
    const e = await endpoint(w);
    const start = rx.received.length;
    rx.answer(500);
    const eventId = await h.db
      .transaction()
      .execute((trx) =>
        emitWebhookEvent(trx, { entityId: w.home.id, type: 'user.created', data: { user_id: 7 } }),
      );
    expect(eventId).toMatch(/^msg_/);
    await runDueJobs(h.deps, new Date());
    expect(rx.received.length).toBe(start + 1);
    let delivery = await h.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('endpoint_id', '=', e.id)
      .executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_response_code: 500 });
    const wait = (delivery.next_attempt_at?.getTime() ?? 0) - (delivery.last_attempt_at?.getTime() ?? 0);
    expect(wait).toBe(5000);
    // Not due yet: nothing is sent.
    await runDueJobs(h.deps, later(2000));
    expect(rx.received.length).toBe(start + 1);
    await runDueJobs(h.deps, later(6000));
    expect(rx.received.length).toBe(start + 2);
    const first = rx.received[start];
    const second = rx.received[start + 1];
    expect(first?.headers['webhook-id']).toBe(eventId);
    expect(second?.headers['webhook-id']).toBe(eventId);
    expect(second?.body).toBe(first?.body);
    expect(first?.headers['content-type']).toBe('application/json');
    const body = verify(e.secret, start + 1);
    expect(body).toMatchObject({ type: 'user.created', data: { user_id: 7 } });
    expect(() => verify('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', start + 1)).toThrow();
    delivery = await h.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('endpoint_id', '=', e.id)
      .executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      last_response_code: 200,
      next_attempt_at: null,
    });
    const log = await (await w.as(w.manager.id))('GET', `/api/webhooks/${e.id}/deliveries`);
    expect(log.json().data[0]).toMatchObject({
      event_id: eventId,
      event_type: 'user.created',
      status: 'succeeded',
      attempts: 2,
      last_attempt: { response_code: 200, succeeded: true, response_body: 'ok, received' },
    });
    const failed = await (await w.as(w.manager.id))('GET', `/api/webhooks/${e.id}/deliveries?status=failed`);
    expect(failed.json().data).toEqual([]);
    const listed = await (await w.as(w.manager.id))('GET', '/api/webhooks');
    expect(listed.json().data[0].last_delivery).toMatchObject({ status: 'succeeded', response_code: 200 });
  });

  it('reaches the endpoints of the organisation and its parent, subscribed and enabled only', async () => {
    const w = await webhookWorld(h);
    const groupHook = await endpoint(w);
    const homeHook = await endpoint(w, { entity: w.home.slug });
    const other = await endpoint(w, { event_types: ['booking.changed'] });
    const off = await endpoint(w, { enabled: false });
    await h.db
      .transaction()
      .execute((trx) =>
        emitWebhookEvent(trx, { entityId: w.home.id, type: 'user.created', data: { user_id: 1 } }),
      );
    const rows = await h.db
      .selectFrom('webhook_deliveries')
      .select('endpoint_id')
      .where('endpoint_id', 'in', [groupHook.id, homeHook.id, other.id, off.id])
      .execute();
    expect(rows.map((r) => r.endpoint_id).sort()).toEqual([groupHook.id, homeHook.id].sort());
    // An event of the parent does not reach its homes' endpoints.
    await h.db
      .transaction()
      .execute((trx) =>
        emitWebhookEvent(trx, { entityId: w.group.id, type: 'user.created', data: { user_id: 2 } }),
      );
    const homeRows = await h.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('endpoint_id', '=', homeHook.id)
      .execute();
    expect(homeRows).toHaveLength(1);
  });

  it('writes nothing when the transaction rolls back', async () => {
    const w = await webhookWorld(h);
    const e = await endpoint(w);
    await expect(
      h.db.transaction().execute(async (trx) => {
        await emitWebhookEvent(trx, { entityId: w.group.id, type: 'user.created', data: {} });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(
      await h.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', e.id).execute(),
    ).toEqual([]);
  });

  it('rotation: during the overlap both secrets verify; after 24 hours only the new one signs', async () => {
    const w = await webhookWorld(h);
    const e = await endpoint(w);
    const c = await w.as(w.manager.id);
    const rotated = await c('POST', `/api/webhooks/${e.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().data;
    expect(fresh.secret).not.toBe(e.secret);
    expect(new Date(fresh.previous_secret_expires_at).getTime() - Date.now()).toBeGreaterThan(
      23.9 * 3600_000,
    );
    const start = rx.received.length;
    const test = await c('POST', `/api/webhooks/${e.id}/test`);
    expect(test.json().data).toMatchObject({ succeeded: true, response_code: 200 });
    expect(rx.received[start]?.headers['webhook-signature']?.toString().split(' ')).toHaveLength(2);
    expect(verify(e.secret, start)).toMatchObject({ type: 'webhook.test' });
    expect(verify(fresh.secret, start)).toMatchObject({ type: 'webhook.test' });
    // Past the overlap: one signature, the new secret's.
    await h.db
      .updateTable('webhook_endpoints')
      .set({ previous_secret_expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', e.id)
      .execute();
    await c('POST', `/api/webhooks/${e.id}/test`);
    expect(rx.received[start + 1]?.headers['webhook-signature']?.toString().split(' ')).toHaveLength(1);
    expect(() => verify(e.secret, start + 1)).toThrow();
    expect(verify(fresh.secret, start + 1)).toMatchObject({ type: 'webhook.test' });
  });

  it('test event answers the outcome of a failure, and resend makes a new attempt', async () => {
    const w = await webhookWorld(h);
    const e = await endpoint(w);
    const c = await w.as(w.manager.id);
    rx.answer(503);
    const test = await c('POST', `/api/webhooks/${e.id}/test`);
    expect(test.statusCode).toBe(200);
    expect(test.json().data).toMatchObject({
      succeeded: false,
      response_code: 503,
      response_body: 'failure 503',
    });
    const log = (await c('GET', `/api/webhooks/${e.id}/deliveries`)).json().data;
    expect(log[0]).toMatchObject({ event_type: 'webhook.test', status: 'pending', attempts: 1 });
    const resent = await c('POST', `/api/webhooks/deliveries/${log[0].id}/resend`);
    expect(resent.json().data).toMatchObject({ succeeded: true, response_code: 200 });
    const attempts = await h.db
      .selectFrom('webhook_attempts')
      .select(['response_code'])
      .where('delivery_id', '=', log[0].id)
      .orderBy('id')
      .execute();
    expect(attempts.map((a) => a.response_code)).toEqual([503, 200]);
    const after = (await c('GET', `/api/webhooks/${e.id}/deliveries`)).json().data[0];
    expect(after).toMatchObject({ status: 'succeeded', attempts: 2 });
    // The retry job queued by the failure then finds nothing to do.
    const sentOf = () => rx.received.filter((r) => r.headers['webhook-id'] === log[0].event_id).length;
    const count = sentOf();
    await runDueJobs(h.deps, later(10_000));
    expect(sentOf()).toBe(count);
  });

  it('gives up after 3 days of failures: failed, no more attempts', async () => {
    const w = await webhookWorld(h);
    const e = await endpoint(w);
    const t0 = Date.now();
    await h.db
      .transaction()
      .execute((trx) =>
        emitWebhookEvent(trx, { entityId: w.group.id, type: 'result.recorded', data: {} }, new Date(t0)),
      );
    rx.answer(...Array.from({ length: 40 }, () => 500));
    let now = t0;
    for (let i = 0; i < 40; i += 1) {
      const d = await h.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('endpoint_id', '=', e.id)
        .executeTakeFirstOrThrow();
      if (d.status !== 'pending') break;
      now = Math.max(now, d.next_attempt_at?.getTime() ?? now);
      await runDueJobs(h.deps, new Date(now));
    }
    const d = await h.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('endpoint_id', '=', e.id)
      .executeTakeFirstOrThrow();
    expect(d.status).toBe('failed');
    expect(d.next_attempt_at).toBeNull();
    const attempts = await h.db
      .selectFrom('webhook_attempts')
      .select(['attempted_at'])
      .where('delivery_id', '=', d.id)
      .orderBy('id')
      .execute();
    const gaps = attempts
      .slice(1)
      .map((a, i) => (a.attempted_at.getTime() - (attempts[i]?.attempted_at.getTime() ?? 0)) / 1000);
    expect(gaps.slice(0, 6)).toEqual([5, 300, 1800, 7200, 18000, 36000]);
    const last = attempts.at(-1)?.attempted_at.getTime() ?? 0;
    expect(last - t0).toBeLessThanOrEqual(3 * 24 * 3600_000);
    expect(last - t0 + 36000_000).toBeGreaterThan(3 * 24 * 3600_000);
    // It stops at the first give-up: the 500s it did not use would answer the next tests.
    rx.reset();
  });

  it('two workers at once never send the same attempt twice', async () => {
    const w = await webhookWorld(h);
    const e = await endpoint(w);
    for (let i = 0; i < 5; i += 1)
      await h.db
        .transaction()
        .execute((trx) =>
          emitWebhookEvent(trx, { entityId: w.group.id, type: 'user.created', data: { n: i } }),
        );
    const start = rx.received.length;
    const now = new Date();
    await Promise.all([
      runDueJobs(h.deps, now, { workerId: 'a' }),
      runDueJobs(h.deps, now, { workerId: 'b' }),
      runDueJobs(h.deps, now, { workerId: 'c' }),
    ]);
    const ids = rx.received.slice(start).map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
    const attempts = await h.db
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .select('a.id')
      .where('d.endpoint_id', '=', e.id)
      .execute();
    expect(attempts).toHaveLength(5);
  });
});

describe('signing secrets at rest (issue 29 §14)', () => {
  const keyOf = (secret: string) => secret.replace(/^whsec_/, '');
  const rowOf = (id: number) =>
    h.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  type Client = Awaited<ReturnType<Awaited<ReturnType<typeof webhookWorld>>['as']>>;
  const graphql = async (c: Client, query: string) => (await c('POST', '/graphql', { query })).json();

  it('the row holds no clear secret; reads never show it; create and rotate show it once; both still sign', async () => {
    const w = await webhookWorld(h);
    const c = await w.as(w.manager.id);
    const e = await endpoint(w);
    expect(e.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    const row = await rowOf(e.id);
    expect(row.secret).toBeNull();
    expect(row.previous_secret).toBeNull();
    expect(row.secret_sealed).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(JSON.stringify(row)).not.toContain(keyOf(e.secret));

    const shown = [
      (await c('GET', `/api/webhooks/${e.id}`)).body,
      (await c('GET', '/api/webhooks')).body,
      (await c('PATCH', `/api/webhooks/${e.id}`, { description: 'Rota' })).body,
      JSON.stringify(await graphql(c, `{ webhook(id: ${e.id}) { id secret } webhooks { data { secret } } }`)),
    ];
    for (const body of shown) {
      expect(body).not.toContain(keyOf(e.secret));
      expect(body).not.toContain('"secret":"');
    }
    expect((await c('GET', `/api/webhooks/${e.id}`)).json().data).not.toHaveProperty('secret');

    const rotated = (await c('POST', `/api/webhooks/${e.id}/rotate-secret`)).json().data;
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(rotated.secret).not.toBe(e.secret);
    const after = await rowOf(e.id);
    expect([after.secret, after.previous_secret]).toEqual([null, null]);
    expect(after.previous_secret_sealed).toBe(row.secret_sealed);
    for (const secret of [e.secret, rotated.secret])
      expect(JSON.stringify(after)).not.toContain(keyOf(secret));
    const read = (await c('GET', `/api/webhooks/${e.id}`)).body;
    expect(read).not.toContain(keyOf(rotated.secret));
    expect(JSON.parse(read).data.previous_secret_expires_at).toBe(rotated.previous_secret_expires_at);

    const gql = await graphql(c, `mutation { rotateWebhookSecret(id: ${e.id}) { secret } }`);
    const third = gql.data.rotateWebhookSecret.secret as string;
    expect(third).toMatch(/^whsec_/);
    expect((await graphql(c, `{ webhook(id: ${e.id}) { secret } }`)).data.webhook.secret).toBeNull();

    const start = rx.received.length;
    expect((await c('POST', `/api/webhooks/${e.id}/test`)).json().data).toMatchObject({ succeeded: true });
    expect(verify(third, start)).toMatchObject({ type: 'webhook.test' });
    expect(verify(rotated.secret, start)).toMatchObject({ type: 'webhook.test' });
  });

  it('seals the secrets kept in clear before migration 047 at start, and still signs with them', async () => {
    const w = await webhookWorld(h);
    const c = await w.as(w.manager.id);
    const current = newSigningSecret();
    const previous = newSigningSecret();
    // A row as it stood before migration 047: both secrets in clear, within a rotation's overlap.
    const old = await h.db
      .insertInto('webhook_endpoints')
      .values({
        entity_id: w.group.id,
        url: rx.url,
        event_types: JSON.stringify(allEvents),
        secret: current,
        previous_secret: previous,
        previous_secret_expires_at: later(3600_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await sealClearWebhookSecrets(h.db, h.deps.secrets)).toBeGreaterThanOrEqual(1);
    const row = await rowOf(old.id);
    expect([row.secret, row.previous_secret]).toEqual([null, null]);
    expect(row.secret_sealed).toMatch(/^v1\./);
    expect(row.previous_secret_sealed).toMatch(/^v1\./);
    for (const secret of [current, previous]) expect(JSON.stringify(row)).not.toContain(keyOf(secret));
    // A second start (or a second process starting at once) finds nothing left to seal.
    expect(await sealClearWebhookSecrets(h.db, h.deps.secrets)).toBe(0);

    const start = rx.received.length;
    expect((await c('POST', `/api/webhooks/${old.id}/test`)).json().data).toMatchObject({ succeeded: true });
    expect(verify(current, start)).toMatchObject({ type: 'webhook.test' });
    expect(verify(previous, start)).toMatchObject({ type: 'webhook.test' });
  });

  it('a secret sealed under another key, or moved from another endpoint, is not used: the log says to rotate', async () => {
    const w = await webhookWorld(h);
    const c = await w.as(w.manager.id);
    const a = await endpoint(w);
    const b = await endpoint(w);
    const start = rx.received.length;
    const otherKey = secretBox([randomBytes(32)]);
    await h.db
      .updateTable('webhook_endpoints')
      .set({ secret_sealed: otherKey.seal(a.secret, `webhook_endpoints.secret:${(await rowOf(a.id)).uuid}`) })
      .where('id', '=', a.id)
      .execute();
    const refused = (await c('POST', `/api/webhooks/${a.id}/test`)).json().data;
    expect(refused).toMatchObject({ succeeded: false, response_code: null });
    expect(refused.error).toMatch(/another SECRETS_KEY.*rotate/);
    // b's sealed secret copied onto a: bound to b, it does not open for a.
    await h.db
      .updateTable('webhook_endpoints')
      .set({ secret_sealed: (await rowOf(b.id)).secret_sealed })
      .where('id', '=', a.id)
      .execute();
    const moved = (await c('POST', `/api/webhooks/${a.id}/test`)).json().data;
    expect(moved).toMatchObject({ succeeded: false });
    expect(moved.error).toMatch(/cannot be read.*rotate/);
    expect(rx.received.length).toBe(start);
    // A rotation gives it a secret this server can use again.
    const fresh = (await c('POST', `/api/webhooks/${a.id}/rotate-secret`)).json().data.secret as string;
    expect((await c('POST', `/api/webhooks/${a.id}/test`)).json().data).toMatchObject({ succeeded: true });
    expect(verify(fresh, start)).toMatchObject({ type: 'webhook.test' });
  });
});
