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

export type JobHandler<P = Record<string, unknown>> = (ctx: JobContext, payload: P) => Promise<void>;

export interface JobOptions {
  /** Attempts before the job is marked failed (default 5). */
  maxAttempts?: number;
  /** A running job older than this is presumed dead and claimed again (default 600 s). */
  timeoutSeconds?: number;
  /** Backoff before attempt n+1, in ms (default 30 s × 2^(n-1), at most 1 h). */
  backoffMs?: (attempt: number) => number;
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

async function runOne(deps: Deps, job: JobRow, workerId: string, now: Date, log: FastifyBaseLogger) {
  const registered = handlers.get(job.name);
  try {
    if (!registered) throw new PermanentJobError(`No handler is registered for job "${job.name}".`);
    if (job.attempts > job.max_attempts)
      throw new PermanentJobError(job.last_error ?? 'The job did not finish in time.');
    const finish = (trx: DbOrTrx) => completeJob(trx, job.id, workerId, deps.clock());
    await registered.handler({ ...deps, log, job, now, finish }, job.payload as never);
    await completeJob(deps.db, job.id, workerId, deps.clock());
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const permanent = error instanceof PermanentJobError || job.attempts >= job.max_attempts;
    const backoff = registered?.options.backoffMs ?? defaultBackoff;
    const retryAt = permanent ? null : new Date(now.getTime() + backoff(job.attempts));
    log.warn({ job: job.id, name: job.name, attempt: job.attempts, err: error }, 'job failed');
    await failJob(deps.db, job.id, workerId, deps.clock(), message.slice(0, 2000), retryAt);
    return false;
  }
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
    const [job] = await claimJobs(deps.db, workerId, now, 1);
    if (!job) break;
    if (await runOne(deps, job, workerId, now, log)) ran += 1;
    else failed += 1;
  }
  return { ran, failed };
}

export interface Worker {
  /** Poll now instead of waiting for the next interval (after an enqueue in this process). */
  wake(): void;
  /** Graceful shutdown: finishes the job in hand, claims no more. */
  stop(): Promise<void>;
}

/** The worker loop of a server process: polls every `pollMs`, runs due jobs, prunes old finished ones hourly. */
export function startWorker(
  deps: Deps,
  options: { pollMs?: number; log?: FastifyBaseLogger; keepFinishedDays?: number } = {},
): Worker {
  const pollMs = options.pollMs ?? 2000;
  const log = options.log ?? silent;
  const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let stopping = false;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> = Promise.resolve();
  let lastPrune = 0;

  const tick = async () => {
    timer = null;
    try {
      await runDueJobs(deps, deps.clock(), { workerId, log, shouldStop: () => stopping });
      const now = deps.clock().getTime();
      if (now - lastPrune > 3_600_000) {
        lastPrune = now;
        await pruneFinishedJobs(deps.db, new Date(now - (options.keepFinishedDays ?? 7) * 86_400_000));
      }
    } catch (err) {
      log.error({ err }, 'job worker tick failed');
    }
    if (!stopping) timer = setTimeout(schedule, pollMs);
  };
  const schedule = () => {
    current = current.then(tick);
  };
  timer = setTimeout(schedule, 0);

  return {
    wake() {
      if (stopping || !timer) return;
      clearTimeout(timer);
      schedule();
    },
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await current;
    },
  };
}
