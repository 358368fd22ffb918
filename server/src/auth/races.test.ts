import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildUser, TEST_PASSWORD } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';
import { hashPassword, usePasswordHashing, verifyPassword } from './passwords';
import { recordSignIn } from './queries';
import { accountKey, addressKey, recordFailure } from './throttle';

/** The login throttle under concurrent failures (issue 11 §5) on PostgreSQL: one upsert per failure loses none. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const failuresOf = async (key: string) =>
  (await h.db.selectFrom('auth_throttles').select('failures').where('key', '=', key).executeTakeFirst())
    ?.failures ?? 0;

describeRaces('login throttle counted in parallel', () => {
  it('50 parallel failures of one account and address count 50 each (no lost update, no deadlock)', async () => {
    const now = new Date();
    await parallel(50, (i) =>
      // Half name the keys in the other order: the upsert sorts them, so the row locks cannot deadlock.
      recordFailure(
        h.db,
        i % 2
          ? [accountKey('race@x.test'), addressKey('10.0.0.1')]
          : [addressKey('10.0.0.1'), accountKey('race@x.test')],
        now,
      ),
    );
    expect(await failuresOf(accountKey('race@x.test'))).toBe(50);
    expect(await failuresOf(addressKey('10.0.0.1'))).toBe(50);
  });

  it('parallel wrong passwords over HTTP: every answered failure is counted, and the account is then held back', async () => {
    const user = await buildUser(h.db);
    const at = new Date(); // one moment, so no delay runs out while a slow machine answers
    h.deps.clock = () => at;
    const responses = await parallel(8, (i) =>
      h.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: `10.1.0.${i + 1}`,
        payload: { email: user.email, password: `wrong-guess-${i}`, device_name: 'race' },
      }),
    );
    const failed = responses.filter((r) => r.statusCode === 422).length;
    expect(failed + responses.filter((r) => r.statusCode === 429).length).toBe(8);
    expect(failed).toBeGreaterThanOrEqual(3);
    expect(await failuresOf(accountKey(user.email))).toBe(failed);
    const next = await h.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '10.1.0.99',
      payload: { email: user.email, password: 'wrong-again', device_name: 'race' },
    });
    expect(next.statusCode).toBe(429);
  });

  it('parallel sign-ins of one user on one known device: all answer, one device row, one audit row each', async () => {
    const user = await buildUser(h.db);
    const login = (device_token?: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: TEST_PASSWORD, device_name: 'race', device_token },
      });
    const first = await login();
    const deviceToken = first.json().data.device_token as string;
    // Each sign-in's writes are one statement (auth/queries.ts recordSignIn): the same device row and user row in
    // every one of them, so they queue on the row locks and none deadlocks or is lost.
    const responses = await parallel(8, () => login(deviceToken));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(new Set(responses.map((r) => r.json().data.device_token))).toEqual(new Set([deviceToken]));
    const devices = await h.db
      .selectFrom('known_devices')
      .select('user_id')
      .where('user_id', '=', user.id)
      .execute();
    expect(devices).toHaveLength(1);
    const logins = await h.db
      .selectFrom('auth_events')
      .select('id')
      .where('user_id', '=', user.id)
      .where('event', '=', 'login')
      .execute();
    expect(logins).toHaveLength(9);
  });

  it('parallel sign-ins over a hash of another cost store the password again at the chosen one, never over a new password', async () => {
    const user = await buildUser(h.db);
    usePasswordHashing('standard');
    const standard = await hashPassword(TEST_PASSWORD).finally(() => usePasswordHashing('fast'));
    await h.db.updateTable('users').set({ password_hash: standard }).where('id', '=', user.id).execute();
    const responses = await parallel(4, () =>
      h.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: TEST_PASSWORD, device_name: 'race' },
      }),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(4).fill(200));
    const storedHash = async () =>
      (
        await h.db
          .selectFrom('users')
          .select('password_hash')
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow()
      ).password_hash as string;
    const rehashed = await storedHash();
    expect(rehashed).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=1\$/);
    expect(await verifyPassword(rehashed, TEST_PASSWORD)).toBe(true);

    // A sign-in that proved the old hash while the password changed writes nothing over the new one.
    await recordSignIn(h.db, {
      userId: user.id,
      device: { secret: 'rehash-race-device', name: 'race' },
      clearKeys: [],
      event: {
        event: 'login',
        userId: user.id,
        entityId: null,
        email: user.email,
        ip: null,
        userAgent: null,
        via: 'mobile',
      },
      now: new Date(),
      rehash: { from: standard, to: await hashPassword('an-older-password') },
    });
    expect(await storedHash()).toBe(rehashed);
  });
});
