import { auditVia } from '../audit/record';
import { loadActor } from '../auth/actor';
import { markScoresStale } from '../compliance/scores-cache';
import type { TaskResultJson } from '../db/schema';
import type { Ctx } from '../http/context';
import type { JobContext } from '../jobs/queue';
import { PermanentJobError, registerJob } from '../jobs/queue';
import { auditResults, resultSnapshots } from '../results/audit';
import { lockLatestResults, runResultListeners } from '../results/service';
import { type TaskTracker, trackJobTask } from '../tasks/service';
import { auditUsers, userSnapshots } from '../users/audit';
import { emitWebhookEvent, emitWebhookEvents } from '../webhooks/events';
import { userCreatedData } from '../webhooks/payloads';
import {
  type BatchRow,
  createResults,
  createUsers,
  deleteCreatedResults,
  insertPlanErrors,
  nextRows,
  pairsOf,
  recomputeLatestResults,
  removeCreatedUsers,
  restoreResults,
  restoreUsers,
  updateResults,
  updateUsers,
} from './queries';
import { runPlan } from './service';

/**
 * The importer's background jobs: plan (big files), apply and undo. Apply and undo work in batches of BATCH plan
 * rows, one transaction each, with set-based SQL (queries.ts); each batch flips its rows' `applied` flag in the same
 * transaction, so a retried job carries on where the last committed batch ended. The final transaction marks the
 * import applied (and emits `import.completed`) or undone, and ends the task in it (tracker.finish). Each job runs
 * as the task of the job (trackJobTask): the task its phase started beside it (service.ts).
 */
export const BATCH = 1000;

/** The task of the job is found by tasks.job_id (trackJobTask); older payloads also name it as taskId. */
interface Payload {
  importId: number;
}

/** The service ctx of the person who started the phase, acting in the import's organisation. */
async function ctxFor(job: JobContext, userId: number, entityId: number): Promise<Ctx> {
  const actor = await loadActor(job.db, userId, { via: 'session', sessionId: `importer-job-${job.job.id}` });
  if (!actor) throw new PermanentJobError('The person who started the import no longer exists.');
  let actingAs = actor.actingAs;
  if (entityId !== actor.primaryEntity.id) {
    const e = await job.db
      .selectFrom('entities')
      .select(['id', 'slug', 'name', 'level', 'parent_id'])
      .where('id', '=', entityId)
      .executeTakeFirstOrThrow();
    actingAs = e;
  }
  return { ...job, actor: { ...actor, actingAs }, ip: null, userAgent: null, memo: new Map() };
}

/**
 * Who the audit trail names for a phase (issue 35 §3): the person who applied or undid the import, acting in its
 * organisation; "The system" if they have since been removed (the phase still runs).
 */
async function auditCtx(job: JobContext, userId: number | null, entityId: number): Promise<Ctx> {
  if (userId !== null) {
    try {
      return await ctxFor(job, userId, entityId);
    } catch (error) {
      if (!(error instanceof PermanentJobError)) throw error;
    }
  }
  return { ...job, actor: null, ip: null, userAgent: null, memo: new Map() };
}

const loadImportRow = (job: JobContext, id: number) =>
  job.db.selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirst();

/** Marks the import failed with a plain sentence, fails the task with it, and stops the job (no retry). */
async function fail(job: JobContext, p: Payload, tracker: TaskTracker, error: unknown): Promise<never> {
  const message =
    (error as { code?: string })?.code === '23505'
      ? 'An e-mail address or employee number in the file was given to someone else while the import ran. Undo the import, plan the file again and apply the new plan.'
      : error instanceof Error
        ? error.message
        : 'The import stopped.';
  const now = job.clock();
  await job.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('imports')
      .set({ status: 'failed', failure: message.slice(0, 1000), updated_at: now })
      .where('id', '=', p.importId)
      .where('status', 'in', ['planning', 'applying', 'undoing'])
      .execute();
    await tracker.fail(trx, message);
  });
  throw new PermanentJobError(message);
}

async function planJob(job: JobContext, p: Payload, tracker: TaskTracker): Promise<TaskResultJson | null> {
  const imp = await loadImportRow(job, p.importId);
  if (imp?.status !== 'planning' || imp.created_by === null) return null;
  try {
    const ctx = await ctxFor(job, imp.created_by, imp.entity_id);
    await runPlan(ctx, imp.id, (done) => tracker.progress(done));
    const after = await loadImportRow(job, p.importId);
    if (after?.status !== 'failed')
      return { summary: `${after?.total_rows ?? 0} rows checked`, link: `/importer/logs?import=${imp.uuid}` };
    // A file that cannot be planned is the plan's outcome, not a failed job: the job ends as done, the task failed.
    await tracker.fail(job.db, after.failure ?? 'The file could not be planned.');
    return null;
  } catch (error) {
    if (error instanceof PermanentJobError) throw error;
    return fail(job, p, tracker, error);
  }
}

/** Runs `batch` over the rows of `action` still in state `applied`, until none is left; returns rows done. */
async function eachBatch(
  job: JobContext,
  importId: number,
  action: 'create' | 'update',
  applied: boolean,
  batch: (rows: BatchRow[]) => Promise<void>,
  after: (n: number) => Promise<void>,
) {
  let done = 0;
  for (;;) {
    const rows = await nextRows(job.db, importId, action, applied, BATCH);
    if (!rows.length) return done;
    await batch(rows);
    done += rows.length;
    await after(done);
  }
}

async function applyJob(job: JobContext, p: Payload, tracker: TaskTracker): Promise<TaskResultJson | null> {
  const imp = await loadImportRow(job, p.importId);
  if (imp?.status !== 'applying' || imp.applied_by === null) return null;
  const started = Date.now();
  try {
    const actx = await auditCtx(job, imp.applied_by, imp.entity_id);
    const via = auditVia({ how: 'import', label: imp.file_name, ref: imp.uuid });
    let done = 0;
    const tick = (n: number) => tracker.progress(done + n);
    for (const action of ['create', 'update'] as const) {
      done += await eachBatch(
        job,
        imp.id,
        action,
        false,
        async (rows) => {
          await job.db.transaction().execute(async (trx) => {
            const now = job.clock();
            if (imp.kind === 'users') {
              if (action === 'update') {
                const ids = rows.map((r) => r.target_id as number);
                const before = await userSnapshots(trx, ids);
                await updateUsers(trx, imp.id, rows, now);
                await auditUsers(trx, actx, 'updated', paired(before, await userSnapshots(trx, ids)), via);
                return;
              }
              const people = await createUsers(trx, imp.id, rows);
              await auditUsers(
                trx,
                actx,
                'created',
                (
                  await userSnapshots(
                    trx,
                    people.map((u) => u.id),
                  )
                ).map((after) => ({ before: null, after })),
                via,
              );
              // Webhooks hear of imported people as of people added by hand (users/service.ts createUser).
              await emitWebhookEvents(
                trx,
                people.map((u) => ({
                  entityId: u.primary_entity_id,
                  type: 'user.created' as const,
                  data: userCreatedData(
                    u,
                    {
                      entityId: u.primary_entity_id,
                      roleId: u.role_id,
                      typeId: u.type_id,
                      startDate: u.start_date,
                    },
                    now,
                  ),
                })),
                now,
              );
              const created = new Set(people.map((u) => u.row_number));
              const lost = rows.filter((r) => !created.has(r.row_number));
              if (!lost.length) return;
              // Taken since the plan (someone else got the address or number): the row becomes an error.
              await trx
                .deleteFrom('import_rows')
                .where('import_id', '=', imp.id)
                .where(
                  'row_number',
                  'in',
                  lost.map((r) => r.row_number),
                )
                .execute();
              await insertPlanErrors(
                trx,
                imp.id,
                lost.map((r) => ({
                  rowNumber: r.row_number,
                  column: 'email',
                  message:
                    'This e-mail address or employee number was given to someone else after the plan was made.',
                  values: (r.data as { values: Record<string, string> }).values,
                })),
              );
              await trx
                .updateTable('imports')
                .set((eb) => ({
                  error_count: eb('error_count', '+', lost.length),
                  create_count: eb('create_count', '-', lost.length),
                }))
                .where('id', '=', imp.id)
                .execute();
              return;
            }
            const sets = rows.map((r) => (r.data as { set: { user_id: number; course_id: number } }).set);
            const pairs =
              action === 'create'
                ? sets.map((s) => ({ user_id: s.user_id, course_id: s.course_id }))
                : await pairsOf(
                    trx,
                    rows.map((r) => r.target_id as number),
                  );
            await lockLatestResults(
              trx,
              pairs.map((x) => ({ userId: x.user_id, courseId: x.course_id })),
            );
            // The audit trail: every record the batch writes, in one statement (issue 35 §3).
            if (action === 'create') {
              const created = await createResults(trx, imp.id, rows, imp.applied_by);
              const after = await resultSnapshots(
                trx,
                created.map((r) => r.id),
              );
              await auditResults(
                trx,
                actx,
                'created',
                after.map((a) => ({ before: null, after: a })),
                via,
              );
            } else {
              const ids = rows.map((r) => r.target_id as number);
              const before = await resultSnapshots(trx, ids);
              await updateResults(trx, imp.id, rows, now);
              await auditResults(trx, actx, 'updated', paired(before, await resultSnapshots(trx, ids)), via);
            }
            await recomputeLatestResults(trx, pairs, now);
            // Pathway steps and webhooks hear of imported records as of hand-entered ones.
            await runResultListeners(
              trx,
              pairs.map((x) => ({ userId: x.user_id, courseId: x.course_id, type: 'historical' as const })),
              now,
            );
            markScoresStale();
          });
        },
        tick,
      );
    }
    await job.db.transaction().execute(async (trx) => {
      const now = job.clock();
      const counts = await trx
        .selectFrom('import_rows')
        .select((eb) => [
          eb.fn.countAll<number>().filterWhere('action', '=', 'create').as('created'),
          eb.fn.countAll<number>().filterWhere('action', '=', 'update').as('updated'),
        ])
        .where('import_id', '=', imp.id)
        .where('applied', '=', true)
        .executeTakeFirstOrThrow();
      const fresh = await trx
        .selectFrom('imports')
        .select(['error_count', 'unchanged_count'])
        .where('id', '=', imp.id)
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('imports')
        .set({
          status: 'applied',
          created_count: Number(counts.created),
          updated_count: Number(counts.updated),
          applied_at: now,
          apply_ms: Date.now() - started,
          updated_at: now,
        })
        .where('id', '=', imp.id)
        .execute();
      await emitWebhookEvent(trx, {
        entityId: imp.entity_id,
        type: 'import.completed',
        data: {
          uuid: imp.uuid,
          kind: imp.kind,
          counts: {
            created: Number(counts.created),
            updated: Number(counts.updated),
            unchanged: fresh.unchanged_count,
            errors: fresh.error_count,
          },
        },
      });
      await tracker.finish(trx, {
        summary: `${counts.created} created, ${counts.updated} updated`,
        link: `/importer/logs?import=${imp.uuid}`,
      });
      await job.finish(trx);
    });
    return null;
  } catch (error) {
    if (error instanceof PermanentJobError) throw error;
    return fail(job, p, tracker, error);
  }
}

async function undoJob(job: JobContext, p: Payload, tracker: TaskTracker): Promise<TaskResultJson | null> {
  const imp = await loadImportRow(job, p.importId);
  if (imp?.status !== 'undoing') return null;
  try {
    const actx = await auditCtx(job, imp.undone_by ?? imp.applied_by, imp.entity_id);
    const via = auditVia({ how: 'import_undo', label: imp.file_name, ref: imp.uuid });
    let kept = 0;
    let done = 0;
    const tick = (n: number) => tracker.progress(done + n);
    for (const action of ['create', 'update'] as const) {
      done += await eachBatch(
        job,
        imp.id,
        action,
        true,
        async (rows) => {
          await job.db.transaction().execute(async (trx) => {
            const now = job.clock();
            const ids = rows.map((r) => r.target_id as number);
            if (imp.kind === 'users') {
              const before = await userSnapshots(trx, ids);
              if (action === 'create') {
                const removed = await removeCreatedUsers(trx, imp.id, rows);
                kept += removed.kept;
                const gone = new Set(removed.removed);
                await auditUsers(
                  trx,
                  actx,
                  'deleted',
                  before.filter((b) => gone.has(b.id as number)).map((b) => ({ before: b, after: null })),
                  via,
                );
              } else {
                await restoreUsers(trx, imp.id, rows, now);
                await auditUsers(trx, actx, 'updated', paired(before, await userSnapshots(trx, ids)), via);
              }
              return;
            }
            const pairs = await pairsOf(trx, ids);
            await lockLatestResults(
              trx,
              pairs.map((x) => ({ userId: x.user_id, courseId: x.course_id })),
            );
            const before = await resultSnapshots(trx, ids);
            if (action === 'create') {
              await deleteCreatedResults(trx, imp.id, rows, now);
              // Records already deleted by hand since were not removed by the undo: no entry for them.
              await auditResults(
                trx,
                actx,
                'deleted',
                before.filter((b) => b.deleted_at === null).map((b) => ({ before: b, after: null })),
                via,
              );
            } else {
              await restoreResults(trx, imp.id, rows, now);
              await auditResults(trx, actx, 'updated', paired(before, await resultSnapshots(trx, ids)), via);
            }
            await recomputeLatestResults(trx, pairs, now);
            markScoresStale();
          });
        },
        tick,
      );
    }
    await job.db.transaction().execute(async (trx) => {
      const now = job.clock();
      await trx
        .updateTable('imports')
        .set((eb) => ({
          status: 'undone',
          kept_count: eb('kept_count', '+', kept),
          undone_at: now,
          updated_at: now,
        }))
        .where('id', '=', imp.id)
        .execute();
      await tracker.finish(trx, {
        summary: kept ? `Undone; ${kept} people kept (they have their own data now)` : 'Undone',
        link: `/importer/logs?import=${imp.uuid}`,
      });
      await job.finish(trx);
    });
    return null;
  } catch (error) {
    if (error instanceof PermanentJobError) throw error;
    return fail(job, p, tracker, error);
  }
}

/** Snapshots before and after of the same rows (both in id order), paired by id; a row gone since has none. */
function paired(before: Record<string, unknown>[], after: Record<string, unknown>[]) {
  const byId = new Map(after.map((a) => [a.id, a]));
  return before.map((b) => ({ before: b, after: byId.get(b.id) ?? null }));
}

/** Issue 18: the importer capability's job handlers (registered by register-jobs.ts). */
export function registerImporterJobs(): void {
  const tracked =
    (phase: (job: JobContext, p: Payload, tracker: TaskTracker) => Promise<TaskResultJson | null>) =>
    (job: JobContext, p: Payload) =>
      trackJobTask(job, (tracker) => phase(job, p, tracker));
  const options = { maxAttempts: 1, timeoutSeconds: 1800 };
  registerJob<Payload>('importer.plan', tracked(planJob), options);
  registerJob<Payload>('importer.apply', tracked(applyJob), options);
  registerJob<Payload>('importer.undo', tracked(undoJob), options);
}
