import { randomUUID } from 'node:crypto';
import type { Deps } from '../http/context';
import { sealSecret } from './secrets';
import { newEventId, newSigningSecret } from './signing';

/**
 * Webhooks in server/test/tenancy.test.ts (issue 18): an endpoint of the target's site with one delivered event,
 * and the cases calling every webhook route with them (outsider: 404 and nothing changes; insider without 112: 403).
 */
export interface WebhooksFixture {
  endpointId: number;
  deliveryId: number;
  url: string;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
interface F {
  webhooks: WebhooksFixture;
  site: { slug: string };
}

export async function webhooksFixture(
  { db, secrets }: Pick<Deps, 'db' | 'secrets'>,
  o: { siteId: number; canary: string },
): Promise<WebhooksFixture> {
  // An address nobody answers (TEST-NET-1): a case that wrongly got through would never reach a real host.
  const url = `https://192.0.2.10/${o.canary.toLowerCase()}`;
  const uuid = randomUUID();
  const endpoint = await db
    .insertInto('webhook_endpoints')
    .values({
      uuid,
      entity_id: o.siteId,
      url,
      description: `${o.canary} receiver`,
      event_types: JSON.stringify(['user.created']),
      secret_sealed: sealSecret(secrets, uuid, newSigningSecret()),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const eventId = newEventId();
  await db
    .insertInto('webhook_events')
    .values({
      id: eventId,
      entity_id: o.siteId,
      type: 'user.created',
      payload: JSON.stringify({ user_id: 1 }),
    })
    .execute();
  const delivery = await db
    .insertInto('webhook_deliveries')
    .values({ event_id: eventId, endpoint_id: endpoint.id, status: 'succeeded', attempts: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { endpointId: endpoint.id, deliveryId: delivery.id, url };
}

export function webhooksCases() {
  const scoped = (method: Method, route: string, url: (f: F) => string, body?: (f: F) => unknown) => ({
    method,
    route,
    url,
    ...(body ? { body } : {}),
    kind: 'scoped' as const,
  });
  const hook = (f: F) => `/api/webhooks/${f.webhooks.endpointId}`;
  return [
    scoped(
      'POST',
      '/api/webhooks',
      () => '/api/webhooks',
      (f) => ({ entity: f.site.slug, url: 'https://192.0.2.11/x', event_types: ['user.created'] }),
    ),
    scoped('GET', '/api/webhooks/:id', hook),
    scoped('PATCH', '/api/webhooks/:id', hook, () => ({ enabled: false })),
    scoped('DELETE', '/api/webhooks/:id', hook),
    scoped('POST', '/api/webhooks/:id/rotate-secret', (f) => `${hook(f)}/rotate-secret`),
    scoped('POST', '/api/webhooks/:id/test', (f) => `${hook(f)}/test`),
    scoped('GET', '/api/webhooks/:id/deliveries', (f) => `${hook(f)}/deliveries`),
    scoped(
      'POST',
      '/api/webhooks/deliveries/:id/resend',
      (f) => `/api/webhooks/deliveries/${f.webhooks.deliveryId}/resend`,
    ),
  ];
}

/** GET /webhooks: another organisation's list never shows the target's endpoint. */
export const webhooksLists = () => [
  {
    method: 'GET' as const,
    route: '/api/webhooks',
    url: () => '/api/webhooks?per_page=100',
    secrets: (f: F) => [f.webhooks.url],
    insider: 403 as const,
  },
];

export const WEBHOOKS_TABLES = [
  'webhook_endpoints',
  'webhook_events',
  'webhook_deliveries',
  'webhook_attempts',
] as const;
