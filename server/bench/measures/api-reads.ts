import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { BenchContext } from '../run';

/**
 * API reads p95 at 200 concurrent clients ON THE DEMO DATA SET (the figure of DEVELOPERS.md): a real server process
 * (server/src/main.ts through tsx, demo seeded into a fresh PGlite folder or a fresh PostgreSQL database) and this
 * process as the clients, so the load generator does not share the server's event loop. Each client loops over the
 * manager's everyday reads for BENCH_API_SECONDS (10) after a 2 s warm-up.
 */
export const name = 'api reads (demo data, 200 clients)';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.resolve(here, '../..');
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

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

async function startDemoServer(databaseUrl: string | undefined, dataDir: string, port: number) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    LOG_LEVEL: 'error',
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  const child = spawn(
    process.execPath,
    [path.join(serverDir, '../node_modules/tsx/dist/cli.mjs'), 'src/main.ts'],
    {
      cwd: serverDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`demo server did not start: ${out}`)), 180_000);
    child.stdout?.on('data', (d) => {
      out += d;
      if (out.includes('is running at')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.stderr?.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => reject(new Error(`demo server exited ${code}: ${out}`)));
  });
  return child;
}

async function hammer(base: string, headers: Record<string, string>) {
  const latencies: number[] = [];
  let errors = 0;
  const run = async (until: number, record: boolean, offset: number) => {
    let k = offset;
    while (Date.now() < until) {
      const t = performance.now();
      const res = await fetch(base + READS[k++ % READS.length], { headers });
      await res.arrayBuffer();
      if (!record) continue;
      latencies.push(performance.now() - t);
      if (res.status !== 200) errors++;
    }
  };
  const warm = Date.now() + 2000;
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => run(warm, false, i)));
  const end = Date.now() + SECONDS * 1000;
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => run(end, true, i)));
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.floor(q * (latencies.length - 1))] ?? 0);
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), rps: Math.round(latencies.length / SECONDS), errors };
}

export async function run(ctx: BenchContext): Promise<Record<string, number>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-bench-api-'));
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
  const port = await freePort();
  const child = await startDemoServer(databaseUrl, dataDir, port);
  try {
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'manager@demo.test', password: 'demo-Password1', device_name: 'bench' }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const figures = await hammer(base, { authorization: `Bearer ${token}`, accept: 'application/json' });
    return {
      api_read_p50_ms: figures.p50,
      api_read_p95_ms: figures.p95,
      api_read_p99_ms: figures.p99,
      api_read_rps: figures.rps,
      api_read_errors: figures.errors,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
    if (admin) {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await c.end();
    }
  }
}
