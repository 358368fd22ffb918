import { PathwayMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { allocate, as, createPathway, pathwayWorld } from './fixtures';

/** /pathways: list, create, view, edit, delete, preview, versions (401, 422, 403, 404 other organisation, happy). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('POST /api/pathways', () => {
  it('401 without sign-in', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/api/pathways', payload: {} });
    expect(res.statusCode).toBe(401);
  });

  it('creates the backing course, version 1 and its steps', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    expect(p.version).toBe(1);
    expect(p.steps.map((s) => s.title)).toEqual([
      'Moving and handling',
      'Infection control',
      'Safe moving observed',
    ]);
    const course = await h.db
      .selectFrom('courses')
      .select(['kind', 'title', 'entity_id'])
      .where('id', '=', p.course_id)
      .executeTakeFirstOrThrow();
    expect(course).toEqual({ kind: 'pathway', title: 'Induction', entity_id: w.group.id });
    const versions = await h.db
      .selectFrom('pathway_versions')
      .selectAll()
      .where('pathway_id', '=', p.id)
      .execute();
    expect(versions).toHaveLength(1);
  });

  it('422 on bad input, a course of another organisation or a pathway as a step; 404 another organisation as owner', async () => {
    const w = await pathwayWorld(h);
    const c = await as(h, w.manager.id);
    const bad = await c('POST', '/api/pathways', { title: '', steps: [] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty('title');
    expect(bad.json().errors.steps).toEqual([M.noSteps]);
    const noTitle = await c('POST', '/api/pathways', { title: 'X', steps: [{ type: 'sign_off' }] });
    expect(noTitle.json().errors['steps.0.title']).toEqual(['Name the competence to sign off.']);
    const foreign = await c('POST', '/api/pathways', {
      title: 'X',
      steps: [{ type: 'course', course_id: w.otherCourse.id }],
    });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors['steps.0.course_id']).toEqual(['Choose a course.']);
    const p = await createPathway(h, w);
    const nested = await c('POST', '/api/pathways', {
      title: 'X',
      steps: [{ type: 'course', course_id: p.course_id }],
    });
    expect(nested.json().errors['steps.0.course_id']).toEqual(['Choose a course.']);
    const otherOrg = await c('POST', '/api/pathways', {
      title: 'X',
      entity: w.other.slug,
      steps: [{ type: 'sign_off', title: 'A' }],
    });
    expect(otherOrg.statusCode).toBe(404);
    expect(await h.db.selectFrom('pathways').select('id').where('title', '=', 'X').execute()).toEqual([]);
  });

  it('403 without 27 or 28', async () => {
    const w = await pathwayWorld(h);
    const res = await (await as(h, w.signer.id))('POST', '/api/pathways', {
      title: 'Y',
      steps: [{ type: 'sign_off', title: 'A' }],
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('GET /api/pathways and /api/pathways/{id}', () => {
  it('lists pathways in scope with counts; another organisation sees none of them', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w, { title: 'Listed pathway' });
    await allocate(h, w, p.id, [w.learner.id]);
    const list = await (await as(h, w.viewer.id))('GET', '/api/pathways?search=Listed');
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toHaveLength(1);
    expect(list.json().data[0]).toMatchObject({
      title: 'Listed pathway',
      entity: { id: w.group.id },
      step_count: 3,
      counts: { in_progress: 1, awaiting_sign_off: 0, completed: 0 },
    });
    expect(list.json().meta.total).toBe(1);
    const theirs = await (await as(h, w.outsider.id))('GET', '/api/pathways?search=Listed');
    expect(theirs.json().data).toEqual([]);
  });

  it('views a pathway with steps, versions and what the actor can do', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    const res = await (await as(h, w.viewer.id))('GET', `/api/pathways/${p.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      steps: [{ type: 'course' }, { type: 'course' }, { type: 'sign_off' }],
      versions: [{ number: 1, in_progress: 0 }],
      can: { edit: false, allocate: false, sign_off: false },
    });
  });

  it('401, 403 without a view permission, 404 for another organisation or a missing id', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    expect((await h.app.inject({ method: 'GET', url: `/api/pathways/${p.id}` })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'GET', url: '/api/pathways' })).statusCode).toBe(401);
    const plain = await buildUser(h.db, { entityId: w.group.id });
    expect((await (await as(h, plain.id))('GET', `/api/pathways/${p.id}`)).statusCode).toBe(403);
    expect((await (await as(h, plain.id))('GET', '/api/pathways')).statusCode).toBe(403);
    // The learner's scope (the home) does not hold the group's pathway.
    expect((await (await as(h, w.learner.id))('GET', `/api/pathways/${p.id}`)).statusCode).toBe(404);
    expect((await (await as(h, w.outsider.id))('GET', `/api/pathways/${p.id}`)).statusCode).toBe(404);
    expect((await (await as(h, w.manager.id))('GET', '/api/pathways/99999999')).statusCode).toBe(404);
    expect((await (await as(h, w.manager.id))('GET', '/api/pathways/abc')).statusCode).toBe(422);
  });
});

describe('PATCH /api/pathways/{id}', () => {
  it('changes only the fields sent; the title follows to the backing course', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    const c = await as(h, w.manager.id);
    const res = await c('PATCH', `/api/pathways/${p.id}`, { title: 'Renamed' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(M.updated);
    expect(res.json().data).toMatchObject({ title: 'Renamed', sequential: true, step_count: 3, version: 1 });
    const course = await h.db
      .selectFrom('courses')
      .select('title')
      .where('id', '=', p.course_id)
      .executeTakeFirstOrThrow();
    expect(course.title).toBe('Renamed');
  });

  it('edits the steps in place while nobody has it', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    const res = await (await as(h, w.manager.id))('PATCH', `/api/pathways/${p.id}`, {
      steps: [{ key: p.steps[2]?.key, type: 'sign_off', title: 'Observed' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.version).toBe(1);
    expect(res.json().data.steps).toMatchObject([{ key: p.steps[2]?.key, title: 'Observed' }]);
  });

  it('401, 422, 403, 404', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    expect(
      (await h.app.inject({ method: 'PATCH', url: `/api/pathways/${p.id}`, payload: {} })).statusCode,
    ).toBe(401);
    const c = await as(h, w.manager.id);
    expect((await c('PATCH', `/api/pathways/${p.id}`, { title: '' })).statusCode).toBe(422);
    expect((await c('PATCH', `/api/pathways/${p.id}`, { steps: [] })).statusCode).toBe(422);
    expect(
      (await (await as(h, w.viewer.id))('PATCH', `/api/pathways/${p.id}`, { title: 'Z' })).statusCode,
    ).toBe(403);
    expect(
      (await (await as(h, w.outsider.id))('PATCH', `/api/pathways/${p.id}`, { title: 'Z' })).statusCode,
    ).toBe(404);
  });
});

describe('POST /api/pathways/{id}/changes and versions', () => {
  it('previews the changes; a new version needs a choice for each', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    await allocate(h, w, p.id, [w.learner.id]);
    const c = await as(h, w.manager.id);
    const steps = [
      { key: p.steps[0]?.key, type: 'course', course_id: w.courseA.id, due_days: 14 },
      { key: p.steps[2]?.key, type: 'sign_off', title: 'Safe moving observed' },
    ];
    const preview = await c('POST', `/api/pathways/${p.id}/changes`, { steps });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().data).toEqual({
      new_version: true,
      in_progress: 1,
      changes: [
        { step_key: p.steps[0]?.key, change: 'changed', title: 'Moving and handling' },
        { step_key: p.steps[1]?.key, change: 'removed', title: 'Infection control' },
      ],
    });
    const missing = await c('PATCH', `/api/pathways/${p.id}`, { steps });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.choices).toEqual([M.choicesMissing]);
    const saved = await c('PATCH', `/api/pathways/${p.id}`, {
      steps,
      change_note: 'Shorter',
      choices: [
        { step_key: p.steps[0]?.key, choice: 'keep_credit' },
        { step_key: p.steps[1]?.key, choice: 'keep_credit' },
      ],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().message).toBe(M.newVersion);
    expect(saved.json().data.version).toBe(2);
    expect(saved.json().data.versions).toMatchObject([
      { number: 2, change_note: 'Shorter', in_progress: 1 },
      { number: 1, in_progress: 0 },
    ]);
    const v1 = await c('GET', `/api/pathways/${p.id}/versions/1`);
    expect(v1.statusCode).toBe(200);
    expect(v1.json().data.steps).toHaveLength(3);
    expect((await c('GET', `/api/pathways/${p.id}/versions/9`)).statusCode).toBe(404);
    expect((await (await as(h, w.outsider.id))('GET', `/api/pathways/${p.id}/versions/1`)).statusCode).toBe(
      404,
    );
    expect(
      (await (await as(h, w.outsider.id))('POST', `/api/pathways/${p.id}/changes`, { steps })).statusCode,
    ).toBe(404);
    expect(
      (await (await as(h, w.viewer.id))('POST', `/api/pathways/${p.id}/changes`, { steps })).statusCode,
    ).toBe(403);
    expect((await c('POST', `/api/pathways/${p.id}/changes`, { steps: [] })).statusCode).toBe(422);
    expect((await h.app.inject({ method: 'GET', url: `/api/pathways/${p.id}/versions/1` })).statusCode).toBe(
      401,
    );
  });
});

describe('DELETE /api/pathways/{id}', () => {
  it('hides it and withdraws the live allocations', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    const [uuid] = await allocate(h, w, p.id, [w.learner.id]);
    expect((await h.app.inject({ method: 'DELETE', url: `/api/pathways/${p.id}` })).statusCode).toBe(401);
    expect((await (await as(h, w.viewer.id))('DELETE', `/api/pathways/${p.id}`)).statusCode).toBe(403);
    expect((await (await as(h, w.outsider.id))('DELETE', `/api/pathways/${p.id}`)).statusCode).toBe(404);
    const c = await as(h, w.manager.id);
    const res = await c('DELETE', `/api/pathways/${p.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(M.deleted);
    expect((await c('GET', `/api/pathways/${p.id}`)).statusCode).toBe(404);
    const a = await h.db
      .selectFrom('pathway_allocations')
      .select('status')
      .where('uuid', '=', uuid as string)
      .executeTakeFirstOrThrow();
    expect(a.status).toBe('withdrawn');
  });
});
