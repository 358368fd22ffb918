import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent, buildPassedResult } from '../../test/learning-factories';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

async function gql(query: string, variables: Record<string, unknown>, headers: Record<string, string>) {
  const res = await h.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
  return res.json() as {
    // biome-ignore lint/suspicious/noExplicitAny: the tests read response shapes they assert on
    data?: Record<string, any> | null;
    errors?: Array<{ message: string; extensions?: { code?: string } }>;
  };
}

describe('GraphQL courses, contents, results, attempts (spec 2 §7)', () => {
  it('lists courses and contents for the content creator (63) with paginatorInfo, 403 without', async () => {
    const org = await buildEntity(h.db);
    const author = await buildUser(h.db, { entityId: org.id, permissions: [63] });
    const content = await buildContent(h.db, org.id, {
      title: 'Fire safety e-learning',
      courseTitle: 'Fire safety',
    });
    const q = `query($first: Int) {
      courses(first: $first) { data { id title } paginatorInfo { total lastPage } }
      contents(first: $first) { data { id title course_id type } paginatorInfo { total } }
    }`;
    const body = await gql(q, { first: 5 }, await bearer(h.db, author.id));
    expect(body.errors).toBeUndefined();
    expect(body.data?.courses.data.map((c: { title: string }) => c.title)).toContain('Fire safety');
    expect(body.data?.contents.data).toContainEqual(
      expect.objectContaining({ id: String(content.id), title: 'Fire safety e-learning', type: 'elearning' }),
    );
    const learner = await buildUser(h.db, { entityId: org.id });
    const denied = await gql(q, { first: 5 }, await bearer(h.db, learner.id));
    expect(denied.errors?.[0].extensions?.code).toBe('FORBIDDEN');
  });

  it("another organisation's course is NOT_FOUND, like a missing one", async () => {
    const mine = await buildEntity(h.db);
    const theirs = await buildEntity(h.db);
    const author = await buildUser(h.db, { entityId: mine.id, permissions: [63] });
    const content = await buildContent(h.db, theirs.id);
    const body = await gql(
      'query($id: ID!) { course(id: $id) { id } }',
      { id: content.course_id },
      await bearer(h.db, author.id),
    );
    expect(body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('a learner starts an attempt and reads their own results', async () => {
    const org = await buildEntity(h.db);
    const learner = await buildUser(h.db, { entityId: org.id });
    const content = await buildContent(h.db, org.id);
    const headers = await bearer(h.db, learner.id);
    const started = await gql(
      'mutation($user: String!, $content: Int!) { createAttempt(user: $user, content_id: $content) { id status content_id } }',
      { user: String(learner.id), content: content.id },
      headers,
    );
    expect(started.errors).toBeUndefined();
    expect(started.data?.createAttempt).toMatchObject({ status: 'in_progress', content_id: content.id });
    await buildPassedResult(h.db, { userId: learner.id, entityId: org.id, courseId: content.course_id });
    const results = await gql(
      'query($user: String!) { results(user: $user) { data { course_id passed type } paginatorInfo { total } } }',
      { user: String(learner.id) },
      headers,
    );
    expect(results.data?.results.paginatorInfo.total).toBe(1);
    expect(results.data?.results.data[0]).toMatchObject({ course_id: content.course_id, passed: true });
  });

  it('rejects a bad pending type with Invalid input', async () => {
    const user = await buildUser(h.db, { permissions: [24] });
    const body = await gql(
      '{ pendingResults(type: "nope") { data { id } } }',
      {},
      await bearer(h.db, user.id),
    );
    expect(body.errors?.[0].message).toBe('Invalid input');
  });
});
