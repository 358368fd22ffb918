import {
  type AttemptListQuery,
  type AttemptProgress,
  LearningMessages,
  LearningPerm,
  type UpdateAttemptBody,
} from '@cc/contracts';
import type { z } from 'zod';
import { entityScope, inScope } from '../entities/scope';
import { actorOf, authorize, type Ctx, can } from '../http/context';
import { conflict, forbidden, HttpError, invalidField, notFound } from '../http/errors';
import { recordAttemptResult, type Trx } from '../results/service';
import { learnerClauses, loadLearner } from './learner';
import { presentAttempt } from './presenters';
import {
  applyStep,
  attemptScore,
  isDone,
  normaliseProgress,
  type ProgressStep,
  visibleTopic,
} from './progress';
import {
  type AttemptRow,
  bestQuizScores,
  claimClientWrite,
  contentStructure,
  contentTitles,
  findAttempt,
  findContentForLearner,
  findCurrentAttempt,
  findInProgressAttempt,
  insertAttempt,
  listAttempts as listAttemptRows,
  lockAttempt,
  passedContentIds,
  passedQuizIds,
  softDeleteAttempt,
  writeAttempt,
} from './queries';
import { commitScorm, commitStanding } from './scorm-completion';

export const NOT_TAKEN_ONLINE = 'This content is not taken online.';

/**
 * An attempt by id with who may touch it: the owner, or (for reading and deleting) someone whose scope holds the
 * owner's primary entity. Another organisation's attempt answers 404, like a missing one.
 */
async function loadAttempt(ctx: Ctx, id: number) {
  const actor = actorOf(ctx);
  const row = await findAttempt(ctx.db, id);
  if (!row) throw notFound();
  const self = row.user_id === actor.userId;
  if (!self && !inScope(await entityScope(ctx), row.user_entity_id)) throw notFound();
  return { actor, row, self };
}

async function reload(ctx: Ctx, id: number) {
  const row = await findAttempt(ctx.db, id);
  if (!row) throw notFound();
  return presentAttempt(row);
}

/** GET /users/{id}/attempts (spec 1 §7): self, or 24 with the user in scope. */
export async function listAttempts(ctx: Ctx, ref: string, query: z.infer<typeof AttemptListQuery>) {
  const { user, self } = await loadLearner(ctx, ref);
  if (!self) authorize(ctx, [LearningPerm.searchTrainingRecords]);
  const { rows, total } = await listAttemptRows(
    ctx.db,
    { userId: user.id, contentId: query.content_id, courseId: query.course_id, status: query.status },
    { page: query.page, perPage: query.per_page },
  );
  return { data: rows.map(presentAttempt), total };
}

/**
 * Starts (or resumes) an attempt of `contentId` for `learner`. The content must be visible to the learner (404),
 * published and taken online (422), and one option of its prerequisites fully passed (422 naming what is missing).
 * At most one in-progress attempt per learner and content: an existing one is returned (created false).
 */
async function startAttempt(
  ctx: Ctx,
  learner: { id: number; primary_entity_id: number },
  contentId: number,
): Promise<{ attempt: AttemptRow; created: boolean }> {
  const content = await findContentForLearner(ctx.db, contentId, await learnerClauses(ctx, learner));
  if (!content) throw notFound();
  if (!content.takeable) throw invalidField('content_id', LearningMessages.contentUnpublished);
  if (content.type === 'historical' || content.type === 'face2face')
    throw invalidField('content_id', NOT_TAKEN_ONLINE);

  const existing = await findInProgressAttempt(ctx.db, learner.id, contentId);
  if (existing) return { attempt: existing, created: false };

  await assertPrerequisites(ctx, learner.id, content.prerequisites ?? []);

  const now = ctx.clock();
  const id = await ctx.db
    .transaction()
    .execute((trx) =>
      insertAttempt(trx, { userId: learner.id, contentId, courseId: content.course_id, now }),
    );
  // A simultaneous start may have won the race: then its attempt is the one.
  const attempt = id
    ? await findAttempt(ctx.db, id)
    : await findInProgressAttempt(ctx.db, learner.id, contentId);
  if (!attempt) throw notFound();
  return { attempt, created: id !== undefined };
}

/** Prerequisites are options, each a list of content ids; one option fully passed unlocks (spec 2 §3). */
export async function assertPrerequisites(ctx: Ctx, userId: number, options: number[][]) {
  const required = options.filter((o) => o.length > 0);
  if (!required.length) return;
  const passed = await passedContentIds(ctx.db, userId, [...new Set(required.flat())]);
  if (required.some((option) => option.every((id) => passed.has(id)))) return;
  // Name what is missing from the option closest to done.
  const closest = [...required].sort(
    (a, b) => a.filter((id) => !passed.has(id)).length - b.filter((id) => !passed.has(id)).length,
  )[0] as number[];
  const missing = closest.filter((id) => !passed.has(id));
  const titles = new Map((await contentTitles(ctx.db, missing)).map((c) => [c.id, c.title]));
  const names = missing.map((id) => titles.get(id) ?? `content ${id}`).join(', ');
  throw invalidField('content_id', LearningMessages.prerequisitesMissing.replace(':missing', names));
}

/** POST /users/{id}/attempts: oneself, or 111 (bulk create attempts) for a user in scope. */
export async function createAttempt(ctx: Ctx, ref: string, contentId: number) {
  const { user, self } = await loadLearner(ctx, ref);
  if (!self) authorize(ctx, [LearningPerm.bulkCreateAttempts]);
  const { attempt, created } = await startAttempt(ctx, user, contentId);
  return { attempt: presentAttempt(attempt), created };
}

/** POST /retake_attempt/{id}: a new attempt of the same content once this one is finished. */
export async function retakeAttempt(ctx: Ctx, id: number) {
  const { row, self } = await loadAttempt(ctx, id);
  if (!self) authorize(ctx, [LearningPerm.bulkCreateAttempts]);
  if (row.status === 'in_progress') throw invalidField('id', LearningMessages.attemptNotFinished);
  const { attempt, created } = await startAttempt(
    ctx,
    { id: row.user_id, primary_entity_id: row.user_entity_id },
    row.content_id,
  );
  return { attempt: presentAttempt(attempt), created };
}

/** GET /attempts/{id}: the owner, or 24 with the owner in scope. */
export async function getAttempt(ctx: Ctx, id: number) {
  const { row, self } = await loadAttempt(ctx, id);
  if (!self) authorize(ctx, [LearningPerm.searchTrainingRecords]);
  return presentAttempt(row);
}

/** GET /attempts/current-attempt: the caller's most recently touched in-progress attempt, or null. */
export async function currentAttempt(ctx: Ctx) {
  const actor = actorOf(ctx);
  const row = await findCurrentAttempt(ctx.db, actor.userId);
  return row ? presentAttempt(row) : null;
}

/** DELETE /attempts/{id} (soft): the owner while in progress; otherwise 85 or 24, owner in scope. */
export async function deleteAttempt(ctx: Ctx, id: number) {
  const { actor, row, self } = await loadAttempt(ctx, id);
  const privileged = can(
    actor,
    [LearningPerm.deleteTrainingRecord, LearningPerm.searchTrainingRecords],
    'any',
  );
  if (!(self && row.status === 'in_progress') && !privileged) throw forbidden();
  await softDeleteAttempt(ctx.db, row.id, ctx.clock());
}

/**
 * If an elearning attempt is done (progress.ts isDone), returns the values that finish it and records the result in
 * the same transaction: the attempt becomes 'passed', a results row of type 'elearning' is written and latest_results
 * follows (results/service.ts recordAttemptResult). The score is the mean of the best score of each quiz and of each
 * H5P item's best recorded score (scaled × 100), or null when nothing was scored. H5P items live in the topics of
 * elearning content, so their attempts finish with an 'elearning' result (the results type CHECK has no 'h5p').
 */
async function finishIfDone(
  trx: Trx,
  ctx: Ctx,
  attempt: { id: number; user_id: number; content_id: number; course_id: number },
  progress: Required<AttemptProgress>,
  structure: Awaited<ReturnType<typeof contentStructure>>,
  now: Date,
) {
  const passedQuizzes = await passedQuizIds(trx, attempt.id);
  const quizIds = structure.quizzes.map((q) => q.id);
  if (!isDone(progress, structure.topics, quizIds, passedQuizzes)) return null;
  const quizScores = (await bestQuizScores(trx, attempt.id))
    .filter((s) => quizIds.includes(s.quiz_id))
    .map((s) => Number(s.score));
  const score = attemptScore(quizScores, progress, structure.topics);
  await recordAttemptResult(
    trx,
    ctx,
    attempt,
    { type: 'elearning', passed: true, score, createdBy: ctx.actor?.userId ?? null },
    now,
  );
  return { status: 'passed' as const, score, completed_at: now };
}

/** Throws the spec's 409 (spec 1 §4) when the client's version is not the current one. */
function assertVersion(current: number, given: number) {
  if (current !== given) throw conflict(LearningMessages.attemptConflict);
}

/**
 * PATCH /attempts/{id}: only the owner works through their attempt (others in scope: 403). Under a row lock: the
 * version must match (409), the attempt must be in progress (422), topics must belong to the content and not be
 * hidden (422), only skippable ones may be skipped (422), an H5P outcome must name the H5P item of its topic (422),
 * and a topic whose H5P item must be passed or was failed cannot be marked complete by hand (422: pass the item
 * instead); progress.ts applyStep, the rule offline sync follows too.
 * Completion is checked after every change. A write with a client id already recorded for this user changes
 * nothing and answers with the attempt as it stands (061_attempt_client_writes).
 */
export async function updateAttempt(ctx: Ctx, id: number, body: UpdateAttemptBody) {
  const { row, self } = await loadAttempt(ctx, id);
  if (!self) throw forbidden();
  await ctx.db.transaction().execute(async (trx) => {
    const locked = await lockAttempt(trx, row.id);
    if (!locked) throw notFound();
    // A resent write (the outbox resends until it hears back, issue 31 §2) records nothing more: its id was claimed
    // by the first send, so it answers with the attempt as it stands, before the version and status checks (the
    // first send may have moved the version on, or finished the attempt).
    if (
      body.client_id !== undefined &&
      !(await claimClientWrite(trx, { userId: row.user_id, clientId: body.client_id, attemptId: row.id }))
    )
      return;
    // A SCORM commit is ordered within its SCO's session (scorm-completion.ts commitStanding): a resent or late one
    // changes nothing, a later one of the same session stands even on a stale version.
    const standing =
      row.content_type === 'scorm' && body.cmi !== undefined
        ? commitStanding(locked.cmi, body.sco, body.commit)
        : 'unordered';
    if (standing === 'stale') return;
    if (standing !== 'next') assertVersion(locked.version, body.version);
    if (locked.status !== 'in_progress') throw new HttpError(422, LearningMessages.attemptFinished);

    const now = ctx.clock();
    const elearning = row.content_type === 'elearning';
    const structure = elearning ? await contentStructure(trx, row.content_id) : { topics: [], quizzes: [] };
    let progress = normaliseProgress(locked.progress);
    const topicOf = (field: string, topicId: number) => {
      const topic = visibleTopic(structure.topics, topicId);
      if (!topic) throw invalidField(field, LearningMessages.topicNotInContent);
      return topic;
    };
    if (body.progress?.visited_topic_ids) {
      for (const topicId of body.progress.visited_topic_ids) topicOf('progress.visited_topic_ids', topicId);
      progress.visited_topic_ids = [
        ...new Set([...progress.visited_topic_ids, ...body.progress.visited_topic_ids]),
      ];
    }
    if (body.progress?.current !== undefined) progress.current = body.progress.current ?? null;
    // Each step is checked and applied by the rule an attempt synced from a device also follows (progress.ts applyStep).
    const apply = (step: ProgressStep, field: string, h5pField = field) => {
      const applied = applyStep(progress, structure.topics, step, now);
      if ('refused' in applied)
        throw invalidField(applied.refused.on === 'h5p_id' ? h5pField : field, applied.refused.message);
      progress = applied.progress;
    };
    if (body.completed_topic_id !== undefined)
      apply({ kind: 'complete', topicId: body.completed_topic_id }, 'completed_topic_id');
    if (body.h5p !== undefined) {
      // H5P xAPI outcome (players/H5PPlayer.tsx): the item must be the one the (shown) topic holds.
      if (!elearning) throw invalidField('h5p.topic_id', LearningMessages.topicNotInContent);
      apply({ kind: 'h5p', topicId: body.h5p.topic_id, outcome: body.h5p }, 'h5p.topic_id', 'h5p.h5p_id');
    }
    if (body.skipped_topic_id !== undefined)
      apply({ kind: 'skip', topicId: body.skipped_topic_id }, 'skipped_topic_id');
    // SCORM: scorm-completion.ts keeps each SCO's CMI (body.sco names the SCO) and rolls the SCOs up.
    const scorm =
      row.content_type === 'scorm' && body.cmi !== undefined
        ? await commitScorm(trx, ctx, locked, { cmi: body.cmi, sco: body.sco, order: body.commit }, now)
        : null;
    const finished = elearning
      ? await finishIfDone(trx, ctx, locked, progress, structure, now)
      : (scorm?.finished ?? null);
    await writeAttempt(trx, locked.id, {
      progress,
      ...(scorm ? { cmi: scorm.cmi } : body.cmi !== undefined ? { cmi: body.cmi } : {}),
      ...(finished ?? {}),
      now,
    });
  });
  return reload(ctx, row.id);
}

/** For the quiz service: re-check completion after a passed quiz, in its transaction. */
export async function finishAfterQuiz(
  trx: Trx,
  ctx: Ctx,
  attempt: { id: number; user_id: number; content_id: number; course_id: number; progress: AttemptProgress },
) {
  const structure = await contentStructure(trx, attempt.content_id);
  const now = ctx.clock();
  const finished = await finishIfDone(trx, ctx, attempt, normaliseProgress(attempt.progress), structure, now);
  if (finished) await writeAttempt(trx, attempt.id, { ...finished, now });
}

export { reload as loadPresentedAttempt };
