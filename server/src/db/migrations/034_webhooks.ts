import { type Kysely, sql } from 'kysely';

/**
 * 034_webhooks (issue 18): Standard Webhooks deliveries with an outbox.
 *
 * - webhook_endpoints: an organisation's receiver (url, subscribed event types, signing secret). After a rotation the
 *   previous secret keeps signing until previous_secret_expires_at, so receivers can switch without losing events.
 * - webhook_events: the outbox. One row per thing that happened, written in the transaction of the change; its id
 *   (msg_...) is the webhook-id every attempt of it carries, so receivers can de-duplicate retries.
 * - webhook_deliveries: an event for one endpoint, with its retry schedule. locked_until is the claim of the worker
 *   sending it (the request is slow I/O, outside any transaction): two workers never send the same attempt.
 * - webhook_attempts: each request made, for the log (status code, duration, the first 1 KB of the body, error).
 */
const statements = [
  `CREATE TABLE webhook_endpoints (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    url text NOT NULL,
    description text,
    event_types jsonb NOT NULL DEFAULT '[]'::jsonb,
    enabled boolean NOT NULL DEFAULT true,
    secret text NOT NULL,
    previous_secret text,
    previous_secret_expires_at timestamptz,
    created_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX webhook_endpoints_entity_idx ON webhook_endpoints(entity_id) WHERE enabled`,
  `CREATE TABLE webhook_events (
    id text PRIMARY KEY,
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    type text NOT NULL,
    payload jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE webhook_deliveries (
    id serial PRIMARY KEY,
    event_id text NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
    endpoint_id integer NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','succeeded','failed')),
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz,
    locked_until timestamptz,
    last_attempt_at timestamptz,
    last_response_code integer,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (event_id, endpoint_id)
  )`,
  `CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries(endpoint_id, created_at DESC, id DESC)`,
  `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries(next_attempt_at) WHERE status = 'pending'`,
  `CREATE TABLE webhook_attempts (
    id serial PRIMARY KEY,
    delivery_id integer NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
    attempted_at timestamptz NOT NULL,
    response_code integer,
    duration_ms integer NOT NULL,
    response_body text,
    error text,
    succeeded boolean NOT NULL
  )`,
  `CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts(delivery_id, id DESC)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
