import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, TEST_PASSWORD } from '../../test/factories';
import { createHarness, type Harness, webLogin } from '../../test/harness';
import { onPostgres, SKIP_REASON } from '../../test/parallel';

/**
 * Issue 36 §2: a person signs in while the read load keeps every connection of the main pool busy. The sign-in routes
 * run on a lane of their own (Deps.signInDb, DATABASE_SIGN_IN_POOL_SIZE), so they never wait for the main pool.
 * PostgreSQL only: PGlite has one connection, which the lane shares.
 */
const MAIN_POOL = 3;
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ databasePoolSize: MAIN_POOL, databaseSignInPoolSize: 1 });
});
afterAll(async () => h?.close());

/** Holds every connection of the main pool in an open transaction until release() (the read load's queue). */
async function holdMainPool() {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = 0;
  let allHeld = () => {};
  const everyOneHeld = new Promise<void>((resolve) => {
    allHeld = resolve;
  });
  const holds = Array.from({ length: MAIN_POOL }, () =>
    h.db.transaction().execute(async (trx) => {
      await sql`SELECT 1`.execute(trx);
      held += 1;
      if (held === MAIN_POOL) allHeld();
      await gate;
    }),
  );
  await everyOneHeld;
  // What any other request's statement now does: it waits in the main pool's queue.
  const queued = sql`SELECT 1`.execute(h.db);
  return {
    async release() {
      release();
      await Promise.all([...holds, queued]);
    },
  };
}

/** The call's answer, or 'still waiting' when it has not answered long after a sign-in would have (a hung pool). */
async function answeredWhileHeld<T>(call: Promise<T>): Promise<T | 'still waiting'> {
  let timer: NodeJS.Timeout | undefined;
  const patience = new Promise<'still waiting'>((resolve) => {
    timer = setTimeout(() => resolve('still waiting'), 15_000);
  });
  try {
    return await Promise.race([call, patience]);
  } finally {
    clearTimeout(timer);
  }
}

describe.skipIf(!onPostgres)(
  onPostgres ? 'sign-ins while the main pool is busy' : `sign-in lane [skipped: ${SKIP_REASON}]`,
  () => {
    let pool: Awaited<ReturnType<typeof holdMainPool>> | null = null;
    afterEach(async () => {
      await pool?.release();
      pool = null;
    });

    it('holding the main pool makes other statements wait (the premise)', async () => {
      pool = await holdMainPool();
      const use = h.deps.probes.poolUse();
      expect(use).toMatchObject({ total: MAIN_POOL, idle: 0 });
      expect(use?.waiting).toBeGreaterThanOrEqual(1);
    });

    it('a device login answers while every main-pool connection is held', async () => {
      const user = await buildUser(h.db);
      pool = await holdMainPool();
      const login = h.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: TEST_PASSWORD, device_name: 'lane' },
      });
      const answer = await answeredWhileHeld(login);
      expect(answer === 'still waiting' ? answer : answer.statusCode).toBe(200);
      await pool.release();
      pool = null;
      // The token it issued is a real one.
      const token = (await login).json().data.token as string;
      const me = await h.app.inject({
        method: 'GET',
        url: '/api/auth/user',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.json().data.email).toBe(user.email);
    });

    it('a browser gets its csrf cookie and signs in while every main-pool connection is held', async () => {
      const user = await buildUser(h.db);
      pool = await holdMainPool();
      const answer = await answeredWhileHeld(webLogin(h.app, user.email, TEST_PASSWORD));
      expect(answer === 'still waiting' ? answer : answer.login.statusCode).toBe(200);
    });

    it('a wrong password is refused and counted while every main-pool connection is held', async () => {
      const user = await buildUser(h.db);
      pool = await holdMainPool();
      const answer = await answeredWhileHeld(
        h.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: user.email, password: 'not-the-password', device_name: 'lane' },
        }),
      );
      expect(answer === 'still waiting' ? answer : answer.statusCode).toBe(422);
      await pool.release();
      pool = null;
      const failures = await h.db
        .selectFrom('auth_throttles')
        .select('failures')
        .where('key', '=', `account:${user.email.toLowerCase()}`)
        .executeTakeFirst();
      expect(failures?.failures).toBe(1);
    });
  },
);
