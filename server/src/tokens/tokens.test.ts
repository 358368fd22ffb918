import { createHash } from 'node:crypto';
import { TokenMessages as M, PAT_MAX_LIVE, PAT_PREFIX } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { isWellFormedToken } from './format';

/**
 * Personal access tokens over HTTP (issue 18): 401, 422, 403, 404 for another organisation, the happy path; the
 * token shown once and stored as a hash; abilities ∩ the owner's current permissions at every request; revocation
 * and expiry at once.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const URL = '/api/personal-access-tokens';
const ALL_TOKEN_PERMS = [101, 102, 103];
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

type Headers = Record<string, string>;
const call = (headers: Headers, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  h.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

/** A user of a new organisation (or the one given) signed in with a device token (a first-party login). */
async function person(o: { permissions?: number[]; entityId?: number; superAdmin?: boolean } = {}) {
  const user = await buildUser(h.db, {
    permissions: o.permissions ?? ALL_TOKEN_PERMS,
    ...(o.entityId ? { entityId: o.entityId } : {}),
    ...(o.superAdmin ? { superAdmin: true } : {}),
  });
  return { user, headers: await bearer(h.db, user.id) };
}

async function mint(headers: Headers, abilities: number[], extra: Record<string, unknown> = {}) {
  const res = await call(headers, 'POST', URL, {
    name: 'Rota sync',
    abilities,
    expires_at: day(30),
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  const data = res.json().data as { id: number; plain_text_token: string; token_prefix: string };
  return { ...data, headers: { authorization: `Bearer ${data.plain_text_token}` } };
}

describe('POST /personal-access-tokens', () => {
  it('answers 401 without a caller', async () => {
    const res = await h.app.inject({ method: 'POST', url: URL, payload: { name: 'x', abilities: [21] } });
    expect(res.statusCode).toBe(401);
  });

  it('answers 422 with a message by each field', async () => {
    const { headers } = await person({ permissions: [101, 21] });
    const res = await call(headers, 'POST', URL, { name: ' ', abilities: [] });
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors;
    expect(errors.name).toEqual([M.nameRequired]);
    expect(errors.abilities).toEqual([M.noAbilities]);
    expect(errors.expires_at).toEqual([M.expiryRequired]);
    const long = await call(headers, 'POST', URL, {
      name: 'x'.repeat(101),
      abilities: [21],
      expires_at: day(5),
    });
    expect(long.json().errors.name).toEqual([M.nameTooLong]);
  });

  it('refuses a permission the owner does not hold, and any unknown id', async () => {
    const { headers } = await person({ permissions: [101, 21] });
    for (const abilities of [[21, 3], [999]]) {
      const res = await call(headers, 'POST', URL, { name: 'x', abilities, expires_at: day(5) });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.abilities).toEqual([M.notHeld]);
    }
  });

  it("refuses an expiry of today or earlier, or beyond the level A organisation's maximum (applied to its homes)", async () => {
    const group = await buildEntity(h.db, { level: 'A' });
    const home = await buildEntity(h.db, { level: 'B', parentId: group.id });
    await h.db.updateTable('entities').set({ pat_max_days: 30 }).where('id', '=', group.id).execute();
    await h.db.updateTable('entities').set({ pat_max_days: 3650 }).where('id', '=', home.id).execute();
    const { headers } = await person({ permissions: [101, 21], entityId: home.id });
    const at = (expires_at: string) => call(headers, 'POST', URL, { name: 'x', abilities: [21], expires_at });
    for (const past of [day(0), day(-3)]) {
      const res = await at(past);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.expires_at).toEqual([M.expiryPast]);
    }
    const far = await at(day(31));
    expect(far.statusCode).toBe(422);
    expect(far.json().errors.expires_at).toEqual([M.expiryTooFar(30)]);
    expect((await at(day(30))).statusCode).toBe(201);
    const options = await call(headers, 'GET', `${URL}/options`);
    expect(options.json().data).toMatchObject({ max_days: 30, max_date: day(30), live: 1 });
  });

  it('answers 403 without permission 101, and to a request made with a personal access token', async () => {
    const { headers } = await person({ permissions: [102, 103, 21] });
    const res = await call(headers, 'POST', URL, { name: 'x', abilities: [21], expires_at: day(5) });
    expect(res.statusCode).toBe(403);
    const owner = await person({ permissions: [...ALL_TOKEN_PERMS, 21] });
    const token = await mint(owner.headers, [101, 102, 103, 21]);
    for (const [method, url] of [
      ['POST', URL],
      ['GET', URL],
      ['GET', `${URL}/options`],
      ['DELETE', `${URL}/${token.id}`],
    ] as const) {
      const again = await call(
        token.headers,
        method,
        url,
        method === 'POST' ? { name: 'y', abilities: [21], expires_at: day(90) } : undefined,
      );
      expect(again.statusCode, `${method} ${url}`).toBe(403);
      expect(again.json().message).toBe(M.viaToken);
    }
  });

  it('shows the token once, recognisable by its prefix and checksum, and stores only its SHA-256 hash', async () => {
    const { user, headers } = await person({ permissions: [...ALL_TOKEN_PERMS, 21] });
    const token = await mint(headers, [21]);
    expect(token.plain_text_token.startsWith(PAT_PREFIX)).toBe(true);
    expect(isWellFormedToken(token.plain_text_token)).toBe(true);
    // Another last character breaks the checksum (CI once drew a token ending in the 'x' it put there).
    const other = token.plain_text_token.endsWith('x') ? 'y' : 'x';
    expect(isWellFormedToken(`${token.plain_text_token.slice(0, -1)}${other}`)).toBe(false);
    const row = await h.db
      .selectFrom('personal_access_tokens')
      .selectAll()
      .where('id', '=', token.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'personal', user_id: user.id, token_prefix: token.token_prefix });
    expect(row.token_hash).toBe(createHash('sha256').update(token.plain_text_token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token.plain_text_token.slice(PAT_PREFIX.length + 8));
    const list = await call(headers, 'GET', URL);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(token.plain_text_token);
    expect(list.json().data[0]).toMatchObject({
      id: token.id,
      name: 'Rota sync',
      abilities: [{ id: 21, name: 'search users' }],
      status: 'active',
      can_revoke: true,
      last_used_at: null,
    });
  });

  it(`keeps at most ${PAT_MAX_LIVE} live tokens per user`, async () => {
    const { user, headers } = await person({ permissions: [...ALL_TOKEN_PERMS, 21] });
    await h.db
      .insertInto('personal_access_tokens')
      .values(
        Array.from({ length: PAT_MAX_LIVE }, (_, i) => ({
          user_id: user.id,
          name: `t${i}`,
          token_hash: `hash-${user.id}-${i}`,
          token_prefix: 'ccpat_x',
          kind: 'personal' as const,
          abilities: '["21"]',
          expires_at: new Date(Date.now() + 86_400_000),
        })),
      )
      .execute();
    const res = await call(headers, 'POST', URL, { name: 'one more', abilities: [21], expires_at: day(5) });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(M.tooMany);
  });
});

describe('a request made with a token', () => {
  it('passes where it has the ability, and gets 403 where it lacks it (even though its owner holds it)', async () => {
    const { headers } = await person({ permissions: [...ALL_TOKEN_PERMS, 21, 49] });
    const token = await mint(headers, [21]);
    expect((await call(token.headers, 'GET', '/api/users')).statusCode).toBe(200);
    expect((await call(token.headers, 'GET', '/api/roles/stats')).statusCode).toBe(403);
    expect((await call(headers, 'GET', '/api/roles/stats')).statusCode).toBe(200);
    const perms = await call(token.headers, 'GET', '/api/auth/permissions');
    expect(perms.json().data.map((p: { id: number }) => p.id)).toEqual([21]);
  });

  it('loses a permission its owner loses, at the next request', async () => {
    const { user, headers } = await person({ permissions: [...ALL_TOKEN_PERMS, 21] });
    const token = await mint(headers, [21]);
    expect((await call(token.headers, 'GET', '/api/users')).statusCode).toBe(200);
    await h.db
      .deleteFrom('type_permissions')
      .where('type_id', '=', user.type.id)
      .where('permission_id', '=', 21)
      .execute();
    expect((await call(token.headers, 'GET', '/api/users')).statusCode).toBe(403);
  });

  it("of a super admin passes only its abilities' checks, never every check", async () => {
    const { headers } = await person({ superAdmin: true, permissions: [] });
    const token = await mint(headers, [21]);
    expect((await call(token.headers, 'GET', '/api/users')).statusCode).toBe(200);
    expect((await call(token.headers, 'GET', '/api/roles/stats')).statusCode).toBe(403);
    expect((await call(token.headers, 'GET', '/api/mail/outbox')).statusCode).toBe(403);
    const me = await call(token.headers, 'GET', '/api/auth/permissions');
    expect(me.json().data.map((p: { id: number }) => p.id)).toEqual([21]);
  });

  it('records when and from which address it was last used', async () => {
    const { headers } = await person({ permissions: [...ALL_TOKEN_PERMS, 21] });
    const token = await mint(headers, [21]);
    await h.app.inject({
      method: 'GET',
      url: '/api/users',
      headers: token.headers,
      remoteAddress: '203.0.113.9',
    });
    const listed = (await call(headers, 'GET', URL)).json().data[0];
    expect(listed.last_used_ip).toBe('203.0.113.9');
    expect(Date.now() - new Date(listed.last_used_at).getTime()).toBeLessThan(60_000);
  });

  it('is refused (401) once expired, and stays listed as expired', async () => {
    const { headers } = await person({ permissions: [...ALL_TOKEN_PERMS, 21] });
    const token = await mint(headers, [21]);
    await h.db
      .updateTable('personal_access_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', token.id)
      .execute();
    expect((await call(token.headers, 'GET', '/api/users')).statusCode).toBe(401);
    const expired = await call(headers, 'GET', `${URL}?status=expired`);
    expect(expired.json().data.map((t: { id: number; status: string }) => [t.id, t.status])).toEqual([
      [token.id, 'expired'],
    ]);
  });
});

describe('GET /personal-access-tokens', () => {
  it('answers 401, then 422 on a bad query, then 403 without 101, 102 or 103', async () => {
    expect((await h.app.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
    const { headers } = await person({ permissions: [101] });
    expect((await call(headers, 'GET', `${URL}?scope=everyone`)).statusCode).toBe(422);
    const none = await person({ permissions: [21] });
    expect((await call(none.headers, 'GET', URL)).statusCode).toBe(403);
    // The organisation's tokens need 103.
    expect((await call(headers, 'GET', `${URL}?scope=organisation`)).statusCode).toBe(403);
  });

  it("with 103 and scope=organisation lists tokens of users in scope with their owner, and never another organisation's", async () => {
    const group = await buildEntity(h.db, { level: 'A' });
    const home = await buildEntity(h.db, { level: 'B', parentId: group.id });
    const auditor = await person({ permissions: [103, 102], entityId: group.id });
    const staff = await person({ permissions: [...ALL_TOKEN_PERMS, 21], entityId: home.id });
    const other = await person({ permissions: [...ALL_TOKEN_PERMS, 21] });
    const mine = await mint(staff.headers, [21], { name: 'Payroll export' });
    const theirs = await mint(other.headers, [21], { name: 'Elsewhere' });
    const res = await call(auditor.headers, 'GET', `${URL}?scope=organisation`);
    expect(res.statusCode).toBe(200);
    const ids = res.json().data.map((t: { id: number }) => t.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(res.json().data.find((t: { id: number }) => t.id === mine.id)).toMatchObject({
      owner: { id: staff.user.id, name: staff.user.name },
      can_revoke: true,
    });
    // Own list: only the caller's.
    expect((await call(auditor.headers, 'GET', URL)).json().data).toEqual([]);
  });
});

describe('DELETE /personal-access-tokens/{id}', () => {
  it('answers 401, 403 without 102, 404 for a missing id and for another organisation', async () => {
    const owner = await person({ permissions: [...ALL_TOKEN_PERMS, 21] });
    const token = await mint(owner.headers, [21]);
    expect((await h.app.inject({ method: 'DELETE', url: `${URL}/${token.id}` })).statusCode).toBe(401);
    expect((await call(owner.headers, 'DELETE', `${URL}/abc`)).statusCode).toBe(422);
    const noRevoke = await person({ permissions: [101, 103], entityId: owner.user.primary_entity_id });
    expect((await call(noRevoke.headers, 'DELETE', `${URL}/${token.id}`)).statusCode).toBe(403);
    const outsider = await person({ permissions: [...ALL_TOKEN_PERMS] });
    expect((await call(outsider.headers, 'DELETE', `${URL}/${token.id}`)).statusCode).toBe(404);
    expect((await call(owner.headers, 'DELETE', `${URL}/999999999`)).statusCode).toBe(404);
    // Unchanged: the token still works.
    expect((await call(token.headers, 'GET', '/api/users')).statusCode).toBe(200);
  });

  it('revokes at once: the very next request with it is 401, and it stays listed as revoked', async () => {
    const owner = await person({ permissions: [...ALL_TOKEN_PERMS, 21] });
    const token = await mint(owner.headers, [21]);
    expect((await call(token.headers, 'GET', '/api/users')).statusCode).toBe(200);
    const res = await call(owner.headers, 'DELETE', `${URL}/${token.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: M.revoked, data: { status: 'revoked', can_revoke: false } });
    expect((await call(token.headers, 'GET', '/api/users')).statusCode).toBe(401);
    const again = await call(owner.headers, 'DELETE', `${URL}/${token.id}`);
    expect(again.json().message).toBe(M.alreadyRevoked);
    const listed = (await call(owner.headers, 'GET', URL)).json().data[0];
    expect(listed).toMatchObject({ id: token.id, status: 'revoked' });
  });

  it('lets a manager with 102 revoke a token of someone in scope (an admin answering a leak)', async () => {
    const group = await buildEntity(h.db, { level: 'A' });
    const staff = await person({ permissions: [...ALL_TOKEN_PERMS, 21], entityId: group.id });
    const admin = await person({ permissions: [102, 103], entityId: group.id });
    const token = await mint(staff.headers, [21]);
    expect((await call(admin.headers, 'DELETE', `${URL}/${token.id}`)).statusCode).toBe(200);
    expect((await call(token.headers, 'GET', '/api/users')).statusCode).toBe(401);
  });
});

describe('GraphQL', () => {
  const gql = (headers: Headers, query: string, variables: Record<string, unknown> = {}) =>
    h.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });

  it('creates, lists and revokes through the same service (and its refusals)', async () => {
    const { headers } = await person({ permissions: [...ALL_TOKEN_PERMS, 21] });
    const created = await gql(
      headers,
      `mutation($e: String!) { createPersonalAccessToken(name: "CI", abilities: [21], expires_at: $e) {
        id plain_text_token status abilities { id name } } }`,
      { e: day(10) },
    );
    const token = created.json().data.createPersonalAccessToken;
    expect(token).toMatchObject({ status: 'active', abilities: [{ id: 21, name: 'search users' }] });
    const refused = await gql(
      headers,
      `mutation { createPersonalAccessToken(name: "CI", abilities: [3], expires_at: "${day(10)}") { id } }`,
    );
    expect(refused.json().errors[0].extensions.validation).toEqual({ abilities: [M.notHeld] });
    const list = await gql(
      headers,
      '{ personalAccessTokens { data { id name token_prefix } paginatorInfo { total } } }',
    );
    expect(list.json().data.personalAccessTokens).toMatchObject({
      data: [{ id: token.id, name: 'CI' }],
      paginatorInfo: { total: 1 },
    });
    const revoked = await gql(headers, `mutation { revokePersonalAccessToken(id: ${token.id}) { status } }`);
    expect(revoked.json().data.revokePersonalAccessToken.status).toBe('revoked');
    const viaToken = await gql(
      { authorization: `Bearer ${token.plain_text_token}` },
      '{ personalAccessTokens { data { id } } }',
    );
    expect(viaToken.json().errors[0].extensions).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
