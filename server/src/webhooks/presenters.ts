import type { WebhookDeliveryView, WebhookEndpointView, WebhookEventType } from '@cc/contracts';
import type { DeliveryPageRow, EndpointListRow } from './queries';

const iso = (d: Date | string) => new Date(d).toISOString();

/**
 * `detail`: GET /webhooks/{id} and the answers of changes (with the rotation's overlap). `secret`: only in the answer
 * that made it (create, rotate): it is shown once and never read back (issue 29 §14).
 */
export function presentEndpoint(
  row: EndpointListRow,
  view: { detail: boolean; secret?: string } = { detail: false },
): WebhookEndpointView {
  return {
    id: row.id,
    uuid: row.uuid,
    entity: { id: row.entity_id, slug: row.entity_slug, name: row.entity_name },
    url: row.url,
    description: row.description,
    event_types: row.event_types as WebhookEventType[],
    enabled: row.enabled,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    last_delivery:
      row.last_status && row.last_at
        ? { status: row.last_status, at: iso(row.last_at), response_code: row.last_code ?? null }
        : null,
    ...(view.detail
      ? {
          previous_secret_expires_at: row.previous_secret_expires_at
            ? iso(row.previous_secret_expires_at)
            : null,
        }
      : {}),
    ...(view.secret !== undefined ? { secret: view.secret } : {}),
  };
}

export function presentDelivery(row: DeliveryPageRow): WebhookDeliveryView {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type as WebhookEventType,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.next_attempt_at ? iso(row.next_attempt_at) : null,
    created_at: iso(row.created_at),
    payload: row.payload,
    last_attempt:
      row.a_id !== null && row.a_at
        ? {
            id: row.a_id,
            attempted_at: iso(row.a_at),
            response_code: row.a_code ?? null,
            duration_ms: row.a_ms ?? 0,
            response_body: row.a_body ?? null,
            error: row.a_error ?? null,
            succeeded: row.a_ok ?? false,
          }
        : null,
  };
}
