import type { TaskKind } from '@cc/contracts';
import type { TaskResultJson } from '../db/schema';
import type { DbOrTrx } from '../jobs/queries';
import { type JobContext, PermanentJobError } from '../jobs/queue';
import { findTaskOfJob } from './queries';

/**
 * Tasks in progress (issue 18): the user's view of a long job they started. A capability that starts one calls
 * startTask inside the transaction that enqueues its job (the task exists iff the job does), then reports progress
 * from the job handler, and ends it with finishTask or failTask. /tasks-in-progress lists them (tasks/routes.ts).
 */
export interface NewTask {
  userId: number;
  entityId: number | null;
  kind: TaskKind;
  title: string;
  /** Units of work when known at the start (rows, users, pages); null: unknown until the job counts them. */
  total?: number | null;
  jobId?: number | null;
}

export interface TaskRef {
  id: number;
  uuid: string;
}

export async function startTask(db: DbOrTrx, task: NewTask): Promise<TaskRef> {
  return db
    .insertInto('tasks')
    .values({
      user_id: task.userId,
      entity_id: task.entityId,
      kind: task.kind,
      title: task.title,
      progress_total: task.total ?? null,
      job_id: task.jobId ?? null,
      result: null,
    })
    .returning(['id', 'uuid'])
    .executeTakeFirstOrThrow();
}

/** Links the job that does the work, when it is enqueued after the task row (its payload names the task). */
export async function linkTaskJob(db: DbOrTrx, taskId: number, jobId: number): Promise<void> {
  await db.updateTable('tasks').set({ job_id: jobId }).where('id', '=', taskId).execute();
}

/** Progress as the job goes: done of total (total may be learnt late). A finished task is left alone. */
export async function reportTaskProgress(
  db: DbOrTrx,
  taskId: number,
  progress: { done: number; total?: number | null },
  now: Date,
): Promise<void> {
  await db
    .updateTable('tasks')
    .set({
      status: 'running',
      progress_done: Math.max(0, Math.floor(progress.done)),
      ...(progress.total !== undefined ? { progress_total: progress.total } : {}),
      updated_at: now,
    })
    .where('id', '=', taskId)
    .where('status', 'in', ['queued', 'running'])
    .execute();
}

export async function finishTask(
  db: DbOrTrx,
  taskId: number,
  result: TaskResultJson | null,
  now: Date,
): Promise<void> {
  await db
    .updateTable('tasks')
    .set((eb) => ({
      status: 'done',
      result: result === null ? null : JSON.stringify(result),
      progress_done: eb.fn.coalesce('progress_total', 'progress_done'),
      error: null,
      updated_at: now,
      finished_at: now,
    }))
    .where('id', '=', taskId)
    // A cancelled task stays cancelled, whatever a late job says.
    .where('status', 'in', ['queued', 'running'])
    .execute();
}

/** The error as the user reads it: a plain sentence, never a stack trace. */
export async function failTask(db: DbOrTrx, taskId: number, error: string, now: Date): Promise<void> {
  await db
    .updateTable('tasks')
    .set({ status: 'failed', error: error.slice(0, 2000), updated_at: now, finished_at: now })
    .where('id', '=', taskId)
    .where('status', 'in', ['queued', 'running'])
    .execute();
}

/** The sentence a task shows when a job failed for a reason the user cannot act on (details are in the server log). */
export const TASK_FAILED_GENERIC =
  'Something went wrong while doing this. Please try again, or contact support if it keeps happening.';

export interface TaskTracker {
  /** The task's id, or null when the job was not started by a user (a schedule, an older queued job). */
  taskId: number | null;
  progress(done: number, total?: number | null): Promise<void>;
  /**
   * Ends the task inside `trx`, the transaction that also records the work's own outcome (an import marked applied
   * and its task done commit together, or neither does). The first end stands (finishTask and failTask leave an
   * ended task alone), so what the work then returns changes nothing; if `trx` rolls back, the work's error ends
   * the task as any failure does.
   */
  finish(trx: DbOrTrx, result: TaskResultJson | null): Promise<void>;
  /** As finish, for an outcome the user reads as failed (a plain sentence), whether or not the work then throws. */
  fail(trx: DbOrTrx, error: string): Promise<void>;
  /** Stores a file the user downloads from /tasks-in-progress; returns the result's `file`. */
  storeFile(
    bytes: Buffer,
    file: { filename: string; contentType: string; extension: string },
  ): Promise<NonNullable<TaskResultJson['file']>>;
}

/**
 * Runs a job's work as the task of the job (the task found by tasks.job_id, so a capability wires a task without
 * changing its job's payload): a cancelled task skips the work; the work's result finishes the task, unless the
 * work ended it itself in its own transaction (tracker.finish, tracker.fail); a failure that will not be retried
 * (PermanentJobError, or the last attempt) fails it with a plain sentence. Retries leave the task running, so the
 * user sees one outcome.
 */
export async function trackJobTask(
  job: JobContext,
  work: (tracker: TaskTracker) => Promise<TaskResultJson | null>,
): Promise<void> {
  const task = await findTaskOfJob(job.db, job.job.id);
  if (task && (task.status === 'cancelled' || task.status === 'done')) return;
  const taskId = task?.id ?? null;
  const tracker: TaskTracker = {
    taskId,
    progress: async (done, total) => {
      if (taskId !== null) await reportTaskProgress(job.db, taskId, { done, total }, job.clock());
    },
    finish: async (trx, result) => {
      if (taskId !== null) await finishTask(trx, taskId, result, job.clock());
    },
    fail: async (trx, error) => {
      if (taskId !== null) await failTask(trx, taskId, error, job.clock());
    },
    storeFile: async (bytes, file) => {
      const key = await job.storage.put('tasks', bytes, file.extension);
      return { key, filename: file.filename, contentType: file.contentType, size: bytes.length };
    },
  };
  if (taskId !== null)
    await reportTaskProgress(job.db, taskId, { done: task?.progress_done ?? 0 }, job.clock());
  try {
    const result = await work(tracker);
    if (taskId !== null) await finishTask(job.db, taskId, result, job.clock());
  } catch (error) {
    const final = error instanceof PermanentJobError || job.job.attempts >= job.job.max_attempts;
    if (taskId !== null && final) {
      const message = error instanceof PermanentJobError ? error.message : TASK_FAILED_GENERIC;
      await failTask(job.db, taskId, message, job.clock());
    }
    throw error;
  }
}
