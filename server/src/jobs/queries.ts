import type { Selectable } from 'kysely';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Db } from '../db/connect';
import type { Database, JobsTable } from '../db/schema';

/** A database handle or an open transaction: enqueueing inside the caller's transaction makes the job atomic with it. */
export type DbOrTrx = Db | Transaction<Database> | Kysely<Database>;
export type JobRow = Selectable<JobsTable>;

export interface NewJob {
  name: string;
  payload: Record<string, unknown>;
  runAt: Date;
  maxAttempts: number;
  timeoutSeconds: number;
  uniqueKey: string | null;
}

/** Inserts a job; with a unique key already taken, nothing is inserted and null comes back (idempotent enqueue). */
export async function insertJob(db: DbOrTrx, job: NewJob): Promise<number | null> {
  const row = await db
    .insertInto('jobs')
    .values({
      name: job.name,
      payload: JSON.stringify(job.payload),
      run_at: job.runAt,
      max_attempts: job.maxAttempts,
      timeout_seconds: job.timeoutSeconds,
      unique_key: job.uniqueKey,
    })
    .onConflict((oc) => oc.column('unique_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

/**
 * Claims up to `limit` jobs for `workerId`: due queued jobs, and running jobs whose lock is older than their timeout
 * (their process died). FOR UPDATE SKIP LOCKED lets several processes claim at once without taking the same row.
 *
 * Exactly `limit` at most (issue 28 §1): the pick is a MATERIALIZED CTE, evaluated once. The former
 * `WHERE id IN (SELECT … LIMIT n FOR UPDATE SKIP LOCKED)` let the planner run the subquery as the inner side of a
 * nested loop; each rescan skipped the rows this statement had already updated and returned the next ones, so one
 * claim of 1 marked every due job running (`UPDATE 3` for 3 jobs, 536 or 300 rows in issue 30) and the worker ran one.
 *
 * A claim is not an attempt: `startJob` counts it when the handler starts, so a claim that expires before its job
 * ran (its process died in between) is simply claimed again.
 *
 * `reclaimAfterSeconds` (JOB_RECLAIM_AFTER_SECONDS, tests that kill a process) caps each job's own timeout; LEAST
 * ignores it when null.
 */
export async function claimJobs(
  db: Db,
  workerId: string,
  now: Date,
  limit: number,
  reclaimAfterSeconds: number | null = null,
): Promise<JobRow[]> {
  const timeout = sql`LEAST(timeout_seconds, ${reclaimAfterSeconds}::int)`;
  const { rows } = await sql<JobRow>`
    WITH picked AS MATERIALIZED (
      SELECT id FROM jobs
       WHERE (status = 'queued' AND run_at <= ${now})
          OR (status = 'running' AND locked_at < ${now}::timestamptz - make_interval(secs => ${timeout}))
       ORDER BY run_at, id
       LIMIT ${limit}
       FOR UPDATE SKIP LOCKED)
    UPDATE jobs SET status = 'running', locked_by = ${workerId}, locked_at = ${now}, updated_at = ${now}
      FROM picked
     WHERE jobs.id = picked.id
    RETURNING jobs.*`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Gives a claimed job back unstarted (its worker began stopping while the claim was in flight): due again at once. */
export async function releaseClaim(db: Db, id: number, workerId: string, now: Date): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ status: 'queued', locked_by: null, locked_at: null, updated_at: now })
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'running')
    .execute();
}

/**
 * Counts the attempt as the handler starts (and renews the lock from then); undefined when the claim is no longer
 * this worker's (it expired and another worker took the job).
 */
export async function startJob(db: Db, id: number, workerId: string, now: Date): Promise<JobRow | undefined> {
  const row = await db
    .updateTable('jobs')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), locked_at: now, updated_at: now }))
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'running')
    .returningAll()
    .executeTakeFirst();
  return row ? { ...row, id: Number(row.id) } : undefined;
}

/** Marks a claimed job done; a no-op when another worker reclaimed it meanwhile (the lock is no longer ours). */
export async function completeJob(db: DbOrTrx, id: number, workerId: string, now: Date): Promise<void> {
  await db
    .updateTable('jobs')
    .set({
      status: 'done',
      finished_at: now,
      locked_by: null,
      locked_at: null,
      last_error: null,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'running')
    .execute();
}

/** Queues the job again at `retryAt`, or marks it failed for good when `retryAt` is null. */
export async function failJob(
  db: Db,
  id: number,
  workerId: string,
  now: Date,
  error: string,
  retryAt: Date | null,
): Promise<void> {
  await db
    .updateTable('jobs')
    .set(
      retryAt
        ? {
            status: 'queued',
            run_at: retryAt,
            locked_by: null,
            locked_at: null,
            last_error: error,
            updated_at: now,
          }
        : {
            status: 'failed',
            finished_at: now,
            locked_by: null,
            locked_at: null,
            last_error: error,
            updated_at: now,
          },
    )
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'running')
    .execute();
}

/** Finished jobs are kept a while for inspection, then removed so the table stays small. */
export async function pruneFinishedJobs(db: Db, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('jobs')
    .where('status', 'in', ['done', 'failed'])
    .where('finished_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function findJob(db: Db, id: number): Promise<JobRow | undefined> {
  const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? { ...row, id: Number(row.id) } : undefined;
}

/** Jobs waiting by kind: `due` are queued for now or earlier (the backlog), `running` are claimed (issue 35 §5). */
export interface QueueDepth {
  kind: string;
  due: number;
  running: number;
}

/** The queue's depth for the metrics: one set-based read over the two partial indexes of open jobs. */
export async function queueDepth(db: Db, now: Date): Promise<QueueDepth[]> {
  const { rows } = await sql<QueueDepth>`
    SELECT name AS kind,
           count(*) FILTER (WHERE status = 'queued')::int AS due,
           count(*) FILTER (WHERE status = 'running')::int AS running
      FROM jobs
     WHERE (status = 'queued' AND run_at <= ${now}) OR status = 'running'
     GROUP BY name
     ORDER BY name`.execute(db);
  return rows;
}
