#!/usr/bin/env node
// `npm test`: typecheck, lint, server suite, web unit suite, browser suite, in that order; stops at the first
// failure with its exit code and ends with a plain "N passed, N failed" line.
//
// The browser suite needs Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH). Locally a missing browser skips
// that step with a clear line; under CI=true it is a failure, so CI can never pass without running the browser tests.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
const steps = [
  { name: 'typecheck', args: ['run', 'typecheck'] },
  { name: 'lint', args: ['run', 'lint'] },
  { name: 'server suite', args: ['run', 'test', '-w', 'server'] },
  {
    name: 'web unit suite',
    args: ['run', 'test', '-w', 'web'],
    skip: () => (webScript('test') ? null : 'web/package.json has no "test" script yet'),
  },
  {
    name: 'browser suite',
    args: ['run', 'test:e2e', '-w', 'web'],
    skip: () => {
      if (!webScript('test:e2e')) return 'web/package.json has no "test:e2e" script yet';
      if (!existsSync(chromium)) {
        if (ci) return { fail: `${chromium} is missing and CI=true: the browser suite must run in CI` };
        return "browser suite skipped: install Debian's chromium (apt-get install chromium)";
      }
      return null;
    },
  },
];

const results = [];
const seconds = (t) => `${((performance.now() - t) / 1000).toFixed(1)}s`;
const started = performance.now();

function finish(code) {
  const passed = results.filter((r) => r.status === 'passed').length;
  const failed = results.filter((r) => r.status === 'failed').length;
  const skipped = results.filter((r) => r.status === 'skipped');
  console.log('');
  for (const r of results) console.log(`  ${r.status.padEnd(7)} ${r.name.padEnd(15)} ${r.time ?? ''}`);
  if (skipped.length) console.log(`  (${skipped.length} skipped: ${skipped.map((s) => s.name).join(', ')})`);
  console.log(`total ${seconds(started)}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(code);
}

for (const step of steps) {
  const skip = step.skip?.() ?? null;
  if (typeof skip === 'object' && skip?.fail) {
    console.error(`\n✖ ${step.name}: ${skip.fail}`);
    results.push({ name: step.name, status: 'failed' });
    finish(1);
  }
  if (skip) {
    console.warn(`\n⚠ ${skip.startsWith('browser suite skipped') ? skip : `${step.name} skipped: ${skip}`}`);
    results.push({ name: step.name, status: 'skipped' });
    continue;
  }
  console.log(`\n▶ ${step.name}: npm ${step.args.join(' ')}`);
  const t = performance.now();
  const run = spawnSync(npm, step.args, { cwd: root, stdio: 'inherit' });
  const code = run.status ?? 1;
  results.push({ name: step.name, status: code === 0 ? 'passed' : 'failed', time: seconds(t) });
  if (code !== 0) {
    console.error(`\n✖ ${step.name} failed (exit ${run.status ?? run.signal})`);
    finish(code);
  }
}
finish(0);
