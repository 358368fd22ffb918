import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { Deps } from '../http/context';
import {
  claimJobs,
  completeJob,
  type DbOrTrx,
  failJob,
  insertJob,
  type JobRow,
  pruneFinishedJobs,
  releaseClaim,
  startJob,
} from './queries';

/**
 * The durable job queue (ARCHITECTURE "jobs/"): jobs are rows in PostgreSQL, so they survive a restart and several
 * server processes share them. Why not pg-boss: its current major needs Node 22 (we run on 20), and its older
 * major only runs on PGlite through the raw client (multi-statement SQL), which would interleave with Kysely's
 * transactions on PGlite's single connection; it also reads the database clock, so tests could not drive it.
 *
 * - enqueue(trx, name, payload, { runAt }) inside the caller's transaction: the job exists iff the change committed.
 * - a worker claims due jobs (FOR UPDATE SKIP LOCKED), runs the registered handler, then marks it done (or the
 *   handler does, in its own transaction, with ctx.finish(trx)); a thrown
 *   error queues it again with exponential backoff until max_attempts, then marks it failed with the error.
 * - a job left 'running' past its timeout (its process died) is claimed again by any worker.
 * - recurring jobs (registerRecurring) get one row per time slot, made idempotent by a unique key, so two processes
 *   never run the same slot twice.
 */

export interface JobContext extends Deps {
  log: FastifyBaseLogger;
  job: JobRow;
  /** The time the worker runs the job with (the test clock in tests). */
  now: Date;
  /**
   * Marks the job done inside the handler's own transaction, so what the job wrote (e.g. its mail) and "done"
   * commit together: a crash after the commit cannot run it again. Without it, the worker marks it done after the
   * handler returns (a no-op when the handler already did).
   */
  finish(trx: DbOrTrx): Promise<void>;
}

/**
 * A handler answers UNCHANGED (any other answer is ignored) when its run wrote nothing, as a recurring scan that found
 * nothing due: then the caches stay, as after a delivery (JobOptions.keepsCaches). A scan each minute would otherwise
 * empty every cached caller and answer of every process each minute, for nothing.
 */
export const UNCHANGED = 'unchanged';
/** The answer of a scan that counts what it changed: UNCHANGED when that is nothing. */
export const unchangedWhenNone = (changed: number) => (changed === 0 ? UNCHANGED : undefined);
export type JobHandler<P = Record<string, unknown>> = (ctx: JobContext, payload: P) => Promise<unknown>;

export interface JobOptions {
  /** Attempts before the job is marked failed (default 5). */
  maxAttempts?: number;
  /** A running job older than this is presumed dead and claimed again (default 600 s). */
  timeoutSeconds?: number;
  /** Backoff before attempt n+1, in ms (default 30 s × 2^(n-1), at most 1 h). */
  backoffMs?: (attempt: number) => number;
  /**
   * true: the job writes only what no cached caller or answer holds (a delivery's own row: a mail, a push, a webhook
   * call). Every other job, when it ends, empties the caller and read caches of every process, as a state-changing
   * request does (http/authenticate.ts): an import's people are listed as soon as it finishes, not when the cached
   * lists expire.
   */
  keepsCaches?: boolean;
}

/** Thrown by a handler for a failure that retrying cannot fix: the job is marked failed at once. */
export class PermanentJobError extends Error {}

interface Registered {
  handler: JobHandler<never>;
  options: Required<JobOptions>;
}

const defaultBackoff = (attempt: number) => Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 3_600_000);
const handlers = new Map<string, Registered>();
const recurring = new Map<string, { everyMs: number }>();

export function registerJob<P>(name: string, handler: JobHandler<P>, options: JobOptions = {}): void {
  handlers.set(name, {
    handler: handler as JobHandler<never>,
    options: {
      maxAttempts: options.maxAttempts ?? 5,
      timeoutSeconds: options.timeoutSeconds ?? 600,
      backoffMs: options.backoffMs ?? defaultBackoff,
      keepsCaches: options.keepsCaches ?? false,
    },
  });
}

/** A job run once per `everyMs` slot by whichever process gets there first (e.g. the report scheduler, each minute). */
export function registerRecurring(name: string, everyMs: number): void {
  if (!handlers.has(name)) throw new Error(`registerRecurring: no handler registered for ${name}`);
  recurring.set(name, { everyMs });
}

export function registeredJobNames(): string[] {
  return [...handlers.keys()];
}

export interface EnqueueOptions {
  runAt?: Date;
  /** Idempotency: a second enqueue with the same key is ignored (returns null). */
  uniqueKey?: string;
  maxAttempts?: number;
  timeoutSeconds?: number;
}

/** Records a job. Pass the transaction of the change that causes it, so the job commits (or not) with it. */
export async function enqueue(
  db: DbOrTrx,
  name: string,
  payload: Record<string, unknown>,
  options: EnqueueOptions = {},
): Promise<number | null> {
  const registered = handlers.get(name);
  return insertJob(db, {
    name,
    payload,
    runAt: options.runAt ?? new Date(),
    maxAttempts: options.maxAttempts ?? registered?.options.maxAttempts ?? 5,
    timeoutSeconds: options.timeoutSeconds ?? registered?.options.timeoutSeconds ?? 600,
    uniqueKey: options.uniqueKey ?? null,
  });
}

/** Enqueues the current slot of every recurring job (a no-op when another process already did). */
export async function enqueueRecurring(db: DbOrTrx, now: Date): Promise<void> {
  for (const [name, { everyMs }] of recurring) {
    const slot = new Date(Math.floor(now.getTime() / everyMs) * everyMs);
    await enqueue(
      db,
      name,
      { slot: slot.toISOString() },
      { runAt: slot, uniqueKey: `${name}@${slot.toISOString()}` },
    );
  }
}

const silent = pino({ level: 'silent' });

/** One job run, as the metrics count it (issue 35 §5): its kind (the job's name), how it ended and how long it took. */
export interface FinishedJob {
  kind: string;
  outcome: 'ran' | 'failed';
  /** From the time it was due (run_at) to the start of its handler, on the worker's clock. */
  waitSeconds: number;
  /** The handler's run, on the process's monotonic clock. */
  runSeconds: number;
}

const jobObservers = new Set<(job: FinishedJob) => void>();

/**
 * Tells `observer` of every job this process runs from now on; returns the function that stops it. The metrics
 * (http/metrics.ts) are wired to it at composition (bootstrap.ts), so the queue knows nothing of them.
 */
export function observeJobs(observer: (job: FinishedJob) => void): () => void {
  jobObservers.add(observer);
  return () => jobObservers.delete(observer);
}

function tellObservers(job: FinishedJob): void {
  for (const observer of jobObservers) {
    try {
      observer(job);
    } catch {
      // an observer's failure is never the job's
    }
  }
}

/** What became of one claimed job: ran, failed (for now or for good), or lost (its claim had expired). */
type Outcome = 'ran' | 'failed' | 'lost';

async function runOne(
  deps: Deps,
  claimed: JobRow,
  workerId: string,
  now: Date,
  log: FastifyBaseLogger,
): Promise<Outcome> {
  const registered = handlers.get(claimed.name);
  let job = claimed;
  let began: number | null = null;
  const finished = (outcome: FinishedJob['outcome']) => {
    if (began === null) return; // never started: nothing ran to count
    tellObservers({
      kind: job.name,
      outcome,
      waitSeconds: Math.max(0, (now.getTime() - new Date(job.run_at).getTime()) / 1000),
      runSeconds: (performance.now() - began) / 1000,
    });
  };
  try {
    if (!registered) throw new PermanentJobError(`No handler is registered for job "${claimed.name}".`);
    // Begun as often as allowed and never finished: its process died each time (or it outran its timeout).
    if (claimed.attempts >= claimed.max_attempts)
      throw new PermanentJobError(claimed.last_error ?? 'The job did not finish in time.');
    const started = await startJob(deps.db, claimed.id, workerId, now);
    if (!started) return 'lost';
    job = started;
    began = performance.now();
    const finish = (trx: DbOrTrx) => completeJob(trx, job.id, workerId, deps.clock());
    let answer: unknown;
    try {
      answer = await registered.handler({ ...deps, log, job, now, finish }, job.payload as never);
    } finally {
      // Ran, or failed part way (an import commits in steps): what it wrote may be in a cached answer.
      if (!registered.options.keepsCaches && answer !== UNCHANGED) deps.bus.publish({ topic: 'writes' });
    }
    await completeJob(deps.db, job.id, workerId, deps.clock());
    finished('ran');
    return 'ran';
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const permanent = error instanceof PermanentJobError || job.attempts >= job.max_attempts;
    const backoff = registered?.options.backoffMs ?? defaultBackoff;
    const retryAt = permanent ? null : new Date(now.getTime() + backoff(job.attempts));
    log.warn({ job: job.id, name: job.name, attempt: job.attempts, err: error }, 'job failed');
    await failJob(deps.db, job.id, workerId, deps.clock(), message.slice(0, 2000), retryAt);
    finished('failed');
    return 'failed';
  }
}

/** Claims one due job and runs it at once (a claim is never held while other work waits); null when none is due. */
async function claimAndRun(
  deps: Deps,
  workerId: string,
  now: Date,
  log: FastifyBaseLogger,
  stopping: () => boolean = () => false,
  reclaimAfterSeconds: number | null = null,
): Promise<Outcome | null> {
  const [job] = await claimJobs(deps.db, workerId, now, 1, reclaimAfterSeconds);
  if (!job) return null;
  // The claim was sent before a shutdown began and came back after: a stopping worker starts nothing new.
  if (stopping()) {
    await releaseClaim(deps.db, job.id, workerId, deps.clock());
    return null;
  }
  return runOne(deps, job, workerId, now, log);
}

export interface RunOptions {
  workerId?: string;
  log?: FastifyBaseLogger;
  /** Stop after this many jobs (default: until nothing is due). */
  max?: number;
  /** Checked between jobs: a stopping worker finishes the job in hand and claims no more. */
  shouldStop?: () => boolean;
}

/**
 * Runs every job due at `now`, one at a time, until none is left (jobs a handler enqueues for `now` run too).
 * The worker loop calls it on each poll; tests call it with their own clock.
 */
export async function runDueJobs(
  deps: Deps,
  now: Date = deps.clock(),
  options: RunOptions = {},
): Promise<{ ran: number; failed: number }> {
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const log = options.log ?? silent;
  await enqueueRecurring(deps.db, now);
  let ran = 0;
  let failed = 0;
  while (!(options.shouldStop?.() ?? false) && ran + failed < (options.max ?? Number.POSITIVE_INFINITY)) {
    const outcome = await claimAndRun(deps, workerId, now, log, options.shouldStop);
    if (!outcome) break;
    if (outcome === 'ran') ran += 1;
    else if (outcome === 'failed') failed += 1;
  }
  return { ran, failed };
}

export interface Worker {
  /** True from its start until stop() is called: the readiness check's "queue" (http/health.ts). */
  running(): boolean;
  /** Poll now instead of waiting for the next interval (after an enqueue in this process). */
  wake(): void;
  /** Graceful shutdown: finishes the jobs in hand, claims no more. */
  stop(): Promise<void>;
}

export interface WorkerOptions {
  /** How often an idle worker looks for due jobs (default 2 s). */
  pollMs?: number;
  log?: FastifyBaseLogger;
  keepFinishedDays?: number;
  /** Jobs run at once by this process (default 8): one slow job (a webhook receiver taking 15 s) holds up no other. */
  concurrency?: number;
  /**
   * A running job is claimed again after this many seconds when that is sooner than its own timeout
   * (JOB_RECLAIM_AFTER_SECONDS: tests that kill a process; a live job running longer would run twice).
   */
  reclaimAfterSeconds?: number;
}

/**
 * The worker of a server process: `concurrency` slots, each claiming one job and running it at once, until none is
 * due. One slot polls every `pollMs` (and enqueues recurring jobs, prunes old finished ones hourly); the others
 * sleep until a slot that found work wakes them, so an idle process costs one query per poll. Work enqueued by a
 * request is run at once, not on the next poll: a state-changing request's end ('writes' on the cache bus, after its
 * transaction committed; from every process on PostgreSQL) wakes a slot.
 */
export function startWorker(deps: Deps, options: WorkerOptions = {}): Worker {
  const pollMs = options.pollMs ?? 2000;
  const log = options.log ?? silent;
  const slots = Math.max(1, options.concurrency ?? 8);
  const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let stopping = false;
  let lastPrune = 0;
  let lastRecurring = 0;
  /** Wakers of the slots asleep. */
  const asleep = new Set<() => void>();
  /** A wake that found every slot busy: the next slot to fall asleep looks once more first. */
  let missedWake = false;

  const sleep = (ms: number | null) =>
    new Promise<void>((resolve) => {
      if (missedWake || stopping) {
        missedWake = false;
        resolve();
        return;
      }
      const timer = ms === null ? null : setTimeout(() => waker(), ms);
      const waker = () => {
        if (timer) clearTimeout(timer);
        asleep.delete(waker);
        resolve();
      };
      asleep.add(waker);
    });
  /** `remember`: a wake from outside (new work committed) is kept for a busy worker; a slot's own is not. */
  const wakeOne = (remember: boolean) => {
    const [waker] = asleep;
    if (waker) waker();
    else if (remember) missedWake = true;
  };

  const housekeeping = async () => {
    const now = deps.clock().getTime();
    if (now - lastRecurring >= pollMs) {
      lastRecurring = now;
      await enqueueRecurring(deps.db, new Date(now));
    }
    if (now - lastPrune > 3_600_000) {
      lastPrune = now;
      await pruneFinishedJobs(deps.db, new Date(now - (options.keepFinishedDays ?? 7) * 86_400_000));
    }
  };

  const slot = async (polls: boolean) => {
    while (!stopping) {
      let outcome: Outcome | null = null;
      try {
        if (polls) await housekeeping();
        if (stopping) return;
        outcome = await claimAndRun(
          deps,
          workerId,
          deps.clock(),
          log,
          () => stopping,
          options.reclaimAfterSeconds ?? null,
        );
      } catch (err) {
        log.error({ err }, 'job worker failed');
      }
      if (stopping) return;
      // More may be due: another slot joins in, up to `slots` at once.
      if (outcome) wakeOne(false);
      else await sleep(polls ? pollMs : null);
    }
  };

  const unsubscribe = deps.bus.subscribe((message) => {
    if (message.topic === 'writes' || message.topic === 'resync') wakeOne(true);
  });
  const running = Array.from({ length: slots }, (_, i) => slot(i === 0));

  return {
    running: () => !stopping,
    wake() {
      if (!stopping) wakeOne(true);
    },
    async stop() {
      stopping = true;
      unsubscribe();
      for (const waker of [...asleep]) waker();
      await Promise.all(running);
    },
  };
}
