import { randomUUID } from 'node:crypto';
import {
  type CreateWebhookBody,
  WebhookPerm as P,
  type UpdateWebhookBody,
  WEBHOOK_EVENT_DOCS,
  WEBHOOK_EVENT_TYPES,
  type WebhookAttemptView,
  type WebhookDeliveriesQuery,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  type WebhookEventTypeDoc,
  type WebhookListQuery,
} from '@cc/contracts';
import type { z } from 'zod';
import { pageWithTotal } from '../db/paged';
import { findEntityByRef } from '../entities/queries';
import { entityScope, inScope } from '../entities/scope';
import { authorize, type Ctx } from '../http/context';
import { conflict, notFound } from '../http/errors';
import { checkEndpointUrl } from './address';
import { attemptDelivery } from './delivery';
import { writeEvent } from './events';
import { presentDelivery, presentEndpoint } from './presenters';
import { deliveryPage, deliveryWithEndpoint, endpointColumns, endpointsQuery } from './queries';
import { sealSecret } from './secrets';
import { newSigningSecret } from './signing';

/**
 * Webhook endpoints, their log, resend and test (issue 18; permission 112; contracts webhooks.ts). An endpoint
 * belongs to an organisation in the caller's scope; any other id answers the same 404 as a missing one.
 * Signing secrets (issue 29 §14) are stored sealed under SECRETS_KEY (webhooks/secrets.ts) and shown once: in the
 * answer of the create or rotation that made them, never by a read.
 */

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

async function scopeIds(ctx: Ctx): Promise<number[] | null> {
  const scope = await entityScope(ctx);
  return scope.accessible === 'all' ? null : [...scope.accessible];
}

async function endpointRow(ctx: Ctx, id: number) {
  const row = await endpointColumns(endpointsQuery(ctx.db, await scopeIds(ctx)))
    .where('w.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** GET /webhooks: the endpoints of the organisations in scope, newest first. */
export async function listWebhooks(
  ctx: Ctx,
  query: z.infer<typeof WebhookListQuery>,
): Promise<{ data: WebhookEndpointView[]; total: number }> {
  authorize(ctx, [P.manage]);
  let base = endpointsQuery(ctx.db, await scopeIds(ctx));
  if (query.search) base = base.where('w.url', 'ilike', `%${query.search.replace(/[\\%_]/g, '\\$&')}%`);
  const { rows, total } = await pageWithTotal(
    base,
    (q) => endpointColumns(q).orderBy('w.created_at', 'desc').orderBy('w.id', 'desc'),
    { page: query.page, perPage: query.per_page },
  );
  return { data: rows.map((r) => presentEndpoint(r)), total };
}

/** GET /webhooks/{id}: with the rotation's overlap; never the signing secret (shown once, when made). */
export async function getWebhook(ctx: Ctx, id: number): Promise<WebhookEndpointView> {
  authorize(ctx, [P.manage]);
  return presentEndpoint(await endpointRow(ctx, id), { detail: true });
}

/** The answer of a change that made a secret: the endpoint with that secret, this once. */
async function withNewSecret(ctx: Ctx, id: number, secret: string): Promise<WebhookEndpointView> {
  return presentEndpoint(await endpointRow(ctx, id), { detail: true, secret });
}

/** POST /webhooks: for the named organisation (in scope, else 404) or the caller's own. */
export async function createWebhook(ctx: Ctx, body: CreateWebhookBody): Promise<WebhookEndpointView> {
  const actor = authorize(ctx, [P.manage]);
  const scope = await entityScope(ctx);
  const entity = await findEntityByRef(ctx.db, body.entity ?? String(scope.baseId));
  if (!entity || !inScope(scope, entity.id)) throw notFound();
  const url = await checkEndpointUrl(body.url, ctx.config);
  const now = ctx.clock();
  // The uuid is made here: the secret is sealed bound to it, before the row exists.
  const uuid = randomUUID();
  const secret = newSigningSecret();
  const row = await ctx.db
    .insertInto('webhook_endpoints')
    .values({
      uuid,
      entity_id: entity.id,
      url,
      description: body.description ?? null,
      event_types: JSON.stringify(orderedTypes(body.event_types)),
      enabled: body.enabled ?? true,
      secret_sealed: sealSecret(ctx.secrets, uuid, secret),
      created_by: actor.userId,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return withNewSecret(ctx, row.id, secret);
}

/** PATCH /webhooks/{id}: only the fields sent. */
export async function updateWebhook(
  ctx: Ctx,
  id: number,
  body: UpdateWebhookBody,
): Promise<WebhookEndpointView> {
  authorize(ctx, [P.manage]);
  await endpointRow(ctx, id);
  const url = body.url !== undefined ? await checkEndpointUrl(body.url, ctx.config) : undefined;
  await ctx.db
    .updateTable('webhook_endpoints')
    .set({
      ...(url !== undefined ? { url } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.event_types !== undefined
        ? { event_types: JSON.stringify(orderedTypes(body.event_types)) }
        : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
      updated_at: ctx.clock(),
    })
    .where('id', '=', id)
    .execute();
  return getWebhook(ctx, id);
}

/** DELETE /webhooks/{id}: the endpoint and its log. */
export async function deleteWebhook(ctx: Ctx, id: number): Promise<void> {
  authorize(ctx, [P.manage]);
  await endpointRow(ctx, id);
  await ctx.db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

/**
 * POST /webhooks/{id}/rotate-secret: a new secret signs from now on; the current one keeps signing too for 24 hours
 * (Standard Webhooks allows several signatures), so a receiver can switch without losing an event. One statement:
 * two rotations at once cannot both keep the same "previous" secret. The sealed current secret moves to the previous
 * one as it is (both are bound to this endpoint), so a rotation never opens a secret. The answer shows the new secret,
 * once.
 */
export async function rotateWebhookSecret(ctx: Ctx, id: number): Promise<WebhookEndpointView> {
  authorize(ctx, [P.manage]);
  const endpoint = await endpointRow(ctx, id);
  const now = ctx.clock();
  const secret = newSigningSecret();
  await ctx.db
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      previous_secret_sealed: eb.ref('secret_sealed'),
      previous_secret_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS),
      secret_sealed: sealSecret(ctx.secrets, endpoint.uuid, secret),
      // Sealed at start (webhooks/secrets.ts); emptied here too, so a clear value an older process wrote cannot
      // outlive the rotation that replaced it.
      secret: null,
      previous_secret: null,
      updated_at: now,
    }))
    .where('id', '=', id)
    .execute();
  return withNewSecret(ctx, id, secret);
}

function attemptView(
  result: NonNullable<Awaited<ReturnType<typeof attemptDelivery>>>,
  at: Date,
): WebhookAttemptView {
  return {
    id: result.attemptId,
    attempted_at: at.toISOString(),
    response_code: result.outcome.responseCode,
    duration_ms: result.outcome.durationMs,
    response_body: result.outcome.body,
    error: result.outcome.error,
    succeeded: result.outcome.ok,
  };
}

/** POST /webhooks/{id}/test: a webhook.test event to this endpoint only, sent now; answers the attempt. */
export async function sendTestEvent(ctx: Ctx, id: number): Promise<WebhookAttemptView> {
  authorize(ctx, [P.manage]);
  const endpoint = await endpointRow(ctx, id);
  const now = ctx.clock();
  const { deliveryIds } = await ctx.db.transaction().execute((trx) =>
    writeEvent(
      trx,
      {
        entityId: endpoint.entity_id,
        type: 'webhook.test',
        data: { endpoint_id: endpoint.id, message: 'This is a test event from CareCompliance.' },
      },
      [endpoint.id],
      now,
      false,
    ),
  );
  const deliveryId = deliveryIds[0] as number;
  // Sent here so the page can show the outcome at once; a failure queues the retries like any delivery.
  const result = await attemptDelivery(ctx, deliveryId, 'scheduled', now);
  if (!result) throw conflict('The test event is being sent already.');
  return attemptView(result, now);
}

/** GET /webhooks/{id}/deliveries: the log, newest first, optionally by status. */
export async function listDeliveries(
  ctx: Ctx,
  id: number,
  query: z.infer<typeof WebhookDeliveriesQuery>,
): Promise<{ data: WebhookDeliveryView[]; total: number }> {
  authorize(ctx, [P.manage]);
  await endpointRow(ctx, id);
  const { rows, total } = await deliveryPage(ctx.db, id, query.status, query);
  return { data: rows.map(presentDelivery), total };
}

/** POST /webhooks/deliveries/{id}/resend: one more attempt now (a new row in the log), whatever its status. */
export async function resendDelivery(ctx: Ctx, deliveryId: number): Promise<WebhookAttemptView> {
  authorize(ctx, [P.manage]);
  const delivery = await deliveryWithEndpoint(ctx.db, deliveryId);
  if (!delivery || !inScope(await entityScope(ctx), delivery.entity_id)) throw notFound();
  const now = ctx.clock();
  const result = await attemptDelivery(ctx, deliveryId, 'manual', now);
  if (!result) throw conflict('This delivery is being sent right now: try again in a minute.');
  return attemptView(result, now);
}

/** GET /webhooks/event-types: every event with its description and an example body. */
export function webhookEventTypes(ctx: Ctx): WebhookEventTypeDoc[] {
  authorize(ctx, [P.manage]);
  return WEBHOOK_EVENT_TYPES.map((type) => ({
    type,
    description: WEBHOOK_EVENT_DOCS[type].description,
    example: { type, timestamp: '2026-03-02T10:15:00.000Z', data: WEBHOOK_EVENT_DOCS[type].example },
  }));
}

function orderedTypes(types: readonly string[]): string[] {
  return WEBHOOK_EVENT_TYPES.filter((t) => types.includes(t));
}
