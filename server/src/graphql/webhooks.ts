import {
  CreateWebhookBody,
  IdParams,
  UpdateWebhookBody,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENT_TYPES,
  type WebhookAttemptView,
  WebhookDeliveriesQuery,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookEventTypeDoc,
  WebhookListQuery,
} from '@cc/contracts';
import { actorOf } from '../http/context';
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
} from '../webhooks/service';
import { EntityRefRef } from './auth';
import { builder } from './builder';
import { defined, parseInput } from './input';
import { pageArgs, pageOf, paginatorOf } from './paging';

/**
 * Webhooks (issue 18; permission 112) over GraphQL: queries `webhooks`, `webhook`, `webhookDeliveries`,
 * `webhookEventTypes`; mutations `upsertWebhook`, `deleteWebhook`, `rotateWebhookSecret`, `testWebhook`,
 * `resendWebhookDelivery`. Input parsed with the REST routes' schemas; the same service (webhooks/service.ts).
 */

const LastDeliveryObject = builder
  .objectRef<NonNullable<WebhookEndpointView['last_delivery']>>('WebhookLastDelivery')
  .implement({
    fields: (t) => ({
      status: t.exposeString('status', { description: WEBHOOK_DELIVERY_STATUSES.join(', ') }),
      at: t.exposeString('at'),
      response_code: t.exposeInt('response_code', { nullable: true }),
    }),
  });

const WebhookObject = builder.objectRef<WebhookEndpointView>('WebhookEndpoint').implement({
  description: "An organisation's webhook endpoint (Standard Webhooks deliveries).",
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    entity: t.field({ type: EntityRefRef, resolve: (w) => w.entity }),
    url: t.exposeString('url'),
    description: t.exposeString('description', { nullable: true }),
    event_types: t.exposeStringList('event_types'),
    enabled: t.exposeBoolean('enabled'),
    created_at: t.exposeString('created_at'),
    updated_at: t.exposeString('updated_at'),
    last_delivery: t.field({ type: LastDeliveryObject, nullable: true, resolve: (w) => w.last_delivery }),
    secret: t.string({
      nullable: true,
      description:
        'The signing secret, only in the answer of upsertWebhook when it creates the endpoint and of rotateWebhookSecret: shown that once, never by a query (stored sealed).',
      resolve: (w) => w.secret ?? null,
    }),
    previous_secret_expires_at: t.string({
      nullable: true,
      resolve: (w) => w.previous_secret_expires_at ?? null,
    }),
  }),
});

const AttemptObject = builder.objectRef<WebhookAttemptView>('WebhookAttempt').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    attempted_at: t.exposeString('attempted_at'),
    response_code: t.exposeInt('response_code', { nullable: true }),
    duration_ms: t.exposeInt('duration_ms'),
    response_body: t.exposeString('response_body', { nullable: true, description: 'The first 1 KB.' }),
    error: t.exposeString('error', { nullable: true }),
    succeeded: t.exposeBoolean('succeeded'),
  }),
});

const DeliveryObject = builder.objectRef<WebhookDeliveryView>('WebhookDelivery').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    event_id: t.exposeString('event_id', { description: 'The webhook-id header of every attempt.' }),
    event_type: t.exposeString('event_type'),
    status: t.exposeString('status', { description: WEBHOOK_DELIVERY_STATUSES.join(', ') }),
    attempts: t.exposeInt('attempts'),
    next_attempt_at: t.exposeString('next_attempt_at', { nullable: true }),
    created_at: t.exposeString('created_at'),
    last_attempt: t.field({ type: AttemptObject, nullable: true, resolve: (d) => d.last_attempt }),
    payload: t.field({ type: 'JSON', resolve: (d) => d.payload }),
  }),
});

const EventTypeObject = builder.objectRef<WebhookEventTypeDoc>('WebhookEventType').implement({
  fields: (t) => ({
    type: t.exposeString('type'),
    description: t.exposeString('description'),
    example: t.field({ type: 'JSON', description: '{type, timestamp, data}', resolve: (d) => d.example }),
  }),
});

const WebhookPaginator = paginatorOf(WebhookObject, 'WebhookEndpoint');
const DeliveryPaginator = paginatorOf(DeliveryObject, 'WebhookDelivery');
const idOf = (id: string | number) => parseInput(IdParams, { id }).id;

builder.queryField('webhooks', (t) =>
  t.field({
    type: WebhookPaginator,
    description: 'GET /api/webhooks (112): endpoints of the organisations in scope, newest first.',
    args: { ...pageArgs(t.arg) },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      return pageOf(WebhookListQuery, args, (q) => listWebhooks(ctx, q));
    },
  }),
);

builder.queryField('webhook', (t) =>
  t.field({
    type: WebhookObject,
    description: 'GET /api/webhooks/{id} (112). Never the signing secret: it is shown once, when made.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => {
      actorOf(ctx);
      return getWebhook(ctx, idOf(id));
    },
  }),
);

builder.queryField('webhookDeliveries', (t) =>
  t.field({
    type: DeliveryPaginator,
    description: "GET /api/webhooks/{id}/deliveries (112): the endpoint's log, newest first.",
    args: {
      ...pageArgs(t.arg),
      webhookId: t.arg.id({ required: true }),
      status: t.arg.string({ description: WEBHOOK_DELIVERY_STATUSES.join(', ') }),
    },
    resolve: (_root, { webhookId, ...args }, ctx) => {
      actorOf(ctx);
      const id = idOf(webhookId);
      return pageOf(WebhookDeliveriesQuery, args, (q) => listDeliveries(ctx, id, q));
    },
  }),
);

builder.queryField('webhookEventTypes', (t) =>
  t.field({
    type: [EventTypeObject],
    description: `GET /api/webhooks/event-types (112): ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
    resolve: (_root, _args, ctx) => {
      actorOf(ctx);
      return webhookEventTypes(ctx);
    },
  }),
);

const WebhookInput = builder.inputType('WebhookInput', {
  description:
    'Without id: POST /api/webhooks. With id: PATCH /api/webhooks/{id} (only the fields sent change).',
  fields: (t) => ({
    id: t.id(),
    entity: t.string({ description: "Create only: the organisation's slug." }),
    url: t.string(),
    description: t.string(),
    event_types: t.stringList(),
    enabled: t.boolean(),
  }),
});

builder.mutationField('upsertWebhook', (t) =>
  t.field({
    type: WebhookObject,
    description:
      'POST /api/webhooks or PATCH /api/webhooks/{id} (112). Creating answers the signing secret, this once.',
    args: { input: t.arg({ type: WebhookInput, required: true }) },
    resolve: (_root, { input }, ctx) => {
      actorOf(ctx);
      const { id, entity, ...fields } = input;
      const sent = defined(fields);
      if (id === null || id === undefined)
        return createWebhook(ctx, parseInput(CreateWebhookBody, { ...sent, entity: entity ?? undefined }));
      return updateWebhook(ctx, idOf(id), parseInput(UpdateWebhookBody, sent));
    },
  }),
);

builder.mutationField('deleteWebhook', (t) =>
  t.field({
    type: 'Boolean',
    description: 'DELETE /api/webhooks/{id} (112).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      actorOf(ctx);
      await deleteWebhook(ctx, idOf(id));
      return true;
    },
  }),
);

builder.mutationField('rotateWebhookSecret', (t) =>
  t.field({
    type: WebhookObject,
    description:
      'POST /api/webhooks/{id}/rotate-secret (112): answers the new signing secret, this once; the old secret signs too for 24 hours.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => {
      actorOf(ctx);
      return rotateWebhookSecret(ctx, idOf(id));
    },
  }),
);

builder.mutationField('testWebhook', (t) =>
  t.field({
    type: AttemptObject,
    description: 'POST /api/webhooks/{id}/test (112): a webhook.test event sent now; its attempt.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => {
      actorOf(ctx);
      return sendTestEvent(ctx, idOf(id));
    },
  }),
);

builder.mutationField('resendWebhookDelivery', (t) =>
  t.field({
    type: AttemptObject,
    description: 'POST /api/webhooks/deliveries/{id}/resend (112): one more attempt now.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => {
      actorOf(ctx);
      return resendDelivery(ctx, idOf(id));
    },
  }),
);
