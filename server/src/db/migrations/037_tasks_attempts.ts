import { type Kysely, sql } from 'kysely';

/**
 * 037_tasks_attempts (issue 18): tasks in progress and bulk attempts.
 *
 * - tasks_job_idx: a job handler finds the task of the job it runs by the job's id (tasks/service.ts trackJobTask),
 *   so a capability wires a task without changing its job's payload.
 * Bulk attempts need no new table: attempts_one_in_progress_uq (004) already makes "one open attempt per person and
 * content" a constraint, which is what keeps a repeated or concurrent bulk request from duplicating attempts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX tasks_job_idx ON tasks(job_id) WHERE job_id IS NOT NULL`.execute(db);
}
