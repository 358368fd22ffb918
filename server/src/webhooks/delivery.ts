import type { WebhookDeliveryStatus } from '../db/schema';
import type { Deps } from '../http/context';
import { enqueue } from '../jobs/queue';
import { DELIVER_JOB } from './events';
import {
  claimDelivery,
  type DeliveryRow,
  type EndpointRow,
  type EventRow,
  endpointById,
  eventById,
  insertAttempt,
  settleDelivery,
} from './queries';
import { signingSecrets, UnreadableSecretError } from './secrets';
import { eventBody, type SendOutcome, sendWebhook } from './send';

/**
 * Sending a delivery, retries and the log (issue 18). The HTTP request is slow I/O, so it runs outside any
 * transaction under a claim (locked_until) taken by one UPDATE; the outcome and the next attempt's job are written
 * together afterwards.
 */

/** Seconds to wait after failed attempt n (1-based): 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h each time. */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000];
/** A delivery still failing this long after its event is given up (marked failed). */
export const GIVE_UP_AFTER_MS = 3 * 24 * 3600 * 1000;
/** Longer than an attempt's 15 s timeout: a claim that outlives its worker (crash) frees itself. */
const CLAIM_MS = 60_000;

export function retryDelayMs(attempt: number): number {
  const seconds = RETRY_SCHEDULE_SECONDS[Math.min(attempt, RETRY_SCHEDULE_SECONDS.length) - 1] ?? 36000;
  return seconds * 1000;
}

export interface AttemptResult {
  deliveryId: number;
  status: WebhookDeliveryStatus;
  outcome: SendOutcome;
  attemptId: number;
}

/**
 * One attempt of a delivery. `scheduled`: the job's attempt, only when due and pending (a second worker, or a job
 * run twice, finds nothing to do and returns null). `manual`: resend or test, whatever the status; null when the
 * delivery is being sent right now.
 */
export async function attemptDelivery(
  deps: Deps,
  deliveryId: number,
  mode: 'scheduled' | 'manual',
  now: Date = deps.clock(),
): Promise<AttemptResult | null> {
  const before = await deps.db
    .selectFrom('webhook_deliveries')
    .select('status')
    .where('id', '=', deliveryId)
    .executeTakeFirst();
  const delivery = await claimDelivery(
    deps.db,
    deliveryId,
    now,
    new Date(now.getTime() + CLAIM_MS),
    mode === 'scheduled',
  );
  if (!delivery || !before) return null;
  const [endpoint, event] = await Promise.all([
    endpointById(deps.db, delivery.endpoint_id),
    eventById(deps.db, delivery.event_id),
  ]);
  if (!endpoint || !event) return null;
  let outcome: SendOutcome;
  if (!endpoint.enabled && mode === 'scheduled') {
    outcome = {
      ok: false,
      responseCode: null,
      durationMs: 0,
      body: null,
      error: 'The endpoint is turned off.',
    };
  } else {
    outcome = await signAndSend(deps, endpoint, event, now);
  }
  return recordAttempt(deps, delivery, before.status, outcome, mode, !endpoint.enabled, now);
}

/** Issue 29 §14: the secrets are sealed at rest and opened here only, to sign. */
async function signAndSend(
  deps: Deps,
  endpoint: EndpointRow,
  event: EventRow,
  now: Date,
): Promise<SendOutcome> {
  let secrets: string[];
  try {
    secrets = await signingSecrets(deps.db, deps.secrets, endpoint, now);
  } catch (error) {
    if (!(error instanceof UnreadableSecretError)) throw error;
    return { ok: false, responseCode: null, durationMs: 0, body: null, error: error.message };
  }
  return sendWebhook(
    {
      url: endpoint.url,
      secrets,
      eventId: event.id,
      body: eventBody(event),
      timestampSeconds: Math.floor(now.getTime() / 1000),
    },
    deps.config,
  );
}

async function recordAttempt(
  deps: Deps,
  delivery: DeliveryRow,
  statusBefore: WebhookDeliveryStatus,
  outcome: SendOutcome,
  mode: 'scheduled' | 'manual',
  endpointOff: boolean,
  at: Date,
): Promise<AttemptResult> {
  return deps.db.transaction().execute(async (trx) => {
    const attemptId = await insertAttempt(trx, {
      deliveryId: delivery.id,
      at,
      responseCode: outcome.responseCode,
      durationMs: outcome.durationMs,
      body: outcome.body,
      error: outcome.error,
      succeeded: outcome.ok,
    });
    let status: WebhookDeliveryStatus;
    let next: Date | null = null;
    if (outcome.ok) status = 'succeeded';
    else if (mode === 'manual') {
      // A failed resend leaves a scheduled delivery on its schedule; a finished one stays finished (as failed).
      status = statusBefore === 'pending' ? 'pending' : 'failed';
      next = statusBefore === 'pending' ? delivery.next_attempt_at : null;
    } else {
      const retryAt = new Date(at.getTime() + retryDelayMs(delivery.attempts));
      const giveUp = endpointOff || retryAt.getTime() - delivery.created_at.getTime() > GIVE_UP_AFTER_MS;
      status = giveUp ? 'failed' : 'pending';
      next = giveUp ? null : retryAt;
      if (next) await enqueue(trx, DELIVER_JOB, { deliveryId: delivery.id }, { runAt: next });
    }
    await settleDelivery(trx, delivery.id, {
      status,
      nextAttemptAt: next,
      at,
      responseCode: outcome.responseCode,
    });
    return { deliveryId: delivery.id, status, outcome, attemptId };
  });
}
