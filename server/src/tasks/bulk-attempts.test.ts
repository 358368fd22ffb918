import { LearningPerm, PERMISSIONS, TaskMessages } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent, buildPassedResult } from '../../test/learning-factories';
import { parallel } from '../../test/parallel';
import { runDueJobs } from '../jobs/queue';
import { registerAllJobs } from '../register-jobs';

/** POST /attempts/bulk (issue 18, permission 111): scope, skipped ids, idempotence, progress through the task. */
let h: Harness;
beforeAll(async () => {
  registerAllJobs();
  h = await createHarness();
});
afterAll(async () => h?.close());

const as = (userId: number) => clientFor(h.app, h.db, userId);
const ALL = PERMISSIONS.map((p) => p.id);
const runJobs = () => runDueJobs(h.deps, new Date(Date.now() + 1000));

/** A group with a home: an admin of the group (all permissions), learners in the home, and a course of the group. */
async function world(learners = 3) {
  const group = await buildEntity(h.db);
  const home = await buildEntity(h.db, { parentId: group.id });
  const admin = await buildUser(h.db, { entityId: group.id, permissions: ALL });
  const people = await Promise.all(
    Array.from({ length: learners }, () => buildUser(h.db, { entityId: home.id, permissions: [] })),
  );
  const content = await buildContent(h.db, group.id, { courseTitle: 'Moving and handling' });
  return { group, home, admin, people, content };
}

const openAttempts = (contentId: number) =>
  h.db
    .selectFrom('attempts')
    .select(['user_id'])
    .where('content_id', '=', contentId)
    .where('status', '=', 'in_progress')
    .where('deleted_at', 'is', null)
    .orderBy('user_id')
    .execute()
    .then((rows) => rows.map((r) => r.user_id));

describe('POST /api/attempts/bulk', () => {
  it("401, 422 with field messages, 403 without 111, 404 for another organisation's course", async () => {
    const w = await world(1);
    const ids = w.people.map((p) => p.id);
    expect(
      (
        await h.app.inject({
          method: 'POST',
          url: '/api/attempts/bulk',
          payload: { user_ids: ids, course_id: 1 },
        })
      ).statusCode,
    ).toBe(401);
    const call = await as(w.admin.id);
    const none = await call('POST', '/api/attempts/bulk', { user_ids: [] });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors).toEqual({
      user_ids: ['Choose at least one person.'],
      course_id: ['Choose the course to start.'],
    });
    const both = await call('POST', '/api/attempts/bulk', { user_ids: ids, course_id: 1, content_id: 2 });
    expect(both.json().errors.content_id).toEqual([
      'Choose either a course or one of its contents, not both.',
    ]);
    const many = await call('POST', '/api/attempts/bulk', {
      user_ids: Array.from({ length: 5001 }, (_, i) => i + 1),
      course_id: w.content.course_id,
    });
    expect(many.json().errors.user_ids).toEqual(['Choose at most 5,000 people at once.']);

    const noPerm = await buildUser(h.db, {
      entityId: w.group.id,
      permissions: ALL.filter((p) => p !== LearningPerm.bulkCreateAttempts),
    });
    const refused = await (await as(noPerm.id))('POST', '/api/attempts/bulk', {
      user_ids: ids,
      course_id: w.content.course_id,
    });
    expect(refused.statusCode).toBe(403);

    const outsider = await world(1);
    const foreign = await call('POST', '/api/attempts/bulk', {
      user_ids: ids,
      course_id: outsider.content.course_id,
    });
    expect(foreign.statusCode).toBe(404);
    const faceToFace = await buildContent(h.db, w.group.id, { type: 'face2face' });
    const offline = await call('POST', '/api/attempts/bulk', { user_ids: ids, content_id: faceToFace.id });
    expect(offline.statusCode).toBe(422);
    expect(offline.json().errors.content_id).toBeDefined();
    expect(await h.db.selectFrom('tasks').select('id').where('user_id', '=', w.admin.id).execute()).toEqual(
      [],
    );
  });

  it('starts the course for the people in scope as a task; others are skipped exactly like missing ids', async () => {
    const w = await world(3);
    const outsider = await world(1);
    const foreignId = outsider.people[0]?.id as number;
    const missingId = 2_000_000_000;
    const call = await as(w.admin.id);
    const ids = w.people.map((p) => p.id);
    const res = await call('POST', '/api/attempts/bulk', {
      user_ids: [...ids, foreignId, missingId, ids[0]],
      course_id: w.content.course_id,
    });
    expect(res.statusCode, res.body).toBe(202);
    const body = res.json();
    expect(body.message).toBe(TaskMessages.bulkAttemptsQueued);
    expect(body.data).toMatchObject({
      accepted: 3,
      skipped_user_ids: [foreignId, missingId],
      task: { kind: 'bulk_attempts', status: 'queued', progress: { done: 0, total: 3 } },
    });
    expect(body.data.task.title).toBe('Start Moving and handling for 3 people');
    expect((await call('GET', '/api/tasks/active-count')).json().data.active).toBe(1);
    expect(await openAttempts(w.content.id)).toEqual([]);

    await runJobs();
    expect(await openAttempts(w.content.id)).toEqual([...ids].sort((a, b) => a - b));
    expect(await openAttempts(outsider.content.id)).toEqual([]);
    const task = (await call('GET', `/api/tasks/${body.data.task.uuid}`)).json().data;
    expect(task).toMatchObject({
      status: 'done',
      progress: { done: 3, total: 3 },
      result: { summary: 'Started Moving and handling for 3 people.' },
    });
    expect((await call('GET', '/api/tasks/active-count')).json().data.active).toBe(0);

    // None in scope: refused before any task is made.
    const onlyForeign = await call('POST', '/api/attempts/bulk', {
      user_ids: [foreignId],
      course_id: w.content.course_id,
    });
    expect(onlyForeign.statusCode).toBe(422);
    expect(onlyForeign.json().errors.user_ids).toEqual(['None of the people chosen could be found.']);
  });

  it('is idempotent per person (an open attempt is kept), and leaves out who lacks the prerequisites', async () => {
    const w = await world(3);
    const [a, b, c] = w.people as unknown as [{ id: number }, { id: number }, { id: number }];
    const before = await buildContent(h.db, w.group.id);
    const gated = await buildContent(h.db, w.group.id, {
      courseTitle: 'Medication',
      prerequisites: [[before.id]],
    });
    await buildPassedResult(h.db, {
      userId: a.id,
      entityId: w.home.id,
      courseId: before.course_id,
      contentId: before.id,
    });
    await buildPassedResult(h.db, {
      userId: b.id,
      entityId: w.home.id,
      courseId: before.course_id,
      contentId: before.id,
    });
    const call = await as(w.admin.id);
    const own = await (await as(a.id))('POST', `/api/users/${a.id}/attempts`, { content_id: gated.id });
    expect(own.statusCode).toBe(201);
    const res = await call('POST', '/api/attempts/bulk', {
      user_ids: [a.id, b.id, c.id],
      content_id: gated.id,
    });
    expect(res.statusCode).toBe(202);
    await runJobs();
    expect(await openAttempts(gated.id)).toEqual([a.id, b.id].sort((x, y) => x - y));
    const ownId = own.json().data.id;
    expect(
      await h.db
        .selectFrom('attempts')
        .select('id')
        .where('user_id', '=', a.id)
        .where('content_id', '=', gated.id)
        .execute(),
    ).toEqual([{ id: ownId }]);
    const task = (await call('GET', `/api/tasks/${res.json().data.task.uuid}`)).json().data;
    expect(task.result.summary).toBe(
      'Started Medication for 1 person. 1 person had already started it. 1 person has not finished what it needs first.',
    );
    // Asked again: nobody gets a second open attempt.
    await call('POST', '/api/attempts/bulk', { user_ids: [a.id, b.id, c.id], content_id: gated.id });
    await runJobs();
    expect(await openAttempts(gated.id)).toEqual([a.id, b.id].sort((x, y) => x - y));
  });

  it('GraphQL createAttempts: the same service, the same refusals', async () => {
    const w = await world(2);
    const headers = await bearer(h.db, w.admin.id);
    const gql = async (variables: Record<string, unknown>) =>
      (
        await h.app.inject({
          method: 'POST',
          url: '/graphql',
          headers,
          payload: {
            query:
              'mutation ($u: [Int!]!, $c: Int) { createAttempts(user_ids: $u, course_id: $c) { accepted skipped_user_ids task { kind status } } }',
            variables,
          },
        })
      ).json();
    const ok = await gql({ u: w.people.map((p) => p.id), c: w.content.course_id });
    expect(ok.data.createAttempts).toEqual({
      accepted: 2,
      skipped_user_ids: [],
      task: { kind: 'bulk_attempts', status: 'queued' },
    });
    const bad = await gql({ u: [] });
    expect(bad.errors[0].extensions.status).toBe(422);
  });
});

describe('bulk attempts at once (PostgreSQL interleaves; PGlite runs them one by one)', () => {
  it('4 requests and 4 workers for the same people: one open attempt each', async () => {
    const w = await world(40);
    const call = await as(w.admin.id);
    const ids = w.people.map((p) => p.id);
    const codes = await parallel(4, () =>
      call('POST', '/api/attempts/bulk', { user_ids: ids, course_id: w.content.course_id }).then(
        (r) => r.statusCode,
      ),
    );
    expect(codes).toEqual([202, 202, 202, 202]);
    await parallel(4, (i) => runDueJobs(h.deps, new Date(Date.now() + 1000), { workerId: `w${i}` }));
    expect(await openAttempts(w.content.id)).toEqual([...ids].sort((a, b) => a - b));
    const tasks = await h.db
      .selectFrom('tasks')
      .select(['status', 'result'])
      .where('user_id', '=', w.admin.id)
      .execute();
    expect(tasks.map((t) => t.status)).toEqual(['done', 'done', 'done', 'done']);
    const started = tasks.map((t) =>
      Number(/Started Moving and handling for (\d+)/.exec(t.result?.summary ?? '')?.[1]),
    );
    expect(started.reduce((s, n) => s + n, 0)).toBe(40);
  });
});
