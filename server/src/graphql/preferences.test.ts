import { Perm } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { PREFERENCES_LIMITS } from './preferences';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

interface GqlBody {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: { code?: string; validation?: Record<string, string[]> } }[];
}
async function gql(query: string, variables: Record<string, unknown>, headers: Record<string, string>) {
  const res = await h.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
  return res.json() as GqlBody;
}
const READ = '{ preferences }';
const WRITE = 'mutation ($p: JSON!) { updatePreferences(preferences: $p) }';

describe('GraphQL preferences (spec 2 §7)', () => {
  it('reads {} at first, merges the keys sent (others untouched), removes a key sent as null', async () => {
    const user = await buildUser(h.db, { permissions: [Perm.selfUpdate] });
    const headers = await bearer(h.db, user.id);
    expect((await gql(READ, {}, headers)).data?.preferences).toEqual({});

    const first = await gql(WRITE, { p: { pageSize: 25, chart: { kind: 'bar' } } }, headers);
    expect(first.errors).toBeUndefined();
    expect(first.data?.updatePreferences).toEqual({ pageSize: 25, chart: { kind: 'bar' } });

    const second = await gql(WRITE, { p: { theme: 'dark', chart: null } }, headers);
    expect(second.data?.updatePreferences).toEqual({ pageSize: 25, theme: 'dark' });
    expect((await gql(READ, {}, headers)).data?.preferences).toEqual({ pageSize: 25, theme: 'dark' });

    // The REST user record sees the same object.
    const me = await h.app.inject({ method: 'GET', url: `/api/users/${user.uuid}`, headers });
    expect(me.json().data.user_preferences).toEqual({ pageSize: 25, theme: 'dark' });
  });

  it('keeps both of two concurrent saves of different keys', async () => {
    const user = await buildUser(h.db, { permissions: [Perm.selfUpdate] });
    const headers = await bearer(h.db, user.id);
    const keys = Array.from({ length: 8 }, (_, i) => `k${i}`);
    await Promise.all(keys.map((k) => gql(WRITE, { p: { [k]: true } }, headers)));
    const all = (await gql(READ, {}, headers)).data?.preferences as Record<string, unknown>;
    expect(Object.keys(all).sort()).toEqual(keys);
  });

  it('refuses what is not an object of named settings, or too big, as a validation error (nothing saved)', async () => {
    const user = await buildUser(h.db, { permissions: [Perm.selfUpdate] });
    const headers = await bearer(h.db, user.id);
    await gql(WRITE, { p: { kept: 1 } }, headers);
    const big = 'x'.repeat(PREFERENCES_LIMITS.bytes);
    for (const p of [[1, 2], 'text', { 'bad key!': 1 }, { huge: big }]) {
      const res = await gql(WRITE, { p }, headers);
      expect(res.errors?.[0]?.extensions?.code, JSON.stringify(p).slice(0, 40)).toBe('BAD_USER_INPUT');
    }
    // Many small saves may not grow it past the limit either.
    const half = 'y'.repeat(PREFERENCES_LIMITS.bytes / 2);
    expect((await gql(WRITE, { p: { a: half } }, headers)).errors).toBeUndefined();
    const over = await gql(WRITE, { p: { b: half } }, headers);
    expect(over.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const kept = (await gql(READ, {}, headers)).data?.preferences as Record<string, unknown>;
    expect(Object.keys(kept).sort()).toEqual(['a', 'kept']);
  });

  it('answers UNAUTHENTICATED without sign-in and FORBIDDEN without 127 or 18', async () => {
    expect((await gql(READ, {}, {})).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const user = await buildUser(h.db, { permissions: [] });
    const headers = await bearer(h.db, user.id);
    expect((await gql(WRITE, { p: { a: 1 } }, headers)).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
