#!/usr/bin/env node
// The shutdown figure of issue 12 §3, measured again: starts the server (src/main.ts through tsx) on DATA_DIR (PGlite;
// the demo is seeded on first use) or DATABASE_URL, signs the manager in, opens the matrix stream, fires 20 reads and
// 5 matrix XLSX exports each on a connection of its own, sends SIGTERM 80 ms in, and prints one JSON line: reads and
// exports answered in full, the stream's close code, the exit code and how long after the signal it came.
//   node server/bench/shutdown-burst.mjs [dataDir] [delayMs]      (DATABASE_URL from the environment, if set)
// Run it a few times: whether requests are still queued at the signal depends on timing.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = path.resolve(process.argv[2] ?? 'data-shutdown-burst');
const delay = Number(process.argv[3] ?? 80);
const port = 39000 + Math.floor(Math.random() * 1000);
const env = {
  ...process.env,
  NODE_ENV: 'production',
  // Production needs a server key (issue 29 §14); a throwaway one for this throwaway data folder.
  SECRETS_KEY: process.env.SECRETS_KEY || randomBytes(32).toString('base64'),
  PORT: String(port),
  HOST: '127.0.0.1',
  APP_URL: `http://127.0.0.1:${port}`,
  DATA_DIR: dataDir,
  SEED_DEMO: 'true',
  LOG_LEVEL: 'info',
};
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
  cwd: root,
  env,
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
child.stdout.on('data', (d) => {
  out += d;
});
child.stderr.on('data', (d) => {
  out += d;
});
const exited = new Promise((resolve) =>
  child.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
);
while (!out.includes('is running at')) {
  if (child.exitCode !== null) throw new Error(out);
  await new Promise((resolve) => setTimeout(resolve, 100));
}

const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'manager@demo.test', password: 'demo-Password1', device_name: 'burst' }),
});
const token = (await login.json()).data.token;
const ws = new WebSocket(`ws://127.0.0.1:${port}/api/ws`);
const wsClosed = new Promise((resolve) =>
  ws.once('close', (code, reason) => resolve(`${code} ${reason}`.trim())),
);
await new Promise((resolve) => {
  ws.once('open', () => ws.send(JSON.stringify({ type: 'auth', token })));
  ws.on('message', (raw) => {
    const m = JSON.parse(String(raw));
    if (m.type === 'authenticated')
      ws.send(JSON.stringify({ type: 'subscribe', channel: 'matrix', id: 'm1', filters: {} }));
    if (m.type === 'subscribed') resolve();
  });
});

const auth = { authorization: `Bearer ${token}`, accept: 'application/json' };
const READS = ['/api/auth/user', '/api/auth/permissions', '/api/users?page=1', '/api/entities?page=1'];
const request = (method, url, headers, body) =>
  new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers, agent: false }, (res) => {
      res.resume();
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('aborted')));
      res.on('end', () =>
        res.statusCode === 200 && res.complete ? resolve() : reject(new Error(res.statusCode)),
      );
    });
    req.on('error', (e) => reject(new Error(e.code ?? e.message)));
    req.end(body);
  });
const reads = Array.from({ length: 20 }, (_, i) => request('GET', READS[i % READS.length], auth));
const body = JSON.stringify({ directFormat: 'file', format: 'xlsx', compliance_type: 'all' });
const exports = Array.from({ length: 5 }, () =>
  request('POST', '/api/reports/matrix', { ...auth, 'content-type': 'application/json' }, body),
);
await new Promise((resolve) => setTimeout(resolve, delay));
const signalled = performance.now();
child.kill('SIGTERM');
const answered = async (list) =>
  (await Promise.allSettled(list)).filter((s) => s.status === 'fulfilled').length;
const [readsOk, exportsOk] = [await answered(reads), await answered(exports)];
const exit = await exited;
const stream = await Promise.race([
  wsClosed,
  new Promise((resolve) => setTimeout(() => resolve('still open'), 100)),
]);
console.log(
  JSON.stringify({
    reads: `${readsOk}/20`,
    exports: `${exportsOk}/5`,
    stream,
    exit: exit.code ?? exit.signal,
    exitMs: Math.round(exit.at - signalled),
  }),
);
