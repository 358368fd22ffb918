#!/usr/bin/env node
// Runs the Capacitor CLI (`npm run cap -w mobile -- sync`). Capacitor 8's CLI needs Node.js 22 or later while the
// project itself runs on Node.js 20: on an older Node.js the CLI runs under Node.js 22 fetched from the npm registry
// (the `node` package) for this one command, so nothing else changes version.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cli = createRequire(path.join(here, 'package.json')).resolve('@capacitor/cli/bin/capacitor');
const args = process.argv.slice(2);
const major = Number(process.versions.node.split('.')[0]);
const NODE_FOR_CLI = 'node@22.23.3';

const run =
  major >= 22
    ? spawnSync(process.execPath, [cli, ...args], { cwd: here, stdio: 'inherit' })
    : spawnSync('npx', ['--yes', '--package', NODE_FOR_CLI, '--', 'node', cli, ...args], {
        cwd: here,
        stdio: 'inherit',
      });
process.exit(run.status ?? 1);
