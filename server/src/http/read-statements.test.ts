import { Perm } from '@cc/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, buildEntity, buildUser, TEST_PASSWORD } from '../../test/factories';
import { createHarness, type Harness, webLogin } from '../../test/harness';

/**
 * Issue 36 §2: what an UNCACHED authenticated read costs in statements (the tests run with ACTOR_CACHE_MS 0, so every
 * request resolves its caller and answers afresh). At 200 clients the API-read p95 was the queue of such reads for
 * the pool's connections: resolving the caller took four statements in a row (credential, user and entity,
 * permissions, level A organisation) and a list page two (the page and its count). These pin the counts, so a
 * statement added to every read shows here.
 *
 * A manager at a site (level B) of an organisation: the level A organisation is not their own entity, so resolving
 * them climbs the tree.
 */
/** Permission 12 (the matrix report): the organisation list then carries each entity's score. */
const MATRIX_REPORT = 12;
const MANAGER_PERMISSIONS = [Perm.searchUsers, Perm.searchEntities, MATRIX_REPORT];

let h: Harness;
let managerId: number;
let headers: Record<string, string>;

beforeAll(async () => {
  h = await createHarness();
  const org = await buildEntity(h.db, { level: 'A' });
  const site = await buildEntity(h.db, { level: 'B', parentId: org.id });
  const manager = await buildUser(h.db, {
    entityId: site.id,
    permissions: MANAGER_PERMISSIONS,
  });
  managerId = manager.id;
  for (let i = 0; i < 3; i++) await buildUser(h.db, { entityId: site.id });
  headers = await bearer(h.db, managerId);
  // The token's first use records it (at most once a minute, auth/queries.ts touchAccessToken): the reads below
  // are a device's everyday ones.
  expect((await get('/api/auth/permissions')).statusCode).toBe(200);
});
afterAll(async () => h?.close());

function get(
  url: string,
  options: { headers?: Record<string, string>; cookies?: Record<string, string> } = {},
) {
  return h.app.inject({ method: 'GET', url, headers: options.headers ?? headers, cookies: options.cookies });
}

/** The statements a request sends to the database, and its answer. */
async function statementsOf(send: () => Promise<LightMyRequestResponse>) {
  const spy = vi.spyOn(h.db.getExecutor(), 'executeQuery');
  try {
    const res = await send();
    expect(res.statusCode, res.body).toBe(200);
    return { count: spy.mock.calls.length, res };
  } finally {
    spy.mockRestore();
  }
}

describe('an uncached authenticated read (issue 36 §2)', () => {
  it('resolves a bearer caller in one statement: token, user, entity, permissions and organisation', async () => {
    const { count, res } = await statementsOf(() => get('/api/auth/permissions'));
    expect(res.json().data.map((p: { id: number }) => p.id)).toEqual(
      [...MANAGER_PERMISSIONS].sort((a, b) => a - b),
    );
    expect(count).toBe(1);
  });

  it('resolves a session caller in one statement', async () => {
    const user = await h.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', managerId)
      .executeTakeFirstOrThrow();
    const web = await webLogin(h.app, user.email, TEST_PASSWORD);
    expect(web.login.statusCode, web.login.body).toBe(200);
    const { count } = await statementsOf(() =>
      get('/api/auth/permissions', { headers: {}, cookies: web.cookies() }),
    );
    expect(count).toBe(1);
  });

  it('answers the Auth user in two: the caller, then its own fields and organisation', async () => {
    const { count, res } = await statementsOf(() => get('/api/auth/user'));
    expect(res.json().data).toMatchObject({ id: managerId, a_entity: { id: expect.any(Number) } });
    expect(count).toBe(2);
  });

  it('reads a list page and its total in one statement (caller, scope, page)', async () => {
    const { count, res } = await statementsOf(() => get('/api/users?page=1&per_page=2'));
    expect(res.json().data).toHaveLength(2);
    expect(res.json().meta).toMatchObject({ total: 4, last_page: 2 });
    expect(count).toBe(3);
  });

  it('reads the organisation list in six: caller, scope, page with its total, then courses, scores and children', async () => {
    const { count, res } = await statementsOf(() => get('/api/entities?page=1'));
    expect(res.json().meta.total).toBe(1);
    expect(count).toBe(6);
  });
});

describe('a page of a list (db/paged.ts)', () => {
  it('past the end still reports the whole list', async () => {
    const res = await get('/api/users?page=9&per_page=2');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
    expect(res.json().meta).toMatchObject({ total: 4, current_page: 9, last_page: 2 });
  });

  it('of an empty list reports none', async () => {
    const res = await get('/api/users?page=1&search=nobody-is-called-this');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
    expect(res.json().meta).toMatchObject({ total: 0, last_page: 1 });
  });

  it('holds the same rows and total on every page', async () => {
    const pages = await Promise.all([1, 2].map((p) => get(`/api/users?page=${p}&per_page=3`)));
    const ids = pages.flatMap((p) => p.json().data.map((u: { id: number }) => u.id));
    expect(new Set(ids).size).toBe(4);
    for (const p of pages) expect(p.json().meta.total).toBe(4);
    expect(pages[1]?.json().data[0]).not.toHaveProperty('page_total__');
  });
});
