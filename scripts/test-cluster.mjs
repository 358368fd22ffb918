#!/usr/bin/env node
// `npm run test:cluster` (issue 12 §4): three server processes on one fresh PostgreSQL database behind HAProxy, under
// mixed load, one of them killed with SIGKILL, then another killed among a few hundred due jobs (issue 30 §5;
// server/test/cluster/cluster.test.ts). Needs:
//   - haproxy (Debian: apt-get install -y haproxy; or HAPROXY_PATH),
//   - a PostgreSQL server where it may create and drop a database: DATABASE_URL (default
//     postgres://postgres@127.0.0.1:5432/postgres, the one the README's PostgreSQL section uses).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const haproxy = process.env.HAPROXY_PATH || 'haproxy';
const probe = spawnSync(haproxy, ['-v'], { encoding: 'utf8' });
if (probe.error || probe.status !== 0) {
  console.error(
    `test:cluster: HAProxy is missing (${haproxy}). The multi-process test runs three servers behind a real reverse ` +
      'proxy: install it with `apt-get install -y haproxy` (Debian), or set HAPROXY_PATH.',
  );
  process.exit(1);
}
const env = {
  ...process.env,
  DATABASE_URL: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
};
const started = performance.now();
const result = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'test/cluster/vitest.config.ts'],
  { cwd: path.join(root, 'server'), env, stdio: 'inherit' },
);
console.log(`test:cluster: ${((performance.now() - started) / 1000).toFixed(0)} s`);
process.exit(result.status ?? 1);
