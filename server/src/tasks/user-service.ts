import { type TaskListQuery, TaskMessages, type TaskView } from '@cc/contracts';
import type { TaskResultJson } from '../db/schema';
import { actorOf, type Ctx } from '../http/context';
import { conflict, notFound } from '../http/errors';
import { presentTask } from './presenters';
import {
  countActiveTasks,
  deleteTaskRow,
  findUserTask,
  listUserTasks,
  lockUserTask,
  markTaskCancelled,
  withdrawQueuedJob,
} from './queries';

/**
 * /tasks-in-progress (issue 18): a user sees, dismisses and downloads only their own tasks. Tasks need no
 * permission (everyone signed in may start a long job); another user's task answers 404 like a missing one.
 */
export async function listTasks(ctx: Ctx, query: TaskListQuery) {
  const actor = actorOf(ctx);
  const { rows, total } = await listUserTasks(ctx.db, actor.userId, {
    status: query.status,
    page: query.page,
    perPage: query.per_page,
  });
  return { data: rows.map(presentTask), total };
}

export async function activeTaskCount(ctx: Ctx): Promise<{ active: number }> {
  return { active: await countActiveTasks(ctx.db, actorOf(ctx).userId) };
}

export async function getTask(ctx: Ctx, uuid: string): Promise<TaskView> {
  const row = await findUserTask(ctx.db, actorOf(ctx).userId, uuid);
  if (!row) throw notFound();
  return presentTask(row);
}

/** The finished task's file, streamed from storage (404 while it has none, or for anyone but its owner). */
export async function taskFile(ctx: Ctx, uuid: string) {
  const row = await findUserTask(ctx.db, actorOf(ctx).userId, uuid);
  const result = row?.result as TaskResultJson | null | undefined;
  if (row?.status !== 'done' || !result?.file) throw notFound();
  const stored = await ctx.storage.read(result.file.key);
  if (!stored) throw notFound();
  return {
    filename: result.file.filename,
    contentType: result.file.contentType,
    size: stored.size,
    body: stored.body,
  };
}

/**
 * DELETE /tasks/{uuid}: a finished task is dismissed (removed with its file); a queued one is cancelled when its
 * job has not started (the job row is withdrawn under the task's lock, and the claim of a worker and this withdrawal
 * cannot both win: tasks/queries.ts withdrawQueuedJob); a running one is refused (409) until it finishes.
 */
export async function dismissTask(
  ctx: Ctx,
  uuid: string,
): Promise<{ outcome: 'dismissed' | 'cancelled'; message: string; task: TaskView | null }> {
  const userId = actorOf(ctx).userId;
  const now = ctx.clock();
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockUserTask(trx, userId, uuid);
    if (!row) throw notFound();
    if (row.status === 'done' || row.status === 'failed' || row.status === 'cancelled') {
      await deleteTaskRow(trx, row.id);
      const key = (row.result as TaskResultJson | null)?.file?.key ?? null;
      // Files under tasks/ are the task's own (tracker.storeFile); others belong to their capability (a pack).
      return { kind: 'dismissed' as const, file: key?.startsWith('tasks/') ? key : null };
    }
    if (row.job_id === null || !(await withdrawQueuedJob(trx, row.job_id, now)))
      throw conflict(TaskMessages.stillRunning);
    await markTaskCancelled(trx, row.id, now);
    return { kind: 'cancelled' as const, file: null };
  });
  // The file goes after the commit: a failed removal leaves an orphan file, never a task pointing at nothing.
  if (outcome.file) await ctx.storage.remove(outcome.file).catch(() => undefined);
  if (outcome.kind === 'dismissed')
    return { outcome: 'dismissed', message: TaskMessages.dismissed, task: null };
  return { outcome: 'cancelled', message: TaskMessages.cancelled, task: await getTask(ctx, uuid) };
}
