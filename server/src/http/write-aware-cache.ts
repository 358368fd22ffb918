import type { FastifyInstance } from 'fastify';
import type { CacheBus } from '../db/cache-bus';

/**
 * A short-lived cache that any state-changing request, and any background job that ends but a delivery
 * (jobs/queue.ts keepsCaches), empties (the caller cache, auth/actor-cache.ts, and the read cache,
 * http/read-cache.ts): a write in this process is seen by the next read at once; a write by another server
 * process once the cache bus brings it (milliseconds, db/cache-bus.ts), and at worst within `ttlMs`.
 *
 * A load that started before a write must not put its (possibly stale) answer back after the write emptied the cache:
 * callers take `current()` before loading and pass it to `set`, which drops the value when a write came between.
 */
export class WriteAwareCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  private generation = 0;

  /**
   * Each entry lives between four fifths of the TTL and the whole of it, drawn at random: entries made together (after
   * a write emptied the cache, or 200 clients starting at once) expire over a second (of 5) rather than in the same
   * instant, when every caller would load again at once (the API-read tail at 200 clients, issue 36 §2). A fifth, not
   * more: a shorter mean life means more loads in all (+11 % here). The TTL stays the bound on staleness.
   */
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly random: () => number = Math.random,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** The generation to pass back to `set`: a load that saw an older one is dropped. */
  current(): number {
    return this.generation;
  }

  get(key: string, nowMs: number): V | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (nowMs > entry.expiresAt) {
      this.entries.delete(key);
      return null;
    }
    return entry.value;
  }

  set(key: string, value: V, generation: number, nowMs: number): void {
    if (this.ttlMs <= 0 || generation !== this.generation) return;
    // A full cache starts again rather than tracking recency: entries are cheap to rebuild and live seconds.
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, {
      value,
      expiresAt: nowMs + this.ttlMs - Math.floor((this.ttlMs / 5) * this.random()),
    });
  }

  /** After any state-changing request. */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }
}

/**
 * For the app's lifetime, empties a per-app cache (callers, remembered reads) whenever a state-changing request ends
 * in any process, or this process's bus was deaf for a while.
 */
export function emptyOnWrites(app: FastifyInstance, bus: CacheBus, cache: { invalidate(): void }): void {
  const unsubscribe = bus.subscribe((message) => {
    if (message.topic === 'writes' || message.topic === 'resync') cache.invalidate();
  });
  app.addHook('onClose', async () => unsubscribe());
}
