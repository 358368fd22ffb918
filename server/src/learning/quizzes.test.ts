import { LearningMessages, PERMISSIONS } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent, buildLesson, buildQuiz } from '../../test/learning-factories';
import { scoreQuiz } from './quizzes-service';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const as = (userId: number) => clientFor(h.app, h.db, userId);
const ALL = PERMISSIONS.map((p) => p.id);

/** Content with one lesson (one topic) and a quiz of `n` questions, each with 4 answers (first right; q1 also third). */
async function setup(o: { randomized?: boolean; passMark?: number; n?: number } = {}) {
  const entity = await buildEntity(h.db);
  const learner = await buildUser(h.db, { entityId: entity.id, permissions: [] });
  const content = await buildContent(h.db, entity.id, { courseTitle: 'Safeguarding Adults' });
  const { topics } = await buildLesson(h.db, content.id, entity.id, [{ title: 'Only topic' }]);
  const n = o.n ?? 5;
  const { quiz, questions } = await buildQuiz(
    h.db,
    content.id,
    entity.id,
    Array.from({ length: n }, (_, i) => ({
      answers: ['A', 'B', 'C', 'D'].map((x) => `${x}${i}`),
      correct: i === 0 ? [0, 2] : [0],
    })),
    { passMark: o.passMark ?? 80, randomized: o.randomized },
  );
  const call = await as(learner.id);
  const attempt = (await call('POST', `/api/users/${learner.id}/attempts`, { content_id: content.id })).json()
    .data;
  return {
    entity,
    learner,
    content,
    topic: topics[0] as (typeof topics)[number],
    quiz,
    questions,
    call,
    attempt,
  };
}

const rightAnswers = (questions: Awaited<ReturnType<typeof setup>>['questions']) =>
  Object.fromEntries(
    questions.map((q) => [String(q.id), q.answers.filter((a) => a.is_correct).map((a) => a.id)]),
  );

describe('POST /api/quizzes/take', () => {
  it('answers 401, 422 for a bad body, 404 to another organisation and 403 to a colleague (nothing stored)', async () => {
    const { attempt, quiz, call, entity } = await setup();
    expect((await h.app.inject({ method: 'POST', url: '/api/quizzes/take', payload: {} })).statusCode).toBe(
      401,
    );
    expect((await call('POST', '/api/quizzes/take', { attempt_id: attempt.id })).statusCode).toBe(422);
    const outsider = await buildUser(h.db, { permissions: ALL });
    const colleague = await buildUser(h.db, { entityId: entity.id, permissions: ALL });
    expect(
      (
        await (
          await as(outsider.id)
        )('POST', '/api/quizzes/take', { attempt_id: attempt.id, quiz_id: quiz.id })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await (
          await as(colleague.id)
        )('POST', '/api/quizzes/take', { attempt_id: attempt.id, quiz_id: quiz.id })
      ).statusCode,
    ).toBe(403);
    expect(
      await h.db.selectFrom('quiz_attempts').selectAll().where('attempt_id', '=', attempt.id).execute(),
    ).toEqual([]);
    // A quiz of other content: 422 on the field.
    const other = await buildContent(h.db, entity.id);
    const { quiz: foreign } = await buildQuiz(h.db, other.id, entity.id, [{ answers: ['x'], correct: [0] }]);
    const res = await call('POST', '/api/quizzes/take', { attempt_id: attempt.id, quiz_id: foreign.id });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(LearningMessages.quizNotInContent);
  });

  it('never sends is_correct and keeps a randomised order stable until submitted', async () => {
    const { attempt, quiz, call, questions } = await setup({ randomized: true, n: 8 });
    const start = await call('POST', '/api/quizzes/take', { attempt_id: attempt.id, quiz_id: quiz.id });
    expect(start.statusCode, start.body).toBe(200);
    expect(start.body).not.toContain('is_correct');
    const sheet = start.json().data;
    expect(sheet.questions.map((q: { id: number }) => q.id).sort()).toEqual(
      questions.map((q) => q.id).sort(),
    );
    const again = (
      await call('POST', '/api/quizzes/take', { attempt_id: attempt.id, quiz_id: quiz.id })
    ).json().data;
    expect(again).toEqual(sheet);
    const stored = await h.db
      .selectFrom('quiz_attempts')
      .selectAll()
      .where('id', '=', sheet.quiz_attempt_id)
      .executeTakeFirstOrThrow();
    expect(stored.question_order).toEqual(sheet.questions.map((q: { id: number }) => q.id));
    for (const q of sheet.questions)
      expect(stored.answer_order[String(q.id)]).toEqual(q.answers.map((a: { id: number }) => a.id));
  });

  it('shuffles a randomised quiz (not always the authored order) and keeps a plain one in order', async () => {
    const plain = await setup({ n: 8 });
    const sheet = (
      await plain.call('POST', '/api/quizzes/take', { attempt_id: plain.attempt.id, quiz_id: plain.quiz.id })
    ).json().data;
    expect(sheet.questions.map((q: { id: number }) => q.id)).toEqual(plain.questions.map((q) => q.id));
    let shuffled = false;
    for (let i = 0; i < 4 && !shuffled; i++) {
      const r = await setup({ randomized: true, n: 8 });
      const s = (
        await r.call('POST', '/api/quizzes/take', { attempt_id: r.attempt.id, quiz_id: r.quiz.id })
      ).json().data;
      shuffled = s.questions.map((q: { id: number }) => q.id).join() !== r.questions.map((q) => q.id).join();
    }
    expect(shuffled).toBe(true); // 8! orders: four identical draws in a row would be a broken shuffle
  });

  it('scores against the pass mark: fully right questions only, stored, and never twice', async () => {
    const { attempt, quiz, call, questions } = await setup({ passMark: 80, n: 5 });
    const sheet = (
      await call('POST', '/api/quizzes/take', { attempt_id: attempt.id, quiz_id: quiz.id })
    ).json().data;
    const responses = rightAnswers(questions);
    const q0 = questions[0] as (typeof questions)[number];
    const q1 = questions[1] as (typeof questions)[number];
    // q0 needs two answers: one of them is not enough. q1 answered wrongly. 3 of 5 = 60% < 80%.
    responses[String(q0.id)] = [q0.answers[0]?.id as number];
    responses[String(q1.id)] = [q1.answers[1]?.id as number];
    const res = await call('POST', '/api/quizzes/take', {
      quiz_attempt_id: sheet.quiz_attempt_id,
      responses,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ score: 60, passed: false, pass_mark: 80 });
    expect(res.json().message).toBe(LearningMessages.quizFailed);
    const byId = Object.fromEntries(
      res.json().data.questions.map((q: { id: number; correct: boolean }) => [q.id, q.correct]),
    );
    expect(byId[q0.id]).toBe(false);
    expect(byId[q1.id]).toBe(false);
    expect(Object.values(byId).filter(Boolean)).toHaveLength(3);
    expect(res.body).not.toContain('is_correct');
    const row = await h.db
      .selectFrom('quiz_attempts')
      .selectAll()
      .where('id', '=', sheet.quiz_attempt_id)
      .executeTakeFirstOrThrow();
    expect(Number(row.score)).toBe(60);
    expect(row.passed).toBe(false);
    const twice = await call('POST', '/api/quizzes/take', {
      quiz_attempt_id: sheet.quiz_attempt_id,
      responses,
    });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().message).toBe(LearningMessages.quizAlreadySubmitted);
  });

  it('scoreQuiz: 4 of 5 meets a pass mark of 80; an extra wrong choice makes a question wrong', () => {
    const qs = [1, 2, 3, 4, 5].map((id) => ({
      id,
      text: '',
      answers: [
        { id: id * 10, question_id: id, text: '', is_correct: true },
        { id: id * 10 + 1, question_id: id, text: '', is_correct: false },
      ],
    }));
    const responses = { '1': [10], '2': [20], '3': [30], '4': [40], '5': [50, 51] };
    expect(scoreQuiz(qs, responses, 80)).toMatchObject({ score: 80, passed: true });
    expect(scoreQuiz(qs, responses, 81)).toMatchObject({ score: 80, passed: false });
  });
});

describe('completion writes the result and latest_results together', () => {
  it('passes the attempt once every required topic is done and every quiz passed', async () => {
    const { attempt, quiz, call, questions, topic, learner, entity, content } = await setup({
      n: 4,
      passMark: 75,
    });
    const sheet = (
      await call('POST', '/api/quizzes/take', { attempt_id: attempt.id, quiz_id: quiz.id })
    ).json().data;
    const passed = await call('POST', '/api/quizzes/take', {
      quiz_attempt_id: sheet.quiz_attempt_id,
      responses: rightAnswers(questions),
    });
    expect(passed.json().data).toMatchObject({ score: 100, passed: true });
    // The topic is still open: the attempt goes on, its version untouched by the quiz.
    expect(passed.json().data.attempt).toMatchObject({ status: 'in_progress', version: 1 });
    expect(await h.db.selectFrom('results').selectAll().where('user_id', '=', learner.id).execute()).toEqual(
      [],
    );

    const done = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 1,
      completed_topic_id: topic.id,
    });
    expect(done.json().data).toMatchObject({ status: 'passed', score: 100 });
    const results = await h.db.selectFrom('results').selectAll().where('user_id', '=', learner.id).execute();
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      type: 'elearning',
      passed: true,
      status: 'approved',
      entity_id: entity.id,
      course_id: content.course_id,
      content_id: content.id,
      attempt_id: attempt.id,
      expires_at: null,
    });
    const latest = await h.db
      .selectFrom('latest_results')
      .selectAll()
      .where('user_id', '=', learner.id)
      .execute();
    expect(latest).toHaveLength(1);
    expect(latest[0]).toMatchObject({
      course_id: content.course_id,
      result_id: results[0]?.id,
      passed: true,
      type: 'elearning',
    });
    expect(done.json().data.result_id).toBe(results[0]?.id);
  });

  it('rolls back the attempt when the result cannot be written (same transaction)', async () => {
    const entity = await buildEntity(h.db);
    const learner = await buildUser(h.db, { entityId: entity.id, permissions: [] });
    const content = await buildContent(h.db, entity.id);
    const topic = (await buildLesson(h.db, content.id, entity.id, [{}])).topics[0] as { id: number };
    const call = await as(learner.id);
    const attempt = (
      await call('POST', `/api/users/${learner.id}/attempts`, { content_id: content.id })
    ).json().data;
    // Sabotage the result insert only: a CHECK that refuses this learner's results.
    await h.db.schema
      .alterTable('results')
      .addCheckConstraint(
        `no_results_for_${learner.id}`,
        (await import('kysely')).sql.raw(`user_id <> ${learner.id}`),
      )
      .execute();
    try {
      const res = await call('PATCH', `/api/attempts/${attempt.id}`, {
        version: 1,
        completed_topic_id: topic.id,
      });
      expect(res.statusCode).toBe(500);
      const row = await h.db
        .selectFrom('attempts')
        .selectAll()
        .where('id', '=', attempt.id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'in_progress', version: 1 });
      expect(row.progress.completed_topic_ids ?? []).toEqual([]);
      expect(
        await h.db.selectFrom('latest_results').selectAll().where('user_id', '=', learner.id).execute(),
      ).toEqual([]);
    } finally {
      await h.db.schema.alterTable('results').dropConstraint(`no_results_for_${learner.id}`).execute();
    }
  });
});
