#!/usr/bin/env node
// `npm test`: the typechecks, lint and the mobile shell's build in two lanes side by side, stopping at the first
// failure; then the suites two
// at a time (the browser suite beside the server suites and the web unit suite; see "lanes" below). Each suite's
// output is printed whole when it ends; every suite runs even when another failed, and the run fails with the first
// failed step's exit code. Ends with each step's time and a plain "N passed, N failed" line.
//
// The browser suite needs Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH). Locally a missing browser skips
// that step with a clear line; under CI=true it is a failure, so CI can never pass without running the browser tests.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleServer } from './bundle-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const ci = process.env.CI === 'true' || process.env.CI === '1';
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function webScript(name) {
  try {
    const pkg = JSON.parse(readFileSync(path.join(root, 'web/package.json'), 'utf8'));
    return pkg.scripts?.[name] ?? null;
  } catch {
    return null;
  }
}

/** Each step: a name, the npm arguments, and a reason to skip (or null to run). */
// scripts/typecheck.mjs: TypeScript 7's native compiler where installed (about a third of tsc 5.9's CPU), else tsc.
const tsc = (project) => ({
  name: `typecheck (${project})`,
  args: ['exec', '--', 'node', 'scripts/typecheck.mjs', project],
});
/**
 * The checks, in two lanes run side by side (each tsc and the linters use one core; one after another they left the
 * second core idle for about four minutes): the server's typecheck and the linters, and the other typechecks and
 * the mobile shell's build. `npm run typecheck` is the same four type-checks.
 */
const checkLanes = [
  [tsc('server'), { name: 'lint', args: ['run', 'lint'] }],
  [
    tsc('packages/contracts'),
    tsc('web'),
    tsc('mobile'),
    // The shell's web bundle (web/dist-mobile, which the browser suite then reuses) and `cap sync` into the Android
    // and iOS projects: what can be checked of the native apps without their SDKs (docs/mobile-app.md "Mobile app").
    { name: 'mobile shell', args: ['run', 'build', '-w', 'mobile'] },
  ],
];
const checks = checkLanes.flat();
// With DATABASE_URL (CI, or a developer with a PostgreSQL server), each test runs once where the engine does not matter
// (issue 27, README "Tests"): the whole server suite on PostgreSQL, and on the embedded engine only its own tests plus
// a smoke slice (server/test/lanes.ts); the whole browser suite on the embedded PostgreSQL `npm start` runs, and the
// files that lean on the database hardest again on PostgreSQL (web/e2e/lanes.mjs). Without DATABASE_URL, everything
// runs on the embedded engine.
const onPostgres = Boolean(process.env.DATABASE_URL);
/** The environment with DATABASE_URL removed: the run uses the embedded engine. */
function embeddedEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  delete env.DATABASE_URL;
  return env;
}
const serverSuites = onPostgres
  ? [
      {
        name: 'server suite (PostgreSQL)',
        args: ['run', 'test', '-w', 'server'],
        env: { ...process.env, SERVER_SUITE: 'postgres' },
      },
      {
        name: 'server suite (embedded slice)',
        args: ['run', 'test', '-w', 'server'],
        env: embeddedEnv({ SERVER_SUITE: 'embedded' }),
      },
    ]
  : [{ name: 'server suite', args: ['run', 'test', '-w', 'server'], env: embeddedEnv() }];
const webUnitSuite = {
  name: 'web unit suite',
  args: ['run', 'test', '-w', 'web'],
  skip: () => (webScript('test') ? null : 'web/package.json has no "test" script yet'),
};
const browserSkip = () => {
  if (!webScript('test:e2e')) return 'web/package.json has no "test:e2e" script yet';
  if (!existsSync(chromium)) {
    if (ci) return { fail: `${chromium} is missing and CI=true: the browser suite must run in CI` };
    return "browser suite skipped: install Debian's chromium (apt-get install chromium)";
  }
  return null;
};
const browserSuite = {
  name: 'browser suite',
  args: ['run', 'test:e2e', '-w', 'web'],
  env: embeddedEnv(),
  skip: browserSkip,
};
const browserPostgresSlice = {
  name: 'browser suite (PostgreSQL slice)',
  args: ['run', 'test:e2e', '-w', 'web', '--', '--lane', 'postgres'],
  env: process.env,
  skip: browserSkip,
};
const suites = [browserSuite, ...serverSuites, webUnitSuite, ...(onPostgres ? [browserPostgresSlice] : [])];
const order = [...checks, ...suites].map((s) => s.name);

const results = [];
const seconds = (t) => `${((performance.now() - t) / 1000).toFixed(1)}s`;
const started = performance.now();

/** A failed suite's last lines (its summary of what failed), printed again at the very end of the run. */
function lastLines(text, n) {
  return text.trimEnd().split('\n').slice(-n).join('\n');
}

function finish(code) {
  for (const r of results.filter((x) => x.status === 'failed' && x.tail))
    console.log(`\n--- the end of the failed ${r.name} again ---\n${r.tail}`);
  const passed = results.filter((r) => r.status === 'passed').length;
  const failed = results.filter((r) => r.status === 'failed').length;
  const skipped = results.filter((r) => r.status === 'skipped');
  console.log('');
  results.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  for (const r of results) console.log(`  ${r.status.padEnd(7)} ${r.name.padEnd(33)} ${r.time ?? ''}`);
  if (skipped.length) console.log(`  (${skipped.length} skipped: ${skipped.map((s) => s.name).join(', ')})`);
  console.log(`total ${seconds(started)}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(code);
}

/** Whether to run the step: true, or false after recording it as skipped or failed. */
function shouldRun(step) {
  const skip = step.skip?.() ?? null;
  if (typeof skip === 'object' && skip?.fail) {
    console.error(`\n✖ ${step.name}: ${skip.fail}`);
    results.push({ name: step.name, status: 'failed', code: 1 });
    return false;
  }
  if (skip) {
    console.warn(`\n⚠ ${skip.startsWith('browser suite skipped') ? skip : `${step.name} skipped: ${skip}`}`);
    results.push({ name: step.name, status: 'skipped' });
    return false;
  }
  return true;
}

function record(step, code, signal, t, tail = null) {
  results.push({ name: step.name, status: code === 0 ? 'passed' : 'failed', time: seconds(t), code, tail });
  if (code !== 0) console.error(`\n✖ ${step.name} failed (exit ${signal ?? code})`);
}

/** A step beside others: its output is kept and printed whole when it ends, so the suites' reports do not mix. */
function runBeside(step) {
  return new Promise((resolve) => {
    console.log(`\n▶ ${step.name}: npm ${step.args.join(' ')} (output when it ends)`);
    const t = performance.now();
    const child = spawn(npm, step.args, {
      cwd: root,
      env: step.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks = [];
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    child.on('close', (status, signal) => {
      const code = status ?? 1;
      console.log(`\n--- ${step.name}: exit ${signal ?? code}, ${seconds(t)} ---`);
      const output = Buffer.concat(chunks);
      process.stdout.write(output);
      record(step, code, signal, t, lastLines(output.toString('utf8'), 40));
      resolve(code);
    });
  });
}

/**
 * Runs the suites two at a time, each next one starting when a place frees: the browser suite first (the longest),
 * beside the server suites and then the rest, so neither core waits while work is left.
 */
async function runPool(steps, places) {
  const queue = [...steps];
  const worker = async () => {
    for (let step = queue.shift(); step; step = queue.shift()) await runBeside(step);
  };
  await Promise.all(Array.from({ length: places }, worker));
}

/** The checks' lanes side by side, each stopping at its first failure; the run stops when any check failed. */
const checkCodes = await Promise.all(
  checkLanes.map(async (lane) => {
    for (const step of lane) {
      const code = await runBeside(step);
      if (code !== 0) return code;
    }
    return 0;
  }),
);
const failedCheck = checkCodes.find((code) => code !== 0);
if (failedCheck !== undefined) finish(failedCheck);
// The server bundle `npm start` runs, built once here: the server and browser suites start it side by side, and two
// builds at once could each read the other's half-written file.
await bundleServer(root);
// Checked first: a missing browser under CI=true fails before the long suites start.
const toRun = suites.filter(shouldRun);
if (results.some((r) => r.status === 'failed')) finish(1);
await runPool(toRun, 2);
finish(results.find((r) => r.status === 'failed')?.code ?? 0);
