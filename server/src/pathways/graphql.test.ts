import { PathwayMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { allocate, createPathway, pass, pathwayWorld, today } from './fixtures';

/** Pathways over GraphQL: the same services, rules and answers as REST (401, 422, 403, 404, happy paths). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

async function gql(userId: number | null, query: string, variables: Record<string, unknown> = {}) {
  const headers = userId === null ? {} : await bearer(h.db, userId);
  const res = await h.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
  return res.json() as {
    // biome-ignore lint/suspicious/noExplicitAny: GraphQL answers are read by the query each test sends.
    data?: Record<string, any> | null;
    errors?: { message: string; extensions?: { status?: number; validation?: Record<string, string[]> } }[];
  };
}
const statusOf = (r: Awaited<ReturnType<typeof gql>>) => r.errors?.[0]?.extensions?.status;

const UPSERT =
  'mutation ($input: PathwayInput!) { upsertPathway(input: $input) { id version title steps { key title } } }';

describe('GraphQL pathways', () => {
  it('upserts (create, then PATCH semantics), lists and reads; refuses like REST', async () => {
    const w = await pathwayWorld(h);
    const created = await gql(w.manager.id, UPSERT, {
      input: {
        title: 'GraphQL induction',
        sequential: true,
        steps: [
          { type: 'course', course_id: w.courseA.id },
          { type: 'sign_off', title: 'Observed' },
        ],
      },
    });
    expect(created.errors).toBeUndefined();
    const p = created.data?.upsertPathway;
    expect(p).toMatchObject({ version: 1, title: 'GraphQL induction' });
    const renamed = await gql(w.manager.id, UPSERT, { input: { id: p.id, title: 'Renamed' } });
    expect(renamed.data?.upsertPathway).toMatchObject({ title: 'Renamed', steps: p.steps });

    const list = await gql(
      w.viewer.id,
      '{ pathways(first: 5, search: "Renamed") { data { id title step_count counts { in_progress } } paginatorInfo { total } } }',
    );
    expect(list.data?.pathways).toEqual({
      data: [{ id: p.id, title: 'Renamed', step_count: 2, counts: { in_progress: 0 } }],
      paginatorInfo: { total: 1 },
    });
    const one = await gql(
      w.viewer.id,
      'query ($id: ID!) { pathway(id: $id) { id versions { number } can { edit } } }',
      {
        id: p.id,
      },
    );
    expect(one.data?.pathway).toEqual({ id: p.id, versions: [{ number: 1 }], can: { edit: false } });

    const bad = await gql(w.manager.id, UPSERT, { input: { title: '', steps: [] } });
    expect(statusOf(bad)).toBe(422);
    expect(bad.errors?.[0]?.extensions?.validation).toHaveProperty('title');
    expect(statusOf(await gql(w.viewer.id, UPSERT, { input: { id: p.id, title: 'No' } }))).toBe(403);
    expect(statusOf(await gql(w.outsider.id, UPSERT, { input: { id: p.id, title: 'No' } }))).toBe(404);
    expect(
      statusOf(await gql(w.outsider.id, 'query ($id: ID!) { pathway(id: $id) { id } }', { id: p.id })),
    ).toBe(404);
    expect(statusOf(await gql(null, '{ pathways { data { id } } }'))).toBe(401);
    expect(statusOf(await gql(null, UPSERT, { input: { title: 'x' } }))).toBe(401);
  });

  it('allocates, lists allocations, signs off and completes; withdraws; role allocation', async () => {
    const w = await pathwayWorld(h);
    const p = await createPathway(h, w, { requires_final_sign_off: true, sequential: false });
    const alloc = await gql(
      w.manager.id,
      'mutation ($p: ID!, $u: [Int!]!) { allocatePathway(pathwayId: $p, user_ids: $u) { uuid status steps { status } } }',
      { p: p.id, u: [w.learner.id] },
    );
    expect(alloc.errors).toBeUndefined();
    const uuid = alloc.data?.allocatePathway[0].uuid;
    expect(alloc.data?.allocatePathway[0].steps).toEqual([
      { status: 'to_do' },
      { status: 'to_do' },
      { status: 'to_do' },
    ]);
    const again = await gql(
      w.manager.id,
      'mutation ($p: ID!, $u: [Int!]!) { allocatePathway(pathwayId: $p, user_ids: $u) { uuid } }',
      {
        p: p.id,
        u: [w.learner.id],
      },
    );
    expect(statusOf(again)).toBe(409);
    expect(again.errors?.[0]?.message).toBe(M.alreadyAllocated);
    const empty = await gql(
      w.manager.id,
      'mutation ($p: ID!) { allocatePathway(pathwayId: $p, user_ids: []) { uuid } }',
      {
        p: p.id,
      },
    );
    expect(statusOf(empty)).toBe(422);

    const page = await gql(
      w.signer.id,
      'query ($p: ID!) { pathwayAllocations(pathwayId: $p, status: "in_progress") { data { uuid user { name } } paginatorInfo { total } } }',
      { p: p.id },
    );
    expect(page.data?.pathwayAllocations).toEqual({
      data: [{ uuid, user: { name: 'Lee Learner' } }],
      paginatorInfo: { total: 1 },
    });
    expect(
      statusOf(
        await gql(w.viewer.id, 'query ($p: ID!) { pathwayAllocations(pathwayId: $p) { data { uuid } } }', {
          p: p.id,
        }),
      ),
    ).toBe(403);
    const mine = await gql(w.learner.id, '{ myPathways { uuid pathway { title } } }');
    expect(mine.data?.myPathways).toEqual([{ uuid, pathway: { title: 'Induction' } }]);

    await pass(h, w.learner.id, w.home.id, w.courseA.id);
    await pass(h, w.learner.id, w.home.id, w.courseB.id);
    const SIGN =
      'mutation ($u: String!, $k: String!, $n: String!, $d: String!) { signOffPathwayStep(uuid: $u, key: $k, note: $n, signed_on: $d) { status } }';
    const vars = { u: uuid, k: p.steps[2]?.key, n: 'Seen', d: today() };
    expect(statusOf(await gql(w.viewer.id, SIGN, vars))).toBe(403);
    expect(statusOf(await gql(w.outsider.id, SIGN, vars))).toBe(404);
    expect(statusOf(await gql(w.signer.id, SIGN, { ...vars, d: 'soon' }))).toBe(422);
    const signed = await gql(w.signer.id, SIGN, vars);
    expect(signed.data?.signOffPathwayStep).toEqual({ status: 'awaiting_sign_off' });
    const FINAL =
      'mutation ($u: String!, $n: String!) { signOffPathwayAllocation(uuid: $u, note: $n) { status result_id signed_off { note } } }';
    expect(statusOf(await gql(w.signer.id, FINAL, { u: uuid, n: '' }))).toBe(422);
    const final = await gql(w.signer.id, FINAL, { u: uuid, n: 'Well done' });
    expect(final.data?.signOffPathwayAllocation).toMatchObject({
      status: 'completed',
      signed_off: { note: 'Well done' },
    });
    const read = await gql(w.learner.id, 'query ($u: String!) { pathwayAllocation(uuid: $u) { status } }', {
      u: uuid,
    });
    expect(read.data?.pathwayAllocation).toEqual({ status: 'completed' });
    expect(
      statusOf(
        await gql(w.outsider.id, 'query ($u: String!) { pathwayAllocation(uuid: $u) { status } }', {
          u: uuid,
        }),
      ),
    ).toBe(404);

    const [second] = await allocate(h, w, p.id, [w.colleague.id]);
    const WITHDRAW = 'mutation ($u: String!) { withdrawPathwayAllocation(uuid: $u) }';
    expect(statusOf(await gql(w.signer.id, WITHDRAW, { u: second }))).toBe(403);
    expect((await gql(w.manager.id, WITHDRAW, { u: second })).data?.withdrawPathwayAllocation).toBe(true);
    expect(statusOf(await gql(w.manager.id, WITHDRAW, { u: second }))).toBe(409);

    const ROLE =
      'mutation ($s: String!, $r: ID!, $p: ID!) { allocatePathwayToRole(slug: $s, roleId: $r, pathwayId: $p) { pathway { id } allocations } }';
    const role = await gql(w.manager.id, ROLE, { s: w.group.slug, r: w.role.id, p: p.id });
    expect(role.errors).toBeUndefined();
    // The learner in the role completed it already: a role does not allocate it again.
    expect(role.data?.allocatePathwayToRole).toEqual([{ pathway: { id: String(p.id) }, allocations: 0 }]);
    expect(statusOf(await gql(w.viewer.id, ROLE, { s: w.group.slug, r: w.role.id, p: p.id }))).toBe(403);
    expect(statusOf(await gql(w.outsider.id, ROLE, { s: w.group.slug, r: w.role.id, p: p.id }))).toBe(404);
  });
});
