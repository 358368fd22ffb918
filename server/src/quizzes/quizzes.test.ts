import { Messages } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authoringWorld } from '../../test/content-clients';
import { buildContent, buildQuiz, linkQuizzes } from '../../test/content-factories';
import { buildEntity } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';

let h: Harness;
let w: Awaited<ReturnType<typeof authoringWorld>>;
beforeAll(async () => {
  h = await createHarness();
  w = await authoringWorld(h);
});
afterAll(async () => h?.close());

const questionCount = async () =>
  Number(
    (
      await h.db
        .selectFrom('questions')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const quizBody = () => ({
  title: 'Infection control',
  is_randomized: true,
  pass_mark: 70,
  questions: [
    {
      text: 'Wash hands for?',
      answers: [
        { text: '20 seconds', is_correct: true },
        { text: '2 seconds', is_correct: false },
      ],
    },
    {
      text: 'Gloves replace hand washing?',
      answers: [
        { text: 'Yes', is_correct: false },
        { text: 'No', is_correct: true },
      ],
    },
  ],
});

describe('authentication', () => {
  it.each([
    ['GET', '/api/quizzes'],
    ['POST', '/api/quizzes'],
    ['GET', '/api/quizzes/1'],
    ['PATCH', '/api/quizzes/1'],
    ['DELETE', '/api/quizzes/1'],
    ['POST', '/api/quizzes/1/content/1'],
    ['POST', '/api/questions/changeOrder'],
  ] as const)('%s %s answers 401 without a caller', async (method, url) => {
    expect((await h.app.inject({ method, url, payload: {} })).statusCode).toBe(401);
  });
});

describe('POST /api/quizzes', () => {
  it('refuses a question with fewer than 2 answers or none correct, naming the field, and writes nothing', async () => {
    const before = await questionCount();
    const one = quizBody();
    one.questions[1] = { text: 'Lonely', answers: [{ text: 'Only', is_correct: true }] };
    const res = await w.author('POST', '/api/quizzes', one);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['questions.1.answers']);
    const none = quizBody();
    none.questions[0].answers = none.questions[0].answers.map((a) => ({ ...a, is_correct: false }));
    const res2 = await w.author('POST', '/api/quizzes', none);
    expect(res2.statusCode).toBe(422);
    expect(res2.json().errors['questions.0.answers']).toEqual([
      'Each question needs at least one correct answer.',
    ]);
    expect((await w.author('POST', '/api/quizzes', { ...quizBody(), pass_mark: 101 })).statusCode).toBe(422);
    expect((await w.viewer('POST', '/api/quizzes', quizBody())).statusCode).toBe(403);
    expect(await questionCount()).toBe(before);
  });

  it('creates the quiz with questions and answers in order (default pass mark 80)', async () => {
    const res = await w.author('POST', '/api/quizzes', quizBody());
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(Messages.quizCreated);
    const data = res.json().data;
    expect(data).toMatchObject({
      title: 'Infection control',
      is_randomized: true,
      pass_mark: 70,
      entity_id: w.org.id,
    });
    expect(data.questions.map((q: { text: string }) => q.text)).toEqual([
      'Wash hands for?',
      'Gloves replace hand washing?',
    ]);
    expect(data.questions[1].answers).toMatchObject([
      { text: 'Yes', is_correct: false, position: 0 },
      { text: 'No', is_correct: true, position: 1 },
    ]);
    const plain = await w.author('POST', '/api/quizzes', { title: 'No questions yet' });
    expect(plain.json().data).toMatchObject({ pass_mark: 80, questions: [] });
  });
});

describe('GET/PATCH/DELETE /api/quizzes/{id}', () => {
  it('updates fields and replaces questions in one transaction, keeping ids sent back', async () => {
    const quiz = await buildQuiz(h.db, w.org.id, { questions: 2 });
    const url = `/api/quizzes/${quiz.id}`;
    expect((await w.learner('GET', url)).statusCode).toBe(403);
    expect((await w.outsider('GET', url)).statusCode).toBe(404);
    const [q1, q2] = quiz.questions;
    const theirs = await buildQuiz(h.db, (await buildEntity(h.db)).id);
    const stolen = await w.author('PATCH', url, {
      questions: [{ id: theirs.questions[0].id, text: 'x', answers: quizBody().questions[0].answers }],
    });
    expect(stolen.statusCode).toBe(422);
    expect(stolen.json().errors['questions.0.id']).toBeDefined();
    expect((await w.viewer('PATCH', url, { title: 'No' })).statusCode).toBe(403);
    expect((await w.outsider('PATCH', url, { title: 'No' })).statusCode).toBe(404);

    const res = await w.author('PATCH', url, {
      title: 'Renamed',
      questions: [
        {
          id: q2.id,
          text: 'Second, now first',
          answers: [
            { id: q2.answers[0].id, text: 'Right', is_correct: true },
            { text: 'New wrong', is_correct: false },
          ],
        },
        { text: 'Brand new', answers: quizBody().questions[0].answers },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(Messages.quizUpdated);
    const questions = res.json().data.questions;
    expect(questions.map((q: { id: number; text: string }) => q.text)).toEqual([
      'Second, now first',
      'Brand new',
    ]);
    expect(questions[0].id).toBe(q2.id);
    expect(questions[0].answers[0].id).toBe(q2.answers[0].id);
    expect(questions[0].answers.map((a: { text: string }) => a.text)).toEqual(['Right', 'New wrong']);
    expect(
      await h.db.selectFrom('questions').selectAll().where('id', '=', q1.id).executeTakeFirst(),
    ).toBeUndefined();

    const bad = await w.author('PATCH', url, {
      questions: [{ text: 'x', answers: [{ text: 'a', is_correct: false }] }],
    });
    expect(bad.statusCode).toBe(422);
    expect((await w.author('GET', url)).json().data.questions).toHaveLength(2);
  });

  it('deletes a quiz, detaching it from content', async () => {
    const quiz = await buildQuiz(h.db, w.org.id);
    const content = await buildContent(h.db, { entityId: w.org.id });
    await linkQuizzes(h.db, content.id, [quiz.id]);
    expect((await w.viewer('DELETE', `/api/quizzes/${quiz.id}`)).statusCode).toBe(403);
    expect((await w.outsider('DELETE', `/api/quizzes/${quiz.id}`)).statusCode).toBe(404);
    expect((await w.author('DELETE', `/api/quizzes/${quiz.id}`)).json().message).toBe(Messages.quizDeleted);
    expect(
      await h.db.selectFrom('content_quizzes').selectAll().where('content_id', '=', content.id).execute(),
    ).toEqual([]);
  });

  it('lists the organisation quizzes only', async () => {
    const quiz = await buildQuiz(h.db, w.org.id, { title: 'Listed quiz' });
    expect((await w.learner('GET', '/api/quizzes')).statusCode).toBe(403);
    const list = await w.viewer('GET', '/api/quizzes?search=Listed');
    expect(list.json().data).toMatchObject([{ id: quiz.id, questions_count: 2 }]);
    expect(
      (await w.outsider('GET', '/api/quizzes?per_page=100')).json().data.map((q: { id: number }) => q.id),
    ).not.toContain(quiz.id);
  });
});

describe('POST /api/questions/changeOrder and /api/quizzes/{quizId}/content/{contentId}', () => {
  it('re-orders questions', async () => {
    const quiz = await buildQuiz(h.db, w.org.id, { questions: 3 });
    const [a, b, c] = quiz.questions.map((q) => q.id);
    expect((await w.author('POST', '/api/questions/changeOrder', { quiz_id: quiz.id })).statusCode).toBe(422);
    expect(
      (await w.author('POST', '/api/questions/changeOrder', { quiz_id: quiz.id, ids: [a, b] })).statusCode,
    ).toBe(422);
    expect(
      (await w.viewer('POST', '/api/questions/changeOrder', { quiz_id: quiz.id, ids: [c, a, b] })).statusCode,
    ).toBe(403);
    expect(
      (await w.outsider('POST', '/api/questions/changeOrder', { quiz_id: quiz.id, ids: [c, a, b] }))
        .statusCode,
    ).toBe(404);
    const res = await w.author('POST', '/api/questions/changeOrder', { quiz_id: quiz.id, ids: [c, a, b] });
    expect(res.json().message).toBe(Messages.questionReordered);
    expect(res.json().data.map((q: { id: number }) => q.id)).toEqual([c, a, b]);
  });

  it('attaches a quiz to content', async () => {
    const quiz = await buildQuiz(h.db, w.org.id);
    const content = await buildContent(h.db, { entityId: w.org.id });
    const url = `/api/quizzes/${quiz.id}/content/${content.id}`;
    expect((await w.author('POST', `/api/quizzes/x/content/${content.id}`)).statusCode).toBe(422);
    expect((await w.viewer('POST', url)).statusCode).toBe(403);
    expect((await w.outsider('POST', url)).statusCode).toBe(404);
    const res = await w.author('POST', url);
    expect(res.json()).toMatchObject({ message: Messages.quizAdded, data: [{ id: quiz.id }] });
  });
});
