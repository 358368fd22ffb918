#!/usr/bin/env node
/**
 * Browser test runner: `npm run test:e2e -w web`.
 * 1. builds web/dist and web/dist-mobile (VITE_FORCE_MOBILE=1) when the sources are newer;
 * 2. starts the real server on a free port with a fresh DATA_DIR (the embedded PostgreSQL `npm start` runs, demo seed) — or, when
 *    DATABASE_URL is set, on a fresh database cc_e2e_<timestamp> created here and dropped at the end;
 * 3. serves dist-mobile on a second port, proxying the API to the server (same origin, like the shell);
 * 4. runs e2e/*.test.mjs with node:test + playwright-core in Debian Chromium (/usr/bin/chromium);
 * 5. writes e2e/artifacts/ran.json {"passed","failed"} and prints "N passed, N failed".
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
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
import { startStaticProxy } from './static-proxy.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(here, '..');
const root = path.resolve(web, '..');
const artifacts = path.join(here, 'artifacts');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

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

async function freshDatabase(baseUrl) {
  const { default: pg } = await import('pg');
  const name = `cc_e2e_${Date.now()}`;
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

async function main() {
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(path.join(artifacts, 'screenshots'), { recursive: true });
  buildIfNeeded('dist', { VITE_FORCE_MOBILE: '' });
  buildIfNeeded('dist-mobile', { VITE_FORCE_MOBILE: '1' });

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
  };
  if (process.env.DATABASE_URL) {
    const db = await freshDatabase(process.env.DATABASE_URL);
    cleanups.push(db.drop);
    env.DATABASE_URL = db.url;
    console.log(`e2e: PostgreSQL database ${new URL(db.url).pathname.slice(1)}`);
  }
  const server = spawn(
    process.execPath,
    // Node itself (not the tsx launcher in between): SIGTERM reaches the server, which stops its embedded PostgreSQL.
    ['--import', 'tsx', 'server/src/main.ts'],
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

  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_MOBILE_URL = mobile.url;
  process.env.E2E_CHROMIUM = CHROMIUM;
  process.env.E2E_ARTIFACTS = artifacts;

  // `node e2e/run.mjs matrix reports` runs only the files whose names contain one of the words.
  const only = process.argv.slice(2);
  const files = readdirSync(here)
    .filter((f) => f.endsWith('.test.mjs'))
    .filter((f) => only.length === 0 || only.some((word) => f.includes(word)))
    .map((f) => path.join(here, f));
  let passed = 0;
  let failed = 0;
  const stream = run({ files, concurrency: 1, timeout: 600_000 });
  stream.on('test:pass', (e) => {
    if (e.details?.type !== 'suite') passed++;
  });
  stream.on('test:fail', (e) => {
    if (e.details?.type !== 'suite') failed++;
  });
  await new Promise((resolve, reject) => {
    const out = stream.compose(spec);
    out.pipe(process.stdout);
    out.on('end', resolve);
    out.on('error', reject);
  });
  writeFileSync(path.join(artifacts, 'ran.json'), JSON.stringify({ passed, failed }));
  await cleanup();
  if (failed && serverLog.trim()) console.log(`--- server log ---\n${serverLog.slice(-4000)}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch(async (error) => {
  console.error(error);
  await cleanup();
  process.exit(1);
});
