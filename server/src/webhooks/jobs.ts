import { registerJob } from '../jobs/queue';
import { attemptDelivery } from './delivery';
import { DELIVER_JOB } from './events';

/** Issue 18: one job per delivery attempt; the delivery row holds the retry schedule (delivery.ts), not the job. */
export function registerWebhookJobs(): void {
  registerJob<{ deliveryId: number }>(
    DELIVER_JOB,
    async (ctx, payload) => {
      await attemptDelivery(ctx, payload.deliveryId, 'scheduled', ctx.now);
    },
    // The attempt's own failure is recorded on the delivery; a job failure here is the database's, worth a retry.
    { maxAttempts: 5, timeoutSeconds: 120, keepsCaches: true },
  );
}
