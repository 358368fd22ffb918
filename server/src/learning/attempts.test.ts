import { LearningMessages, LearningPerm, PERMISSIONS } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent, buildLesson, buildPassedResult } from '../../test/learning-factories';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const as = (userId: number) => clientFor(h.app, h.db, userId);
const ALL = PERMISSIONS.map((p) => p.id);

/** An organisation with a learner (no permissions) and an admin holding every permission. */
async function org() {
  const entity = await buildEntity(h.db);
  const learner = await buildUser(h.db, { entityId: entity.id, permissions: [] });
  const admin = await buildUser(h.db, { entityId: entity.id, permissions: ALL });
  return { entity, learner, admin };
}

const attemptsState = async () =>
  JSON.stringify(await h.db.selectFrom('attempts').selectAll().orderBy('id').execute());

describe('POST /api/users/{id}/attempts', () => {
  it('answers 401 without a caller, 422 for a bad body', async () => {
    const { learner } = await org();
    expect(
      (
        await h.app.inject({
          method: 'POST',
          url: `/api/users/${learner.id}/attempts`,
          payload: { content_id: 1 },
        })
      ).statusCode,
    ).toBe(401);
    const res = await (await as(learner.id))('POST', `/api/users/${learner.id}/attempts`, {
      content_id: 'x',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.content_id).toBeDefined();
  });

  it('starts an attempt for oneself, and returns the same in-progress attempt when asked again', async () => {
    const { entity, learner } = await org();
    const content = await buildContent(h.db, entity.id);
    const call = await as(learner.id);
    const first = await call('POST', `/api/users/${learner.id}/attempts`, { content_id: content.id });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({
      status: 'in_progress',
      version: 1,
      content_id: content.id,
      course_id: content.course_id,
    });
    const again = await call('POST', `/api/users/${learner.id}/attempts`, { content_id: content.id });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.id).toBe(first.json().data.id);
    const rows = await h.db.selectFrom('attempts').select('id').where('user_id', '=', learner.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('needs 111 to start one for someone else (403), and 404 for another organisation, creating nothing', async () => {
    const { entity, learner } = await org();
    const content = await buildContent(h.db, entity.id);
    const colleague = await buildUser(h.db, {
      entityId: entity.id,
      permissions: [LearningPerm.searchTrainingRecords],
    });
    const outsider = await buildUser(h.db, { permissions: ALL });
    const before = await attemptsState();
    expect(
      (
        await (
          await as(colleague.id)
        )('POST', `/api/users/${learner.id}/attempts`, { content_id: content.id })
      ).statusCode,
    ).toBe(403);
    expect(
      (await (await as(outsider.id))('POST', `/api/users/${learner.id}/attempts`, { content_id: content.id }))
        .statusCode,
    ).toBe(404);
    expect(await attemptsState()).toBe(before);
    const manager = await buildUser(h.db, {
      entityId: entity.id,
      permissions: [LearningPerm.bulkCreateAttempts],
    });
    const res = await (await as(manager.id))('POST', `/api/users/${learner.id}/attempts`, {
      content_id: content.id,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.user_id).toBe(learner.id);
  });

  it("hides another organisation's content (404) and admin-only content from learners (404); 122 may start it", async () => {
    const { entity, learner, admin } = await org();
    const theirs = await buildContent(h.db, (await buildEntity(h.db)).id);
    const restricted = await buildContent(h.db, entity.id, { adminOnly: true });
    const call = await as(learner.id);
    expect(
      (await call('POST', `/api/users/${learner.id}/attempts`, { content_id: theirs.id })).statusCode,
    ).toBe(404);
    expect(
      (await call('POST', `/api/users/${learner.id}/attempts`, { content_id: restricted.id })).statusCode,
    ).toBe(404);
    const res = await (await as(admin.id))('POST', `/api/users/${admin.id}/attempts`, {
      content_id: restricted.id,
    });
    expect(res.statusCode).toBe(201);
  });

  it('refuses unpublished content and content of an unpublished course with 422', async () => {
    const { entity, admin } = await org();
    const draft = await buildContent(h.db, entity.id, { published: false });
    const res = await (await as(admin.id))('POST', `/api/users/${admin.id}/attempts`, {
      content_id: draft.id,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(LearningMessages.contentUnpublished);
  });

  it('blocks a start until one prerequisite option is fully passed, naming what is missing', async () => {
    const { entity, learner } = await org();
    const a = await buildContent(h.db, entity.id, { title: 'Fire Safety' });
    const b = await buildContent(h.db, entity.id, { title: 'Moving and Handling' });
    const c = await buildContent(h.db, entity.id, { title: 'Infection Control' });
    const target = await buildContent(h.db, entity.id, { prerequisites: [[a.id, b.id], [c.id]] });
    const call = await as(learner.id);
    await buildPassedResult(h.db, {
      userId: learner.id,
      entityId: entity.id,
      courseId: a.course_id,
      contentId: a.id,
    });
    const blocked = await call('POST', `/api/users/${learner.id}/attempts`, { content_id: target.id });
    expect(blocked.statusCode).toBe(422);
    expect(blocked.json().message).toBe(
      LearningMessages.prerequisitesMissing.replace(':missing', 'Moving and Handling'),
    );
    expect(blocked.json().errors.content_id).toBeDefined();
    await buildPassedResult(h.db, {
      userId: learner.id,
      entityId: entity.id,
      courseId: c.course_id,
      contentId: c.id,
    });
    expect(
      (await call('POST', `/api/users/${learner.id}/attempts`, { content_id: target.id })).statusCode,
    ).toBe(201);
  });
});

describe('GET /api/users/{id}/attempts and GET /api/attempts/{id}', () => {
  it('lists own attempts, filters by status, pages; others need 24 and scope', async () => {
    const { entity, learner } = await org();
    const c1 = await buildContent(h.db, entity.id);
    const c2 = await buildContent(h.db, entity.id);
    const call = await as(learner.id);
    const a1 = (await call('POST', `/api/users/${learner.id}/attempts`, { content_id: c1.id })).json().data;
    await call('POST', `/api/users/${learner.id}/attempts`, { content_id: c2.id });
    await h.db.updateTable('attempts').set({ status: 'passed' }).where('id', '=', a1.id).execute();
    const all = await call('GET', `/api/users/${learner.id}/attempts?per_page=1`);
    expect(all.statusCode).toBe(200);
    expect(all.json().meta).toMatchObject({ total: 2, last_page: 2 });
    const passed = await call('GET', `/api/users/${learner.uuid}/attempts?status=passed`);
    expect(passed.json().data.map((a: { id: number }) => a.id)).toEqual([a1.id]);
    expect((await call('GET', `/api/users/${learner.id}/attempts?status=nope`)).statusCode).toBe(422);

    const peer = await buildUser(h.db, { entityId: entity.id, permissions: [] });
    expect((await (await as(peer.id))('GET', `/api/users/${learner.id}/attempts`)).statusCode).toBe(403);
    expect((await (await as(peer.id))('GET', `/api/attempts/${a1.id}`)).statusCode).toBe(403);
    const officer = await buildUser(h.db, {
      entityId: entity.id,
      permissions: [LearningPerm.searchTrainingRecords],
    });
    expect((await (await as(officer.id))('GET', `/api/attempts/${a1.id}`)).statusCode).toBe(200);
    const outsider = await buildUser(h.db, { permissions: ALL });
    expect((await (await as(outsider.id))('GET', `/api/attempts/${a1.id}`)).statusCode).toBe(404);
    expect((await (await as(outsider.id))('GET', `/api/users/${learner.id}/attempts`)).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'GET', url: `/api/attempts/${a1.id}` })).statusCode).toBe(401);
    expect((await call('GET', '/api/attempts/abc')).statusCode).toBe(422);
    expect((await call('GET', '/api/attempts/99999999')).statusCode).toBe(404);
  });
});

describe('PATCH /api/attempts/{id}: working through topics', () => {
  async function course() {
    const o = await org();
    const content = await buildContent(h.db, o.entity.id);
    const l1 = await buildLesson(h.db, content.id, o.entity.id, [
      { title: 'Intro' },
      { title: 'Detail', isChild: true },
      { title: 'Secret', hidden: true },
      { title: 'Extra', skippable: true },
    ]);
    const l2 = await buildLesson(h.db, content.id, o.entity.id, [{ title: 'Wrap up' }], 1);
    const call = await as(o.learner.id);
    const attempt = (
      await call('POST', `/api/users/${o.learner.id}/attempts`, { content_id: content.id })
    ).json().data;
    const [intro, detail, secret, extra] = l1.topics as [
      (typeof l1.topics)[0],
      (typeof l1.topics)[0],
      (typeof l1.topics)[0],
      (typeof l1.topics)[0],
    ];
    return {
      ...o,
      content,
      call,
      attempt,
      intro,
      detail,
      secret,
      extra,
      wrap: l2.topics[0] as (typeof l1.topics)[0],
    };
  }

  it('answers 401, 422 for a bad body, 403 to a colleague in scope and 404 to another organisation (unchanged)', async () => {
    const { attempt, call, entity } = await course();
    expect(
      (await h.app.inject({ method: 'PATCH', url: `/api/attempts/${attempt.id}`, payload: { version: 1 } }))
        .statusCode,
    ).toBe(401);
    expect((await call('PATCH', `/api/attempts/${attempt.id}`, { version: 'one' })).statusCode).toBe(422);
    const before = await attemptsState();
    const colleague = await buildUser(h.db, { entityId: entity.id, permissions: ALL });
    expect(
      (
        await (
          await as(colleague.id)
        )('PATCH', `/api/attempts/${attempt.id}`, { version: 1, completed_topic_id: 1 })
      ).statusCode,
    ).toBe(403);
    const outsider = await buildUser(h.db, { permissions: ALL });
    expect(
      (await (await as(outsider.id))('PATCH', `/api/attempts/${attempt.id}`, { version: 1 })).statusCode,
    ).toBe(404);
    expect(await attemptsState()).toBe(before);
  });

  it('completes a parent with its children, refuses hidden topics and skipping a required one, allows skipping a skippable one', async () => {
    const { attempt, call, intro, detail, secret, extra, wrap } = await course();
    const r1 = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 1,
      completed_topic_id: intro.id,
      progress: { current: { topic_id: intro.id } },
    });
    expect(r1.statusCode, r1.body).toBe(200);
    expect(r1.json().data.progress.completed_topic_ids.sort()).toEqual([intro.id, detail.id].sort());
    expect(r1.json().data.progress.current).toEqual({ topic_id: intro.id });
    expect(r1.json().data.version).toBe(2);

    const hidden = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 2,
      completed_topic_id: secret.id,
    });
    expect(hidden.statusCode).toBe(422);
    expect(hidden.json().message).toBe(LearningMessages.topicNotInContent);
    const notSkippable = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 2,
      skipped_topic_id: wrap.id,
    });
    expect(notSkippable.statusCode).toBe(422);
    const skipped = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 2,
      skipped_topic_id: extra.id,
    });
    expect(skipped.json().data.progress.skipped_topic_ids).toEqual([extra.id]);
    expect(skipped.json().data).toMatchObject({
      status: 'in_progress',
      result_id: null,
      result_passed: null,
    });

    // The last required topic (the hidden and skipped ones are not required): no quiz, so the attempt passes.
    const last = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 3,
      completed_topic_id: wrap.id,
    });
    expect(last.json().data).toMatchObject({ status: 'passed', version: 4, result_passed: true });
    expect(last.json().data.result_id).toEqual(expect.any(Number));
    const finished = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 4,
      completed_topic_id: wrap.id,
    });
    expect(finished.statusCode).toBe(422);
    expect(finished.json().message).toBe(LearningMessages.attemptFinished);
  });

  it('gives the player its structure: lessons in order, hidden topics left out, the course; 404 to another organisation', async () => {
    const { attempt, call } = await course();
    const outsider = await buildUser(h.db, { permissions: ALL });
    const res = await call('GET', `/api/attempts/${attempt.id}/structure`);
    expect(res.statusCode, res.body).toBe(200);
    const { lessons, quizzes, course: theCourse } = res.json().data;
    expect(lessons.map((l: { topics: { title: string }[] }) => l.topics.map((t) => t.title))).toEqual([
      ['Intro', 'Detail', 'Extra'],
      ['Wrap up'],
    ]);
    expect(lessons[0].topics[1]).toMatchObject({
      is_child: true,
      skippable: false,
      hidden: false,
      h5p: null,
    });
    expect(quizzes).toEqual([]);
    expect(theCourse.contents.map((c: { id: number }) => c.id)).toContain(attempt.content_id);
    const theirs = await (await as(outsider.id))('GET', `/api/attempts/${attempt.id}/structure`);
    expect(theirs.statusCode).toBe(404);
  });

  it('answers a stale version with 409 and the message, and changes nothing', async () => {
    const { attempt, call, intro } = await course();
    expect(
      (await call('PATCH', `/api/attempts/${attempt.id}`, { version: 1, completed_topic_id: intro.id }))
        .statusCode,
    ).toBe(200);
    const before = await attemptsState();
    const stale = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 1,
      progress: { current: null },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(LearningMessages.attemptConflict);
    expect(stale.json().message).toBe('This attempt was updated elsewhere. Reload to continue.');
    expect(await attemptsState()).toBe(before);
  });
});

describe('retake, current attempt and delete', () => {
  it('retakes only finished attempts, tracks the current one and soft-deletes', async () => {
    const { entity, learner } = await org();
    const content = await buildContent(h.db, entity.id);
    const other = await buildContent(h.db, entity.id);
    const call = await as(learner.id);
    expect((await call('GET', '/api/attempts/current-attempt')).json().data).toBeNull();
    const a = (await call('POST', `/api/users/${learner.id}/attempts`, { content_id: content.id })).json()
      .data;
    const b = (await call('POST', `/api/users/${learner.id}/attempts`, { content_id: other.id })).json().data;
    await h.db
      .updateTable('attempts')
      .set({ updated_at: new Date(Date.now() + 60_000) })
      .where('id', '=', a.id)
      .execute();
    expect((await call('GET', '/api/attempts/current-attempt')).json().data.id).toBe(a.id);

    const early = await call('POST', `/api/retake_attempt/${a.id}`);
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toBe(LearningMessages.attemptNotFinished);
    // Finish it (no topics, no quiz: the first update completes it).
    const done = await call('PATCH', `/api/attempts/${a.id}`, { version: 1, progress: { current: null } });
    expect(done.json().data.status).toBe('passed');
    const retake = await call('POST', `/api/retake_attempt/${a.id}`);
    expect(retake.statusCode).toBe(201);
    expect(retake.json().data).toMatchObject({ content_id: content.id, status: 'in_progress', version: 1 });
    expect(retake.json().data.id).not.toBe(a.id);

    const outsider = await buildUser(h.db, { permissions: ALL });
    expect((await (await as(outsider.id))('POST', `/api/retake_attempt/${a.id}`)).statusCode).toBe(404);
    expect((await (await as(outsider.id))('DELETE', `/api/attempts/${b.id}`)).statusCode).toBe(404);
    const peer = await buildUser(h.db, { entityId: entity.id, permissions: [] });
    expect((await (await as(peer.id))('DELETE', `/api/attempts/${b.id}`)).statusCode).toBe(403);
    expect((await (await as(peer.id))('POST', `/api/retake_attempt/${a.id}`)).statusCode).toBe(403);

    // The learner may delete an in-progress attempt, not a finished one.
    expect((await call('DELETE', `/api/attempts/${a.id}`)).statusCode).toBe(403);
    const del = await call('DELETE', `/api/attempts/${b.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json().message).toBe(LearningMessages.attemptDeleted);
    expect((await call('GET', `/api/attempts/${b.id}`)).statusCode).toBe(404);
    const row = await h.db
      .selectFrom('attempts')
      .select('deleted_at')
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    const officer = await buildUser(h.db, {
      entityId: entity.id,
      permissions: [LearningPerm.deleteTrainingRecord],
    });
    expect((await (await as(officer.id))('DELETE', `/api/attempts/${a.id}`)).statusCode).toBe(200);
  });
});
