import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Pool } from 'undici';
import type { BenchEngine } from '../run';
import { startServerProcess } from '../server-process';

/**
 * API reads p95 at 200 concurrent clients ON THE DEMO DATA SET (the figure of DEVELOPERS.md): the server in its own
 * process (server-process.ts; demo seeded into a fresh PGlite folder or a fresh PostgreSQL database) and this
 * process as the clients. Each client has its own bearer token (its own caller) and loops, without pause, over the
 * manager's everyday reads for BENCH_API_SECONDS (10) after a 2 s warm-up, then the mixed load of issue 12 §2 (users,
 * entities, the compliance report); during both, a fresh login every second (api_*_login_max_ms: the slowest; target
 * 1 s). Then bare_fastify_rps: the same clients on one bare Fastify route (the stack's ceiling on this machine, now),
 * and api_read_vs_bare_ratio. Then cold_start_ms: `npm start`'s script on the now existing data folder, to "is
 * running at" (target 3 s).
 */
export const name = 'api reads (demo data, 200 clients)';
export const needs = 'none';

const CLIENTS = Number(process.env.BENCH_API_CLIENTS ?? 200);
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
interface Read {
  path: string;
  method: 'GET' | 'POST';
  body?: string;
}
const get = (p: string): Read => ({ path: p, method: 'GET' });
const READS: Read[] = [
  '/api/auth/user',
  '/api/auth/permissions',
  '/api/users?page=1',
  '/api/entities?page=1',
  '/api/reports/presets?page=1',
  '/api/whitelabel?slug=meadowbrook',
].map(get);
/** Issue 12 §2's mixed load: the people list, the organisation list and the compliance report (the dashboard). */
const MIXED: Read[] = [
  get('/api/users?page=1'),
  get('/api/entities?page=1'),
  { path: '/api/reports/compliance', method: 'POST', body: '{}' },
];
const MANAGER = { email: 'manager@demo.test', password: 'demo-Password1', device_name: 'bench' };

/** One device login of the demo manager; answers its token and how long it took, ms. */
export async function loginOnce(
  base: string,
  credentials: { email: string; password: string; device_name: string } = MANAGER,
): Promise<{ token: string; ms: number }> {
  const t = performance.now();
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (!res.ok) throw new Error(`login: ${res.status} ${await res.text()}`);
  const token = ((await res.json()) as { data: { token: string } }).data.token;
  return { token, ms: performance.now() - t };
}

/**
 * A fresh login every `everyMs` while `busy` runs (issue 12 §1/§2: a login answers within 1 s while 200 clients load
 * the API or a matrix export runs): the slowest and how many, ms.
 */
export async function loginsDuring<T>(
  busy: Promise<T>,
  login: () => Promise<{ ms: number }>,
  everyMs = 1000,
): Promise<{ value: T; maxMs: number; count: number }> {
  let done = false;
  const times: number[] = [];
  const probe = (async () => {
    await new Promise((r) => setTimeout(r, Math.min(everyMs, 500)));
    while (!done) {
      times.push((await login()).ms);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  const value = await busy.finally(() => {
    done = true;
  });
  await probe;
  return { value, maxMs: Math.round(Math.max(0, ...times)), count: times.length };
}

/** One bearer token per client (each its own caller, as 200 people are), the manager's: logins, 4 at a time. */
export async function loginTokens(base: string, count: number): Promise<string[]> {
  const tokens: string[] = [];
  const login = async () => tokens.push((await loginOnce(base)).token);
  for (let i = 0; i < count; i += 4) await Promise.all(Array.from({ length: Math.min(4, count - i) }, login));
  return tokens;
}

/** CLIENTS loops without pause over `reads` for SECONDS after a 2 s warm-up; one keep-alive connection each. */
export async function hammer(base: string, tokens: string[], reads: Read[]) {
  // undici's Pool (one keep-alive connection per client) is the lightest Node client: the load generator shares the
  // machine's two cores with the server, so its own cost is kept low (fetch costs several times more per request).
  const pool = new Pool(base, { connections: CLIENTS, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const run = async (until: number, record: boolean, offset: number) => {
    const headers = {
      authorization: `Bearer ${tokens[offset % tokens.length]}`,
      accept: 'application/json',
      'content-type': 'application/json',
    };
    let k = offset;
    while (Date.now() < until) {
      const read = reads[k++ % reads.length] as Read;
      const t = performance.now();
      const res = await pool.request({ ...read, headers });
      await res.body.arrayBuffer();
      if (!record) continue;
      latencies.push(performance.now() - t);
      if (res.statusCode !== 200) errors++;
    }
  };
  try {
    const warm = Date.now() + 2000;
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => run(warm, false, i)));
    const end = Date.now() + SECONDS * 1000;
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => run(end, true, i)));
  } finally {
    await pool.close();
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.floor(q * (latencies.length - 1))] ?? 0);
  return {
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    rps: Math.round(latencies.length / SECONDS),
    errors,
  };
}

/** The same clients on one bare Fastify route in a process of its own (bench/bare-fastify.mjs): the stack's ceiling. */
async function bareCeiling(dataDir: string): Promise<number> {
  const bare = await startServerProcess({ dataDir, seedDemo: false, via: 'bare-fastify' });
  try {
    return (await hammer(bare.baseUrl, ['bare'], [get('/api/bare')])).rps;
  } finally {
    await bare.stop();
  }
}

/** `npm start` (scripts/start.mjs) on the existing data folder, to "is running at". */
async function coldStart(dataDir: string, databaseUrl: string | undefined): Promise<number> {
  const started = await startServerProcess({ dataDir, databaseUrl, seedDemo: true, via: 'npm-start' });
  await started.stop();
  return started.readyMs;
}

export async function run(ctx: { engine: BenchEngine }): Promise<Record<string, number>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-bench-api-'));
  chmodSync(dataDir, 0o755); // the embedded PostgreSQL's `postgres` user (when root) must enter it
  let databaseUrl: string | undefined;
  let admin: string | undefined;
  const dbName = `cc_bench_api_${Date.now()}`;
  if (ctx.engine === 'postgres' && process.env.DATABASE_URL) admin = process.env.DATABASE_URL;
  else if (ctx.engine === 'postgres') admin = 'postgres://postgres@127.0.0.1:5432/postgres';
  if (admin) {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`CREATE DATABASE ${dbName}`);
    await c.end();
    const u = new URL(admin);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  try {
    const server = await startServerProcess({ dataDir, databaseUrl, seedDemo: true });
    let figures: Record<string, number>;
    try {
      const tokens = await loginTokens(server.baseUrl, CLIENTS);
      const login = () => loginOnce(server.baseUrl);
      const reads = await loginsDuring(hammer(server.baseUrl, tokens, READS), login);
      const mixed = await loginsDuring(hammer(server.baseUrl, tokens, MIXED), login);
      figures = {
        api_read_p50_ms: reads.value.p50,
        api_read_p95_ms: reads.value.p95,
        api_read_p99_ms: reads.value.p99,
        api_read_rps: reads.value.rps,
        api_read_errors: reads.value.errors,
        api_read_login_max_ms: reads.maxMs,
        api_mixed_p95_ms: mixed.value.p95,
        api_mixed_rps: mixed.value.rps,
        api_mixed_errors: mixed.value.errors,
        api_mixed_login_max_ms: mixed.maxMs,
        api_server_rss_mb: server.rssMb(),
        api_database_mb: server.databaseMb(),
      };
    } finally {
      await server.stop();
    }
    // Right after, on the same machine: the ceiling, and the API's share of it.
    figures.bare_fastify_rps = await bareCeiling(dataDir);
    figures.api_read_vs_bare_ratio =
      Math.round((figures.api_read_rps / figures.bare_fastify_rps) * 100) / 100;
    figures.cold_start_ms = await coldStart(dataDir, databaseUrl);
    return figures;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (admin) {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await c.end();
    }
  }
}
