import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROOT } from '../test/cluster/cluster';
import { serverProgram } from '../test/server-program';
import { createTestDatabase, type TestDatabase } from '../test/test-database';

/**
 * Issue 30 §6: a start-up failure the operator fixes in the settings is one line on stderr and exit code 1, not a
 * stack trace. Each case starts the real server (src/main.ts) with one bad setting; all fail within a few seconds.
 */
const databaseUrl = process.env.DATABASE_URL;

interface Ended {
  code: number | null;
  stderr: string;
}

function start(env: NodeJS.ProcessEnv, giveUpMs = 120_000): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, serverProgram(), {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', SEED_DEMO: 'false', LOG_LEVEL: 'fatal', PORT: '0', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A start that did not fail is a failed case: stop it rather than wait for the test's timeout.
    const timer = setTimeout(() => child.kill('SIGKILL'), giveUpMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

function expectOneLine(ended: Ended, pattern: RegExp) {
  const lines = ended.stderr.split('\n').filter((l) => l.trim() !== '');
  expect(lines, ended.stderr).toHaveLength(1);
  expect(ended.stderr).not.toMatch(/^\s+at /m);
  expect(lines[0]).toMatch(pattern);
  expect(ended.code).toBe(1);
}

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'cc-start-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('start-up errors are one line (issue 30 §6)', () => {
  it('DATA_DIR pointing at a file', async () => {
    const file = path.join(folder, 'a-file');
    writeFileSync(file, 'not a folder');
    expectOneLine(
      await start({ DATA_DIR: file, DATABASE_URL: '' }),
      /^DATA_DIR .*a-file is a file, not a folder/,
    );
  }, 240_000);

  it('DATA_DIR under /proc, where no folder can be made: one line at once (issue 30 §10)', async () => {
    // It looped at full CPU, deaf to SIGTERM, in Node's recursive mkdir: a start still there after 60 s has failed.
    const ended = await start({ DATA_DIR: '/proc/cc-no-such-process/data', DATABASE_URL: '' }, 60_000);
    expectOneLine(
      ended,
      /^DATA_DIR \/proc\/cc-no-such-process\/data is on \/proc, a proc file system of the kernel, where nothing can be stored: set DATA_DIR to a folder on a disk\.$/,
    );
  }, 240_000);

  it('an unknown database host, and a port where nothing answers', async () => {
    const [host, port] = await Promise.all([
      start({ DATA_DIR: folder, DATABASE_URL: 'postgres://cc:secret-word@no-such-host.invalid:5432/cc' }),
      start({ DATA_DIR: folder, DATABASE_URL: 'postgres://cc:secret-word@127.0.0.1:1/cc' }),
    ]);
    expectOneLine(host, /no-such-host\.invalid:5432\/cc \(DATABASE_URL\): the host name .* is not known/);
    expectOneLine(port, /127\.0\.0\.1:1\/cc \(DATABASE_URL\): nothing answers at that address/);
    // The password is never printed.
    expect(host.stderr + port.stderr).not.toContain('secret-word');
  }, 240_000);
});

describe.skipIf(!databaseUrl)('start-up errors on a PostgreSQL server (issue 30 §6)', () => {
  let database: TestDatabase;
  let busy: Server;
  let busyPort: number;
  beforeAll(async () => {
    database = await createTestDatabase(
      databaseUrl as string,
      'cc_test',
      inject('templateDatabase') ?? undefined,
    );
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as { port: number }).port;
  });
  afterAll(async () => {
    busy?.close();
    await database?.drop();
  });

  it('an unknown database and an unknown role', async () => {
    const missing = new URL(databaseUrl as string);
    missing.pathname = '/no_such_database';
    const stranger = new URL(databaseUrl as string);
    stranger.username = 'no_such_role';
    const [db, role] = await Promise.all([
      start({ DATA_DIR: folder, DATABASE_URL: missing.toString() }),
      start({ DATA_DIR: folder, DATABASE_URL: stranger.toString() }),
    ]);
    expectOneLine(db, /the database no_such_database does not exist; create it/);
    expectOneLine(role, /PostgreSQL refused the login of no_such_role/);
  }, 240_000);

  it('a port in use and a HOST that is not an address', async () => {
    const [port, host] = await Promise.all([
      start({ DATA_DIR: folder, DATABASE_URL: database.url, HOST: '127.0.0.1', PORT: String(busyPort) }),
      start({ DATA_DIR: folder, DATABASE_URL: database.url, HOST: '999.1.1.1' }),
    ]);
    expectOneLine(port, new RegExp(`^Port ${busyPort} on 127\\.0\\.0\\.1 is already in use`));
    expectOneLine(host, /^HOST=999\.1\.1\.1 is not an address of this machine/);
  }, 240_000);
});
