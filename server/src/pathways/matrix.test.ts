import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { ALL_PATHWAY_PERMS, allocate, as, createPathway, pass, pathwayWorld } from './fixtures';

/** Pathways in the matrix response (pathway_allocations) and report presets limited to pathways. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

async function reporter(entityId: number) {
  const user = await buildUser(h.db, { entityId, permissions: [...ALL_PATHWAY_PERMS, 12, 14, 15, 117] });
  return as(h, user.id);
}

describe('the matrix and pathways', () => {
  it('carries the users’ pathway allocations; a pathway filter limits columns and people', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w, { sequential: false });
    await allocate(h, w, p.id, [w.learner.id]);
    await pass(h, w.learner.id, w.home.id, w.courseA.id);
    const c = await reporter(w.group.id);
    const all = await c('POST', '/api/reports/matrix', { directFormat: 'json', compliance_type: 'all' });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json().data.pathway_allocations).toEqual([
      {
        user_id: w.learner.id,
        pathway_id: p.id,
        course_id: p.course_id,
        title: 'Induction',
        status: 'in_progress',
        steps_done: 1,
        steps_total: 3,
        completed_at: null,
      },
    ]);
    expect(all.json().data.users.map((u: { id: number }) => u.id)).toContain(w.colleague.id);

    const limited = await c('POST', '/api/reports/matrix', {
      directFormat: 'json',
      compliance_type: 'all',
      pathways: [p.id],
    });
    expect(limited.statusCode, limited.body).toBe(200);
    const data = limited.json().data;
    expect(data.users.map((u: { id: number }) => u.id)).toEqual([w.learner.id]);
    const courses = new Set(data.cells.map((cell: { course_id: number }) => cell.course_id));
    expect([...courses].every((id) => [w.courseA.id, w.courseB.id, p.course_id].includes(id as number))).toBe(
      true,
    );
    expect(courses.has(w.courseA.id)).toBe(true);

    // A pathway of another organisation: 404, as if it did not exist.
    const theirs = await (await as(h, w.outsider.id))('POST', '/api/pathways', {
      title: 'Theirs',
      steps: [{ type: 'sign_off', title: 'Seen' }],
    });
    const foreign = await c('POST', '/api/reports/matrix', {
      directFormat: 'json',
      pathways: [theirs.json().data.id],
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('report presets accept pathways in scope, 422 for others, and offer them as options', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w, { title: 'Preset pathway' });
    const c = await reporter(w.group.id);
    const saved = await c('POST', '/api/reports/presets', {
      name: 'By pathway',
      report_type: 'matrix',
      pathways: [p.id],
    });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json().data.pathways).toEqual([p.id]);
    const options = await c('GET', '/api/reports/presets/options/pathways?search=Preset');
    expect(options.json().data).toEqual([{ id: p.id, label: 'Preset pathway' }]);
    const outsider = await reporter(w.other.id);
    const refused = await outsider('POST', '/api/reports/presets', {
      name: 'Theirs',
      report_type: 'matrix',
      pathways: [p.id],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toHaveProperty('pathways');
    // A preset run honours its pathways: POST /report with the preset's fields.
    await allocate(h, w, p.id, [w.learner.id]);
    const run = await c('POST', '/api/report', {
      report_type: 'matrix',
      compliance_type: 'all',
      pathways: [p.id],
    });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().data.users.map((u: { id: number }) => u.id)).toEqual([w.learner.id]);
  });
});
