/**
 * `npm run bench` (issue 5 item 6): seeds 10,000 users × 200 courses with ~1.3M results into a fresh database, then
 * measures on PGlite (a fresh temp dir) and on PostgreSQL (DATABASE_URL, else 127.0.0.1:5432 when it answers; a
 * fresh database cc_bench_<ts>, dropped after). `-- --json` prints ONE JSON object of named figures on its last line.
 *
 * The real app (buildApp) listens on a port IN THIS PROCESS, and clients talk to it over real sockets (the `ws`
 * package and fetch). Memory: a sampler reads process.memoryUsage().rss every 20 ms during a measure; the figure is
 * the peak RSS of this process (server + database engine + the client, which discards what it receives), so it is
 * an upper bound of the server's memory. For PGlite the database engine runs in this process too.
 *
 * Measures are modules in bench/measures/*.ts exporting `name` and `run(ctx)`; each returns named figures.
 * Env: BENCH_USERS (10000), BENCH_COURSES (200), BENCH_ENGINES (pglite,postgres), BENCH_MEASURES (all files).
 * BENCH_REUSE=1: keep the seeded database (PGlite dir /tmp/cc-bench-keep-<users>x<courses>, PostgreSQL database
 * cc_bench_keep_<users>x<courses>) and reuse it on the next run with the same sizes, instead of a fresh seed (the
 * 2–5 minute seed is paid once while iterating; migrations still run on open). Default: a fresh seed, dropped after.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { buildApp } from '../src/app';
import { openDeps } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import type { Deps } from '../src/http/context';
import { type Seeded, seedBench } from './seed';

export interface BenchContext {
  deps: Deps;
  engine: 'pglite' | 'postgres';
  baseUrl: string;
  seeded: Seeded;
  /** Bearer headers of the bench manager (permissions 12, 14, 15 on the group). */
  headers: Record<string, string>;
  token: string;
  rootEntityId: number;
  /** Runs fn while sampling RSS; returns its result, elapsed ms, peak RSS and the RSS at the start (after a GC), MB. */
  sample<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; peakMb: number; startMb: number }>;
}

interface Measure {
  name: string;
  run(ctx: BenchContext): Promise<Record<string, number>>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const json = process.argv.includes('--json');
const log = (...a: unknown[]) => {
  if (!json) console.log(...a);
  else console.error(...a);
};

async function sample<T>(fn: () => Promise<T>) {
  global.gc?.();
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const t = performance.now();
  try {
    const value = await fn();
    const ms = performance.now() - t;
    peak = Math.max(peak, process.memoryUsage().rss);
    return {
      value,
      ms: Math.round(ms),
      peakMb: Math.round(peak / 1048576),
      startMb: Math.round(start / 1048576),
    };
  } finally {
    clearInterval(timer);
  }
}

async function loadMeasures(): Promise<Measure[]> {
  const dir = path.join(here, 'measures');
  const only = process.env.BENCH_MEASURES?.split(',');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && (!only || only.includes(f.replace(/\.ts$/, ''))))
    .sort();
  const out: Measure[] = [];
  for (const f of files) {
    const mod = (await import(pathToFileURL(path.join(dir, f)).href)) as Partial<Measure>;
    if (typeof mod.run === 'function') out.push({ name: mod.name ?? f, run: mod.run as Measure['run'] });
  }
  return out;
}

async function postgresUrl(): Promise<string | null> {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await c.connect();
    await c.end();
    return url;
  } catch {
    return null;
  }
}

async function onEngine(engine: 'pglite' | 'postgres', measures: Measure[], adminUrl: string | null) {
  const users = Number(process.env.BENCH_USERS ?? 10_000);
  const courses = Number(process.env.BENCH_COURSES ?? 200);
  const reuse = process.env.BENCH_REUSE === '1';
  const keepDir = path.join(tmpdir(), `cc-bench-keep-${users}x${courses}`);
  const dataDir = reuse ? path.join(keepDir, engine) : mkdtempSync(path.join(tmpdir(), 'cc-bench-'));
  if (reuse) mkdirSync(dataDir, { recursive: true });
  const seededFile = path.join(dataDir, 'seeded.json');
  let databaseUrl: string | undefined;
  const dbName = reuse ? `cc_bench_keep_${users}x${courses}` : `cc_bench_${Date.now()}`;
  if (engine === 'postgres' && adminUrl) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const { rows } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName]);
    if (rows.length === 0) {
      rmSync(seededFile, { force: true });
      await admin.query(`CREATE DATABASE ${dbName}`);
    }
    await admin.end();
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const figures: Record<string, number> = {};
  const config = loadConfig(
    {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'error',
    },
    { dataDir, appUrl: 'http://127.0.0.1:0' },
  );
  const deps = await openDeps({ ...config, databaseUrl });
  try {
    const t = performance.now();
    let seeded: Seeded;
    if (reuse && existsSync(seededFile)) {
      seeded = JSON.parse(readFileSync(seededFile, 'utf8')) as Seeded;
      log(`  [${engine}] reusing the seeded database (BENCH_REUSE=1)`);
    } else {
      seeded = await seedBench(deps.db, { users, courses, log });
      if (reuse) writeFileSync(seededFile, JSON.stringify(seeded));
    }
    figures.seed_ms = Math.round(performance.now() - t);
    figures.results = seeded.results;
    log(
      `  [${engine}] seeded ${seeded.users} users × ${seeded.courses} courses, ${seeded.results} results in ${figures.seed_ms} ms`,
    );
    const app = await buildApp(deps, { logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const ctx: BenchContext = {
      deps,
      engine,
      baseUrl: `http://127.0.0.1:${port}`,
      seeded,
      headers: { authorization: `Bearer ${seeded.token}` },
      token: seeded.token,
      rootEntityId: seeded.groupId,
      sample,
    };
    try {
      for (const m of measures) {
        log(`  [${engine}] ${m.name}…`);
        try {
          Object.assign(figures, await m.run(ctx));
        } catch (error) {
          log(`  [${engine}] ${m.name} failed:`, error);
        }
      }
    } finally {
      await app.close();
    }
  } finally {
    await deps.close();
    if (!reuse) rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl && adminUrl && !reuse) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
  }
  return figures;
}

async function main() {
  const measures = await loadMeasures();
  const engines = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',');
  const all: Record<string, number> = {};
  const adminUrl = await postgresUrl();
  for (const engine of engines as ('pglite' | 'postgres')[]) {
    if (engine === 'postgres' && !adminUrl) {
      log('  PostgreSQL: not reachable (set DATABASE_URL); skipped.');
      continue;
    }
    const figures = await onEngine(engine, measures, adminUrl);
    for (const [k, v] of Object.entries(figures)) all[`${engine}.${k}`] = v;
  }
  const rows = Object.entries(all);
  const width = Math.max(...rows.map(([k]) => k.length), 10);
  log('\n  figure'.padEnd(width + 3), 'value');
  for (const [k, v] of rows) log(`  ${k.padEnd(width)} ${v}`);
  if (json) console.log(JSON.stringify(all));
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
