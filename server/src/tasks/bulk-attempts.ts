import {
  type BulkAttemptsAnswer,
  type BulkAttemptsBody,
  LearningMessages,
  LearningPerm,
} from '@cc/contracts';
import { loadActor } from '../auth/actor';
import type { TaskResultJson } from '../db/schema';
import { entityScope, resolveActingAs } from '../entities/scope';
import { authorize, type Ctx, can } from '../http/context';
import { HttpError, invalidField, notFound } from '../http/errors';
import { enqueue, type JobContext, PermanentJobError, registerJob } from '../jobs/queue';
import { NOT_TAKEN_ONLINE } from '../learning/attempts-service';
import { learnerClauses } from '../learning/learner';
import {
  contentTakeableBy,
  findBulkContent,
  insertAttempts,
  passedByUsers,
  usersInScope,
} from './bulk-queries';
import { presentTask } from './presenters';
import { findTask } from './queries';
import { linkTaskJob, startTask, trackJobTask } from './service';

/**
 * POST /attempts/bulk (issue 18; permission 111 bulk create attempts): start a course for many people at once,
 * the bulk form of POST /users/{id}/attempts. The request checks what it can at once (111, the content, the people:
 * one query returns the allowed set; ids out of scope are reported as skipped exactly like missing ones), then a
 * background job starts the attempts in batches with the task's progress. The job checks again as the requester
 * (scope, 111, the content available to each person's organisation, prerequisites), since things change between.
 * Idempotent per person: attempts_one_in_progress_uq keeps one open attempt per person and content.
 */
export const BULK_ATTEMPTS_JOB = 'bulk-attempts';
const BATCH = 500;

interface BulkPayload {
  task_id: number;
  user_id: number;
  acting_as: string | null;
  content_id: number;
  user_ids: number[];
}

/** Scope entity ids as a list (null: no bound). */
async function scopeIds(ctx: Ctx): Promise<number[] | null> {
  const scope = await entityScope(ctx);
  return scope.accessible === 'all' ? null : [...scope.accessible];
}

async function resolveContent(ctx: Ctx, actorId: number, primaryEntityId: number, body: BulkAttemptsBody) {
  const clauses = await learnerClauses(ctx, { id: actorId, primary_entity_id: primaryEntityId });
  const content = await findBulkContent(
    ctx.db,
    { contentId: body.content_id, courseId: body.course_id },
    clauses,
  );
  if (!content) throw notFound();
  const field = body.content_id !== undefined ? 'content_id' : 'course_id';
  if (content.type === 'historical' || content.type === 'face2face')
    throw invalidField(field, NOT_TAKEN_ONLINE);
  if (!content.takeable) throw invalidField(field, LearningMessages.contentUnpublished);
  return content;
}

export async function requestBulkAttempts(ctx: Ctx, body: BulkAttemptsBody): Promise<BulkAttemptsAnswer> {
  const actor = authorize(ctx, [LearningPerm.bulkCreateAttempts]);
  const content = await resolveContent(ctx, actor.userId, actor.primaryEntity.id, body);
  const asked = [...new Set(body.user_ids)];
  const allowed = await usersInScope(ctx.db, asked, await scopeIds(ctx));
  const allowedIds = new Set(allowed.map((u) => u.id));
  const skipped = asked.filter((id) => !allowedIds.has(id));
  if (!allowed.length) throw invalidField('user_ids', 'None of the people chosen could be found.');
  const now = ctx.clock();
  const taskId = await ctx.db.transaction().execute(async (trx) => {
    const people = allowed.length === 1 ? '1 person' : `${allowed.length.toLocaleString('en-GB')} people`;
    const task = await startTask(trx, {
      userId: actor.userId,
      entityId: actor.actingAs?.id ?? actor.primaryEntity.id,
      kind: 'bulk_attempts',
      title: `Start ${content.course_title} for ${people}`,
      total: allowed.length,
    });
    const payload: BulkPayload = {
      task_id: task.id,
      user_id: actor.userId,
      acting_as: actor.actingAs?.slug ?? null,
      content_id: content.id,
      user_ids: allowed.map((u) => u.id),
    };
    const jobId = await enqueue(trx, BULK_ATTEMPTS_JOB, payload as unknown as Record<string, unknown>, {
      runAt: now,
    });
    if (jobId !== null) await linkTaskJob(trx, task.id, jobId);
    return task.id;
  });
  const row = await findTask(ctx.db, taskId);
  if (!row) throw notFound();
  return { task: presentTask(row), accepted: allowed.length, skipped_user_ids: skipped };
}

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;

async function runBulkAttempts(job: JobContext, payload: BulkPayload) {
  await trackJobTask(job, async (tracker) => {
    const actor = await loadActor(job.db, payload.user_id, {
      via: 'session',
      sessionId: `job:${job.job.id}`,
    });
    if (!actor) throw new PermanentJobError('The person who asked for this no longer has an account.');
    const ctx: Ctx = { ...job, actor, ip: null, userAgent: null, memo: new Map(), clock: () => job.now };
    let content: Awaited<ReturnType<typeof resolveContent>>;
    let inScope: Awaited<ReturnType<typeof usersInScope>>;
    try {
      if (payload.acting_as) actor.actingAs = await resolveActingAs(ctx, payload.acting_as, actor);
      if (!can(actor, [LearningPerm.bulkCreateAttempts]))
        throw new PermanentJobError('You no longer have permission to start courses for other people.');
      content = await resolveContent(ctx, actor.userId, actor.primaryEntity.id, {
        content_id: payload.content_id,
        user_ids: [],
      });
      inScope = await usersInScope(job.db, payload.user_ids, await scopeIds(ctx));
    } catch (error) {
      if (error instanceof HttpError && error.status < 500) throw new PermanentJobError(error.message);
      throw error;
    }
    const total = payload.user_ids.length;
    let done = total - inScope.length;
    let started = 0;
    let notAvailable = done;
    let prerequisites = 0;
    await tracker.progress(done, total);

    // The content must be available to each person's own organisation chain: one check per organisation.
    const byEntity = new Map<number, number[]>();
    for (const u of inScope)
      byEntity.set(u.primary_entity_id, [...(byEntity.get(u.primary_entity_id) ?? []), u.id]);
    const required = (content.prerequisites ?? []).filter((o) => o.length > 0);
    for (const [entityId, ids] of byEntity) {
      const clauses = await learnerClauses(ctx, { id: -1, primary_entity_id: entityId });
      const available = await contentTakeableBy(job.db, content.id, clauses);
      for (let i = 0; i < ids.length; i += BATCH) {
        const batch = ids.slice(i, i + BATCH);
        let eligible = available ? batch : [];
        notAvailable += batch.length - eligible.length;
        if (required.length && eligible.length) {
          const passed = await passedByUsers(job.db, eligible, [...new Set(required.flat())]);
          const ok = eligible.filter((id) => required.some((o) => o.every((c) => passed.get(id)?.has(c))));
          prerequisites += eligible.length - ok.length;
          eligible = ok;
        }
        started += (await insertAttempts(job.db, eligible, content, job.now)).length;
        done += batch.length;
        await tracker.progress(done, total);
      }
    }
    const already = total - notAvailable - prerequisites - started;
    const parts = [`Started ${content.course_title} for ${plural(started, 'person', 'people')}.`];
    if (already) parts.push(`${plural(already, 'person', 'people')} had already started it.`);
    if (prerequisites)
      parts.push(`${plural(prerequisites, 'person has', 'people have')} not finished what it needs first.`);
    if (notAvailable)
      parts.push(
        `${plural(notAvailable, 'person was', 'people were')} skipped: the course is not available to them.`,
      );
    return { summary: parts.join(' ') } satisfies TaskResultJson;
  });
}

let registered = false;
export function registerBulkAttemptsJob(): void {
  if (registered) return;
  registered = true;
  registerJob<BulkPayload>(BULK_ATTEMPTS_JOB, runBulkAttempts, { maxAttempts: 3, timeoutSeconds: 1800 });
}
