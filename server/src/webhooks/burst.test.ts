import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildType, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces } from '../../test/parallel';
import { startWorker } from '../jobs/queue';
import { webhookWorld } from './fixtures';
import { registerWebhookJobs } from './jobs';
import { type Receiver, startReceiver } from './test-receiver';

/**
 * Issue 28 §1: a burst of webhook events is delivered at once by the server's own worker: the requests that caused
 * them wake it (its poll is set to a minute here, so nothing can ride on it), every delivery claims exactly its own
 * job, and no job waits for a lock to time out (120 s for a delivery). The target is every delivery within 2 s of
 * its request; on this two-core machine shared with other suites the latencies printed are what load allows, so the
 * bound asserted is the one no poll or lock timeout can meet (MAX_LATE_MS).
 */
let h: Harness;
let rx: Receiver;
beforeAll(async () => {
  h = await createHarness({ webhooksAllowPrivate: true });
  registerWebhookJobs();
  rx = await startReceiver();
});
afterAll(async () => {
  await rx?.close();
  await h?.close();
});

const EVENTS = 15;
const ENDPOINTS = 4;
const MAX_LATE_MS = 15_000;

// PostgreSQL: PGlite answers one query at a time, so the 15 requests and the deliveries queue behind each other.
describeRaces('a burst of webhook events', () => {
  it('15 events fired at once: every delivery to a healthy local receiver leaves at once, woken by the requests', async () => {
    const w = await webhookWorld(h);
    const manager = await w.as(w.manager.id);
    for (let i = 0; i < ENDPOINTS; i++) {
      const res = await manager('POST', '/api/webhooks', { url: rx.url, event_types: ['user.created'] });
      expect(res.statusCode, res.body).toBe(201);
    }
    const admin = await clientFor(
      h.app,
      h.db,
      (await buildUser(h.db, { entityId: w.group.id, superAdmin: true })).id,
    );
    const type = await buildType(h.db, w.group.id);
    const worker = startWorker(h.deps, { pollMs: 60_000 });
    try {
      // The worker has looked once and is asleep until its next poll, a minute later.
      await new Promise((r) => setTimeout(r, 300));
      const before = rx.received.length;
      const committed = new Map<number, number>();
      await Promise.all(
        Array.from({ length: EVENTS }, async (_, i) => {
          const res = await admin('POST', '/api/users', {
            name: `Burst ${i}`,
            email: `burst-${i}-${w.group.slug}@example.test`,
            primary_entity_id: w.home.id,
            type_id: type.id,
          });
          expect(res.statusCode, res.body).toBe(201);
          committed.set(res.json().data.id, Date.now());
        }),
      );
      await expect
        .poll(() => rx.received.length - before, { timeout: 30_000, interval: 50 })
        .toBe(EVENTS * ENDPOINTS);
      const late = rx.received.slice(before).map((r) => {
        const userId = (JSON.parse(r.body) as { data: { user_id: number } }).data.user_id;
        return r.at - (committed.get(userId) ?? 0);
      });
      const sorted = [...late].sort((a, b) => a - b);
      console.log(
        `webhook burst: ${late.length} deliveries, p50 ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted.at(-1)} ms after their request answered`,
      );
      expect(late.filter((ms) => ms > MAX_LATE_MS)).toEqual([]);
    } finally {
      await worker.stop();
    }
  }, 60_000);
});
