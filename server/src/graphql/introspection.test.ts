/**
 * Issue 11 §9: in production, the description of the API (GraphQL introspection, the OpenAPI page and JSON at
 * /api/docs) is for signed-in callers only. The app is built with NODE_ENV=production here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';

let h: Harness;
let signedIn: Record<string, string>;
beforeAll(async () => {
  h = await createHarness({ env: 'production' });
  signedIn = await bearer(h.db, (await buildUser(h.db)).id);
});
afterAll(async () => h?.close());

const INTROSPECTION = [
  '{ __schema { queryType { name } types { name } } }',
  '{ __type(name: "User") { name fields { name } } }',
  // Hidden in a fragment and next to an innocent field.
  'query { __typename ...Described } fragment Described on Query { __schema { types { name } } }',
];

async function gql(query: string, headers: Record<string, string> = {}, url = '/graphql') {
  const res = await h.app.inject({ method: 'POST', url, headers, payload: { query } });
  return res.json() as {
    data?: Record<string, unknown> | null;
    errors?: { extensions?: { code?: string } }[];
  };
}

describe('GraphQL introspection in production', () => {
  it.each(INTROSPECTION)('is refused to an anonymous caller: %s', async (query) => {
    for (const url of ['/graphql', '/api/graphql']) {
      const body = await gql(query, {}, url);
      expect(body.data ?? null).toBeNull();
      expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['UNAUTHENTICATED']);
    }
  });

  it.each(INTROSPECTION)('answers a signed-in caller: %s', async (query) => {
    const body = await gql(query, signedIn);
    expect(body.errors).toBeUndefined();
    expect(JSON.stringify(body.data)).toMatch(/"name":"(Query|User)"/);
  });

  it('still answers __typename alone to anyone', async () => {
    expect((await gql('{ __typename }')).data).toEqual({ __typename: 'Query' });
  });
});

describe('/api/docs in production', () => {
  it.each(['/api/docs', '/api/docs/json', '/api/docs/yaml', '/api/docs/static/index.html'])(
    'refuses %s to an anonymous caller and answers a signed-in one',
    async (url) => {
      const anonymous = await h.app.inject({ method: 'GET', url });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.body).not.toMatch(/openapi|swagger/i);
      const res = await h.app.inject({ method: 'GET', url, headers: signedIn });
      expect(res.statusCode).toBeLessThan(400);
    },
  );

  it('serves the OpenAPI document to a signed-in caller', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/docs/json', headers: signedIn });
    expect(res.json().openapi).toMatch(/^3\./);
  });
});
