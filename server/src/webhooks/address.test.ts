import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { loadConfig } from '../config';
import { addressAllowed, checkEndpointUrl } from './address';
import { attemptDelivery } from './delivery';
import { writeEvent } from './events';
import { webhookWorld } from './fixtures';
import { type Receiver, startReceiver } from './test-receiver';

/** SSRF (issue 18): refused addresses when saved and when delivered; https in production. No WEBHOOKS_ALLOW_PRIVATE. */
let h: Harness;
let rx: Receiver;
beforeAll(async () => {
  h = await createHarness();
  rx = await startReceiver();
});
afterAll(async () => {
  await rx?.close();
  await h?.close();
});

const strict = { env: 'test' as const, webhooksAllowPrivate: false };
const dev = { env: 'development' as const, webhooksAllowPrivate: true };
const production = { env: 'production' as const, webhooksAllowPrivate: false };

describe('addresses', () => {
  it.each([
    '127.0.0.1',
    '::1',
    '10.1.2.3',
    '172.16.0.9',
    '192.168.1.1',
    '169.254.169.254',
    'fe80::1',
    'fd00::1',
    '100.64.0.1',
    '224.0.0.1',
    '0.0.0.0',
    '::',
    '255.255.255.255',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
  ])('refuses %s', (address) => {
    expect(addressAllowed(address, strict)).toBe(false);
  });

  it('allows public unicast addresses', () => {
    expect(addressAllowed('93.184.216.34', strict)).toBe(true);
    expect(addressAllowed('2606:2800:220:1:248:1893:25c8:1946', strict)).toBe(true);
  });

  it('the development flag lets loopback and private networks through, never the metadata service', () => {
    expect(addressAllowed('127.0.0.1', dev)).toBe(true);
    expect(addressAllowed('10.1.2.3', dev)).toBe(true);
    expect(addressAllowed('169.254.169.254', dev)).toBe(false);
    expect(addressAllowed('0.0.0.0', dev)).toBe(false);
  });

  it('refuses when saving: literal, a name resolving to loopback, http in production', async () => {
    await expect(checkEndpointUrl('http://127.0.0.1:9/x', strict)).rejects.toMatchObject({ status: 422 });
    await expect(checkEndpointUrl('http://localhost:9/x', strict)).rejects.toMatchObject({
      errors: { url: [expect.stringMatching(/private or local network/)] },
    });
    await expect(checkEndpointUrl('http://[::1]/x', strict)).rejects.toMatchObject({ status: 422 });
    await expect(checkEndpointUrl('http://93.184.216.34/x', production)).rejects.toMatchObject({
      errors: { url: ['The address must start with https://.'] },
    });
    expect(await checkEndpointUrl('https://93.184.216.34/x', production)).toBe('https://93.184.216.34/x');
    await expect(checkEndpointUrl('https://no-such-host.invalid/x', production)).rejects.toMatchObject({
      errors: { url: [expect.stringMatching(/could not be found/)] },
    });
  });

  it('refuses WEBHOOKS_ALLOW_PRIVATE in production', () => {
    const key = { SECRETS_KEY: randomBytes(32).toString('base64') };
    expect(() => loadConfig({ NODE_ENV: 'production', ...key, WEBHOOKS_ALLOW_PRIVATE: 'true' })).toThrow(
      /WEBHOOKS_ALLOW_PRIVATE/,
    );
    expect(loadConfig({ NODE_ENV: 'production', ...key }).webhooksAllowPrivate).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development', WEBHOOKS_ALLOW_PRIVATE: '1' }).webhooksAllowPrivate).toBe(
      true,
    );
    expect(loadConfig({ NODE_ENV: 'test' }).webhooksAllowPrivate).toBe(false);
  });
});

describe('routes and deliveries without the flag', () => {
  it('POST /webhooks refuses a loopback receiver with a message by the url', async () => {
    const w = await webhookWorld(h);
    const c = await w.as(w.manager.id);
    const res = await c('POST', '/api/webhooks', { url: rx.url, event_types: ['user.created'] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.url[0]).toMatch(/private or local network/);
    const meta = await c('POST', '/api/webhooks', {
      url: 'http://169.254.169.254/latest/meta-data',
      event_types: ['user.created'],
    });
    expect(meta.statusCode).toBe(422);
  });

  it('at delivery time a refused address is never connected to (literal and resolved name)', async () => {
    const entity = await buildEntity(h.db);
    for (const url of [rx.url, `http://localhost:${rx.port}/hooks`]) {
      // Saved when it was allowed (or by a name that now resolves inside): the delivery still refuses.
      const endpoint = await h.db
        .insertInto('webhook_endpoints')
        .values({
          entity_id: entity.id,
          url,
          event_types: '["user.created"]',
          secret: 'whsec_MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { deliveryIds } = await h.db
        .transaction()
        .execute((trx) =>
          writeEvent(
            trx,
            { entityId: entity.id, type: 'user.created', data: {} },
            [endpoint.id],
            new Date(),
            false,
          ),
        );
      const result = await attemptDelivery(h.deps, deliveryIds[0] as number, 'scheduled');
      expect(result?.outcome).toMatchObject({ ok: false, responseCode: null });
      expect(result?.outcome.error).toMatch(/Refused/);
    }
    expect(rx.received).toHaveLength(0);
  });
});
