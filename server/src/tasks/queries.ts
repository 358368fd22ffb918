import type { Selectable } from 'kysely';
import { pageWithTotal } from '../db/paged';
import type { TasksTable } from '../db/schema';
import type { DbOrTrx } from '../jobs/queries';

/** SQL of the tasks capability (STYLE "SQL in one place"); tasks/service.ts writes, this reads and locks. */
export type TaskRow = Selectable<TasksTable>;

const ACTIVE = ['queued', 'running'] as const;
const FINISHED = ['done', 'failed', 'cancelled'] as const;

export async function listUserTasks(
  db: DbOrTrx,
  userId: number,
  filter: { status?: 'active' | 'finished'; page: number; perPage: number },
): Promise<{ rows: TaskRow[]; total: number }> {
  let q = db.selectFrom('tasks').where('user_id', '=', userId);
  if (filter.status) q = q.where('status', 'in', filter.status === 'active' ? ACTIVE : FINISHED);
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) => filtered.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
    { page: filter.page, perPage: filter.perPage },
  );
  return { rows, total };
}

/** The header's figure: answered from the partial index tasks_active_idx (033). */
export async function countActiveTasks(db: DbOrTrx, userId: number): Promise<number> {
  const row = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('status', 'in', ACTIVE)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The caller's own task by uuid; another user's is undefined (the route answers 404, as for a missing one). */
export async function findUserTask(db: DbOrTrx, userId: number, uuid: string) {
  return db
    .selectFrom('tasks')
    .selectAll()
    .where('uuid', '=', uuid)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** The same row locked for the rest of the transaction (dismiss and cancel decide under it). */
export async function lockUserTask(db: DbOrTrx, userId: number, uuid: string) {
  return db
    .selectFrom('tasks')
    .selectAll()
    .where('uuid', '=', uuid)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
}

export async function findTask(db: DbOrTrx, id: number) {
  return db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findTaskOfJob(db: DbOrTrx, jobId: number) {
  return db.selectFrom('tasks').selectAll().where('job_id', '=', jobId).executeTakeFirst();
}

export async function deleteTaskRow(db: DbOrTrx, id: number): Promise<void> {
  await db.deleteFrom('tasks').where('id', '=', id).execute();
}

/**
 * Withdraws a job that no worker has claimed yet. claimJobs takes rows FOR UPDATE SKIP LOCKED and re-checks the
 * status, so exactly one of the two wins: this UPDATE (the job never runs) or the claim (0 rows here: it started).
 */
export async function withdrawQueuedJob(db: DbOrTrx, jobId: number, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('jobs')
    .set({ status: 'failed', last_error: 'Cancelled by the user.', finished_at: now, updated_at: now })
    .where('id', '=', jobId)
    .where('status', '=', 'queued')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function markTaskCancelled(db: DbOrTrx, id: number, now: Date): Promise<void> {
  await db
    .updateTable('tasks')
    .set({ status: 'cancelled', updated_at: now, finished_at: now })
    .where('id', '=', id)
    .execute();
}
