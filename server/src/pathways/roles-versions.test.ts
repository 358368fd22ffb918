import { PathwayMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildRole, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { allocate, as, createPathway, type PathwayWorld, pass, pathwayWorld, today } from './fixtures';

/** Role allocations (present and future members) and the three version choices. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const liveOf = (pathwayId: number, userId: number) =>
  h.db
    .selectFrom('pathway_allocations')
    .select(['uuid', 'status', 'role_allocation_id', 'version_id'])
    .where('pathway_id', '=', pathwayId)
    .where('user_id', '=', userId)
    .where('status', 'in', ['in_progress', 'awaiting_sign_off'])
    .executeTakeFirst();

describe('/api/entities/{slug}/roles/{role}/pathways', () => {
  it('allocates to every member now, to a new member and to one moved into the role; removing withdraws', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    const c = await as(h, w.manager.id);
    const url = `/api/entities/${w.group.slug}/roles/${w.role.id}/pathways`;
    const res = await c('POST', url, { pathway_id: p.id });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(M.roleAllocated);
    expect(res.json().data).toMatchObject([
      {
        pathway: { id: p.id, title: 'Induction' },
        role: { id: w.role.id, name: 'Care assistant' },
        allocations: 1,
      },
    ]);
    expect((await liveOf(p.id, w.learner.id))?.role_allocation_id).toBe(res.json().data[0].id);
    expect(await liveOf(p.id, w.colleague.id)).toBeUndefined();
    const again = await c('POST', url, { pathway_id: p.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(M.roleAlreadyAllocated);

    // A user created in the role after the allocation, at a child organisation: the trigger allocates it.
    const newcomer = await buildUser(h.db, { entityId: w.home.id, roleId: w.role.id });
    expect((await liveOf(p.id, newcomer.id))?.status).toBe('in_progress');
    // A user moved into the role.
    await h.db.updateTable('users').set({ role_id: w.role.id }).where('id', '=', w.colleague.id).execute();
    expect((await liveOf(p.id, w.colleague.id))?.status).toBe('in_progress');
    const mine = await (await as(h, newcomer.id))('GET', '/api/pathways/mine');
    expect(mine.json().data[0].via_role).toMatchObject({
      entity: { id: w.group.id },
      role: { id: w.role.id },
    });

    const list = await c('GET', url);
    expect(list.statusCode).toBe(200);
    expect(list.json().data[0].allocations).toBe(3);
    const view = await c('GET', `/api/pathways/${p.id}`);
    expect(view.json().data.role_allocations).toMatchObject([{ role: { id: w.role.id } }]);

    const removed = await c('DELETE', `${url}/${p.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().message).toBe(M.roleUnallocated);
    expect(await liveOf(p.id, w.learner.id)).toBeUndefined();
    expect((await c('DELETE', `${url}/${p.id}`)).statusCode).toBe(404);
    const later = await buildUser(h.db, { entityId: w.home.id, roleId: w.role.id });
    expect(await liveOf(p.id, later.id)).toBeUndefined();
  });

  it('401, 422, 403, 404 for another organisation', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    const url = `/api/entities/${w.group.slug}/roles/${w.role.id}/pathways`;
    expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'POST', url, payload: { pathway_id: p.id } })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'DELETE', url: `${url}/${p.id}` })).statusCode).toBe(401);
    const c = await as(h, w.manager.id);
    expect((await c('POST', url, {})).statusCode).toBe(422);
    const theirs = await theirPathway(w);
    const foreign = await c('POST', url, { pathway_id: theirs });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.pathway_id).toEqual(['Choose a pathway.']);
    expect((await (await as(h, w.viewer.id))('POST', url, { pathway_id: p.id })).statusCode).toBe(403);
    expect((await (await as(h, w.viewer.id))('DELETE', `${url}/${p.id}`)).statusCode).toBe(403);
    const out = await as(h, w.outsider.id);
    expect((await out('GET', url)).statusCode).toBe(404);
    expect((await out('POST', url, { pathway_id: theirs })).statusCode).toBe(404);
    expect((await out('DELETE', `${url}/${p.id}`)).statusCode).toBe(404);
    // A role of another organisation under our slug: 404.
    const otherRole = await buildRole(h.db, (await buildEntity(h.db)).id);
    expect((await c('GET', `/api/entities/${w.group.slug}/roles/${otherRole.id}/pathways`)).statusCode).toBe(
      404,
    );
  });
});

async function theirPathway(w: PathwayWorld) {
  const res = await (await as(h, w.outsider.id))('POST', '/api/pathways', {
    title: 'Theirs',
    steps: [{ type: 'sign_off', title: 'Seen' }],
  });
  return res.json().data.id as number;
}

/** Changes step 0 (its due days) and answers `choice` for it; returns the allocation after. */
async function changeFirstStep(w: PathwayWorld, choice: 'keep_credit' | 'redo' | 'stay') {
  const p = await createPathway(h, w, { sequential: false });
  const [uuid] = await allocate(h, w, p.id, [w.learner.id]);
  await pass(h, w.learner.id, w.home.id, w.courseA.id, new Date(Date.now() - 60_000));
  const steps = [
    { key: p.steps[0]?.key, type: 'course', course_id: w.courseA.id, due_days: 30 },
    { key: p.steps[1]?.key, type: 'course', course_id: w.courseB.id },
    { key: p.steps[2]?.key, type: 'sign_off', title: 'Safe moving observed' },
  ];
  const res = await (await as(h, w.manager.id))('PATCH', `/api/pathways/${p.id}`, {
    steps,
    choices: [{ step_key: p.steps[0]?.key, choice }],
  });
  expect(res.statusCode).toBe(200);
  expect(res.json().data.version).toBe(2);
  const view = (await (await as(h, w.learner.id))('GET', `/api/pathway-allocations/${uuid}`)).json().data;
  return { p, view, uuid: uuid as string };
}

describe('versions: the editor’s choice for people in progress', () => {
  it('keep_credit: they move to the new version with the step still done', async () => {
    const w = await pathwayWorld(h);
    const { view } = await changeFirstStep(w, 'keep_credit');
    expect(view).toMatchObject({ version: 2, current_version: 2 });
    expect(view.steps[0]).toMatchObject({ status: 'done', due_days: 30 });
  });

  it('redo: they move and the step must be done again (evidence from the change on)', async () => {
    const w = await pathwayWorld(h);
    const { view, uuid } = await changeFirstStep(w, 'redo');
    expect(view.version).toBe(2);
    expect(view.steps[0].status).toBe('to_do');
    // Unchanged steps keep their credit.
    await pass(h, w.learner.id, w.home.id, w.courseB.id, new Date(Date.now() - 120_000));
    const again = (await (await as(h, w.learner.id))('GET', `/api/pathway-allocations/${uuid}`)).json().data;
    expect(again.steps[1].status).toBe('done');
    await pass(h, w.learner.id, w.home.id, w.courseA.id);
    const after = (await (await as(h, w.learner.id))('GET', `/api/pathway-allocations/${uuid}`)).json().data;
    expect(after.steps[0].status).toBe('done');
  });

  it('stay: people in progress keep their version; new allocations get the new one', async () => {
    const w = await pathwayWorld(h);
    const { p, view } = await changeFirstStep(w, 'stay');
    expect(view).toMatchObject({ version: 1, current_version: 2 });
    expect(view.steps[0]).toMatchObject({ status: 'done', due_days: 7 });
    const [fresh] = await allocate(h, w, p.id, [w.colleague.id]);
    const theirs = (await (await as(h, w.manager.id))('GET', `/api/pathway-allocations/${fresh}`)).json()
      .data;
    expect(theirs.version).toBe(2);
    const v = (await (await as(h, w.manager.id))('GET', `/api/pathways/${p.id}`)).json().data.versions;
    expect(v).toMatchObject([
      {
        number: 2,
        changes: [{ step_key: p.steps[0]?.key, change: 'changed', choice: 'stay' }],
        in_progress: 1,
      },
      { number: 1, in_progress: 1 },
    ]);
  });

  it('a redo of the last step sends an allocation awaiting its final sign-off back to in progress', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w, { sequential: false, requires_final_sign_off: true });
    const [uuid] = await allocate(h, w, p.id, [w.learner.id]);
    await pass(h, w.learner.id, w.home.id, w.courseA.id);
    await pass(h, w.learner.id, w.home.id, w.courseB.id);
    await (await as(h, w.signer.id))(
      'POST',
      `/api/pathway-allocations/${uuid}/steps/${p.steps[2]?.key}/sign-off`,
      {
        note: 'Seen',
        signed_on: today(),
      },
    );
    expect((await liveOf(p.id, w.learner.id))?.status).toBe('awaiting_sign_off');
    const res = await (await as(h, w.manager.id))('PATCH', `/api/pathways/${p.id}`, {
      steps: [
        { key: p.steps[0]?.key, type: 'course', course_id: w.courseA.id, due_days: 7 },
        { key: p.steps[1]?.key, type: 'course', course_id: w.courseB.id },
        { key: p.steps[2]?.key, type: 'sign_off', title: 'Safe moving observed again' },
      ],
      choices: [{ step_key: p.steps[2]?.key, choice: 'redo' }],
    });
    expect(res.statusCode).toBe(200);
    expect((await liveOf(p.id, w.learner.id))?.status).toBe('in_progress');
  });
});
