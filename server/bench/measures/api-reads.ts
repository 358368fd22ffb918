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
 * manager's everyday reads for BENCH_API_SECONDS (10) after a 2 s warm-up. Then cold_start_ms: `npm start`'s script
 * on the now existing data folder, to "is running at" (target 3 s).
 */
export const name = 'api reads (demo data, 200 clients)';
export const needs = 'none';

const CLIENTS = Number(process.env.BENCH_API_CLIENTS ?? 200);
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const READS = [
  '/api/auth/user',
  '/api/auth/permissions',
  '/api/users?page=1',
  '/api/entities?page=1',
  '/api/reports/presets?page=1',
  '/api/whitelabel?slug=meadowbrook',
];

/** One bearer token per client (each its own caller, as 200 people are), the manager's: logins, 4 at a time. */
export async function loginTokens(base: string, count: number): Promise<string[]> {
  const tokens: string[] = [];
  const login = async () => {
    const res = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'manager@demo.test', password: 'demo-Password1', device_name: 'bench' }),
    });
    if (!res.ok) throw new Error(`login: ${res.status} ${await res.text()}`);
    tokens.push(((await res.json()) as { data: { token: string } }).data.token);
  };
  for (let i = 0; i < count; i += 4) await Promise.all(Array.from({ length: Math.min(4, count - i) }, login));
  return tokens;
}

/**
 * Fresh logins while the clients load the API (issue 12 target: each within 1 s on both engines), one at a time
 * with 250 ms between them, until `until`: their latencies, ms.
 */
async function loginsUnderLoad(base: string, until: number): Promise<number[]> {
  const latencies: number[] = [];
  while (Date.now() < until) {
    const t = performance.now();
    const res = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'admin@demo.test',
        password: 'demo-Password1',
        device_name: 'bench login',
      }),
    });
    await res.arrayBuffer();
    latencies.push(res.ok ? performance.now() - t : Number.POSITIVE_INFINITY);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return latencies;
}

export async function hammer(base: string, tokens: string[]) {
  // undici's Pool (one keep-alive connection per client) is the lightest Node client: the load generator shares the
  // machine's two cores with the server, so its own cost is kept low (fetch costs several times more per request).
  const pool = new Pool(base, { connections: CLIENTS, pipelining: 1 });
  const latencies: number[] = [];
  const loginMs: number[] = [];
  let errors = 0;
  const run = async (until: number, record: boolean, offset: number) => {
    const headers = { authorization: `Bearer ${tokens[offset % tokens.length]}`, accept: 'application/json' };
    let k = offset;
    while (Date.now() < until) {
      const t = performance.now();
      const res = await pool.request({ path: READS[k++ % READS.length] as string, method: 'GET', headers });
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
    const [logins] = await Promise.all([
      loginsUnderLoad(base, end),
      ...Array.from({ length: CLIENTS }, (_, i) => run(end, true, i)),
    ]);
    loginMs.push(...logins);
  } finally {
    await pool.close();
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.floor(q * (latencies.length - 1))] ?? 0);
  loginMs.sort((a, b) => a - b);
  return {
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    rps: Math.round(latencies.length / SECONDS),
    errors,
    loginMedianMs: Math.round(loginMs[Math.floor((loginMs.length - 1) / 2)] ?? 0),
    loginMaxMs: Math.round(loginMs.at(-1) ?? 0),
  };
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
      const reads = await hammer(server.baseUrl, tokens);
      figures = {
        api_read_p50_ms: reads.p50,
        api_read_p95_ms: reads.p95,
        api_read_p99_ms: reads.p99,
        api_read_rps: reads.rps,
        api_read_errors: reads.errors,
        login_under_load_median_ms: reads.loginMedianMs,
        login_under_load_max_ms: reads.loginMaxMs,
        api_server_rss_mb: server.rssMb(),
        api_database_mb: server.databaseMb(),
      };
    } finally {
      await server.stop();
    }
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
