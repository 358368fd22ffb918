import { createConnection, createServer, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser } from '../../test/factories';
import { createHarness, type Harness, type TestApp } from '../../test/harness';
import { buildApp } from '../app';
import { openDeps } from '../bootstrap';
import {
  type BusMessage,
  CACHE_BUS_APPLICATION_NAME,
  type CacheBus,
  createLocalBus,
  createPgBus,
} from './cache-bus';

/**
 * The cache bus (issue 12 §4): a change made through one server process is seen through another within a second, not
 * only after the caches' lifetime (ACTOR_CACHE_MS, here a minute so that only the bus can explain a fresh answer).
 * Two apps on one PostgreSQL database, each with its own connections and its own LISTEN: what one process is to another.
 * The other process's sockets are closed by the multi-process test (server/test/cluster/cluster.test.ts).
 */
const databaseUrl = process.env.DATABASE_URL;

/** Polls `check` until it holds or `ms` passed; answers how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

describe('the local bus (the embedded database: one process)', () => {
  it('runs the subscribers at once and is not shared', () => {
    const bus = createLocalBus();
    const seen: BusMessage[] = [];
    const stop = bus.subscribe((m) => seen.push(m));
    bus.publish({ topic: 'writes' });
    expect(seen).toEqual([{ topic: 'writes' }]);
    stop();
    bus.publish({ topic: 'scores' });
    expect(seen).toHaveLength(1);
    expect(bus.shared).toBe(false);
  });
});

describe.skipIf(!databaseUrl)('the bus over PostgreSQL LISTEN/NOTIFY', () => {
  let h: Harness;
  let url: string;
  const buses: CacheBus[] = [];
  const bus = async () => {
    const b = await createPgBus({ databaseUrl: url, log: () => {}, retryMs: 50 });
    buses.push(b);
    return b;
  };
  beforeAll(async () => {
    h = await createHarness();
    url = h.deps.config.databaseUrl as string;
  });
  afterAll(async () => {
    for (const b of buses) await b.close();
    await h?.close();
  });

  it("carries one process's messages to the others (not back to itself), the same tick's duplicates once", async () => {
    const [a, b] = [await bus(), await bus()];
    const atA: BusMessage[] = [];
    const atB: BusMessage[] = [];
    a.subscribe((m) => atA.push(m));
    b.subscribe((m) => atB.push(m));
    a.publish({ topic: 'writes' });
    a.publish({ topic: 'writes' });
    a.publish({ topic: 'sign-out', which: { userId: 7 } });
    expect(atA).toHaveLength(3); // here at once, synchronously
    await within(1000, async () => atB.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(atB).toEqual([{ topic: 'writes' }, { topic: 'sign-out', which: { userId: 7 } }]);
    expect(atA).toHaveLength(3);
  });

  it('sends what was published just before it closes (a graceful stop, the seed command)', async () => {
    const [a, b] = [await bus(), await bus()];
    const atB: BusMessage[] = [];
    b.subscribe((m) => atB.push(m));
    a.publish({ topic: 'scores' });
    await a.close();
    await within(1000, async () => atB.some((m) => m.topic === 'scores'));
  });

  it('splits a large burst into payloads PostgreSQL takes (under 8000 bytes each)', async () => {
    const [a, b] = [await bus(), await bus()];
    const ids = new Set<string>();
    b.subscribe((m) => {
      if (m.topic === 'sign-out' && m.which.sessionId) ids.add(m.which.sessionId);
    });
    for (let i = 0; i < 1000; i++)
      a.publish({ topic: 'sign-out', which: { sessionId: `${i}`.padStart(64, '0') } });
    await within(2000, async () => ids.size === 1000);
  });

  it('reconnects after its connection is killed and empties its caches (what it missed is unknown)', async () => {
    const [a, b] = [await bus(), await bus()];
    const atB: BusMessage[] = [];
    b.subscribe((m) => atB.push(m));
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // Both LISTEN connections of this database die (a restart or failover does that).
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = $1`,
        [CACHE_BUS_APPLICATION_NAME],
      );
      await within(3000, async () => atB.some((m) => m.topic === 'resync'));
      a.publish({ topic: 'scores' }); // sent now, or by a once it has its connection again
      await within(3000, async () => atB.some((m) => m.topic === 'scores'));
    } finally {
      await admin.end();
    }
  });

  it('finds a connection that went silent (a network cut), makes a new one and sends what was published meanwhile', async () => {
    // A TCP relay to PostgreSQL that can stop passing bytes without closing anything.
    const target = new URL(url);
    let frozen = false;
    const pairs: Socket[][] = [];
    const relay = createServer((inbound) => {
      const outbound = createConnection(Number(target.port || 5432), target.hostname);
      pairs.push([inbound, outbound]);
      inbound.on('data', (chunk) => frozen || outbound.write(chunk));
      outbound.on('data', (chunk) => frozen || inbound.write(chunk));
      inbound.on('error', () => outbound.destroy());
      outbound.on('error', () => inbound.destroy());
      inbound.on('close', () => outbound.destroy());
      outbound.on('close', () => inbound.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayed = new URL(url);
    relayed.hostname = '127.0.0.1';
    relayed.port = String((relay.address() as { port: number }).port);
    const lines: string[] = [];
    const deaf = await createPgBus({
      databaseUrl: relayed.toString(),
      log: (line) => lines.push(line),
      retryMs: 50,
      heartbeatMs: 200,
    });
    buses.push(deaf);
    const seen: BusMessage[] = [];
    deaf.subscribe((m) => seen.push(m));
    const ear = await bus();
    const heard: BusMessage[] = [];
    ear.subscribe((m) => heard.push(m));
    try {
      frozen = true;
      deaf.publish({ topic: 'sign-out', which: { userId: 42 } }); // cannot go out now
      await within(3000, async () => lines.some((l) => l.includes('LISTEN connection ended')));
      for (const pair of pairs) for (const s of pair) s.destroy();
      frozen = false;
      await within(3000, async () => seen.some((m) => m.topic === 'resync'));
      await within(1000, async () => heard.some((m) => m.topic === 'sign-out' && m.which.userId === 42));
      ear.publish({ topic: 'scores' });
      await within(1000, async () => seen.some((m) => m.topic === 'scores'));
    } finally {
      relay.close();
    }
  });

  describe('two server processes on one database', () => {
    let other: TestApp;
    let otherClose: () => Promise<void>;
    let first: Harness;
    beforeAll(async () => {
      first = await createHarness({ actorCacheMs: 60_000 });
      const deps = await openDeps(first.deps.config);
      other = await buildApp(deps);
      await other.ready();
      otherClose = async () => {
        await other.close();
        await deps.close();
      };
    });
    afterAll(async () => {
      await otherClose?.();
      await first?.close();
    });

    it('a sign-out through one process ends the bearer token on the other within a second', async () => {
      const user = await buildUser(first.db);
      const headers = await bearer(first.db, user.id);
      const read = async (app: TestApp) =>
        (await app.inject({ method: 'GET', url: '/api/auth/user', headers })).statusCode;
      expect(await read(other)).toBe(200); // remembered there for a minute
      expect(await read(first.app)).toBe(200);
      const out = await first.app.inject({ method: 'POST', url: '/api/auth/logout', headers });
      expect(out.statusCode).toBeLessThan(300);
      expect(await read(first.app)).toBe(401);
      await within(1000, async () => (await read(other)) === 401);
    });

    it('a permission revoked through one process is gone from the other within a second (caller and read caches)', async () => {
      const admin = await buildUser(first.db, { superAdmin: true });
      const adminHeaders = await bearer(first.db, admin.id);
      const user = await buildUser(first.db, { permissions: [21] });
      const headers = await bearer(first.db, user.id);
      const permissions = async (app: TestApp) =>
        (await app.inject({ method: 'GET', url: '/api/auth/permissions', headers }))
          .json()
          .data.map((p: { id: number }) => p.id) as number[];
      expect(await permissions(other)).toContain(21);
      const revoke = await first.app.inject({
        method: 'POST',
        url: `/api/type-permissions/${user.type.id}/delete`,
        headers: adminHeaders,
        payload: { permission_ids: [21] },
      });
      expect(revoke.statusCode).toBeLessThan(300);
      await within(1000, async () => !(await permissions(other)).includes(21));
    });
  });
});
