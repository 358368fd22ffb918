import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { startJobWorker } from '../bootstrap';

/**
 * Issue 35 §5: /health/live answers while the process runs, without the database; /health/ready answers 200 only when
 * the database answers, the migrations are applied and the job worker runs, else 503 naming what is not ready. Neither
 * needs a session, both carry the app's security headers and no-store, and neither says more than ok or failing.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'GET', url, headers });

function expectProbeHeaders(res: Awaited<ReturnType<typeof get>>) {
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['x-powered-by']).toBeUndefined();
  expect(res.headers['set-cookie']).toBeUndefined();
}

describe('GET /health/live', () => {
  it('answers 200 without a session, with the security headers and no-store, and says only ok', async () => {
    const res = await get('/health/live');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expectProbeHeaders(res);
  });

  it('ignores credentials it is sent (no caller is looked up)', async () => {
    const res = await get('/health/live', { authorization: 'Bearer not-a-token', cookie: 'cc_session=nope' });
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /health/ready', () => {
  it('answers 503 naming the job queue while no worker runs, 200 while one does, 503 again once it stops', async () => {
    const before = await get('/health/ready');
    expect(before.statusCode).toBe(503);
    expect(before.json()).toEqual({
      status: 'not ready',
      message: 'Not ready: queue.',
      checks: { database: 'ok', migrations: 'ok', queue: 'failing' },
    });
    expectProbeHeaders(before);

    const worker = startJobWorker(h.deps, { pollMs: 60_000 });
    try {
      const ready = await get('/health/ready', { authorization: 'Bearer not-a-token' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({
        status: 'ok',
        checks: { database: 'ok', migrations: 'ok', queue: 'ok' },
      });
      expectProbeHeaders(ready);
      // Nothing about the engine, the version or the host.
      expect(ready.body).not.toMatch(/postgres|pglite|version|\d+\.\d+\.\d+/i);
    } finally {
      await worker.stop();
    }
    const stopped = await get('/health/ready');
    expect(stopped.statusCode).toBe(503);
    expect(stopped.json().checks.queue).toBe('failing');
  });

  it('answers 503 when migrations are missing', async () => {
    const worker = startJobWorker(h.deps, { pollMs: 60_000 });
    const { rows } = await sql<{ name: string }>`
      SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1`.execute(h.db);
    const name = rows[0]?.name as string;
    try {
      await sql`DELETE FROM kysely_migration WHERE name = ${name}`.execute(h.db);
      const res = await get('/health/ready');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        message: 'Not ready: migrations.',
        checks: { database: 'ok', migrations: 'failing', queue: 'ok' },
      });
      expect(res.body).not.toContain(name);
    } finally {
      await sql`INSERT INTO kysely_migration (name, timestamp) VALUES (${name}, ${new Date().toISOString()})`.execute(
        h.db,
      );
      await worker.stop();
    }
  });

  const databaseUrl = process.env.DATABASE_URL;
  it.skipIf(!databaseUrl)(
    'answers 503 naming the database while it refuses connections; /health/live stays 200; ready again after',
    async () => {
      const worker = startJobWorker(h.deps, { pollMs: 60_000 });
      const name = new URL(h.deps.config.databaseUrl as string).pathname.slice(1);
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      try {
        expect((await get('/health/ready')).statusCode).toBe(200);
        // The database goes away for this server: new connections are refused and the open ones are cut.
        await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        const down = await get('/health/ready');
        expect(down.statusCode).toBe(503);
        expect(down.json()).toEqual({
          status: 'not ready',
          message: 'Not ready: database, migrations.',
          checks: { database: 'failing', migrations: 'failing', queue: 'ok' },
        });
        expectProbeHeaders(down);
        // No error text, host or database name leaks.
        expect(down.body).not.toContain(name);
        expect(down.body).not.toMatch(/accepting|connect|127\.0\.0\.1/i);

        // No database access at all, even for credentials it is sent (a caller lookup would answer 503 now).
        const live = await get('/health/live', {
          authorization: 'Bearer not-a-token',
          cookie: 'cc_session=x',
        });
        expect(live.statusCode).toBe(200);
        expect(live.json()).toEqual({ status: 'ok' });
      } finally {
        await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`);
        await admin.end();
      }
      try {
        const back = await get('/health/ready');
        expect(back.statusCode).toBe(200);
      } finally {
        await worker.stop();
      }
    },
  );
});
