import { type Selectable, sql } from 'kysely';
import type { Db } from '../db/connect';
import type {
  WebhookDeliveriesTable,
  WebhookDeliveryStatus,
  WebhookEndpointsTable,
  WebhookEventsTable,
} from '../db/schema';
import type { DbOrTrx } from '../jobs/queries';

/** Webhooks' SQL (the only place in webhooks/ that builds it). */

export type EndpointRow = Selectable<WebhookEndpointsTable>;
export type EventRow = Selectable<WebhookEventsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** Enabled endpoints subscribed to `type`, of the entity and every ancestor (a level A organisation sees its homes'). */
export async function subscribedEndpointIds(db: DbOrTrx, entityId: number, type: string): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    WITH RECURSIVE chain AS (
      SELECT id, parent_id, 0 AS depth FROM entities WHERE id = ${entityId}
      UNION ALL
      SELECT e.id, e.parent_id, c.depth + 1 FROM entities e JOIN chain c ON e.id = c.parent_id WHERE c.depth < 50
    )
    SELECT w.id FROM webhook_endpoints w JOIN chain c ON c.id = w.entity_id
     WHERE w.enabled AND w.event_types @> ${JSON.stringify([type])}::jsonb
     ORDER BY w.id`.execute(db);
  return rows.map((r) => r.id);
}

export async function insertEvent(
  db: DbOrTrx,
  event: { id: string; entityId: number; type: string; payload: Record<string, unknown>; at: Date },
): Promise<void> {
  await db
    .insertInto('webhook_events')
    .values({
      id: event.id,
      entity_id: event.entityId,
      type: event.type,
      payload: JSON.stringify(event.payload),
      created_at: event.at,
    })
    .execute();
}

export async function insertDeliveries(
  db: DbOrTrx,
  eventId: string,
  endpointIds: number[],
  at: Date,
): Promise<Array<{ id: number }>> {
  if (!endpointIds.length) return [];
  return db
    .insertInto('webhook_deliveries')
    .values(
      endpointIds.map((endpointId) => ({
        event_id: eventId,
        endpoint_id: endpointId,
        next_attempt_at: at,
        created_at: at,
        updated_at: at,
      })),
    )
    .returning('id')
    .execute();
}

/**
 * Claims a delivery for one attempt: a single UPDATE, so of two workers only one gets the row (the other sees the
 * lock set, or the row locked and then re-checked). `due` limits it to a scheduled attempt whose time has come;
 * without it (resend, test) any delivery not being sent right now.
 */
export async function claimDelivery(
  db: Db,
  id: number,
  now: Date,
  lockUntil: Date,
  due: boolean,
): Promise<DeliveryRow | undefined> {
  let q = db
    .updateTable('webhook_deliveries')
    .set((eb) => ({ locked_until: lockUntil, attempts: eb('attempts', '+', 1), updated_at: now }))
    .where('id', '=', id)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]));
  if (due) q = q.where('status', '=', 'pending').where('next_attempt_at', '<=', now);
  return q.returningAll().executeTakeFirst();
}

export async function eventById(db: DbOrTrx, id: string): Promise<EventRow | undefined> {
  return db.selectFrom('webhook_events').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function endpointById(db: DbOrTrx, id: number): Promise<EndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertAttempt(
  db: DbOrTrx,
  a: {
    deliveryId: number;
    at: Date;
    responseCode: number | null;
    durationMs: number;
    body: string | null;
    error: string | null;
    succeeded: boolean;
  },
): Promise<number> {
  const row = await db
    .insertInto('webhook_attempts')
    .values({
      delivery_id: a.deliveryId,
      attempted_at: a.at,
      response_code: a.responseCode,
      duration_ms: a.durationMs,
      response_body: a.body,
      error: a.error,
      succeeded: a.succeeded,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function settleDelivery(
  db: DbOrTrx,
  id: number,
  s: { status: WebhookDeliveryStatus; nextAttemptAt: Date | null; at: Date; responseCode: number | null },
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({
      status: s.status,
      next_attempt_at: s.nextAttemptAt,
      locked_until: null,
      last_attempt_at: s.at,
      last_response_code: s.responseCode,
      updated_at: s.at,
    })
    .where('id', '=', id)
    .execute();
}

/** Endpoints of the given organisations (null: every one), newest first, with each one's latest delivery. */
export function endpointsQuery(db: Db, entityIds: number[] | null) {
  let q = db
    .selectFrom('webhook_endpoints as w')
    .innerJoin('entities as e', 'e.id', 'w.entity_id')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('webhook_deliveries as d')
          .select(['d.status as last_status', 'd.updated_at as last_at', 'd.last_response_code as last_code'])
          .whereRef('d.endpoint_id', '=', 'w.id')
          .orderBy('d.id', 'desc')
          .limit(1)
          .as('ld'),
      (join) => join.onTrue(),
    );
  if (entityIds) q = q.where('w.entity_id', 'in', entityIds.length ? entityIds : [0]);
  return q;
}

export function endpointColumns(q: ReturnType<typeof endpointsQuery>) {
  return q.select([
    'w.id',
    'w.uuid',
    'w.entity_id',
    'w.url',
    'w.description',
    'w.event_types',
    'w.enabled',
    'w.previous_secret_expires_at',
    'w.created_at',
    'w.updated_at',
    'e.slug as entity_slug',
    'e.name as entity_name',
    'ld.last_status',
    'ld.last_at',
    'ld.last_code',
  ]);
}
export type EndpointListRow = Awaited<ReturnType<ReturnType<typeof endpointColumns>['execute']>>[number];

export function deliveriesQuery(db: Db, endpointId: number, status?: WebhookDeliveryStatus) {
  let q = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
    .where('d.endpoint_id', '=', endpointId);
  if (status) q = q.where('d.status', '=', status);
  return q;
}

export async function deliveryPage(
  db: Db,
  endpointId: number,
  status: WebhookDeliveryStatus | undefined,
  page: { page: number; per_page: number },
) {
  const base = deliveriesQuery(db, endpointId, status);
  const [rows, total] = await Promise.all([
    base
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('webhook_attempts as a')
            .select([
              'a.id as a_id',
              'a.attempted_at as a_at',
              'a.response_code as a_code',
              'a.duration_ms as a_ms',
              'a.response_body as a_body',
              'a.error as a_error',
              'a.succeeded as a_ok',
            ])
            .whereRef('a.delivery_id', '=', 'd.id')
            .orderBy('a.id', 'desc')
            .limit(1)
            .as('la'),
        (join) => join.onTrue(),
      )
      .select([
        'd.id',
        'd.event_id',
        'ev.type as event_type',
        'ev.payload',
        'd.status',
        'd.attempts',
        'd.next_attempt_at',
        'd.created_at',
        'la.a_id',
        'la.a_at',
        'la.a_code',
        'la.a_ms',
        'la.a_body',
        'la.a_error',
        'la.a_ok',
      ])
      .orderBy('d.created_at', 'desc')
      .orderBy('d.id', 'desc')
      .limit(page.per_page)
      .offset((page.page - 1) * page.per_page)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}
export type DeliveryPageRow = Awaited<ReturnType<typeof deliveryPage>>['rows'][number];

export async function deliveryWithEndpoint(db: Db, deliveryId: number) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .select(['d.id', 'd.endpoint_id', 'w.entity_id'])
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
}
