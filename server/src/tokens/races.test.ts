import { PAT_MAX_LIVE } from '@cc/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, buildUser } from '../../test/factories';
import { createHarness, type Harness, type TestApp } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';
import { buildApp } from '../app';
import { openDeps } from '../bootstrap';

/**
 * Personal access tokens under concurrency (PostgreSQL only): creating tokens at once cannot pass the per-user limit
 * (the owner's row is locked while counting), and a revocation through one server process ends the token on another
 * at once (the cache bus), even though that process remembers callers for a minute.
 */
let h: Harness;
let other: TestApp;
let closeOther: () => Promise<void> = async () => {};
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describeRaces('personal access token races', () => {
  beforeAll(async () => {
    h = await createHarness({ actorCacheMs: 60_000 });
    const deps = await openDeps(h.deps.config);
    other = await buildApp(deps);
    await other.ready();
    closeOther = async () => {
      await other.close();
      await deps.close();
    };
  });
  afterAll(async () => {
    await closeOther();
    await h?.close();
  });

  it(`12 creates at once by a user with ${PAT_MAX_LIVE - 4} live tokens: 4 made, the rest 409, never more than ${PAT_MAX_LIVE}`, async () => {
    const user = await buildUser(h.db, { permissions: [101, 102, 103, 21] });
    await h.db
      .insertInto('personal_access_tokens')
      .values(
        Array.from({ length: PAT_MAX_LIVE - 4 }, (_, i) => ({
          user_id: user.id,
          name: `t${i}`,
          token_hash: `race-${user.id}-${i}`,
          token_prefix: 'ccpat_x',
          kind: 'personal' as const,
          abilities: '["21"]',
          expires_at: new Date(Date.now() + 86_400_000),
        })),
      )
      .execute();
    const headers = await bearer(h.db, user.id);
    const codes = await parallel(12, (i) =>
      h.app
        .inject({
          method: 'POST',
          url: '/api/personal-access-tokens',
          headers,
          payload: { name: `race ${i}`, abilities: [21], expires_at: day(5) },
        })
        .then((r) => r.statusCode),
    );
    expect(codes.filter((c) => c === 201)).toHaveLength(4);
    expect(codes.filter((c) => c === 409)).toHaveLength(8);
    const live = await h.db
      .selectFrom('personal_access_tokens')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is', null)
      .where('kind', '=', 'personal')
      .executeTakeFirstOrThrow();
    expect(Number(live.n)).toBe(PAT_MAX_LIVE);
  });

  it('a revocation through one process ends the token on the other within a second', async () => {
    const user = await buildUser(h.db, { permissions: [101, 102, 21] });
    const headers = await bearer(h.db, user.id);
    const made = await h.app.inject({
      method: 'POST',
      url: '/api/personal-access-tokens',
      headers,
      payload: { name: 'cluster', abilities: [21], expires_at: day(5) },
    });
    const { id, plain_text_token } = made.json().data;
    const token = { authorization: `Bearer ${plain_text_token}` };
    const read = async (app: TestApp) =>
      (await app.inject({ method: 'GET', url: '/api/users', headers: token })).statusCode;
    expect(await read(other)).toBe(200); // remembered there for a minute
    const revoked = await h.app.inject({
      method: 'DELETE',
      url: `/api/personal-access-tokens/${id}`,
      headers,
    });
    expect(revoked.statusCode).toBe(200);
    expect(await read(h.app)).toBe(401);
    const started = Date.now();
    while ((await read(other)) !== 401) {
      expect(Date.now() - started).toBeLessThan(1000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
});
