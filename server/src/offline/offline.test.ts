import { randomUUID } from 'node:crypto';
import { LearningMessages, OfflineMessages, ContentPerm as P, PERMISSIONS } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildH5p } from '../../test/content-factories';
import { bearer, buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent, buildLesson, buildQuiz } from '../../test/learning-factories';
import { multipart, scorm12Package } from '../../test/package-factories';
import { describeRaces, parallel } from '../../test/parallel';
import { TOPIC_NOT_SKIPPABLE } from '../learning/progress';
import { personalTokenHeaders } from '../tokens/tenancy-tokens';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ packageOrigin: undefined });
});
afterAll(async () => h?.close());

const ALL = PERMISSIONS.map((p) => p.id);
const as = (userId: number) => clientFor(h.app, h.db, userId);
const HOUR = 3_600_000;

/** A learner with an e-learning content: one lesson of two topics and a quiz of two questions (pass mark 50). */
async function setup() {
  const entity = await buildEntity(h.db);
  const learner = await buildUser(h.db, { entityId: entity.id, permissions: [] });
  const content = await buildContent(h.db, entity.id, { courseTitle: 'Moving and handling' });
  const { topics } = await buildLesson(h.db, content.id, entity.id, [{ title: 'Why' }, { title: 'How' }]);
  const { quiz, questions } = await buildQuiz(
    h.db,
    content.id,
    entity.id,
    [
      { answers: ['Bend the knees', 'Bend the back'], correct: [0] },
      { answers: ['Alone', 'With a hoist', 'With a colleague'], correct: [1, 2] },
    ],
    { passMark: 50 },
  );
  const call = await as(learner.id);
  return { entity, learner, content, topics, quiz, questions, call };
}

type Setup = Awaited<ReturnType<typeof setup>>;

const rightAnswers = (s: Setup) =>
  Object.fromEntries(
    s.questions.map((q) => [String(q.id), q.answers.filter((a) => a.is_correct).map((a) => a.id)]),
  );
const wrongAnswers = (s: Setup) =>
  Object.fromEntries(
    s.questions.map((q) => [String(q.id), q.answers.filter((a) => !a.is_correct).map((a) => a.id)]),
  );

async function download(s: Setup) {
  const res = await s.call('POST', '/api/offline/downloads', { content_id: s.content.id });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { download_id: string; downloaded_at: string };
}

function attemptBody(
  s: Setup,
  downloadId: string,
  o: { passed?: boolean; completedAt?: Date | null; startedAt?: Date; uuid?: string } = {},
) {
  const completed = o.completedAt === undefined ? new Date() : o.completedAt;
  return {
    client_uuid: o.uuid ?? randomUUID(),
    download_id: downloadId,
    content_id: s.content.id,
    started_at: (o.startedAt ?? new Date()).toISOString(),
    completed_at: completed?.toISOString() ?? null,
    completed_topic_ids: s.topics.map((t) => t.id),
    quiz_responses: { [String(s.quiz.id)]: o.passed === false ? wrongAnswers(s) : rightAnswers(s) },
  };
}

const resultsOf = (userId: number, courseId: number) =>
  h.db
    .selectFrom('results')
    .selectAll()
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .where('deleted_at', 'is', null)
    .execute();
const attemptsOf = (userId: number, contentId: number) =>
  h.db
    .selectFrom('attempts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('content_id', '=', contentId)
    .orderBy('id')
    .execute();
const latestOf = (userId: number, courseId: number) =>
  h.db
    .selectFrom('latest_results')
    .selectAll()
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .executeTakeFirst();

describe('POST /api/offline/downloads', () => {
  it('answers 401, 422, 403 to a personal access token, 404 to another organisation, and records nothing', async () => {
    const s = await setup();
    expect(
      (await h.app.inject({ method: 'POST', url: '/api/offline/downloads', payload: { content_id: 1 } }))
        .statusCode,
    ).toBe(401);
    const bad = await s.call('POST', '/api/offline/downloads', { content_id: 'x' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.content_id).toBeDefined();
    const token = await personalTokenHeaders(h.db, s.learner.id, ALL);
    const viaToken = await h.app.inject({
      method: 'POST',
      url: '/api/offline/downloads',
      headers: token,
      payload: { content_id: s.content.id },
    });
    expect(viaToken.statusCode).toBe(403);
    expect(viaToken.json().message).toBe(OfflineMessages.notForIntegrations);
    const outsider = await buildUser(h.db, { permissions: ALL });
    const res = await (await as(outsider.id))('POST', '/api/offline/downloads', { content_id: s.content.id });
    expect(res.statusCode).toBe(404);
    expect(await h.db.selectFrom('offline_downloads').selectAll().execute()).toEqual([]);
  });

  it('refuses content that cannot be taken offline (422)', async () => {
    const s = await setup();
    const f2f = await buildContent(h.db, s.entity.id, { type: 'face2face' });
    const res = await s.call('POST', '/api/offline/downloads', { content_id: f2f.id });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.content_id).toEqual([OfflineMessages.notOffline]);
    const draft = await buildContent(h.db, s.entity.id, { published: false });
    expect((await s.call('POST', '/api/offline/downloads', { content_id: draft.id })).statusCode).toBe(422);
    const locked = await buildContent(h.db, s.entity.id, { prerequisites: [[s.content.id]] });
    const behind = await s.call('POST', '/api/offline/downloads', { content_id: locked.id });
    expect(behind.statusCode).toBe(422);
    expect(behind.json().errors.content_id[0]).toContain(s.content.title);
  });

  it('gives lessons, topics and quiz questions without the correct answers', async () => {
    const s = await setup();
    const res = await s.call('POST', '/api/offline/downloads', { content_id: s.content.id });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.body).not.toContain('is_correct');
    const data = res.json().data;
    expect(data.user_id).toBe(s.learner.id);
    expect(data.course.title).toBe('Moving and handling');
    expect(data.lessons[0].topics.map((t: { title: string }) => t.title)).toEqual(['Why', 'How']);
    expect(data.quizzes[0].questions.map((q: { multiple: boolean }) => q.multiple)).toEqual([false, true]);
    expect(data.packages).toEqual([]);
    const row = await h.db
      .selectFrom('offline_downloads')
      .selectAll()
      .where('id', '=', data.download_id)
      .executeTakeFirstOrThrow();
    expect(row.user_id).toBe(s.learner.id);
  });

  it("lists a SCORM package's files as signed launch URLs that serve them, without the caller's token", async () => {
    const entity = await buildEntity(h.db, { level: 'A' });
    const author = await bearer(
      h.db,
      (
        await buildUser(h.db, {
          entityId: entity.id,
          permissions: [P.contentCreator, P.addContent, P.editContent, P.addCourses, P.editCourses],
        })
      ).id,
    );
    const content = await buildContent(h.db, entity.id, { type: 'scorm' });
    const body = multipart('package', 'p.zip', scorm12Package());
    const up = await h.app.inject({
      method: 'POST',
      url: `/api/content/${content.id}/package`,
      headers: { ...author, ...body.headers },
      payload: body.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const learner = await buildUser(h.db, { entityId: entity.id, permissions: [] });
    const learnerHeaders = await bearer(h.db, learner.id);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/offline/downloads',
      headers: learnerHeaders,
      payload: { content_id: content.id },
    });
    expect(res.statusCode, res.body).toBe(201);
    const pkg = res.json().data.packages[0];
    expect(pkg.kind).toBe('scorm');
    expect(pkg.files.map((f: { path: string }) => f.path)).toEqual([
      'imsmanifest.xml',
      'sco/index.html',
      'sco/sco.js',
    ]);
    expect(res.json().data.runtime_files).toEqual(['/packages/runtime/scorm-frame.js']);
    const token = learnerHeaders.authorization.replace('Bearer ', '');
    for (const file of pkg.files) {
      expect(file.url).not.toContain(token);
      expect(file.url.startsWith(pkg.base_url)).toBe(true);
      const served = await h.app.inject({ method: 'GET', url: file.url });
      expect(served.statusCode, file.path).toBe(200);
    }
  });
});

describe('POST /api/offline/attempts', () => {
  it("answers 401, 422, 403 to a personal access token, 404 for another user's download, and stores nothing", async () => {
    const s = await setup();
    const d = await download(s);
    expect(
      (await h.app.inject({ method: 'POST', url: '/api/offline/attempts', payload: {} })).statusCode,
    ).toBe(401);
    const bad = await s.call('POST', '/api/offline/attempts', {
      ...attemptBody(s, d.download_id),
      client_uuid: 'x',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.client_uuid).toBeDefined();
    const other = await buildContent(h.db, s.entity.id);
    const wrongContent = await s.call('POST', '/api/offline/attempts', {
      ...attemptBody(s, d.download_id),
      content_id: other.id,
    });
    expect(wrongContent.statusCode).toBe(422);
    expect(wrongContent.json().errors.content_id).toEqual([OfflineMessages.downloadOtherContent]);
    const token = await personalTokenHeaders(h.db, s.learner.id, ALL);
    const viaToken = await h.app.inject({
      method: 'POST',
      url: '/api/offline/attempts',
      headers: token,
      payload: attemptBody(s, d.download_id),
    });
    expect(viaToken.statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: ALL });
    const stolen = await (await as(outsider.id))(
      'POST',
      '/api/offline/attempts',
      attemptBody(s, d.download_id),
    );
    expect(stolen.statusCode).toBe(404);
    const colleague = await buildUser(h.db, { entityId: s.entity.id, permissions: ALL });
    expect(
      (await (await as(colleague.id))('POST', '/api/offline/attempts', attemptBody(s, d.download_id)))
        .statusCode,
    ).toBe(404);
    expect(await h.db.selectFrom('offline_attempts').selectAll().execute()).toEqual([]);
    expect(await attemptsOf(s.learner.id, s.content.id)).toEqual([]);
  });

  it('grades a pass on the server, records the result like an online one, and a resend returns the same outcome', async () => {
    const s = await setup();
    const d = await download(s);
    const body = attemptBody(s, d.download_id);
    const first = await s.call('POST', '/api/offline/attempts', body);
    expect(first.statusCode, first.body).toBe(201);
    const outcome = first.json().data;
    expect(outcome).toMatchObject({ status: 'passed', counted: true, rule: 'only_pass', score: 100 });
    const again = await s.call('POST', '/api/offline/attempts', body);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(outcome);
    expect(again.json().message).toBe(OfflineMessages.alreadySynced);

    const attempts = await attemptsOf(s.learner.id, s.content.id);
    expect(attempts.map((a) => a.status)).toEqual(['passed']);
    const results = await resultsOf(s.learner.id, s.content.course_id);
    expect(results).toHaveLength(1);
    expect(results[0]?.attempt_id).toBe(attempts[0]?.id);
    expect((await latestOf(s.learner.id, s.content.course_id))?.result_id).toBe(results[0]?.id);
    const quizRows = await h.db
      .selectFrom('quiz_attempts')
      .selectAll()
      .where('attempt_id', '=', attempts[0]?.id as number)
      .execute();
    expect(quizRows.map((q) => q.passed)).toEqual([true]);
  });

  it('keeps a failed offline attempt without a result, and an unfinished one as data only', async () => {
    const s = await setup();
    const d = await download(s);
    const failed = await s.call(
      'POST',
      '/api/offline/attempts',
      attemptBody(s, d.download_id, { passed: false }),
    );
    expect(failed.statusCode, failed.body).toBe(201);
    expect(failed.json().data).toMatchObject({
      status: 'failed',
      counted: false,
      rule: 'offline_failed',
      score: 0,
    });
    const unfinished = attemptBody(s, d.download_id, { completedAt: null });
    const res = await s.call('POST', '/api/offline/attempts', { ...unfinished, quiz_responses: {} });
    expect(res.json().data).toMatchObject({
      status: 'incomplete',
      counted: false,
      rule: 'offline_incomplete',
    });
    expect(res.json().data.attempt_id).toBeNull();
    expect((await attemptsOf(s.learner.id, s.content.id)).map((a) => a.status)).toEqual(['failed']);
    expect(await resultsOf(s.learner.id, s.content.course_id)).toEqual([]);
    const stored = await h.db
      .selectFrom('offline_attempts')
      .select(['payload', 'status'])
      .where('user_id', '=', s.learner.id)
      .orderBy('id')
      .execute();
    expect(stored.map((r) => r.status)).toEqual(['failed', 'incomplete']);
    expect(stored[0]?.payload.quiz_responses).toEqual({ [String(s.quiz.id)]: wrongAnswers(s) });
  });

  it('bounds the device clock by the download and sync times', async () => {
    const s = await setup();
    const d = await download(s);
    const future = await s.call(
      'POST',
      '/api/offline/attempts',
      attemptBody(s, d.download_id, { completedAt: new Date(Date.now() + 365 * 24 * HOUR) }),
    );
    const outcome = future.json().data;
    expect(new Date(outcome.completed_at).getTime()).toBeLessThanOrEqual(
      new Date(outcome.synced_at).getTime(),
    );
    const past = await s.call(
      'POST',
      '/api/offline/attempts',
      attemptBody(s, d.download_id, { completedAt: new Date('2001-01-01T00:00:00Z') }),
    );
    expect(past.json().data.completed_at).toBe(d.downloaded_at);
    const device = await h.db
      .selectFrom('offline_attempts')
      .select('device_completed_at')
      .where('client_uuid', '=', past.json().data.client_uuid)
      .executeTakeFirstOrThrow();
    expect(device.device_completed_at?.toISOString()).toBe('2001-01-01T00:00:00.000Z');
  });

  it('keeps both attempts when the learner passed online meanwhile; the earlier offline pass does not count', async () => {
    const s = await setup();
    const d = await download(s);
    const offlineBody = attemptBody(s, d.download_id, { completedAt: new Date(d.downloaded_at) });
    // Online meanwhile: a pass through the ordinary player.
    const attempt = (
      await s.call('POST', `/api/users/${s.learner.id}/attempts`, { content_id: s.content.id })
    ).json().data;
    for (const t of s.topics)
      await s.call('PATCH', `/api/attempts/${attempt.id}`, {
        version: (await s.call('GET', `/api/attempts/${attempt.id}`)).json().data.version,
        completed_topic_id: t.id,
      });
    const sheet = (
      await s.call('POST', '/api/quizzes/take', { attempt_id: attempt.id, quiz_id: s.quiz.id })
    ).json().data;
    const online = await s.call('POST', '/api/quizzes/take', {
      quiz_attempt_id: sheet.quiz_attempt_id,
      responses: rightAnswers(s),
    });
    expect(online.json().data.attempt.status).toBe('passed');

    const res = await s.call('POST', '/api/offline/attempts', offlineBody);
    expect(res.json().data).toMatchObject({ status: 'passed', counted: false, rule: 'earlier_pass_kept' });
    expect((await attemptsOf(s.learner.id, s.content.id)).map((a) => a.status)).toEqual(['passed', 'passed']);
    const results = await resultsOf(s.learner.id, s.content.course_id);
    expect(results).toHaveLength(1);
    expect(results[0]?.attempt_id).toBe(attempt.id);
  });

  it('lets a later offline pass count over an earlier pass on record', async () => {
    const s = await setup();
    const old = await h.db
      .selectFrom('offline_downloads')
      .select('id')
      .where('user_id', '=', s.learner.id)
      .execute();
    expect(old).toEqual([]);
    const first = await download(s);
    await s.call(
      'POST',
      '/api/offline/attempts',
      attemptBody(s, first.download_id, { completedAt: new Date(first.downloaded_at) }),
    );
    const second = await download(s);
    const res = await s.call('POST', '/api/offline/attempts', attemptBody(s, second.download_id));
    expect(res.json().data).toMatchObject({ counted: true, rule: 'later_pass_counts' });
    const results = await resultsOf(s.learner.id, s.content.course_id);
    expect(results).toHaveLength(2);
    const latest = await latestOf(s.learner.id, s.content.course_id);
    expect(latest?.result_id).toBe(results.find((r) => r.attempt_id === res.json().data.attempt_id)?.id);
  });

  it('takes a SCORM outcome from the package data the runtime committed offline', async () => {
    const { content, learner, call } = await scormSetup();
    const d = (await call('POST', '/api/offline/downloads', { content_id: content.id })).json().data;
    const res = await call('POST', '/api/offline/attempts', {
      client_uuid: randomUUID(),
      download_id: d.download_id,
      content_id: content.id,
      started_at: new Date().toISOString(),
      completed_at: new Date().toISOString(),
      cmi: { item1: { 'cmi.core.lesson_status': 'passed', 'cmi.core.score.raw': '90' } },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ status: 'passed', counted: true, score: 90 });
    const results = await resultsOf(learner.id, content.course_id);
    expect(results.map((r) => r.type)).toEqual(['scorm']);
  });

  it('records a failed SCORM attempt taken offline as a failed result, exactly as an online one', async () => {
    const { content, entity, learner, call } = await scormSetup({ masteryScore: 80 });
    const failing = { 'cmi.core.lesson_status': 'completed', 'cmi.core.score.raw': '60' };
    // Online: the runtime commits the same data (a score below the mastery score fails).
    const other = await buildUser(h.db, { entityId: entity.id, permissions: [] });
    const otherCall = await as(other.id);
    const started = (
      await otherCall('POST', `/api/users/${other.id}/attempts`, { content_id: content.id })
    ).json().data;
    const online = await otherCall('PATCH', `/api/attempts/${started.id}`, {
      version: started.version,
      cmi: failing,
    });
    expect(online.json().data).toMatchObject({ status: 'failed', score: 60 });

    const d = (await call('POST', '/api/offline/downloads', { content_id: content.id })).json().data;
    const res = await call('POST', '/api/offline/attempts', {
      client_uuid: randomUUID(),
      download_id: d.download_id,
      content_id: content.id,
      started_at: new Date().toISOString(),
      completed_at: new Date().toISOString(),
      cmi: { item1: failing },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      status: 'failed',
      score: 60,
      counted: true,
      rule: 'failed_result',
    });

    const shape = (r: Awaited<ReturnType<typeof resultsOf>>[number]) => ({
      type: r.type,
      passed: r.passed,
      score: Number(r.score),
      content_id: r.content_id,
      entity_id: r.entity_id,
      status: r.status,
      expires: r.expires_at === null,
    });
    const [onlineResult] = await resultsOf(other.id, content.course_id);
    const offlineResults = await resultsOf(learner.id, content.course_id);
    expect(offlineResults).toHaveLength(1);
    expect(offlineResults.map(shape)).toEqual([onlineResult && shape(onlineResult)]);
    expect(offlineResults[0]?.attempt_id).toBe(res.json().data.attempt_id);
    const [onlineLatest, offlineLatest] = await Promise.all([
      latestOf(other.id, content.course_id),
      latestOf(learner.id, content.course_id),
    ]);
    expect(offlineLatest).toMatchObject({ passed: false, type: 'scorm', result_id: offlineResults[0]?.id });
    expect(onlineLatest).toMatchObject({ passed: false, type: 'scorm' });

    // A fail synced after a pass is recorded too, but the pass stays the learner's latest result.
    const passed = await call('POST', '/api/offline/attempts', {
      client_uuid: randomUUID(),
      download_id: d.download_id,
      content_id: content.id,
      started_at: new Date().toISOString(),
      completed_at: new Date().toISOString(),
      cmi: { item1: { 'cmi.core.lesson_status': 'passed', 'cmi.core.score.raw': '95' } },
    });
    expect(passed.json().data).toMatchObject({ status: 'passed', counted: true });
    await call('POST', '/api/offline/attempts', {
      client_uuid: randomUUID(),
      download_id: d.download_id,
      content_id: content.id,
      started_at: new Date().toISOString(),
      completed_at: new Date().toISOString(),
      cmi: { item1: failing },
    });
    expect((await resultsOf(learner.id, content.course_id)).map((r) => r.passed).sort()).toEqual([
      false,
      false,
      true,
    ]);
    expect(await latestOf(learner.id, content.course_id)).toMatchObject({ passed: true, result_count: 3 });
  });
});

describe('POST /api/offline/attempts with H5P outcomes', () => {
  /** E-learning content whose one topic is an H5P item (no quiz), as h5p-outcome.test.ts builds it online. */
  async function h5pSetup() {
    const entity = await buildEntity(h.db);
    const learner = await buildUser(h.db, { entityId: entity.id, permissions: [] });
    const content = await buildContent(h.db, entity.id);
    const item = await buildH5p(h.db, entity.id, { title: 'Hand hygiene drag and drop' });
    const { topics } = await buildLesson(h.db, content.id, entity.id, [{ title: 'Try it' }]);
    const topic = topics[0] as (typeof topics)[number];
    await h.db.updateTable('topics').set({ h5p_id: item.id }).where('id', '=', topic.id).execute();
    const call = await as(learner.id);
    const d = (await call('POST', '/api/offline/downloads', { content_id: content.id })).json().data;
    const statement = (scaled: number, success?: boolean) => ({
      verb: { id: 'http://adlnet.gov/expapi/verbs/answered' },
      result: { score: { scaled }, ...(success === undefined ? {} : { success }) },
    });
    const send = (h5p: Record<string, unknown>[], completed = true) =>
      call('POST', '/api/offline/attempts', {
        client_uuid: randomUUID(),
        download_id: d.download_id,
        content_id: content.id,
        started_at: new Date().toISOString(),
        completed_at: completed ? new Date().toISOString() : null,
        h5p,
      });
    return { learner, content, item, topic, statement, send };
  }

  it('judges the xAPI outcomes queued offline as online: a fail leaves the topic open, a later pass records an elearning result', async () => {
    const { learner, content, item, topic, statement, send } = await h5pSetup();
    const failed = { topic_id: topic.id, h5p_id: item.id, score_scaled: 0.4, success: false };
    const onlyFailed = await send([{ ...failed, statement: statement(0.4, false) }]);
    expect(onlyFailed.statusCode, onlyFailed.body).toBe(201);
    expect(onlyFailed.json().data).toMatchObject({ status: 'incomplete', counted: false });
    expect(await resultsOf(learner.id, content.course_id)).toEqual([]);

    // The learner tried again on the device: both statements were queued, in order.
    const res = await send([
      { ...failed, statement: statement(0.4, false) },
      {
        topic_id: topic.id,
        h5p_id: item.id,
        score_scaled: 0.8,
        success: true,
        statement: statement(0.8, true),
      },
    ]);
    expect(res.json().data).toMatchObject({ status: 'passed', counted: true, score: 80, rule: 'only_pass' });
    const attempt = (await attemptsOf(learner.id, content.id)).find(
      (a) => a.id === res.json().data.attempt_id,
    );
    expect(attempt?.progress).toMatchObject({
      completed_topic_ids: [topic.id],
      h5p_results: { [String(topic.id)]: { success: true, score_scaled: 0.8 } },
    });
    const results = await resultsOf(learner.id, content.course_id);
    expect(results.map((r) => [r.type, r.passed, Number(r.score)])).toEqual([['elearning', true, 80]]);
    // The statement itself is kept as the learner's evidence.
    const stored = await h.db
      .selectFrom('offline_attempts')
      .select('payload')
      .where('client_uuid', '=', res.json().data.client_uuid)
      .executeTakeFirstOrThrow();
    expect((stored.payload.h5p as { statement: unknown }[])[1]?.statement).toEqual(statement(0.8, true));
  });

  it("judges a score without a verdict against full marks, and ignores an item that is not the topic's", async () => {
    const { learner, content, item, topic, send } = await h5pSetup();
    const partly = await send([{ topic_id: topic.id, h5p_id: item.id, score_scaled: 0.5 }]);
    expect(partly.json().data).toMatchObject({ status: 'incomplete', counted: false });
    const other = await buildH5p(h.db, null);
    const wrongItem = await send([{ topic_id: topic.id, h5p_id: other.id, score_scaled: 1, success: true }]);
    expect(wrongItem.statusCode, wrongItem.body).toBe(201);
    expect(wrongItem.json().data).toMatchObject({ status: 'incomplete', counted: false });
    expect(wrongItem.json().data.refused).toEqual([
      { item: 'h5p', id: topic.id, message: LearningMessages.h5pNotInTopic },
    ]);
    const full = await send([{ topic_id: topic.id, h5p_id: item.id, score_scaled: 1 }]);
    expect(full.json().data).toMatchObject({ status: 'passed', counted: true, score: 100 });
    expect(await resultsOf(learner.id, content.course_id)).toHaveLength(1);
  });
});

describe('POST /api/offline/attempts follows the online completion rules (issue 28 §3)', () => {
  const MUST_PASS = 'H5P.MultiChoice 1.16';

  /**
   * E-learning content with a reading topic, a required topic holding an H5P item that must be passed (a graded
   * task: multiple choice) and a skippable topic holding the same item, plus a one-question quiz.
   */
  async function mustPassSetup() {
    const entity = await buildEntity(h.db);
    const learner = await buildUser(h.db, { entityId: entity.id, permissions: [] });
    const content = await buildContent(h.db, entity.id, { courseTitle: 'Infection control' });
    const item = await buildH5p(h.db, entity.id, { title: 'Hand hygiene check', library: MUST_PASS });
    const { topics } = await buildLesson(h.db, content.id, entity.id, [
      { title: 'Read me' },
      { title: 'Try it' },
      { title: 'Extra practice', skippable: true },
    ]);
    const [reading, activity, extra] = topics as [(typeof topics)[0], (typeof topics)[0], (typeof topics)[0]];
    await h.db
      .updateTable('topics')
      .set({ h5p_id: item.id })
      .where('id', 'in', [activity.id, extra.id])
      .execute();
    const { quiz, questions } = await buildQuiz(h.db, content.id, entity.id, [
      { answers: ['Wash', 'Skip'], correct: [0] },
    ]);
    const right = Object.fromEntries(
      questions.map((q) => [String(q.id), q.answers.filter((a) => a.is_correct).map((a) => a.id)]),
    );
    const call = await as(learner.id);
    const d = (await call('POST', '/api/offline/downloads', { content_id: content.id })).json().data;
    const send = (b: Record<string, unknown>, uuid = randomUUID()) =>
      call('POST', '/api/offline/attempts', {
        client_uuid: uuid,
        download_id: d.download_id,
        content_id: content.id,
        started_at: new Date().toISOString(),
        completed_at: new Date().toISOString(),
        ...b,
      });
    return { learner, content, item, reading, activity, extra, quiz, right, d, send };
  }

  it('refuses "I have read" on a topic whose H5P item must be passed: no pass, no certificate, the reason in the answer', async () => {
    const { learner, content, item, reading, activity, quiz, right, d, send } = await mustPassSetup();
    const uuid = randomUUID();
    const body = {
      completed_topic_ids: [reading.id, activity.id],
      quiz_responses: { [String(quiz.id)]: right },
    };
    const res = await send(body, uuid);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      status: 'incomplete',
      counted: false,
      rule: 'offline_incomplete',
      attempt_id: null,
      refused: [{ item: 'completed_topic', id: activity.id, message: LearningMessages.h5pNotPassed }],
    });
    expect(await resultsOf(learner.id, content.course_id)).toEqual([]);
    expect(await latestOf(learner.id, content.course_id)).toBeUndefined();
    // A resend (the answer was lost on the way) gives the same refusal.
    const again = await send(body, uuid);
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(res.json().data);

    // Passing the item on the device completes the topic; "I have read" on a passed topic is no longer refused.
    const passed = await send({
      ...body,
      h5p: [{ topic_id: activity.id, h5p_id: item.id, score_scaled: 1, success: true }],
    });
    expect(passed.json().data).toMatchObject({ status: 'passed', counted: true, refused: [] });
    expect(await resultsOf(learner.id, content.course_id)).toHaveLength(1);

    // The copy tells the device the item must be passed, so it offers no "I have read" for it.
    const topicsOnDevice = d.lessons[0].topics as { id: number; h5p: { must_pass?: boolean } | null }[];
    expect(topicsOnDevice.map((t) => t.h5p?.must_pass ?? null)).toEqual([null, true, true]);
  });

  it('refuses only the steps the rules do not allow and applies the rest of the attempt', async () => {
    const { learner, content, item, reading, activity, extra, quiz, right, send } = await mustPassSetup();
    const res = await send({
      h5p: [
        { topic_id: activity.id, h5p_id: item.id + 1000, score_scaled: 1, success: true },
        { topic_id: activity.id, h5p_id: item.id, score_scaled: 1, success: true },
      ],
      completed_topic_ids: [reading.id, extra.id],
      skipped_topic_ids: [reading.id, 999_999],
      quiz_responses: { [String(quiz.id)]: right, '999999': {} },
    });
    expect(res.statusCode, res.body).toBe(201);
    const outcome = res.json().data;
    expect(outcome).toMatchObject({ status: 'passed', counted: true, score: 100, rule: 'only_pass' });
    expect(outcome.refused).toEqual([
      { item: 'h5p', id: activity.id, message: LearningMessages.h5pNotInTopic },
      { item: 'completed_topic', id: extra.id, message: LearningMessages.h5pNotPassed },
      { item: 'skipped_topic', id: reading.id, message: TOPIC_NOT_SKIPPABLE },
      { item: 'skipped_topic', id: 999_999, message: LearningMessages.topicNotInContent },
      { item: 'quiz', id: 999_999, message: LearningMessages.quizNotInContent },
    ]);
    const attempt = (await attemptsOf(learner.id, content.id)).find((a) => a.id === outcome.attempt_id);
    expect(attempt?.progress.completed_topic_ids?.sort()).toEqual([reading.id, activity.id].sort());
    expect(attempt?.progress.skipped_topic_ids).toEqual([]);
    const sheets = await h.db
      .selectFrom('quiz_attempts')
      .select(['quiz_id', 'passed'])
      .where('attempt_id', '=', outcome.attempt_id)
      .execute();
    expect(sheets).toEqual([{ quiz_id: quiz.id, passed: true }]);
    const stored = await h.db
      .selectFrom('offline_attempts')
      .select('refused')
      .where('client_uuid', '=', outcome.client_uuid)
      .executeTakeFirstOrThrow();
    expect(stored.refused).toEqual(outcome.refused);
  });

  /**
   * One learner takes the steps online (PATCH /attempts/{id}, one step a request, in the order a synced attempt is
   * applied: H5P outcomes, topics completed, topics skipped), another sends the same steps as an offline attempt.
   * Both must reach the same verdict: the same steps refused with the same reason, the same pass or not, the same
   * result and the same completed topics.
   */
  type Step =
    | { h5p: { score_scaled?: number; success?: boolean } }
    | { complete: 'reading' | 'activity' }
    | { skip: 'reading' | 'activity' };
  const cases: { name: string; library: string | null; steps: Step[] }[] = [
    {
      name: 'read everything, item not played',
      library: MUST_PASS,
      steps: [{ complete: 'reading' }, { complete: 'activity' }],
    },
    {
      name: 'item failed, then read',
      library: MUST_PASS,
      steps: [
        { h5p: { score_scaled: 0.4, success: false } },
        { complete: 'reading' },
        { complete: 'activity' },
      ],
    },
    {
      name: 'a score below full marks without a verdict, then read',
      library: MUST_PASS,
      steps: [{ h5p: { score_scaled: 0.9 } }, { complete: 'reading' }, { complete: 'activity' }],
    },
    {
      name: 'item passed',
      library: MUST_PASS,
      steps: [{ h5p: { score_scaled: 1, success: true } }, { complete: 'reading' }],
    },
    {
      name: 'full marks without a verdict',
      library: MUST_PASS,
      steps: [{ h5p: { score_scaled: 1 } }, { complete: 'activity' }, { complete: 'reading' }],
    },
    {
      name: 'an item with nothing to pass, read',
      library: null,
      steps: [{ complete: 'reading' }, { complete: 'activity' }],
    },
    {
      name: 'an item with nothing to pass, failed, then read',
      library: null,
      steps: [
        { h5p: { score_scaled: 0, success: false } },
        { complete: 'reading' },
        { complete: 'activity' },
      ],
    },
    {
      name: 'a topic that is not skippable skipped',
      library: null,
      steps: [{ complete: 'activity' }, { skip: 'reading' }],
    },
  ];

  it.each(cases)('records the same verdict offline as online: $name', async ({ library, steps }) => {
    const entity = await buildEntity(h.db);
    const content = await buildContent(h.db, entity.id);
    const item = await buildH5p(h.db, entity.id, { library });
    const { topics } = await buildLesson(h.db, content.id, entity.id, [
      { title: 'Read me' },
      { title: 'Try it' },
    ]);
    const [reading, activity] = topics as [(typeof topics)[0], (typeof topics)[0]];
    await h.db.updateTable('topics').set({ h5p_id: item.id }).where('id', '=', activity.id).execute();
    const idOf = { reading: reading.id, activity: activity.id };

    // Online: one PATCH a step; a refused step answers 422 with its reason and changes nothing.
    const online = await buildUser(h.db, { entityId: entity.id, permissions: [] });
    const onlineCall = await as(online.id);
    let attempt = (
      await onlineCall('POST', `/api/users/${online.id}/attempts`, { content_id: content.id })
    ).json().data;
    const onlineRefused: string[] = [];
    for (const step of steps) {
      const patch =
        'h5p' in step
          ? { h5p: { topic_id: activity.id, h5p_id: item.id, ...step.h5p } }
          : 'complete' in step
            ? { completed_topic_id: idOf[step.complete] }
            : { skipped_topic_id: idOf[step.skip] };
      const res = await onlineCall('PATCH', `/api/attempts/${attempt.id}`, {
        version: attempt.version,
        ...patch,
      });
      if (res.statusCode === 422)
        onlineRefused.push(...(Object.values(res.json().errors).flat() as string[]));
      else {
        expect(res.statusCode, res.body).toBe(200);
        attempt = res.json().data;
      }
    }

    // Offline: the same steps in one synced attempt.
    const offline = await buildUser(h.db, { entityId: entity.id, permissions: [] });
    const offlineCall = await as(offline.id);
    const d = (await offlineCall('POST', '/api/offline/downloads', { content_id: content.id })).json().data;
    const sync = await offlineCall('POST', '/api/offline/attempts', {
      client_uuid: randomUUID(),
      download_id: d.download_id,
      content_id: content.id,
      started_at: new Date().toISOString(),
      completed_at: new Date().toISOString(),
      h5p: steps.flatMap((s) => ('h5p' in s ? [{ topic_id: activity.id, h5p_id: item.id, ...s.h5p }] : [])),
      completed_topic_ids: steps.flatMap((s) => ('complete' in s ? [idOf[s.complete]] : [])),
      skipped_topic_ids: steps.flatMap((s) => ('skip' in s ? [idOf[s.skip]] : [])),
    });
    expect(sync.statusCode, sync.body).toBe(201);
    const outcome = sync.json().data;

    expect(outcome.refused.map((r: { message: string }) => r.message)).toEqual(onlineRefused);
    expect(outcome.status === 'passed').toBe(attempt.status === 'passed');
    const shape = (rows: Awaited<ReturnType<typeof resultsOf>>) =>
      rows.map((r) => ({ type: r.type, passed: r.passed, score: r.score === null ? null : Number(r.score) }));
    expect(shape(await resultsOf(offline.id, content.course_id))).toEqual(
      shape(await resultsOf(online.id, content.course_id)),
    );
    if (outcome.attempt_id !== null) {
      const [offlineAttempt] = await attemptsOf(offline.id, content.id);
      expect(offlineAttempt?.progress.completed_topic_ids?.sort()).toEqual(
        attempt.progress.completed_topic_ids.sort(),
      );
    }
  });
});

/** A learner with a SCORM 1.2 content (one SCO, item1), uploaded by an author of the same organisation. */
async function scormSetup(pkg: { masteryScore?: number } = {}) {
  const entity = await buildEntity(h.db, { level: 'A' });
  const author = await bearer(
    h.db,
    (
      await buildUser(h.db, {
        entityId: entity.id,
        permissions: [P.contentCreator, P.addContent, P.editContent, P.addCourses, P.editCourses],
      })
    ).id,
  );
  const content = await buildContent(h.db, entity.id, { type: 'scorm' });
  const zip = multipart('package', 'p.zip', scorm12Package(pkg));
  const uploaded = await h.app.inject({
    method: 'POST',
    url: `/api/content/${content.id}/package`,
    headers: { ...author, ...zip.headers },
    payload: zip.payload,
  });
  expect(uploaded.statusCode, uploaded.body).toBeLessThan(300);
  const learner = await buildUser(h.db, { entityId: entity.id, permissions: [] });
  return { entity, content, learner, call: await as(learner.id) };
}

describeRaces('offline sync races (PostgreSQL)', () => {
  it('the same attempt sent twice at once is stored once, with one result', async () => {
    const s = await setup();
    const d = await download(s);
    const body = attemptBody(s, d.download_id);
    const answers = await parallel(4, () => s.call('POST', '/api/offline/attempts', body));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 201]);
    const outcomes = answers.map((a) => a.json().data);
    for (const o of outcomes) expect(o).toEqual(outcomes[0]);
    expect(await attemptsOf(s.learner.id, s.content.id)).toHaveLength(1);
    expect(await resultsOf(s.learner.id, s.content.course_id)).toHaveLength(1);
  });

  it('an online completion racing an offline sync keeps both attempts and one result per counting attempt', async () => {
    const s = await setup();
    const d = await download(s);
    const attempt = (
      await s.call('POST', `/api/users/${s.learner.id}/attempts`, { content_id: s.content.id })
    ).json().data;
    for (const t of s.topics)
      await s.call('PATCH', `/api/attempts/${attempt.id}`, {
        version: (await s.call('GET', `/api/attempts/${attempt.id}`)).json().data.version,
        completed_topic_id: t.id,
      });
    const sheet = (
      await s.call('POST', '/api/quizzes/take', { attempt_id: attempt.id, quiz_id: s.quiz.id })
    ).json().data;
    const [online, offline] = await Promise.all([
      s.call('POST', '/api/quizzes/take', {
        quiz_attempt_id: sheet.quiz_attempt_id,
        responses: rightAnswers(s),
      }),
      s.call(
        'POST',
        '/api/offline/attempts',
        attemptBody(s, d.download_id, { completedAt: new Date(d.downloaded_at) }),
      ),
    ]);
    expect(online.statusCode, online.body).toBe(200);
    expect(offline.statusCode, offline.body).toBe(201);
    const outcome = offline.json().data;
    const attempts = await attemptsOf(s.learner.id, s.content.id);
    expect(attempts.map((a) => a.status)).toEqual(['passed', 'passed']);
    const results = await resultsOf(s.learner.id, s.content.course_id);
    // The online pass always gives its result; the offline one only when the rule counted it.
    expect(results).toHaveLength(outcome.counted ? 2 : 1);
    expect(['only_pass', 'earlier_pass_kept']).toContain(outcome.rule);
    const latest = await latestOf(s.learner.id, s.content.course_id);
    const newest = [...results].sort((a, b) => b.completed_at.getTime() - a.completed_at.getTime())[0];
    expect(latest?.result_id).toBe(newest?.id);
    expect(latest?.result_count).toBe(results.length);
  });
});
