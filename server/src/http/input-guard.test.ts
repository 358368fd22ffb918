import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildRole, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { findInputProblem, MAX_INPUT_DEPTH } from './input-guard';

/**
 * NUL characters and over-deep input (issue 10 §5): PostgreSQL refuses U+0000 in text, which answered 500 on every
 * list's ?search=%00 and on any JSON string carrying "\u0000"; a 100-deep user_preferences overflowed the stack.
 * Each is a 422 in the envelope, with the field named, before any query runs. The list cases are generated from the
 * OpenAPI document: every GET operation with a `search` query parameter.
 */
let h: Harness;
let headers: Record<string, string>;
let org: Awaited<ReturnType<typeof buildEntity>>;
let role: { id: number };
let learner: Awaited<ReturnType<typeof buildUser>>;

beforeAll(async () => {
  h = await createHarness();
  org = await buildEntity(h.db, { level: 'A' });
  role = await buildRole(h.db, org.id);
  learner = await buildUser(h.db, { entityId: org.id, roleId: role.id });
  // A super admin passes every permission check, so without the guard each request reaches its SQL.
  headers = await bearer(h.db, (await buildUser(h.db, { entityId: org.id, superAdmin: true })).id);
});
afterAll(async () => h?.close());

interface OpenApi {
  paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
}

/** Real values for path parameters, so a request that got past the guard would run its list query. */
function fill(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (name === 'slug' || name === 'entity') return org.slug;
    if (name === 'roleId') return String(role.id);
    if (name === 'kind') return 'users';
    if (name === 'type') return 'historical';
    if (path.startsWith('/api/users/')) return String(learner.id);
    if (path.startsWith('/api/entities/')) return String(org.id);
    return '1';
  });
}

function searchableLists(): string[] {
  const doc = (h.app as unknown as { swagger: () => OpenApi }).swagger();
  return Object.entries(doc.paths)
    .filter(([, ops]) => ops.get?.parameters?.some((p) => p.in === 'query' && p.name === 'search'))
    .map(([path]) => path);
}

const nested = (depth: number): Record<string, unknown> => {
  let value: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < depth; i++) value = { level: value };
  return value;
};

const NUL_SEARCH = 'The search field may not contain a NUL character.';

describe('every GET list of the OpenAPI document refuses ?search=%00 with 422', () => {
  it('finds the lists (the document is the source of the cases)', () => {
    expect(searchableLists().length).toBeGreaterThanOrEqual(33);
  });

  it('answers 422 with the field named on each of them', async () => {
    const failures: string[] = [];
    for (const path of searchableLists()) {
      const res = await h.app.inject({ method: 'GET', url: `${fill(path)}?search=a%00b`, headers });
      const body = res.json();
      if (res.statusCode !== 422 || body.message !== NUL_SEARCH || body.errors?.search?.[0] !== NUL_SEARCH)
        failures.push(`${path}: ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
  });

  it('the same lists still answer a normal search', async () => {
    const failures: string[] = [];
    for (const path of searchableLists()) {
      const res = await h.app.inject({ method: 'GET', url: `${fill(path)}?search=care`, headers });
      if (res.statusCode >= 500) failures.push(`${path}: ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('NUL elsewhere in a request', () => {
  it('a JSON body string: 422 on the field, nothing written', async () => {
    const before = await h.db.selectFrom('entities').select(h.db.fn.countAll().as('n')).executeTakeFirst();
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/entities',
      headers,
      payload: { name: 'Oak\u0000House', level: 'A' },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({
      message: 'The name field may not contain a NUL character.',
      errors: { name: ['The name field may not contain a NUL character.'] },
    });
    const after = await h.db.selectFrom('entities').select(h.db.fn.countAll().as('n')).executeTakeFirst();
    expect(after).toEqual(before);
  });

  it('a nested value or key of a JSON body', async () => {
    const url = `/api/users/${learner.id}`;
    const deepValue = await h.app.inject({
      method: 'PATCH',
      url,
      headers,
      payload: { user_preferences: { theme: { name: 'dark\u0000' } } },
    });
    expect(deepValue.statusCode).toBe(422);
    expect(deepValue.json().errors).toEqual({
      'user_preferences.theme.name': ['The name field may not contain a NUL character.'],
    });
    const key = await h.app.inject({
      method: 'PATCH',
      url,
      headers,
      payload: { user_preferences: { 'a\u0000': 1 } },
    });
    expect(key.statusCode).toBe(422);
    expect(Object.keys(key.json().errors)).toEqual(['user_preferences.a\u0000']);
  });

  it('a path parameter, the acting-as query and header', async () => {
    const param = await h.app.inject({ method: 'GET', url: '/api/entities/a%00b', headers });
    expect(param.statusCode).toBe(422);
    expect(param.json().errors.id).toEqual(['The id field may not contain a NUL character.']);
    const query = await h.app.inject({ method: 'GET', url: '/api/users?actingAs=x%00y', headers });
    expect(query.statusCode).toBe(422);
    expect(query.json().errors.actingAs).toBeDefined();
    const header = await h.app.inject({
      method: 'GET',
      url: '/api/users',
      headers: { ...headers, 'x-acting-as': 'x\u0000y' },
    });
    expect(header.statusCode).toBe(422);
  });
});

describe('deeply nested bodies', () => {
  it('a 100-deep user_preferences is a 422 on the field, and the stored preferences are untouched', async () => {
    const stored = async () =>
      (
        await h.db
          .selectFrom('users')
          .select('user_preferences')
          .where('id', '=', learner.id)
          .executeTakeFirst()
      )?.user_preferences;
    const before = await stored();
    const res = await h.app.inject({
      method: 'PATCH',
      url: `/api/users/${learner.id}`,
      headers,
      payload: { user_preferences: nested(100) },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({
      message: `The user preferences field is nested too deeply (at most ${MAX_INPUT_DEPTH} levels).`,
      errors: { user_preferences: [expect.stringContaining('nested too deeply')] },
    });
    expect(await stored()).toEqual(before);
  });

  it('a body of 100,000 levels is refused the same way, not a crash', async () => {
    const payload = `{"user_preferences":${'{"l":'.repeat(100_000)}1${'}'.repeat(100_000)}}`;
    const res = await h.app.inject({
      method: 'PATCH',
      url: `/api/users/${learner.id}`,
      headers: { ...headers, 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['user_preferences']);
  });

  it('ordinary nesting still saves', async () => {
    const res = await h.app.inject({
      method: 'PATCH',
      url: `/api/users/${learner.id}`,
      headers,
      payload: { user_preferences: nested(10) },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('the walker itself is iterative and reports the first problem', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findInputProblem({ a: deep })).toMatchObject({ field: 'a' });
    expect(findInputProblem({ a: [1, { b: 'ok' }], c: Buffer.from([0]) })).toBeNull();
    expect(findInputProblem({ a: ['ok', 'n\u0000'] })).toEqual({
      field: 'a.1',
      message: 'The a field may not contain a NUL character.',
    });
  });
});

describe('GraphQL', () => {
  const gql = (query: string, variables?: Record<string, unknown>) =>
    h.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });

  it('a NUL in a variable is the one "Invalid input" error with the field', async () => {
    const res = await gql('query($s: String) { users(search: $s) { data { id } } }', { s: 'a\u0000' });
    expect(res.json().errors).toEqual([
      expect.objectContaining({
        message: 'Invalid input',
        extensions: expect.objectContaining({
          code: 'BAD_USER_INPUT',
          validation: { s: ['The s field may not contain a NUL character.'] },
        }),
      }),
    ]);
    expect(res.json().data ?? null).toBeNull();
  });

  it('a NUL in a string literal of the document', async () => {
    const res = await gql('{ users(search: "a\\u0000b") { data { id } } }');
    expect(res.json().errors?.[0]).toMatchObject({
      message: 'Invalid input',
      extensions: { validation: { search: ['The search field may not contain a NUL character.'] } },
    });
  });

  it('over-deep variables (user_preferences through upsertUser)', async () => {
    const res = await gql('mutation($input: UserInput!) { upsertUser(input: $input) { id } }', {
      input: { id: String(learner.id), user_preferences: nested(100) },
    });
    expect(res.json().errors?.[0]).toMatchObject({
      message: 'Invalid input',
      extensions: {
        validation: { 'input.user_preferences': [expect.stringContaining('nested too deeply')] },
      },
    });
  });

  it('ordinary variables still run', async () => {
    const res = await gql('query($s: String) { users(search: $s) { data { id } } }', { s: 'care' });
    expect(res.json().errors).toBeUndefined();
  });
});
