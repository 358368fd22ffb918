import { type ComplianceTally, SCORE_MAX_AGE_MS } from '@cc/contracts';

/**
 * The in-process store behind GET /entities/{id}/score/{x} (spec 1 §4 "Score request": 202 while computing, 200 when
 * ready). A score is computed once in the background per key (entity, type, deep, new-starter mode) and served until
 *   - a compliance row or a result is written (markScoresStale(): the epoch moves on; results/service.ts calls it
 *     whenever latest_results changes), or
 *   - another server process did either (its markScoresStale reaches this one through the cache bus,
 *     cluster/process-caches.ts, within milliseconds), or
 *   - it is older than SCORE_MAX_AGE_MS (a backstop should the bus be down).
 * A stale or missing score answers 202 and starts one computation; concurrent requests share it.
 */

/** The figures a score is computed from (contracts ComplianceTally). */
export type Figures = ComplianceTally;

interface Ready<T> {
  value: T;
  epoch: number;
  at: number;
}

let epoch = 0;
let lastMarkAt = 0;
/**
 * A write inside a transaction marks scores stale before it commits, so a computation started just after a mark may
 * miss it: such a score is served only until GRACE_MS after the mark, then computed again.
 */
const GRACE_MS = 2000;
const ready = new Map<string, Ready<unknown>>();
const running = new Map<string, Promise<unknown>>();

/** Told of every markScoresStale (the cache bus, which tells the other processes). */
const announcers = new Set<() => void>();

/**
 * A write changed what scores are made of: every cached score is stale, in every process. Called deep inside the
 * writes (results/service.ts recomputeLatestResult), where no request context is at hand, hence the announcers.
 */
export function markScoresStale(now: number = Date.now()): void {
  forgetScores(now);
  for (const announce of announcers) announce();
}

/** This process's part of markScoresStale (also what the cache bus does when another process marked them). */
export function forgetScores(now: number = Date.now()): void {
  epoch += 1;
  lastMarkAt = now;
}

/** `announce` is called on every markScoresStale of this process; returns the function that stops it. */
export function announceScoresStale(announce: () => void): () => void {
  announcers.add(announce);
  return () => announcers.delete(announce);
}

export type ScoreLookup<T> = { status: 'ready'; value: T } | { status: 'computing' };

/**
 * The fresh value of `key`, or 'computing' after starting `compute` in the background (once per key). A failed
 * computation is logged by the caller's `onError` and retried on the next request.
 */
export function lookupScore<T>(
  key: string,
  compute: () => Promise<T>,
  onError: (error: unknown) => void,
  now: number = Date.now(),
): ScoreLookup<T> {
  const hit = ready.get(key) as Ready<T> | undefined;
  const provisional = hit !== undefined && hit.at < lastMarkAt + GRACE_MS && now >= lastMarkAt + GRACE_MS;
  if (hit && hit.epoch === epoch && now - hit.at < SCORE_MAX_AGE_MS && !provisional)
    return { status: 'ready', value: hit.value };
  if (!running.has(key)) {
    const startedEpoch = epoch;
    const startedAt = now;
    const job = compute()
      .then((value) => {
        // A write during the computation may not be in it: keep it, but as of the epoch it started in.
        ready.set(key, { value, epoch: startedEpoch, at: startedAt });
      })
      .catch(onError)
      .finally(() => running.delete(key));
    running.set(key, job);
  }
  return { status: 'computing' };
}

/** Resolves when the computation of `key` (if any) has finished: tests and the CLI wait on it. */
export async function settleScore(key: string): Promise<void> {
  await running.get(key);
}

/** Forget everything (tests). */
export function clearScores(): void {
  ready.clear();
  running.clear();
  epoch += 1;
}
