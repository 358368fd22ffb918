import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { freePort } from '../../test/ports';
import { serverProgram } from '../../test/server-program';
import { createTestDatabase } from '../../test/test-database';

/**
 * Graceful shutdown (issue 12 §3), on the real server process (the bundle `npm start` runs, test/server-program.ts) with the demo data, on
 * PGlite in a temporary folder or on a fresh database of DATABASE_URL's server: a burst of reads and matrix exports
 * cut by SIGTERM 80 ms in is answered in full, the live connection is closed with 1012 "Service Restart", a
 * half-sent request holds the process no longer than SHUTDOWN_TIMEOUT_SECONDS, and a second signal exits at once.
 * One data folder (or database) serves every start: the demo is seeded by the first.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-shutdown-'));
let databaseUrl: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** performance.now() when it exited. */
  at: number;
}

interface Running {
  port: number;
  child: ChildProcess;
  exited: Promise<Exit>;
  output(): string;
  /** Resolves when the output contains `text`. */
  waitFor(text: string): Promise<void>;
}

const running = new Set<ChildProcess>();

/** `via: 'npm-start'`: scripts/start.mjs (as `npm start` runs it) in a process group of its own, as a terminal's. */
async function startServer(
  env: Record<string, string> = {},
  via: 'server' | 'npm-start' = 'server',
): Promise<Running> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    // The suite's fast password hashing (vitest.config.ts) is refused in production.
    PASSWORD_HASHING: 'standard',
    // Required in production (issue 29 §14).
    SECRETS_KEY: randomBytes(32).toString('base64'),
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    LOG_LEVEL: 'info',
    ...env,
  };
  if (databaseUrl) childEnv.DATABASE_URL = databaseUrl;
  else delete childEnv.DATABASE_URL;
  const args = via === 'server' ? serverProgram() : [path.join(root, 'scripts/start.mjs')];
  if (via === 'npm-start') childEnv.SKIP_WEB_BUILD = 'true';
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: via === 'npm-start',
  });
  running.add(child);
  let out = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  const onData = (d: Buffer) => {
    out += d;
    for (const w of [...waiters])
      if (out.includes(w.text)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal, at: performance.now() });
    }),
  );
  const waitFor = (text: string) =>
    new Promise<void>((resolve, reject) => {
      if (out.includes(text)) return resolve();
      waiters.push({ text, resolve });
      void exited.then(() => reject(new Error(`the server exited before "${text}":\n${out}`)));
    });
  await waitFor('is running at');
  return { port, child, exited, output: () => out, waitFor };
}

interface Answer {
  status: number;
  bytes: number;
  /** The whole body arrived (Content-Length matched or the chunked body ended). */
  complete: boolean;
  head: string;
}

/** One request on a connection of its own (as separate clients make them); rejects on a reset or a cut body. */
function request(
  port: number,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('response aborted')));
      res.on('end', () => {
        const all = Buffer.concat(chunks);
        const length = res.headers['content-length'];
        resolve({
          status: res.statusCode ?? 0,
          bytes: all.length,
          complete: res.complete && (length === undefined || Number(length) === all.length),
          head: all.subarray(0, 2).toString('latin1'),
        });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function loginToken(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'manager@demo.test',
      password: 'demo-Password1',
      device_name: 'shutdown test',
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

/** A live connection signed in with the bearer token and subscribed to the matrix; resolves with its close. */
async function openMatrixSocket(port: number, token: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/ws`);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify({ type: 'auth', token })));
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw)) as { type: string };
      if (m.type === 'authenticated')
        ws.send(JSON.stringify({ type: 'subscribe', channel: 'matrix', id: 'm1', filters: {} }));
      if (m.type === 'subscribed') resolve();
    });
  });
  return { ws, closed };
}

/** A request whose body never ends (a stalled upload): headers received, the handler waiting for the rest. */
function halfSentRequest(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(performance.now())));
  return new Promise<{ closed: Promise<number> }>((resolve) =>
    socket.once('connect', () => {
      socket.write(
        'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
      );
      // Long enough for the server to read the headers and start the request.
      setTimeout(() => resolve({ closed }), 300);
    }),
  );
}

const READS = ['/api/auth/user', '/api/auth/permissions', '/api/users?page=1', '/api/entities?page=1'];

beforeAll(async () => {
  if (process.env.DATABASE_URL) {
    const database = await createTestDatabase(process.env.DATABASE_URL, 'cc_test_shutdown');
    databaseUrl = database.url;
    dropDatabase = database.drop;
  }
}, 30_000);

afterAll(async () => {
  // A test that failed half-way: two SIGTERMs stop a server at once (through the launcher too), then SIGKILL.
  const pause = () => new Promise((resolve) => setTimeout(resolve, 400));
  for (const signal of ['SIGTERM', 'SIGTERM', 'SIGKILL'] as const) {
    if (!running.size) break;
    for (const child of running) child.kill(signal);
    await pause();
  }
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

describe('graceful shutdown of the server process', () => {
  it('answers a burst in full, closes the live connection with 1012 and exits 0', async () => {
    const server = await startServer();
    const token = await loginToken(server.port);
    const auth = { authorization: `Bearer ${token}`, accept: 'application/json' };
    const socket = await openMatrixSocket(server.port, token);
    // An idle keep-alive connection: closed by the drain, it does not hold the process.
    const idle = new http.Agent({ keepAlive: true, maxSockets: 1 });
    await new Promise<void>((resolve, reject) =>
      http
        .get(
          { host: '127.0.0.1', port: server.port, path: '/api/auth/user', headers: auth, agent: idle },
          (res) => res.resume().on('end', resolve),
        )
        .on('error', reject),
    );

    const reads = Array.from({ length: 20 }, (_, i) =>
      request(server.port, 'GET', READS[i % READS.length] as string, auth),
    );
    const exportBody = JSON.stringify({ directFormat: 'file', format: 'xlsx', compliance_type: 'all' });
    const exports = Array.from({ length: 5 }, () =>
      request(
        server.port,
        'POST',
        '/api/reports/matrix',
        { ...auth, 'content-type': 'application/json' },
        exportBody,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 80));
    const signalled = performance.now();
    server.child.kill('SIGTERM');

    const settled = await Promise.allSettled([...reads, ...exports]);
    const failures = settled.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
    expect(failures).toEqual([]);
    const answers = settled.map((s) => (s as PromiseFulfilledResult<Answer>).value);
    expect(answers.map((a) => a.status)).toEqual(Array(25).fill(200));
    expect(answers.every((a) => a.complete)).toBe(true);
    // Each export is a whole XLSX file (a zip: "PK").
    expect(answers.slice(20).map((a) => a.head)).toEqual(Array(5).fill('PK'));

    expect(await socket.closed).toEqual({ code: 1012, reason: 'The server is restarting' });

    const exit = await server.exited;
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.at - signalled).toBeLessThan(10_000);
    idle.destroy();
    const log = server.output();
    expect(log).toMatch(/"msg":"draining: [^"]*"/);
    expect(log).toMatch(/"msg":"drained in \d+ ms: [^"]*"/);
  }, 240_000);

  it('refuses new connections while draining', async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT_SECONDS: '3' });
    // Holds the drain open until the bound.
    await halfSentRequest(server.port);
    server.child.kill('SIGTERM');
    await server.waitFor('draining');
    // The queue of connections already made is taken in first (a few turns of the event loop), then none.
    const attempt = () =>
      new Promise<string>((resolve) => {
        const s = net.connect(server.port, '127.0.0.1');
        s.once('connect', () => {
          s.destroy();
          resolve('connected');
        });
        s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      });
    let refused = await attempt();
    for (let i = 0; i < 40 && refused !== 'ECONNREFUSED'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      refused = await attempt();
    }
    expect(refused).toBe('ECONNREFUSED');
    expect(server.child.exitCode).toBe(null);
    await server.exited;
  }, 120_000);

  it('does not wait beyond SHUTDOWN_TIMEOUT_SECONDS for a half-sent request, and says so in its exit code', async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT_SECONDS: '2' });
    const half = await halfSentRequest(server.port);
    const signalled = performance.now();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    const waited = exit.at - signalled;
    expect(waited).toBeGreaterThan(1_900);
    expect(waited).toBeLessThan(5_000);
    expect(exit).toMatchObject({ code: 1, signal: null });
    expect(await half.closed).toBeLessThanOrEqual(exit.at + 1_000);
    expect(server.output()).toMatch(
      /"msg":"drain cut short after 2 s: 1 request unanswered, 1 connection cut"/,
    );
  }, 120_000);

  it('exits at once on a second signal', async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT_SECONDS: '60' });
    await halfSentRequest(server.port);
    server.child.kill('SIGTERM');
    await server.waitFor('draining');
    // A repeat within 250 ms counts as the same signal passed on twice (a terminal and a wrapper).
    await new Promise((resolve) => setTimeout(resolve, 400));
    const second = performance.now();
    server.child.kill('SIGTERM');
    const exit = await server.exited;
    expect(exit.at - second).toBeLessThan(1_500);
    expect(exit).toMatchObject({ code: 143, signal: null });
  }, 120_000);

  it('npm start: a Ctrl-C drains the server once, a second Ctrl-C stops it at once', async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT_SECONDS: '60' }, 'npm-start');
    await halfSentRequest(server.port);
    const group = -(server.child.pid as number);
    // A Ctrl-C: the terminal signals its whole foreground group (here the launcher's; the server has its own).
    process.kill(group, 'SIGINT');
    await server.waitFor('draining');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(server.output()).not.toContain('second SIGINT');
    expect(server.child.exitCode).toBe(null);
    const second = performance.now();
    process.kill(group, 'SIGINT');
    const exit = await server.exited;
    expect(exit.at - second).toBeLessThan(1_500);
    expect(exit).toMatchObject({ code: 130, signal: null });
    expect(server.output()).toContain('second SIGINT: exiting now');
  }, 180_000);
});
