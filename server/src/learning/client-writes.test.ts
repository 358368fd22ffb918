import { randomUUID } from 'node:crypto';
import { LearningMessages } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent, buildLesson, buildQuiz } from '../../test/learning-factories';
import { describeRaces, parallel } from '../../test/parallel';

/**
 * Issue 31 §2: the attempt player's outbox resends a write until it hears back, each write named by a client id.
 * The same client id twice records once (061_attempt_client_writes), sequentially and at the same moment.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

/** Content with two topics and a one-question quiz (pass mark 100), and the learner's attempt of it. */
async function setup() {
  const entity = await buildEntity(h.db);
  const learner = await buildUser(h.db, { entityId: entity.id, permissions: [] });
  const content = await buildContent(h.db, entity.id, { courseTitle: 'Moving and handling' });
  const { topics } = await buildLesson(h.db, content.id, entity.id, [{ title: 'Plan' }, { title: 'Lift' }]);
  const { quiz, questions } = await buildQuiz(
    h.db,
    content.id,
    entity.id,
    [{ answers: ['Before', 'During'], correct: [0] }],
    { passMark: 100 },
  );
  const call = await clientFor(h.app, h.db, learner.id);
  const attempt = (await call('POST', `/api/users/${learner.id}/attempts`, { content_id: content.id })).json()
    .data;
  const question = questions[0] as (typeof questions)[number];
  const right = { [String(question.id)]: [question.answers.find((a) => a.is_correct)?.id as number] };
  const wrong = { [String(question.id)]: [question.answers.find((a) => !a.is_correct)?.id as number] };
  return { learner, content, topics: topics.map((t) => t.id), quiz, call, attempt, right, wrong };
}

type World = Awaited<ReturnType<typeof setup>>;

async function attemptRow(id: number) {
  return h.db.selectFrom('attempts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
async function results(w: World) {
  return h.db
    .selectFrom('results')
    .select(['id', 'passed'])
    .where('user_id', '=', w.learner.id)
    .where('course_id', '=', w.content.course_id)
    .execute();
}
async function startSheet(w: World) {
  const res = await w.call('POST', '/api/quizzes/take', { attempt_id: w.attempt.id, quiz_id: w.quiz.id });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { quiz_attempt_id: number };
}
async function completeTopics(w: World) {
  let version = w.attempt.version as number;
  for (const topic of w.topics) {
    const res = await w.call('PATCH', `/api/attempts/${w.attempt.id}`, {
      version,
      completed_topic_id: topic,
    });
    expect(res.statusCode, res.body).toBe(200);
    version = res.json().data.version;
  }
  return version;
}

describe('client ids on attempt writes (issue 31 §2)', () => {
  it('a PATCH sent twice with its client id records once; the resend answers 200 with the attempt as it stands', async () => {
    const w = await setup();
    const body = {
      version: w.attempt.version,
      completed_topic_id: w.topics[0],
      progress: { current: { lesson_id: null, topic_id: w.topics[0], quiz_id: null } },
      client_id: randomUUID(),
    };
    const first = await w.call('PATCH', `/api/attempts/${w.attempt.id}`, body);
    expect(first.statusCode, first.body).toBe(200);
    const after = await attemptRow(w.attempt.id);
    // The resend carries the version the first send was made on, now stale: no 409, nothing written again.
    const again = await w.call('PATCH', `/api/attempts/${w.attempt.id}`, body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.version).toBe(first.json().data.version);
    expect(again.json().data.progress.completed_topic_ids).toEqual([w.topics[0]]);
    expect((await attemptRow(w.attempt.id)).version).toBe(after.version);
    const claims = await h.db
      .selectFrom('attempt_client_writes')
      .selectAll()
      .where('client_id', '=', body.client_id)
      .execute();
    expect(claims).toHaveLength(1);
    // Without a client id the same stale version is still the spec's 409.
    const { client_id: _, ...plain } = body;
    expect((await w.call('PATCH', `/api/attempts/${w.attempt.id}`, plain)).statusCode).toBe(409);
  });

  it('a refused write leaves its client id unclaimed, and another learner may use the same id', async () => {
    const w = await setup();
    const clientId = randomUUID();
    const stale = await w.call('PATCH', `/api/attempts/${w.attempt.id}`, {
      version: w.attempt.version + 5,
      completed_topic_id: w.topics[0],
      client_id: clientId,
    });
    expect(stale.statusCode).toBe(409);
    const ok = await w.call('PATCH', `/api/attempts/${w.attempt.id}`, {
      version: w.attempt.version,
      completed_topic_id: w.topics[0],
      client_id: clientId,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.progress.completed_topic_ids).toEqual([w.topics[0]]);
    const other = await setup();
    const theirs = await other.call('PATCH', `/api/attempts/${other.attempt.id}`, {
      version: other.attempt.version,
      completed_topic_id: other.topics[1],
      client_id: clientId,
    });
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.json().data.progress.completed_topic_ids).toEqual([other.topics[1]]);
    expect(
      (await w.call('PATCH', `/api/attempts/${w.attempt.id}`, { version: 1, client_id: 'not-a-uuid' }))
        .statusCode,
    ).toBe(422);
  });

  it('a quiz submit sent twice with its client id records once, with the verdict of the first send', async () => {
    const w = await setup();
    await completeTopics(w);
    const sheet = await startSheet(w);
    const body = { quiz_attempt_id: sheet.quiz_attempt_id, responses: w.right, client_id: randomUUID() };
    const first = await w.call('POST', '/api/quizzes/take', body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.passed).toBe(true);
    expect(first.json().data.attempt.status).toBe('passed');
    // The answer was lost on the way back; the outbox sends it again. The attempt is finished now: still 200.
    const again = await w.call('POST', '/api/quizzes/take', body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().message).toBe(LearningMessages.quizPassed);
    const { attempt: a1, ...outcome1 } = first.json().data;
    const { attempt: a2, ...outcome2 } = again.json().data;
    expect(outcome2).toEqual(outcome1);
    expect(a2.status).toBe('passed');
    expect(await results(w)).toHaveLength(1);
    // Another id for the same quiz attempt is the old 422 (submitted once).
    const other = await w.call('POST', '/api/quizzes/take', { ...body, client_id: randomUUID() });
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toBe(LearningMessages.quizAlreadySubmitted);
  });

  it('a failed quiz resent keeps its fail: the resend does not score again', async () => {
    const w = await setup();
    await completeTopics(w);
    const sheet = await startSheet(w);
    const body = { quiz_attempt_id: sheet.quiz_attempt_id, responses: w.wrong, client_id: randomUUID() };
    expect((await w.call('POST', '/api/quizzes/take', body)).json().data.passed).toBe(false);
    // Even with other responses under the same id, what was recorded stands.
    const again = await w.call('POST', '/api/quizzes/take', { ...body, responses: w.right });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.passed).toBe(false);
    expect(again.json().data.attempt.status).toBe('in_progress');
    expect(await results(w)).toHaveLength(0);
  });
});

describeRaces('client ids at the same moment (PostgreSQL)', () => {
  it('five sends of one PATCH at once: all 200, applied once (one version step, one claim)', async () => {
    const w = await setup();
    const body = { version: w.attempt.version, completed_topic_id: w.topics[0], client_id: randomUUID() };
    const before = await attemptRow(w.attempt.id);
    const sends = await parallel(5, () => w.call('PATCH', `/api/attempts/${w.attempt.id}`, body));
    expect(sends.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect((await attemptRow(w.attempt.id)).version).toBe(before.version + 1);
    const claims = await h.db
      .selectFrom('attempt_client_writes')
      .select('client_id')
      .where('client_id', '=', body.client_id)
      .execute();
    expect(claims).toHaveLength(1);
  });

  it('five sends of one passing submit at once: all 200 and passed, one submit, one result', async () => {
    const w = await setup();
    await completeTopics(w);
    const sheet = await startSheet(w);
    const body = { quiz_attempt_id: sheet.quiz_attempt_id, responses: w.right, client_id: randomUUID() };
    const sends = await parallel(5, () => w.call('POST', '/api/quizzes/take', body));
    expect(sends.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    for (const r of sends) {
      expect(r.json().data.passed).toBe(true);
      expect(r.json().data.attempt.status).toBe('passed');
    }
    const submitted = await h.db
      .selectFrom('quiz_attempts')
      .select('id')
      .where('attempt_id', '=', w.attempt.id)
      .where('submitted_at', 'is not', null)
      .execute();
    expect(submitted).toHaveLength(1);
    const rows = await results(w);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.passed).toBe(true);
  });
});
