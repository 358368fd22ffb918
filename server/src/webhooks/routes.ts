import {
  CreateWebhookBody,
  IdParams,
  WebhookMessages as M,
  UpdateWebhookBody,
  WebhookDeliveriesQuery,
  WebhookEventTypesResponse,
  WebhookListQuery,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  resendDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
  webhookEventTypes,
} from './service';

/** Issue 18: the webhooks capability's REST routes (under /api; permission 112; contracts webhooks.ts). */
export async function webhookRoutes(app: App): Promise<void> {
  const tags = ['webhooks'];
  app.get(
    '/webhooks/event-types',
    {
      schema: {
        tags,
        description:
          'Every event an endpoint can receive, with what it means and an example body. Each delivery is a POST of `{type, timestamp, data}` with the Standard Webhooks headers webhook-id, webhook-timestamp and webhook-signature.',
        response: { 200: WebhookEventTypesResponse },
      },
    },
    async (r) => ok(webhookEventTypes(r.ctx)),
  );
  app.get('/webhooks', { schema: { tags, querystring: WebhookListQuery } }, async (r) => {
    const { data, total } = await listWebhooks(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.post('/webhooks', { schema: { tags, body: CreateWebhookBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createWebhook(r.ctx, r.body), M.created)),
  );
  app.get('/webhooks/:id', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await getWebhook(r.ctx, r.params.id)),
  );
  app.patch('/webhooks/:id', { schema: { tags, params: IdParams, body: UpdateWebhookBody } }, async (r) =>
    ok(await updateWebhook(r.ctx, r.params.id, r.body), M.updated),
  );
  app.delete('/webhooks/:id', { schema: { tags, params: IdParams } }, async (r) => {
    await deleteWebhook(r.ctx, r.params.id);
    return done(M.deleted);
  });
  app.post('/webhooks/:id/rotate-secret', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await rotateWebhookSecret(r.ctx, r.params.id), M.rotated),
  );
  app.post('/webhooks/:id/test', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await sendTestEvent(r.ctx, r.params.id), M.testSent),
  );
  app.get(
    '/webhooks/:id/deliveries',
    { schema: { tags, params: IdParams, querystring: WebhookDeliveriesQuery } },
    async (r) => {
      const { data, total } = await listDeliveries(r.ctx, r.params.id, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.post('/webhooks/deliveries/:id/resend', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await resendDelivery(r.ctx, r.params.id), M.resent),
  );
}
