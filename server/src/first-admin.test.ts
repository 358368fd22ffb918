import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/ports';
import { serverProgram } from '../test/server-program';
import { createTestDatabase } from '../test/test-database';

/**
 * Issue 29 §2 on the real server process (src/main.ts) in production, on a fresh database (PGlite in a temporary
 * folder, or a new database of DATABASE_URL's server): the demo is not seeded, the first super admin comes with a
 * one-time link printed on the console (never a known password), and a database that holds the demo password stops
 * the start with one line unless SEED_DEMO=true asks for a demo server.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const running = new Set<ChildProcess>();
const cleanups: (() => Promise<void> | void)[] = [];

/** An empty install: a data folder, and a new database when DATABASE_URL names a server. */
interface Install {
  dataDir: string;
  databaseUrl?: string;
}
async function freshInstall(): Promise<Install> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-first-admin-'));
  chmodSync(dataDir, 0o755); // an embedded PostgreSQL run as `postgres` must enter it
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  if (!process.env.DATABASE_URL) return { dataDir };
  const database = await createTestDatabase(process.env.DATABASE_URL, 'cc_first_admin');
  cleanups.push(database.drop);
  return { dataDir, databaseUrl: database.url };
}

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  for (const cleanup of cleanups) await cleanup();
});

interface Run {
  base: string;
  output: string;
  /** null: it is listening (stop it with stop()); else the exit code. */
  code: number | null;
  stop(): Promise<void>;
}

const SECRETS_KEY = randomBytes(32).toString('base64');

/** Starts src/main.ts in production; resolves once it listens or has exited. */
async function start(install: Install, env: Record<string, string> = {}): Promise<Run> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    // The suite's fast password hashing (vitest.config.ts) is refused in production.
    PASSWORD_HASHING: 'standard',
    // Required in production (issue 29 §14): one key for every start of this file's installs.
    SECRETS_KEY,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: install.dataDir,
    LOG_LEVEL: 'warn',
    ...env,
  };
  delete childEnv.SEED_DEMO;
  if (env.SEED_DEMO) childEnv.SEED_DEMO = env.SEED_DEMO;
  if (install.databaseUrl) childEnv.DATABASE_URL = install.databaseUrl;
  else {
    delete childEnv.DATABASE_URL;
    childEnv.EMBEDDED_ENGINE = 'pglite';
  }
  const child = spawn(process.execPath, serverProgram(), {
    cwd: root,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const run: Run = {
    base: `http://127.0.0.1:${port}`,
    output: '',
    code: null,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      run.code = code ?? 1;
      resolve();
    }),
  );
  const ready = new Promise<void>((resolve) => {
    const onData = (d: Buffer) => {
      run.output += d;
      if (run.output.includes('is running at')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  });
  await Promise.race([ready, exited]);
  return run;
}

/** A browser's web-session POST: the XSRF cookie first, then the request with it (spec 1 §7). */
async function webPost(base: string, url: string, body: unknown) {
  const csrf = await fetch(`${base}/sanctum/csrf-cookie`);
  const cookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]);
  const token = decodeURIComponent(cookie.find((c) => c.startsWith('XSRF-TOKEN='))?.slice(11) ?? '');
  return fetch(`${base}${url}`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      cookie: cookie.join('; '),
      'x-xsrf-token': token,
    },
    body: JSON.stringify(body),
  });
}

const deviceLogin = (base: string, email: string, password: string) =>
  fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, device_name: 'first-admin test' }),
  });

describe('a production install (issue 29 §2)', () => {
  const PASSWORD = 'Kettle-Lantern-Orchard-42';

  it('seeds no demo, prints a one-time setup link for the first super admin, and the link works once', async () => {
    const install = await freshInstall();
    const run = await start(install);
    try {
      expect(run.code, run.output).toBeNull();
      expect(run.output).not.toContain('Demo logins');
      expect(run.output).toContain('Warning: APP_URL is plain http in production');
      expect((await deviceLogin(run.base, 'admin@demo.test', 'demo-Password1')).status).toBe(422);

      const link = new URL(/First start:[\s\S]*?(http:\/\/\S+)/.exec(run.output)?.[1] ?? 'http://none');
      const token = decodeURIComponent(link.pathname.replace('/reset-password/', ''));
      const email = link.searchParams.get('email') ?? '';
      const reset = { token, email, password: PASSWORD, password_confirmation: PASSWORD };
      expect((await webPost(run.base, '/api/auth/reset-password', reset)).status).toBe(200);
      expect((await webPost(run.base, '/api/auth/reset-password', reset)).status).toBe(422);

      const login = await deviceLogin(run.base, email, PASSWORD);
      expect(login.status).toBe(200);
      const { data } = (await login.json()) as { data: { token: string } };
      const me = await fetch(`${run.base}/api/auth/user`, {
        headers: { accept: 'application/json', authorization: `Bearer ${data.token}` },
      });
      expect(((await me.json()) as { data: { super_admin: boolean } }).data.super_admin).toBe(true);
    } finally {
      await run.stop();
    }
    // The super admin has a password now: the next start prints no link.
    const again = await start(install);
    try {
      expect(again.code, again.output).toBeNull();
      expect(again.output).not.toContain('First start:');
    } finally {
      await again.stop();
    }
  }, 600_000);

  it('refuses to start, in one line, while an account has the demo password; SEED_DEMO=true is a demo server', async () => {
    const install = await freshInstall();
    const demo = await start(install, { SEED_DEMO: 'true' }); // asked for explicitly: a demo server
    try {
      expect(demo.code, demo.output).toBeNull();
      expect(demo.output).toContain('Demo logins');
    } finally {
      await demo.stop();
    }
    const refused = await start(install);
    expect(refused.code).toBe(1);
    const lines = refused.output.trim().split('\n');
    expect(lines.at(-1)).toMatch(
      /^Refusing to start in production: \d+ account\(s\) still have the published demo password \(admin@demo\.test, /,
    );
    expect(refused.output).not.toContain('is running at');
  }, 600_000);
});
