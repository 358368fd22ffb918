#!/usr/bin/env node
// `npm start`: build the web app when its sources changed, then run the server.
//
// Start-up time matters (cold start on an existing data folder must stay under 3 s), so:
// - the web build runs only when web/dist is missing or older than a source file (mtime check, a few ms);
// - the server runs from an esbuild bundle (server/dist/main.mjs, rebuilt when a source is newer than it) instead of
//   through tsx, whose on-the-fly transpiling of every module costs about 1.3 s more.
//   Without esbuild (it comes with tsx and vite) we fall back to tsx.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleServer, newestMtime, SERVER_NODE_FLAGS } from './bundle-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const rel = (p) => path.join(root, p);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function webSourcesNewest() {
  const web = rel('web');
  const configs = existsSync(web) ? readdirSync(web).filter((n) => /^vite\.config\./.test(n)) : [];
  return Math.max(
    newestMtime(rel('web/src')),
    newestMtime(rel('web/index.html')),
    newestMtime(rel('packages/contracts/src')),
    ...configs.map((n) => newestMtime(path.join(web, n))),
  );
}

function buildWebIfStale() {
  if (process.env.SKIP_WEB_BUILD === 'true') return;
  if (!existsSync(rel('web/index.html'))) {
    console.warn('warning: web/index.html does not exist yet; skipping the web build (API only).');
    return;
  }
  const built = newestMtime(rel('web/dist/index.html'));
  const reason = built === 0 ? 'web/dist is missing' : webSourcesNewest() > built ? 'sources changed' : null;
  if (!reason) return;
  console.log(`Building the web app (${reason}): npm run build -w web ...`);
  const started = performance.now();
  const result = spawnSync(npm, ['run', 'build', '-w', 'web', '--silent'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`The web build failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
  console.log(`Web app built in ${((performance.now() - started) / 1000).toFixed(1)}s.`);
}

buildWebIfStale();
const bundle = await bundleServer(root).catch((error) => {
  console.warn(`warning: could not bundle the server (${error.message}); running it through tsx.`);
  return null;
});
const [command, args] = bundle
  ? [process.execPath, [...SERVER_NODE_FLAGS, bundle]]
  : [process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', rel('server/src/main.ts')]];
// Its own process group (not on Windows, where that opens a console of its own): a Ctrl-C in the terminal reaches
// only us, and we pass it on once. Otherwise the server got each Ctrl-C twice (from the terminal and from us) and took
// the second for "stop now" (issue 12 §3).
const child = spawn(command, args, { cwd: root, stdio: 'inherit', detached: process.platform !== 'win32' });

// Forward stop signals: the first drains the server (it answers what it received, then closes the database), a
// second stops it at once. One Ctrl-C can still reach us twice (the terminal, and npm passing it on): a repeat within
// REPEAT_MS is the same one. A closed terminal (SIGHUP) drains it too.
const REPEAT_MS = 250;
let lastForwarded = 0;
const forward = (signal) => {
  if (child.exitCode !== null || Date.now() - lastForwarded < REPEAT_MS) return;
  lastForwarded = Date.now();
  child.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(signal, () => forward(signal === 'SIGHUP' ? 'SIGTERM' : signal));
// In its own group the server outlives us unless told: if we end any other way, so does it.
process.on('exit', () => {
  if (child.exitCode === null) child.kill('SIGTERM');
});
// `npm start` runs us under `sh -c`, which dies on SIGTERM without passing it on: stop the server when orphaned
// (once: a second SIGTERM would stop it at once instead of letting it drain).
const parent = process.ppid;
const orphanCheck = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(orphanCheck);
  forward('SIGTERM');
}, 500);
orphanCheck.unref();
child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 143)));
child.on('error', (error) => {
  console.error(`Could not start the server: ${error.message}`);
  process.exit(1);
});
