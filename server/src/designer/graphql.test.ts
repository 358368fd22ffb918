import { DesignerMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHOR_PERMISSIONS } from '../../test/content-clients';
import { bearer, buildEntity, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { samplePages } from './design-fixtures';

/** The designer over GraphQL: the same services, rules and answers as REST. */
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
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  };
}

const SAVE =
  'mutation ($input: SaveDesignInput!) { saveDesign(input: $input) { id title revision state page_count pages } }';
const PUBLISH =
  'mutation ($id: ID!, $input: PublishDesignInput) { publishDesign(id: $id, input: $input) { state content { id course_id } } }';

describe('GraphQL designs', () => {
  it('saves (create and guarded update), lists, reads and publishes; refuses like REST', async () => {
    const org = await buildEntity(h.db, { level: 'A' });
    const author = await buildUser(h.db, { entityId: org.id, permissions: AUTHOR_PERMISSIONS });
    const learner = await buildUser(h.db, { entityId: org.id, permissions: [] });
    const outsider = await buildUser(h.db, { permissions: AUTHOR_PERMISSIONS });

    expect((await gql(null, '{ designs { data { id } } }')).errors?.length).toBeGreaterThan(0);
    const bad = await gql(author.id, SAVE, { input: { title: '' } });
    expect(bad.errors?.[0]?.extensions).toMatchObject({ status: 422 });
    const refused = await gql(learner.id, SAVE, { input: { title: 'No' } });
    expect(refused.errors?.[0]?.extensions).toMatchObject({ status: 403 });

    const created = await gql(author.id, SAVE, { input: { title: 'Fire safety', pages: samplePages() } });
    expect(created.errors).toBeUndefined();
    const design = created.data?.saveDesign;
    expect(design).toMatchObject({ title: 'Fire safety', revision: 1, state: 'draft', page_count: 2 });

    const updated = await gql(author.id, SAVE, {
      input: { id: design.id, revision: 1, title: 'Fire safety at home' },
    });
    expect(updated.data?.saveDesign).toMatchObject({
      title: 'Fire safety at home',
      revision: 2,
      page_count: 2,
    });
    const stale = await gql(author.id, SAVE, { input: { id: design.id, revision: 1, title: 'Lost' } });
    expect(stale.errors?.[0]).toMatchObject({ message: M.staleRevision, extensions: { status: 409 } });
    const noRevision = await gql(author.id, SAVE, { input: { id: design.id, title: 'No revision' } });
    expect(noRevision.errors?.[0]?.extensions).toMatchObject({ status: 422 });

    const list = await gql(author.id, '{ designs(first: 5) { data { id title } paginatorInfo { total } } }');
    expect(list.data?.designs.data).toEqual([{ id: design.id, title: 'Fire safety at home' }]);
    expect((await gql(outsider.id, '{ designs { data { id } } }')).data?.designs.data).toEqual([]);
    const foreign = await gql(outsider.id, 'query ($id: ID!) { design(id: $id) { id } }', { id: design.id });
    expect(foreign.errors?.[0]?.extensions).toMatchObject({ status: 404 });

    const published = await gql(author.id, PUBLISH, { id: design.id, input: { new_course_title: 'Fire' } });
    expect(published.errors).toBeUndefined();
    expect(published.data?.publishDesign).toMatchObject({
      state: 'published',
      content: { id: expect.any(String) },
    });
    const again = await gql(outsider.id, PUBLISH, { id: design.id, input: {} });
    expect(again.errors?.[0]?.extensions).toMatchObject({ status: 404 });
  });
});
