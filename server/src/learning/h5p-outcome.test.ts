import { LearningMessages, PERMISSIONS } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildH5p } from '../../test/content-factories';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent, buildLesson, buildQuiz } from '../../test/learning-factories';

/**
 * PATCH /api/attempts/{id} with `h5p`: an H5P item's xAPI outcome (players/H5PPlayer.tsx) recorded on the attempt,
 * completing its topic and, when that was the last step, finishing the attempt with an 'elearning' result.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const as = (userId: number) => clientFor(h.app, h.db, userId);
const ALL = PERMISSIONS.map((p) => p.id);

/** Elearning content with one lesson: an H5P topic, a hidden H5P topic and (optionally) a plain required topic. */
async function setup(o: { plainTopic?: boolean } = {}) {
  const entity = await buildEntity(h.db);
  const learner = await buildUser(h.db, { entityId: entity.id, permissions: [] });
  const content = await buildContent(h.db, entity.id);
  const item = await buildH5p(h.db, entity.id, { title: 'Hand hygiene drag and drop' });
  const other = await buildH5p(h.db, entity.id);
  const { topics } = await buildLesson(h.db, content.id, entity.id, [
    { title: 'Try it' },
    { title: 'Hidden try', hidden: true },
    ...(o.plainTopic ? [{ title: 'Read more' }] : []),
  ]);
  const [interactive, hidden, plain] = topics;
  if (!interactive || !hidden) throw new Error('topics missing');
  await h.db
    .updateTable('topics')
    .set({ h5p_id: item.id })
    .where('id', 'in', [interactive.id, hidden.id])
    .execute();
  const call = await as(learner.id);
  const attempt = (await call('POST', `/api/users/${learner.id}/attempts`, { content_id: content.id })).json()
    .data;
  return { entity, learner, content, item, other, interactive, hidden, plain, call, attempt };
}

const attemptRow = (id: number) =>
  h.db.selectFrom('attempts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('PATCH /api/attempts/{id} with an H5P outcome', () => {
  it('answers 401, 422 for a bad outcome, 403 to a colleague and 404 to another organisation, changing nothing', async () => {
    const { entity, item, interactive, call, attempt } = await setup();
    const body = {
      version: 1,
      h5p: { topic_id: interactive.id, h5p_id: item.id, score_scaled: 1, success: true },
    };
    expect(
      (await h.app.inject({ method: 'PATCH', url: `/api/attempts/${attempt.id}`, payload: body })).statusCode,
    ).toBe(401);
    const before = JSON.stringify(await attemptRow(attempt.id));
    const tooHigh = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 1,
      h5p: { topic_id: interactive.id, h5p_id: item.id, score_scaled: 1.5 },
    });
    expect(tooHigh.statusCode).toBe(422);
    expect(tooHigh.json().errors['h5p.score_scaled']).toBeDefined();
    const noTopic = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 1,
      h5p: { h5p_id: item.id },
    });
    expect(noTopic.statusCode).toBe(422);
    expect(noTopic.json().errors['h5p.topic_id']).toBeDefined();

    const colleague = await buildUser(h.db, { entityId: entity.id, permissions: ALL });
    expect((await (await as(colleague.id))('PATCH', `/api/attempts/${attempt.id}`, body)).statusCode).toBe(
      403,
    );
    const outsider = await buildUser(h.db, { permissions: ALL });
    expect((await (await as(outsider.id))('PATCH', `/api/attempts/${attempt.id}`, body)).statusCode).toBe(
      404,
    );
    expect(JSON.stringify(await attemptRow(attempt.id))).toBe(before);
  });

  it('refuses an item that is not the topic’s, a hidden topic and a topic of other content (422)', async () => {
    const { item, other, interactive, hidden, call, attempt } = await setup();
    const wrongItem = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 1,
      h5p: { topic_id: interactive.id, h5p_id: other.id, success: true },
    });
    expect(wrongItem.statusCode).toBe(422);
    expect(wrongItem.json().errors['h5p.h5p_id']).toEqual([LearningMessages.h5pNotInTopic]);
    const hiddenTopic = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 1,
      h5p: { topic_id: hidden.id, h5p_id: item.id, success: true },
    });
    expect(hiddenTopic.statusCode).toBe(422);
    expect(hiddenTopic.json().errors['h5p.topic_id']).toEqual([LearningMessages.topicNotInContent]);
    const elsewhere = await setup();
    const foreign = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 1,
      h5p: { topic_id: elsewhere.interactive.id, h5p_id: elsewhere.item.id, success: true },
    });
    expect(foreign.statusCode).toBe(422);
    expect((await attemptRow(attempt.id)).version).toBe(1);
  });

  it('keeps a failed outcome without completing the topic, then finishes the attempt with an elearning result on a pass', async () => {
    const { learner, content, item, interactive, call, attempt } = await setup();
    const failed = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 1,
      h5p: { topic_id: interactive.id, h5p_id: item.id, score_scaled: 0.4, success: false, completion: true },
    });
    expect(failed.statusCode, failed.body).toBe(200);
    const f = failed.json().data;
    expect(f.status).toBe('in_progress');
    expect(f.progress.completed_topic_ids).toEqual([]);
    expect(f.progress.h5p_results[String(interactive.id)]).toMatchObject({
      h5p_id: item.id,
      score_scaled: 0.4,
      success: false,
      completion: true,
    });
    expect(
      await h.db.selectFrom('results').select('id').where('attempt_id', '=', attempt.id).execute(),
    ).toEqual([]);

    const stale = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 1,
      h5p: { topic_id: interactive.id, h5p_id: item.id, score_scaled: 1, success: true },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(LearningMessages.attemptConflict);

    const passed = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 2,
      h5p: { topic_id: interactive.id, h5p_id: item.id, score_scaled: 0.8, success: true, completion: true },
    });
    expect(passed.statusCode, passed.body).toBe(200);
    const p = passed.json().data;
    expect(p).toMatchObject({ status: 'passed', score: 80, version: 3 });
    expect(p.progress.completed_topic_ids).toEqual([interactive.id]);
    expect(p.progress.h5p_results[String(interactive.id)].success).toBe(true);

    const result = await h.db
      .selectFrom('results')
      .selectAll()
      .where('attempt_id', '=', attempt.id)
      .executeTakeFirstOrThrow();
    expect(result).toMatchObject({
      type: 'elearning',
      passed: true,
      user_id: learner.id,
      content_id: content.id,
    });
    expect(Number(result.score)).toBe(80);
    expect(p.result_id).toBe(result.id);
    const latest = await h.db
      .selectFrom('latest_results')
      .selectAll()
      .where('user_id', '=', learner.id)
      .where('course_id', '=', content.course_id)
      .executeTakeFirstOrThrow();
    expect(latest.result_id).toBe(result.id);
  });

  it('judges a score without a verdict against full marks: wrong answers stay open and cannot be marked complete', async () => {
    const { item, interactive, call, attempt } = await setup();
    // H5P.Blanks / H5P.DragText answered with 0 %: an `answered` statement with a score and no success.
    const wrong = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 1,
      h5p: { topic_id: interactive.id, h5p_id: item.id, score_scaled: 0, success: null, completion: null },
    });
    expect(wrong.statusCode, wrong.body).toBe(200);
    const w = wrong.json().data;
    expect(w.status).toBe('in_progress');
    expect(w.progress.completed_topic_ids).toEqual([]);
    expect(w.progress.h5p_results[String(interactive.id)]).toMatchObject({
      score_scaled: 0,
      success: false,
      pass_mark: 100,
    });

    // 3 of 4 blanks right is still not a pass without a verdict.
    const partly = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 2,
      h5p: { topic_id: interactive.id, h5p_id: item.id, score_scaled: 0.75 },
    });
    expect(partly.json().data.progress.h5p_results[String(interactive.id)]).toMatchObject({
      score_scaled: 0.75,
      success: false,
    });

    // "Mark complete" cannot turn the failed item into a pass.
    const byHand = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 3,
      completed_topic_id: interactive.id,
    });
    expect(byHand.statusCode).toBe(422);
    expect(byHand.json().errors.completed_topic_id).toEqual([LearningMessages.h5pNotPassed]);
    expect((await attemptRow(attempt.id)).version).toBe(3);
    expect(
      await h.db.selectFrom('results').select('id').where('attempt_id', '=', attempt.id).execute(),
    ).toEqual([]);

    // Full marks without a verdict pass, complete the topic and finish the attempt.
    const right = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 3,
      h5p: { topic_id: interactive.id, h5p_id: item.id, score_scaled: 1 },
    });
    expect(right.json().data).toMatchObject({ status: 'passed', score: 100, result_passed: true });
    expect(right.json().data.progress.h5p_results[String(interactive.id)].success).toBe(true);
  });

  it('never passes an outcome with no score and no verdict; that topic is left to "Mark complete"', async () => {
    const { item, interactive, call, attempt } = await setup();
    const bare = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 1,
      h5p: { topic_id: interactive.id, h5p_id: item.id, completion: true },
    });
    expect(bare.statusCode, bare.body).toBe(200);
    const b = bare.json().data;
    expect(b.status).toBe('in_progress');
    expect(b.progress.completed_topic_ids).toEqual([]);
    expect(b.progress.h5p_results[String(interactive.id)]).toMatchObject({ success: null, completion: true });
    const byHand = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 2,
      completed_topic_id: interactive.id,
    });
    expect(byHand.statusCode, byHand.body).toBe(200);
    expect(byHand.json().data).toMatchObject({ status: 'passed', score: null, result_passed: true });
  });

  it('completes the topic on a judged pass, waits for the other steps, and averages with quizzes', async () => {
    const { entity, content, item, interactive, plain, call, attempt } = await setup({ plainTopic: true });
    if (!plain) throw new Error('plain topic missing');
    const { quiz, questions } = await buildQuiz(
      h.db,
      content.id,
      entity.id,
      [{ answers: ['Yes', 'No'], correct: [0] }],
      {
        passMark: 50,
      },
    );

    const done = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 1,
      h5p: { topic_id: interactive.id, h5p_id: item.id, score_scaled: 0.6, success: true, completion: true },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({ status: 'in_progress' });
    expect(done.json().data.progress.completed_topic_ids).toEqual([interactive.id]);

    // A later, failed outcome does not replace the pass, nor reopen the topic.
    const lower = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 2,
      h5p: { topic_id: interactive.id, h5p_id: item.id, score_scaled: 0.2, success: false },
    });
    expect(lower.json().data.progress.h5p_results[String(interactive.id)]).toMatchObject({
      score_scaled: 0.6,
      success: true,
    });
    expect(lower.json().data.progress.completed_topic_ids).toEqual([interactive.id]);

    await call('PATCH', `/api/attempts/${attempt.id}`, { version: 3, completed_topic_id: plain.id });
    const sheet = await call('POST', '/api/quizzes/take', { attempt_id: attempt.id, quiz_id: quiz.id });
    expect(sheet.statusCode, sheet.body).toBe(200);
    const responses = Object.fromEntries(
      questions.map((q) => [String(q.id), q.answers.filter((x) => x.is_correct).map((x) => x.id)]),
    );
    const submitted = await call('POST', '/api/quizzes/take', {
      quiz_attempt_id: sheet.json().data.quiz_attempt_id,
      responses,
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const final = (await call('GET', `/api/attempts/${attempt.id}`)).json().data;
    // Mean of the quiz (100) and the H5P item (60).
    expect(final).toMatchObject({ status: 'passed', score: 80, result_passed: true });
  });

  it('refuses an H5P outcome on SCORM content (422)', async () => {
    const { entity, learner, item, interactive } = await setup();
    const scorm = await buildContent(h.db, entity.id, { type: 'scorm' });
    const call = await as(learner.id);
    const attempt = (await call('POST', `/api/users/${learner.id}/attempts`, { content_id: scorm.id })).json()
      .data;
    const res = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 1,
      h5p: { topic_id: interactive.id, h5p_id: item.id, success: true },
    });
    expect(res.statusCode).toBe(422);
  });
});
