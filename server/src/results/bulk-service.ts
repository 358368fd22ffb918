import {
  type BulkAddEventsBody,
  type BulkOperationView,
  type PageQuery,
  ResultsMessages,
  ResultsPerm,
} from '@cc/contracts';
import { entityScope } from '../entities/scope';
import { authorize, type Ctx } from '../http/context';
import { conflict, type FieldErrors, invalid, notFound } from '../http/errors';
import {
  findOperationInScope,
  insertBulkOperation,
  listOperations,
  markOperationDeleted,
  operationResults,
  softDeleteResults,
  tagResultsWithOperation,
  usersInScope,
} from './admin-queries';
import { courseVisible, dayStart, evidenceRequired, presentOperation, scopeIds } from './admin-shared';
import { auditResults, resultSnapshots } from './audit';
import { completedDateErrors } from './completion-date';
import { lockLatestResults, recomputeLatestResult, recordResult } from './service';

/**
 * Bulk add events for users (spec 1 §2 /users/bulk-add-events and its history; issue 5 item 1): one course, one
 * date and one result type for many users, written in ONE transaction (all or nothing), recorded as an operation
 * that the history lists and that "delete user events" (36) can undo.
 */
const P = ResultsPerm;

/**
 * POST /users/bulk-add-events (35). Every user must be in the caller's scope: one foreign or unknown id answers the
 * same 404 as a missing user and nothing is written. A historical result needs evidence where the learner's
 * organisation requires it, which a bulk add cannot carry: such users are refused (422 on user_ids).
 */
export async function bulkAddEvents(ctx: Ctx, body: BulkAddEventsBody): Promise<BulkOperationView> {
  const ids = [...new Set(body.user_ids)];
  const users = await usersInScope(ctx.db, ids, await scopeIds(ctx));
  if (users.length !== ids.length) throw notFound();
  const actor = authorize(ctx, [P.addUserEvents]);

  const errors: FieldErrors = {};
  if (!(await courseVisible(ctx, body.course_id))) errors.course_id = [ResultsMessages.courseInvalid];
  const future = completedDateErrors(body.completed_at, ctx.clock());
  if (future) errors.completed_at = future;
  if (body.type === 'historical') {
    const needing: string[] = [];
    const checked = new Map<number, boolean>();
    for (const u of users) {
      if (!checked.has(u.primary_entity_id))
        checked.set(u.primary_entity_id, await evidenceRequired(ctx, u.primary_entity_id));
      if (checked.get(u.primary_entity_id)) needing.push(u.name);
    }
    if (needing.length)
      errors.user_ids = [
        `${ResultsMessages.evidenceRequired} Add historical results for ${needing.slice(0, 5).join(', ')}${needing.length > 5 ? ' and others' : ''} one at a time, with evidence.`,
      ];
  }
  if (Object.keys(errors).length) throw invalid(errors);

  const now = ctx.clock();
  const completedAt = dayStart(body.completed_at);
  const scope = await entityScope(ctx);
  const operationId = await ctx.db.transaction().execute(async (trx) => {
    // Every pair at once, sorted: two bulk adds naming the same learners in other orders never deadlock.
    await lockLatestResults(
      trx,
      users.map((u) => ({ userId: u.id, courseId: body.course_id })),
    );
    const operation = await insertBulkOperation(trx, {
      entity_id: scope.baseId,
      course_id: body.course_id,
      type: body.type,
      completed_at: completedAt,
      passed: body.passed,
      user_count: users.length,
      created_by: actor.userId,
    });
    const resultIds: number[] = [];
    for (const u of users) {
      const result = await recordResult(
        trx,
        {
          userId: u.id,
          entityId: u.primary_entity_id,
          courseId: body.course_id,
          contentId: null,
          type: body.type,
          passed: body.passed,
          score: body.score ?? null,
          completedAt,
          attemptId: null,
          createdBy: actor.userId,
        },
        now,
      );
      resultIds.push(result.id);
    }
    await tagResultsWithOperation(trx, resultIds, operation.id);
    if (body.notes)
      await trx.updateTable('results').set({ notes: body.notes }).where('id', 'in', resultIds).execute();
    await auditResults(
      trx,
      ctx,
      'created',
      (await resultSnapshots(trx, resultIds)).map((after) => ({ before: null, after })),
    );
    return operation.id;
  });
  const row = await findOperationInScope(ctx.db, operationId, null);
  if (!row) throw notFound();
  return presentOperation(row);
}

/** GET /users/bulk-add-events-history (35 or 36): past bulk adds made in the caller's scope, newest first. */
export async function bulkHistory(ctx: Ctx, q: PageQuery) {
  authorize(ctx, [P.addUserEvents, P.deleteUserEvents], 'any');
  const { rows, total } = await listOperations(ctx.db, await scopeIds(ctx), {
    search: q.search || undefined,
    page: q.page,
    perPage: q.per_page,
  });
  return { data: rows.map(presentOperation), total };
}

/**
 * DELETE /users/bulk-add-events/{id} (36, delete user events): soft-deletes the results the operation created
 * (those not already deleted) and recomputes latest_results for each, in one transaction.
 */
export async function deleteBulkEvents(ctx: Ctx, id: number): Promise<BulkOperationView> {
  const op = await findOperationInScope(ctx.db, id, await scopeIds(ctx));
  if (!op) throw notFound();
  const actor = authorize(ctx, [P.deleteUserEvents]);
  if (op.deleted_at) throw conflict(ResultsMessages.bulkAlreadyDeleted);
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    // The guarded update decides, under the operation's row lock: of parallel deletes exactly one marks it; the
    // others wait for it, find it deleted and answer the same 409 as a later delete (issue 10 §3).
    if (!(await markOperationDeleted(trx, op.id, actor.userId, now)))
      throw conflict(ResultsMessages.bulkAlreadyDeleted);
    const results = await operationResults(trx, op.id);
    const before = await resultSnapshots(
      trx,
      results.map((r) => r.id),
    );
    // Result rows first, then their pairs: the order every result write takes locks in (admin-service.ts).
    await softDeleteResults(
      trx,
      results.map((r) => r.id),
      now,
    );
    await lockLatestResults(
      trx,
      results.map((r) => ({ userId: r.user_id, courseId: r.course_id })),
    );
    for (const r of results) await recomputeLatestResult(trx, r.user_id, r.course_id, now);
    await auditResults(
      trx,
      ctx,
      'deleted',
      before.map((b) => ({ before: b, after: null })),
    );
  });
  const row = await findOperationInScope(ctx.db, op.id, null);
  if (!row) throw notFound();
  return presentOperation(row);
}
