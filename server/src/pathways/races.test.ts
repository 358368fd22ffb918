import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';
import { ALL_PATHWAY_PERMS, allocate, as, createPathway, pass, pathwayWorld, today } from './fixtures';

/** Pathways under concurrency (PostgreSQL only): one live allocation per person, a pathway completes once. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const pathwayResults = (userId: number, courseId: number) =>
  h.db
    .selectFrom('results')
    .select('id')
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .where('type', '=', 'pathway')
    .execute();

describeRaces('pathway races', () => {
  it('8 concurrent allocations of one person: one 201, the rest 409', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    const c = await as(h, w.manager.id);
    const codes = await parallel(8, () =>
      c('POST', `/api/pathways/${p.id}/allocations`, { user_ids: [w.learner.id] }).then((r) => r.statusCode),
    );
    expect(codes.filter((s) => s === 201)).toHaveLength(1);
    expect(codes.filter((s) => s === 409)).toHaveLength(7);
  });

  it('8 signers sign off the last step at once: it completes once, one pathway result', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    const [uuid] = await allocate(h, w, p.id, [w.learner.id]);
    await pass(h, w.learner.id, w.home.id, w.courseA.id);
    await pass(h, w.learner.id, w.home.id, w.courseB.id);
    const signers = await Promise.all(
      Array.from({ length: 8 }, () =>
        buildUser(h.db, { entityId: w.group.id, permissions: ALL_PATHWAY_PERMS }),
      ),
    );
    const clients = await Promise.all(signers.map((s) => as(h, s.id)));
    const codes = await parallel(8, (i) =>
      (clients[i] as (typeof clients)[number])(
        'POST',
        `/api/pathway-allocations/${uuid}/steps/${p.steps[2]?.key}/sign-off`,
        { note: `Signer ${i}`, signed_on: today() },
      ).then((r) => r.statusCode),
    );
    expect(codes.filter((s) => s === 200)).toHaveLength(1);
    expect(codes.filter((s) => s === 409)).toHaveLength(7);
    expect(await pathwayResults(w.learner.id, p.course_id)).toHaveLength(1);
  });

  it('8 final sign-offs at once: one 200, the rest 409, one pathway result', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w, { requires_final_sign_off: true, sequential: false });
    const [uuid] = await allocate(h, w, p.id, [w.learner.id]);
    await pass(h, w.learner.id, w.home.id, w.courseA.id);
    await pass(h, w.learner.id, w.home.id, w.courseB.id);
    const c = await as(h, w.signer.id);
    await c('POST', `/api/pathway-allocations/${uuid}/steps/${p.steps[2]?.key}/sign-off`, {
      note: 'Seen',
      signed_on: today(),
    });
    const codes = await parallel(8, () =>
      c('POST', `/api/pathway-allocations/${uuid}/sign-off`, { note: 'All done' }).then((r) => r.statusCode),
    );
    expect(codes.filter((s) => s === 200)).toHaveLength(1);
    expect(codes.filter((s) => s === 409)).toHaveLength(7);
    expect(await pathwayResults(w.learner.id, p.course_id)).toHaveLength(1);
  });

  it('a result recorded while the last step is signed off: completes once', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w, { sequential: false });
    const [uuid] = await allocate(h, w, p.id, [w.learner.id]);
    await pass(h, w.learner.id, w.home.id, w.courseA.id);
    const c = await as(h, w.signer.id);
    await Promise.all([
      pass(h, w.learner.id, w.home.id, w.courseB.id),
      c('POST', `/api/pathway-allocations/${uuid}/steps/${p.steps[2]?.key}/sign-off`, {
        note: 'Seen',
        signed_on: today(),
      }),
    ]);
    const a = await h.db
      .selectFrom('pathway_allocations')
      .select('status')
      .where('uuid', '=', uuid as string)
      .executeTakeFirstOrThrow();
    expect(a.status).toBe('completed');
    expect(await pathwayResults(w.learner.id, p.course_id)).toHaveLength(1);
  });

  it('allocating to a role while a member moves into it: each person once', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w);
    const c = await as(h, w.manager.id);
    await Promise.all([
      c('POST', `/api/entities/${w.group.slug}/roles/${w.role.id}/pathways`, { pathway_id: p.id }),
      h.db.updateTable('users').set({ role_id: w.role.id }).where('id', '=', w.colleague.id).execute(),
    ]);
    const rows = await h.db
      .selectFrom('pathway_allocations')
      .select('user_id')
      .where('pathway_id', '=', p.id)
      .orderBy('user_id')
      .execute();
    expect(rows.map((r) => r.user_id)).toEqual([w.learner.id, w.colleague.id].sort((a, b) => a - b));
  });
});
