#!/usr/bin/env node
/**
 * Browser test runner: `npm run test:e2e -w web`.
 * 1. builds web/dist and web/dist-mobile (VITE_FORCE_MOBILE=1) when the sources are newer;
 * 2. splits e2e/*.test.mjs into shards (E2E_SHARDS, default 3) of about equal duration (e2e/durations.json, the
 *    measured seconds of each file; a file not in it is estimated from its length), run side by side: each shard is a
 *    child process with its OWN server, data folder and database, so no test sees another shard's changes, and runs
 *    its files one after another like the single server did;
 * 3. in each shard: starts the real server on a free port with a fresh DATA_DIR (the embedded PostgreSQL `npm start`
 *    runs, demo seed) — or, when DATABASE_URL is set, on a fresh database cc_e2e_<timestamp>_<shard> created there and
 *    dropped at the end; serves dist-mobile on a second port, proxying the API to the server (same origin, like the
 *    shell); runs its files with node:test + playwright-core in Debian Chromium (its headless shell when installed);
 * 4. prints each shard's report whole, writes e2e/artifacts/ran.json {"passed","failed"} summed over the shards (a
 *    shard that ended without its counts counts as failed) and e2e/artifacts/durations.json, and prints
 *    "N passed, N failed".
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { fileURLToPath } from 'node:url';
import { bundleServer, SERVER_NODE_FLAGS } from '../../scripts/bundle-server.mjs';
import { POSTGRES_FILES } from './lanes.mjs';
import { startStaticProxy } from './static-proxy.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(here, '..');
const root = path.resolve(web, '..');
// `--lane postgres` (npm test with DATABASE_URL): only e2e/lanes.mjs's files, reported in artifacts-postgres/ so the
// whole suite's report and its ran.json (which CI checks) stay as the embedded run left them.
const laneArg = process.argv.indexOf('--lane');
const lane = laneArg >= 0 ? process.argv[laneArg + 1] : 'all';
if (!['all', 'postgres'].includes(lane))
  throw new Error(`--lane must be postgres (or absent), not "${lane}"`);
if (lane === 'postgres' && !process.env.DATABASE_URL) throw new Error('--lane postgres needs DATABASE_URL');
const artifacts =
  process.env.E2E_ARTIFACTS_DIR ?? path.join(here, lane === 'postgres' ? 'artifacts-postgres' : 'artifacts');
// The shards (children of this runner) write their counts where it reads them.
process.env.E2E_ARTIFACTS_DIR = artifacts;
/**
 * Debian's Chromium. Its `chromium-headless-shell` package (the same Chromium release built as the old headless shell,
 * what Playwright itself runs headless) is used when installed: the same pages and the same tests cost about 35 % less
 * of Chromium's CPU there than in the full browser's headless mode (browser process 1.3 against 4.0 CPU-seconds,
 * renderers 6.1 against 10.2, for 4 sign-ins of 3 pages each; issue 27), and CI's time is its CPU work over two cores.
 * `.ci/run` installs both; CHROMIUM_PATH picks another.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

if (!existsSync(CHROMIUM)) {
  const msg = `e2e: skipped — Chromium not found at ${CHROMIUM} (apt-get install -y chromium).`;
  if (process.env.CI === 'true') {
    console.error(`${msg} CI=true, failing.`);
    process.exit(1);
  }
  console.log(msg);
  process.exit(0);
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.endsWith('.test.ts') || entry.name.endsWith('.test.tsx'))
      continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

function buildIfNeeded(outDir, env) {
  const index = path.join(web, outDir, 'index.html');
  const sources = Math.max(
    newestMtime(path.join(web, 'src')),
    newestMtime(path.join(root, 'packages/contracts/src')),
    statSync(path.join(web, 'index.html')).mtimeMs,
    statSync(path.join(web, 'vite.config.ts')).mtimeMs,
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  console.log(`e2e: building ${outDir}…`);
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: web,
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`vite build (${outDir}) failed`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitForCheck(url, child, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/check`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('server did not answer GET /api/check in time');
}

async function freshDatabase(baseUrl, shard) {
  const { default: pg } = await import('pg');
  // Shards start in the same millisecond: the shard number keeps their names apart.
  const name = `cc_e2e_${Date.now()}_${shard}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
      await c.query(`DROP DATABASE IF EXISTS ${name}`);
      await c.end();
    },
  };
}

const cleanups = [];
async function cleanup() {
  while (cleanups.length) {
    try {
      await cleanups.pop()();
    } catch (e) {
      console.error('e2e cleanup:', e.message);
    }
  }
}
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
process.on('SIGTERM', () => void cleanup().then(() => process.exit(143)));

const SHARD_FILES = 'E2E_SHARD_FILES';
/** The server bundle's path, from the main process to its shards. */
const SERVER_BUNDLE = 'E2E_SERVER_BUNDLE';
const DURATIONS = path.join(here, 'durations.json');

/** One shard (a child of the runner): its own server, data folder or database, and mobile proxy; its files in turn. */
async function runShard(shard, files) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-e2e-'));
  // The embedded PostgreSQL runs as the `postgres` user when we are root: it must be able to enter the folder.
  chmodSync(dataDir, 0o755);
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    APP_URL: `http://127.0.0.1:${port}`,
    // The auth flows read reset and verification links from the outbox view, which masks them otherwise.
    OUTBOX_SHOW_LINKS: 'true',
    // The webhooks test registers a receiver on 127.0.0.1, which the SSRF guard refuses otherwise.
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    // argon2id at its smallest cost (server/src/auth/passwords.ts): every sign-in of the suite verifies a hash, about
    // 0.2 CPU-seconds each at the standard cost.
    PASSWORD_HASHING: 'fast',
  };
  delete env[SHARD_FILES];
  delete env[SERVER_BUNDLE];
  if (process.env.DATABASE_URL) {
    const db = await freshDatabase(process.env.DATABASE_URL, shard);
    cleanups.push(db.drop);
    env.DATABASE_URL = db.url;
    console.log(`e2e: PostgreSQL database ${new URL(db.url).pathname.slice(1)}`);
  }
  const bundle = process.env[SERVER_BUNDLE];
  const server = spawn(
    process.execPath,
    // The bundle `npm start` runs, built once by the main process (a start through tsx compiles every module again:
    // about 9 s of CPU against 3). Node itself, not a launcher in between: SIGTERM reaches the server, which stops
    // its embedded PostgreSQL.
    bundle ? [...SERVER_NODE_FLAGS, bundle] : ['--import', 'tsx', 'server/src/main.ts'],
    {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let serverLog = '';
  server.stdout.on('data', (d) => (serverLog += d));
  server.stderr.on('data', (d) => (serverLog += d));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        if (server.exitCode !== null) return resolve();
        server.once('exit', resolve);
        server.kill('SIGTERM');
        setTimeout(() => server.kill('SIGKILL'), 5000).unref();
      }),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForCheck(baseUrl, server).catch((e) => {
    console.error(serverLog);
    throw e;
  });
  // The start-up line names the engine: say it, so a run on the PGlite fallback is visible.
  const database = /database: ([^)]*)\)/.exec(serverLog)?.[1] ?? 'unknown';
  console.log(`e2e: server ready at ${baseUrl} (database: ${database})`);

  const mobile = await startStaticProxy(path.join(web, 'dist-mobile'), baseUrl);
  cleanups.push(mobile.close);

  // Read by e2e/lib.mjs in each test file's process (node:test starts them with this environment).
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_MOBILE_URL = mobile.url;
  process.env.E2E_CHROMIUM = CHROMIUM;
  process.env.E2E_ARTIFACTS = artifacts;

  let passed = 0;
  let failed = 0;
  /** Seconds of each file's top-level tests, for the next run's split. */
  const seconds = {};
  const count = (e) => {
    if (e.nesting === 0 && e.file) {
      const name = path.basename(e.file);
      seconds[name] = (seconds[name] ?? 0) + (e.details?.duration_ms ?? 0) / 1000;
    }
  };
  // A file's bound: the longest (acceptance-scorm, admin, navigation) take 330-420 s on a quiet CI machine and passed
  // 600 s under a second suite's load.
  const stream = run({ files, concurrency: 1, timeout: 900_000 });
  stream.on('test:pass', (e) => {
    count(e);
    if (e.details?.type !== 'suite') passed++;
  });
  /** Each failed test in a line, printed again after every shard's report so a log's tail names them. */
  const failures = [];
  stream.on('test:fail', (e) => {
    count(e);
    if (e.details?.type === 'suite') return;
    failed++;
    const cause = e.details?.error?.cause ?? e.details?.error;
    const why = String(cause?.message ?? cause ?? '')
      .split('\n')[0]
      .slice(0, 300);
    failures.push(`${path.basename(e.file ?? '?')} › ${e.name}: ${why}`);
  });
  await new Promise((resolve, reject) => {
    const out = stream.compose(spec);
    out.pipe(process.stdout);
    out.on('end', resolve);
    out.on('error', reject);
  });
  writeFileSync(
    path.join(artifacts, `shard-${shard}.json`),
    JSON.stringify({ passed, failed, seconds, failures }),
  );
  await cleanup();
  if (failed && serverLog.trim()) console.log(`--- server log ---\n${serverLog.slice(-4000)}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

function knownDurations() {
  try {
    return JSON.parse(readFileSync(DURATIONS, 'utf8'));
  } catch {
    return {};
  }
}

/**
 * A file never measured: about one second per 3 lines (a whole CI run took 1267 s for 4031 lines of test files). Only
 * the files' weights against each other matter to the split.
 */
function estimate(file) {
  return readFileSync(file, 'utf8').split('\n').length / 3;
}

/**
 * Longest first, each to the shard with the least so far; each shard then runs its files in name order, as the single
 * server did.
 */
function split(files, shards, durations) {
  const weight = (f) => durations[path.basename(f)] ?? estimate(f);
  const groups = Array.from({ length: shards }, () => ({ files: [], total: 0 }));
  for (const f of [...files].sort((a, b) => weight(b) - weight(a))) {
    const lightest = groups.reduce((min, g) => (g.total < min.total ? g : min));
    lightest.files.push(f);
    lightest.total += weight(f);
  }
  return groups.filter((g) => g.files.length > 0).map((g) => ({ ...g, files: g.files.sort() }));
}

/** Runs one shard as a child process; its whole output is kept to be printed after all shards end. */
function startShard(shard, files) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--shard', String(shard)], {
      cwd: web,
      env: { ...process.env, [SHARD_FILES]: JSON.stringify(files) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const stop = () => child.kill('SIGTERM');
    process.once('SIGINT', stop);
    child.on('close', (code, signal) => {
      process.off('SIGINT', stop);
      const took = ((performance.now() - started) / 1000).toFixed(0);
      console.log(`e2e: shard ${shard} ended (exit ${code ?? signal}) after ${took}s`);
      resolve({ shard, files, code: code ?? 1, output, took });
    });
  });
}

function shardCounts(shard) {
  try {
    const r = JSON.parse(readFileSync(path.join(artifacts, `shard-${shard}.json`), 'utf8'));
    if (Number.isInteger(r.passed) && Number.isInteger(r.failed)) return r;
  } catch {
    // missing or unreadable: the shard ended before its files did
  }
  return null;
}

async function main() {
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(path.join(artifacts, 'screenshots'), { recursive: true });
  buildIfNeeded('dist', { VITE_FORCE_MOBILE: '' });
  buildIfNeeded('dist-mobile', { VITE_FORCE_MOBILE: '1' });
  const bundle = await bundleServer(root);
  if (bundle) process.env[SERVER_BUNDLE] = bundle;

  // `node e2e/run.mjs matrix reports` runs only the files whose names contain one of the words.
  const only = process.argv.slice(2).filter((a, i, all) => a !== '--lane' && all[i - 1] !== '--lane');
  const files = readdirSync(here)
    .filter((f) => f.endsWith('.test.mjs'))
    .filter((f) => lane === 'all' || POSTGRES_FILES.includes(f))
    .filter((f) => only.length === 0 || only.some((word) => f.includes(word)))
    .map((f) => path.join(here, f));
  const wanted = Number(process.env.E2E_SHARDS ?? 3);
  if (!Number.isInteger(wanted) || wanted < 1)
    throw new Error(`E2E_SHARDS must be a whole number ≥ 1 (${wanted})`);
  const known = knownDurations();
  const shards = split(files, Math.min(wanted, Math.max(files.length, 1)), known);
  for (const [i, g] of shards.entries())
    console.log(
      `e2e: shard ${i + 1}: ${g.files.length} files, about ${g.total.toFixed(0)}s (${g.files.map((f) => path.basename(f, '.test.mjs')).join(', ')})`,
    );
  const results = await Promise.all(shards.map((g, i) => startShard(i + 1, g.files)));

  let passed = 0;
  let failed = 0;
  const failures = [];
  const measured = { ...known };
  /** [file, seconds] of the files this run measured, for its slowest-files list. */
  const ranNow = [];
  for (const r of results) {
    console.log(`\n--- browser shard ${r.shard}: exit ${r.code}, ${r.took}s ---`);
    process.stdout.write(r.output);
    const counts = shardCounts(r.shard);
    if (!counts) {
      console.error(`e2e: shard ${r.shard} ended without its counts: counted as failed`);
      failed += 1;
      continue;
    }
    passed += counts.passed;
    failed += counts.failed;
    failures.push(...(counts.failures ?? []).map((f) => `shard ${r.shard}: ${f}`));
    // A shard that failed with exit code but no failed test (a crash after its tests) still fails the run.
    if (r.code !== 0 && counts.failed === 0) failed += 1;
    for (const [file, s] of Object.entries(counts.seconds ?? {})) {
      measured[file] = Math.round(s);
      ranNow.push([file, s]);
    }
  }
  writeFileSync(path.join(artifacts, 'ran.json'), JSON.stringify({ passed, failed }));
  // Copy over e2e/durations.json to split later runs by these figures.
  writeFileSync(path.join(artifacts, 'durations.json'), `${JSON.stringify(sortKeys(measured), null, 2)}\n`);
  printSlowest(ranNow);
  if (failures.length) console.log(`\nFailed browser tests:\n${failures.map((f) => `  ✖ ${f}`).join('\n')}`);
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

/** The 20 slowest files of this run (issue 27: CI's log says where the suite's time goes). */
function printSlowest(ranNow) {
  const seconds = [...ranNow].sort(([, a], [, b]) => b - a);
  console.log(`\nslowest 20 browser test files (${lane === 'postgres' ? 'PostgreSQL' : 'embedded'}):`);
  for (const [file, s] of seconds.slice(0, 20)) console.log(`  ${s.toFixed(1).padStart(6)}s  ${file}`);
}

function sortKeys(o) {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}

const shardArg = process.argv.indexOf('--shard');
const entry =
  shardArg >= 0
    ? runShard(Number(process.argv[shardArg + 1]), JSON.parse(process.env[SHARD_FILES] ?? '[]'))
    : main();
entry.catch(async (error) => {
  console.error(error);
  await cleanup();
  process.exit(1);
});
