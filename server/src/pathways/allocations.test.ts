import { PathwayMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { ALL_PATHWAY_PERMS, allocate, as, createPathway, pass, pathwayWorld, today } from './fixtures';

/** Allocations: allocate, list, mine, view, withdraw, step status, sign-offs, completion. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const addDays = (date: string, days: number) => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

describe('POST /api/pathways/{id}/allocations', () => {
  it('allocates the current version; 409 a second time, nothing written', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    const c = await as(h, w.manager.id);
    const res = await c('POST', `/api/pathways/${p.id}/allocations`, { user_ids: [w.learner.id] });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(M.allocated);
    expect(res.json().data[0]).toMatchObject({
      pathway: { id: p.id, title: 'Induction' },
      user: { id: w.learner.id, name: 'Lee Learner' },
      version: 1,
      current_version: 1,
      status: 'in_progress',
      via_role: null,
      steps_done: 0,
      steps_total: 3,
      next_due_on: addDays(today(), 7),
      can: { sign_off: true, withdraw: true },
    });
    const again = await c('POST', `/api/pathways/${p.id}/allocations`, {
      user_ids: [w.colleague.id, w.learner.id],
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(M.alreadyAllocated);
    const rows = await h.db
      .selectFrom('pathway_allocations')
      .select('user_id')
      .where('pathway_id', '=', p.id)
      .execute();
    expect(rows).toEqual([{ user_id: w.learner.id }]);
  });

  it('401, 422, 403, 404 for another organisation (pathway or person)', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    const url = `/api/pathways/${p.id}/allocations`;
    expect(
      (await h.app.inject({ method: 'POST', url, payload: { user_ids: [w.learner.id] } })).statusCode,
    ).toBe(401);
    const c = await as(h, w.manager.id);
    const bad = await c('POST', url, { user_ids: [] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.user_ids).toEqual(['Choose at least one person.']);
    expect((await (await as(h, w.viewer.id))('POST', url, { user_ids: [w.learner.id] })).statusCode).toBe(
      403,
    );
    expect((await (await as(h, w.outsider.id))('POST', url, { user_ids: [w.outsider.id] })).statusCode).toBe(
      404,
    );
    expect((await c('POST', url, { user_ids: [w.outsider.id] })).statusCode).toBe(404);
  });
});

describe('GET /api/pathways/{id}/allocations and /api/pathways/mine', () => {
  it('lists a pathway’s allocations paged, filtered by status; the learner sees their own', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    await allocate(h, w, p.id, [w.learner.id, w.colleague.id]);
    const c = await as(h, w.manager.id);
    const page = await c('GET', `/api/pathways/${p.id}/allocations?per_page=1`);
    expect(page.statusCode).toBe(200);
    expect(page.json().meta).toMatchObject({ total: 2, last_page: 2 });
    expect(page.json().data[0].user.name).toBe('Cal Colleague');
    const done = await c('GET', `/api/pathways/${p.id}/allocations?status=completed`);
    expect(done.json().data).toEqual([]);
    expect((await c('GET', `/api/pathways/${p.id}/allocations?status=nope`)).statusCode).toBe(422);
    expect((await (await as(h, w.viewer.id))('GET', `/api/pathways/${p.id}/allocations`)).statusCode).toBe(
      403,
    );
    expect((await (await as(h, w.outsider.id))('GET', `/api/pathways/${p.id}/allocations`)).statusCode).toBe(
      404,
    );
    expect((await h.app.inject({ method: 'GET', url: `/api/pathways/${p.id}/allocations` })).statusCode).toBe(
      401,
    );

    const mine = await (await as(h, w.learner.id))('GET', '/api/pathways/mine');
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data).toHaveLength(1);
    expect(mine.json().data[0].steps.map((s: { status: string }) => s.status)).toEqual([
      'to_do',
      'locked',
      'locked',
    ]);
    expect(mine.json().data[0].can).toEqual({ sign_off: false, withdraw: false });
    expect((await h.app.inject({ method: 'GET', url: '/api/pathways/mine' })).statusCode).toBe(401);
  });
});

describe('GET and DELETE /api/pathway-allocations/{uuid}', () => {
  it('the person and managers in scope see it; others 404', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    const [uuid] = await allocate(h, w, p.id, [w.learner.id]);
    const url = `/api/pathway-allocations/${uuid}`;
    const own = await (await as(h, w.learner.id))('GET', url);
    expect(own.statusCode).toBe(200);
    expect(own.json().data.steps[0]).toMatchObject({
      type: 'course',
      title: 'Moving and handling',
      href: `/courses/${w.courseA.id}`,
      due_on: addDays(today(), 7),
    });
    expect((await (await as(h, w.viewer.id))('GET', url)).statusCode).toBe(200);
    expect((await (await as(h, w.colleague.id))('GET', url)).statusCode).toBe(404);
    expect((await (await as(h, w.outsider.id))('GET', url)).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await (await as(h, w.manager.id))('GET', '/api/pathway-allocations/not-a-uuid')).statusCode).toBe(
      422,
    );
  });

  it('withdraws a live allocation (43 only); 409 once ended', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    const [uuid] = await allocate(h, w, p.id, [w.learner.id]);
    const url = `/api/pathway-allocations/${uuid}`;
    expect((await h.app.inject({ method: 'DELETE', url })).statusCode).toBe(401);
    expect((await (await as(h, w.signer.id))('DELETE', url)).statusCode).toBe(403);
    expect((await (await as(h, w.outsider.id))('DELETE', url)).statusCode).toBe(404);
    expect((await (await as(h, w.learner.id))('DELETE', url)).statusCode).toBe(403);
    const c = await as(h, w.manager.id);
    const res = await c('DELETE', url);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(M.withdrawn);
    expect((await c('DELETE', url)).statusCode).toBe(409);
    // Withdrawn: it can be allocated again.
    expect(
      (await c('POST', `/api/pathways/${p.id}/allocations`, { user_ids: [w.learner.id] })).statusCode,
    ).toBe(201);
  });
});

describe('steps, sign-offs and completion', () => {
  it('a sequential pathway unlocks step by step; the last sign-off completes it with a pathway result', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    const [uuid] = await allocate(h, w, p.id, [w.learner.id]);
    const url = `/api/pathway-allocations/${uuid}`;
    const signKey = p.steps[2]?.key as string;
    const signUrl = `${url}/steps/${signKey}/sign-off`;
    const c = await as(h, w.signer.id);
    const body = { note: 'Watched a safe transfer.', signed_on: today() };
    const locked = await c('POST', signUrl, body);
    expect(locked.statusCode).toBe(409);
    expect(locked.json().message).toBe(M.stepLocked);

    await pass(h, w.learner.id, w.home.id, w.courseA.id);
    let view = (await (await as(h, w.learner.id))('GET', url)).json().data;
    expect(view.steps.map((s: { status: string }) => s.status)).toEqual(['done', 'to_do', 'locked']);
    await pass(h, w.learner.id, w.home.id, w.courseB.id);

    expect((await h.app.inject({ method: 'POST', url: signUrl, payload: body })).statusCode).toBe(401);
    expect((await c('POST', signUrl, { note: '', signed_on: 'soon' })).statusCode).toBe(422);
    const future = await c('POST', signUrl, { note: 'x', signed_on: addDays(today(), 3) });
    expect(future.statusCode).toBe(422);
    expect(future.json().errors.signed_on).toEqual([M.signedOnFuture]);
    expect((await (await as(h, w.viewer.id))('POST', signUrl, body)).statusCode).toBe(403);
    expect((await (await as(h, w.outsider.id))('POST', signUrl, body)).statusCode).toBe(404);
    const notSign = await c('POST', `${url}/steps/${p.steps[0]?.key}/sign-off`, body);
    expect(notSign.statusCode).toBe(422);
    expect(notSign.json().message).toBe(M.notSignOffStep);
    expect((await c('POST', `${url}/steps/${crypto.randomUUID()}/sign-off`, body)).statusCode).toBe(404);

    const res = await c('POST', signUrl, body);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(M.stepSignedOff);
    view = res.json().data;
    expect(view.status).toBe('completed');
    expect(view.steps[2].sign_off).toMatchObject({
      signed_by: { id: w.signer.id },
      note: 'Watched a safe transfer.',
    });
    const result = await h.db
      .selectFrom('results')
      .select(['id', 'type', 'passed'])
      .where('user_id', '=', w.learner.id)
      .where('course_id', '=', p.course_id)
      .execute();
    expect(result).toMatchObject([{ type: 'pathway', passed: true }]);
    expect(view.result_id).toBe(result[0]?.id);
    const latest = await h.db
      .selectFrom('latest_results')
      .select(['type', 'result_id'])
      .where('user_id', '=', w.learner.id)
      .where('course_id', '=', p.course_id)
      .executeTakeFirstOrThrow();
    expect(latest).toEqual({ type: 'pathway', result_id: result[0]?.id });
    const ended = await c('POST', signUrl, body);
    expect(ended.statusCode).toBe(409);
    expect(ended.json().message).toBe(M.notLive);
  });

  it('nobody signs off their own pathway', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w, { sequential: false });
    const [uuid] = await allocate(h, w, p.id, [w.manager.id]);
    const res = await (await as(h, w.manager.id))(
      'POST',
      `/api/pathway-allocations/${uuid}/steps/${p.steps[2]?.key}/sign-off`,
      { note: 'Me', signed_on: today() },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(M.ownSignOff);
  });

  it('a course pass alone completes a pathway of courses (the recordResult hook)', async () => {
    const w = await pathwayWorld(h);
    const res = await (await as(h, w.manager.id))('POST', '/api/pathways', {
      title: 'Courses only',
      steps: [{ type: 'course', course_id: w.courseA.id }],
    });
    const p = res.json().data;
    const [uuid] = await allocate(h, w, p.id, [w.learner.id]);
    await pass(h, w.learner.id, w.home.id, w.courseA.id);
    const a = await h.db
      .selectFrom('pathway_allocations')
      .select(['status', 'result_id'])
      .where('uuid', '=', uuid as string)
      .executeTakeFirstOrThrow();
    expect(a.status).toBe('completed');
    expect(a.result_id).not.toBeNull();
    // Someone who passed before being allocated completes on allocation.
    const other = await buildUser(h.db, { entityId: w.home.id });
    await pass(h, other.id, w.home.id, w.courseA.id);
    const made = await (await as(h, w.manager.id))('POST', `/api/pathways/${p.id}/allocations`, {
      user_ids: [other.id],
    });
    expect(made.json().data[0].status).toBe('completed');
  });

  it('a final sign-off: awaiting_sign_off when every step is done, completed when signed', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w, { requires_final_sign_off: true, sequential: false });
    const [uuid] = await allocate(h, w, p.id, [w.learner.id]);
    const url = `/api/pathway-allocations/${uuid}/sign-off`;
    const c = await as(h, w.signer.id);
    const early = await c('POST', url, { note: 'Done' });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(M.notAwaitingSignOff);
    await pass(h, w.learner.id, w.home.id, w.courseA.id);
    await pass(h, w.learner.id, w.home.id, w.courseB.id);
    await c('POST', `/api/pathway-allocations/${uuid}/steps/${p.steps[2]?.key}/sign-off`, {
      note: 'Seen',
      signed_on: today(),
    });
    const waiting = (await c('GET', `/api/pathway-allocations/${uuid}`)).json().data;
    expect(waiting.status).toBe('awaiting_sign_off');
    expect(waiting.result_id).toBeNull();
    expect((await h.app.inject({ method: 'POST', url, payload: { note: 'x' } })).statusCode).toBe(401);
    expect((await c('POST', url, { note: '' })).statusCode).toBe(422);
    expect((await (await as(h, w.viewer.id))('POST', url, { note: 'x' })).statusCode).toBe(403);
    expect((await (await as(h, w.outsider.id))('POST', url, { note: 'x' })).statusCode).toBe(404);
    const res = await c('POST', url, { note: 'All good.' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(M.signedOff);
    expect(res.json().data).toMatchObject({
      status: 'completed',
      signed_off: { by: { id: w.signer.id }, note: 'All good.' },
    });
    expect(res.json().data.result_id).not.toBeNull();
    const manager = await buildUser(h.db, { entityId: w.group.id, permissions: ALL_PATHWAY_PERMS });
    expect((await (await as(h, manager.id))('POST', url, { note: 'again' })).statusCode).toBe(409);
  });
});
