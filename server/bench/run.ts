/**
 * `npm run bench` (issue 5 item 6): seeds 10,000 users × 200 courses with ~1.3M results into a fresh database, then
 * measures on PGlite (a fresh temp dir) and on PostgreSQL (DATABASE_URL, else 127.0.0.1:5432 when it answers; a
 * fresh database cc_bench_<ts>, dropped after). `-- --json` prints ONE JSON object of named figures on its last line.
 *
 * The server runs as its OWN process, the same bundle as `npm start` (server-process.ts), on the seeded database, and
 * the clients (the `ws` package and fetch) talk to it over real sockets from this process, as a browser would.
 * Memory: the sampler reads the server process's resident set (/proc/<pid>/status VmRSS) every 20 ms during a
 * measure; for PGlite that includes the embedded database engine, for the embedded PostgreSQL its processes' proportional
 * set size is a figure of its own (database_mb).
 *
 * Measures are modules in bench/measures/*.ts exporting `name`, `needs` and `run(ctx)`; each returns named figures.
 * Ceilings in the same run (issue 12 §2), so the figures hold on a noisy machine: api_read_rps next to
 * bare_fastify_rps (one bare Fastify route in the same kind of process) and api_read_vs_bare_ratio; matrix_complete_ms
 * next to matrix_one_statement_ms (one statement reading and encoding the same cells) and
 * matrix_vs_one_statement_ratio; *_login_max_ms: the slowest fresh login under the 200-client loads and the export.
 * Each measure reads the data it names (issue 36 §1, docs/benchmark.md "What each figure reads"): the importer
 * imports into an organisation of its own and removes it; the ceiling reads exactly the matrix's people and cells,
 * and the run prints both counts and fails (BENCH FAILED, exit code 1) when they differ.
 * Env: BENCH_USERS (10000), BENCH_COURSES (200), BENCH_ENGINES (embedded,postgres; also pglite), BENCH_MEASURES (all files).
 * BENCH_REUSE=1: keep the seeded database (PGlite dir /tmp/cc-bench-keep-<users>x<courses>, PostgreSQL database
 * cc_bench_keep_<users>x<courses>) and reuse it on the next run with the same sizes, instead of a fresh seed (the
 * 2–5 minute seed is paid once while iterating; migrations still run on open; BENCH_REUSE_NAME names them instead).
 * A reused database first loses what an importer measure left in it. Default: a fresh seed, dropped after.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
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
import { openDeps } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import type { DatabaseSession } from '../src/db/connect';
import type { Deps } from '../src/http/context';
import { removeImporterData, type Seeded, seedBench, vacuumAfterImporter } from './seed';
import { type ServerProcess, startServerProcess } from './server-process';

/**
 * embedded: the engine `npm start` uses without DATABASE_URL (EMBEDDED_ENGINE auto: the PostgreSQL binaries, PGlite
 * where they cannot run); pglite: the PGlite fallback forced (EMBEDDED_ENGINE=pglite); postgres: DATABASE_URL.
 */
export type BenchEngine = 'embedded' | 'pglite' | 'postgres';

/** What a measure of the running server gets: the server is its own process (server-process.ts). */
export interface BenchContext {
  engine: BenchEngine;
  baseUrl: string;
  seeded: Seeded;
  /** Bearer headers of the bench manager (permissions 12, 14, 15 on the group). */
  headers: Record<string, string>;
  token: string;
  rootEntityId: number;
  server: ServerProcess;
  /**
   * Runs fn while sampling the SERVER process's resident memory every 20 ms; returns fn's result, elapsed ms, the
   * server's peak RSS and its RSS at the start, MB.
   */
  sample<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; peakMb: number; startMb: number }>;
}

/** What a measure of the database layer gets (it calls services in this process, before the server starts). */
export interface DatabaseContext {
  /** The app's dependencies and the database's own session (COPY: backup/session.ts). */
  deps: Deps & { database: { session: DatabaseSession } };
  engine: BenchEngine;
  seeded: Seeded;
  rootEntityId: number;
}

/**
 * `needs`: 'database' measures run in this process on the open database; 'server' measures (the default) talk to
 * the server process over real sockets; 'none' measures bring their own (api-reads: the demo data set).
 */
interface Measure {
  name: string;
  needs: 'database' | 'server' | 'none';
  run(ctx: BenchContext | DatabaseContext | { engine: BenchEngine }): Promise<Record<string, number>>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const json = process.argv.includes('--json');
const log = (...a: unknown[]) => {
  if (!json) console.log(...a);
  else console.error(...a);
};

function samplerOf(server: ServerProcess): BenchContext['sample'] {
  return async (fn) => {
    const start = server.rssMb();
    let peak = start;
    const timer = setInterval(() => {
      peak = Math.max(peak, server.rssMb());
    }, 20);
    const t = performance.now();
    try {
      const value = await fn();
      const ms = performance.now() - t;
      peak = Math.max(peak, server.rssMb());
      return { value, ms: Math.round(ms), peakMb: peak, startMb: start };
    } finally {
      clearInterval(timer);
    }
  };
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
    if (typeof mod.run === 'function')
      out.push({ name: mod.name ?? f, needs: mod.needs ?? 'server', run: mod.run as Measure['run'] });
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

async function onEngine(engine: BenchEngine, measures: Measure[], adminUrl: string | null) {
  const users = Number(process.env.BENCH_USERS ?? 10_000);
  const courses = Number(process.env.BENCH_COURSES ?? 200);
  const reuse = process.env.BENCH_REUSE === '1';
  const keepName = process.env.BENCH_REUSE_NAME;
  if (keepName && !/^[a-z_][a-z0-9_]{0,62}$/.test(keepName))
    throw new Error('BENCH_REUSE_NAME: lower-case letters, digits and _ (a database name)');
  const keepDir = path.join(tmpdir(), keepName ?? `cc-bench-keep-${users}x${courses}`);
  const dataDir = reuse ? path.join(keepDir, engine) : mkdtempSync(path.join(tmpdir(), 'cc-bench-'));
  if (reuse) mkdirSync(dataDir, { recursive: true });
  chmodSync(dataDir, 0o755); // the embedded PostgreSQL's `postgres` user (when root) must enter it
  // The server processes and the seeding below read the engine from the environment, as `npm start` does.
  if (engine === 'pglite') process.env.EMBEDDED_ENGINE = 'pglite';
  else delete process.env.EMBEDDED_ENGINE;
  const seededFile = path.join(dataDir, 'seeded.json');
  let databaseUrl: string | undefined;
  const dbName = reuse ? (keepName ?? `cc_bench_keep_${users}x${courses}`) : `cc_bench_${Date.now()}`;
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
  const failures: string[] = [];
  const config = loadConfig(
    {
      ...process.env,
      NODE_ENV: 'production',
      // Required in production (issue 29 §14).
      SECRETS_KEY: process.env.SECRETS_KEY || randomBytes(32).toString('base64'),
      DATABASE_URL: databaseUrl,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'error',
    },
    { dataDir, appUrl: 'http://127.0.0.1:0' },
  );
  const runOne = async (m: Measure, ctx: Parameters<Measure['run']>[0]) => {
    log(`  [${engine}] ${m.name}…`);
    try {
      Object.assign(figures, await m.run(ctx));
    } catch (error) {
      // A measure that failed has no figures: the run says so at the end and exits non-zero, like a ceiling that
      // reads other data, so a broken measure never passes for a run with nothing to report.
      log(`  [${engine}] ${m.name} failed:`, error);
      failures.push(`[${engine}] ${m.name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const runAll = async (kind: Measure['needs'], ctx: Parameters<Measure['run']>[0]) => {
    for (const m of measures.filter((x) => x.needs === kind)) await runOne(m, ctx);
  };
  try {
    const deps = await openDeps({ ...config, databaseUrl });
    let seeded: Seeded;
    try {
      const t = performance.now();
      if (reuse && existsSync(seededFile)) {
        seeded = JSON.parse(readFileSync(seededFile, 'utf8')) as Seeded;
        log(`  [${engine}] reusing the seeded database (BENCH_REUSE=1)`);
        // What an importer measure left (a crash half-way, or a database kept from before issue 36, when it
        // imported into the bench organisation): the measures read the seeded people only.
        const removed = await removeImporterData(deps.db, seeded.groupId);
        if (removed) log(`  [${engine}] removed ${removed} people an earlier importer measure left`);
        await vacuumAfterImporter(deps.db);
      } else {
        seeded = await seedBench(deps.db, { users, courses, log });
        if (reuse) writeFileSync(seededFile, JSON.stringify(seeded));
      }
      figures.seed_ms = Math.round(performance.now() - t);
      figures.results = seeded.results;
      log(
        `  [${engine}] seeded ${seeded.users} users × ${seeded.courses} courses, ${seeded.results} results in ${figures.seed_ms} ms`,
      );
      await runAll('database', { deps, engine, seeded, rootEntityId: seeded.groupId });
    } finally {
      // The server process opens the database itself (PGlite's folder takes one process at a time).
      await deps.close();
    }
    // Each server measure gets a freshly started server, so its memory figure is its own and not what an earlier
    // measure left in V8's heap or PGlite's memory.
    for (const m of measures.filter((x) => x.needs === 'server')) {
      const server = await startServerProcess({ dataDir, databaseUrl, seedDemo: false });
      figures.server_ready_ms = server.readyMs;
      figures.server_ready_rss_mb = server.rssMb();
      figures.server_ready_database_mb = server.databaseMb();
      try {
        await runOne(m, {
          engine,
          baseUrl: server.baseUrl,
          seeded,
          headers: { authorization: `Bearer ${seeded.token}` },
          token: seeded.token,
          rootEntityId: seeded.groupId,
          server,
          sample: samplerOf(server),
        });
      } finally {
        await server.stop();
      }
    }
    await runAll('none', { engine });
    // The ceiling reads what the matrix reads (issue 36 §1): the same people and cells, or the ratio means nothing.
    if (figures.matrix_users !== undefined && figures.matrix_one_statement_users !== undefined) {
      const line = `matrix ${figures.matrix_users} people / ${figures.matrix_cells} cells, its one-statement ceiling ${figures.matrix_one_statement_users} people / ${figures.matrix_one_statement_cells} cells`;
      log(`  [${engine}] ${line}`);
      if (
        figures.matrix_users !== figures.matrix_one_statement_users ||
        figures.matrix_cells !== figures.matrix_one_statement_cells
      )
        failures.push(`[${engine}] the ceiling does not read the matrix's data: ${line}`);
    }
    // The ceilings next to the figures (issue 12 §2), as ratios that hold on a noisy machine.
    if (figures.matrix_complete_ms && figures.matrix_one_statement_ms)
      figures.matrix_vs_one_statement_ratio =
        Math.round((figures.matrix_complete_ms / figures.matrix_one_statement_ms) * 100) / 100;
  } finally {
    if (!reuse) rmSync(dataDir, { recursive: true, force: true });
    if (databaseUrl && adminUrl && !reuse) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
  }
  return { figures, failures };
}

async function main() {
  const measures = await loadMeasures();
  const engines = (process.env.BENCH_ENGINES ?? 'embedded,postgres').split(',');
  const all: Record<string, number> = {};
  const failures: string[] = [];
  const adminUrl = await postgresUrl();
  for (const engine of engines as BenchEngine[]) {
    if (engine === 'postgres' && !adminUrl) {
      log('  PostgreSQL: not reachable (set DATABASE_URL); skipped.');
      continue;
    }
    const { figures, failures: failed } = await onEngine(engine, measures, adminUrl);
    failures.push(...failed);
    for (const [k, v] of Object.entries(figures)) all[`${engine}.${k}`] = v;
  }
  const rows = Object.entries(all);
  const width = Math.max(...rows.map(([k]) => k.length), 10);
  log('\n  figure'.padEnd(width + 3), 'value');
  for (const [k, v] of rows) log(`  ${k.padEnd(width)} ${v}`);
  if (json) console.log(JSON.stringify(all));
  if (failures.length) {
    for (const f of failures) console.error(`\n  BENCH FAILED ${f}`);
    process.exitCode = 1;
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
