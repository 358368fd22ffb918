import type { WebhookEventType } from '@cc/contracts';
import type { DbOrTrx } from '../jobs/queries';
import { enqueue } from '../jobs/queue';
import { insertDeliveries, insertEvent, subscribedEndpointIds } from './queries';
import { newEventId } from './signing';

/**
 * The one way a capability tells webhooks that something happened (issue 18). Call it inside the transaction that
 * made the change, so the event is queued iff the change committed; deliveries go out after commit.
 * `entityId` is the organisation the event belongs to (the endpoints of it and of its ancestors receive it).
 */
export interface WebhookEvent {
  entityId: number;
  type: WebhookEventType;
  data: Record<string, unknown>;
}

export const DELIVER_JOB = 'webhooks.deliver';

/**
 * Writes the event (the outbox) and one delivery per subscribed endpoint, each with its job, in the caller's
 * transaction. Nothing is written when no endpoint listens: organisations without webhooks pay one query.
 * Returns the event id (null when nobody listens).
 */
export async function emitWebhookEvent(
  db: DbOrTrx,
  event: WebhookEvent,
  at: Date = new Date(),
): Promise<string | null> {
  const endpointIds = await subscribedEndpointIds(db, event.entityId, event.type);
  if (!endpointIds.length) return null;
  return (await writeEvent(db, event, endpointIds, at)).id;
}

/**
 * emitWebhookEvent for many events at once (a batch of imported people): the subscribers are looked up once per
 * organisation and type, not once per event.
 */
export async function emitWebhookEvents(db: DbOrTrx, events: WebhookEvent[], at: Date = new Date()) {
  const subscribers = new Map<string, number[]>();
  for (const event of events) {
    const key = `${event.entityId}:${event.type}`;
    let endpointIds = subscribers.get(key);
    if (!endpointIds) {
      endpointIds = await subscribedEndpointIds(db, event.entityId, event.type);
      subscribers.set(key, endpointIds);
    }
    if (endpointIds.length) await writeEvent(db, event, endpointIds, at);
  }
}

/**
 * The outbox rows of an event for the given endpoints, and their delivery jobs (`queue: false` when the caller sends
 * the first attempt itself, as the test event does: a failure then queues the retry).
 */
export async function writeEvent(
  db: DbOrTrx,
  event: WebhookEvent,
  endpointIds: number[],
  at: Date,
  queue = true,
): Promise<{ id: string; deliveryIds: number[] }> {
  const id = newEventId();
  await insertEvent(db, { id, entityId: event.entityId, type: event.type, payload: event.data, at });
  const deliveries = await insertDeliveries(db, id, endpointIds, at);
  if (queue) for (const d of deliveries) await enqueue(db, DELIVER_JOB, { deliveryId: d.id }, { runAt: at });
  return { id, deliveryIds: deliveries.map((d) => d.id) };
}
