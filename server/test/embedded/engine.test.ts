import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  failedStart,
  freshDataDir,
  type Holder,
  holdFolder,
  isRunning,
  processesUsing,
  startServer,
  stopHolder,
} from './holder';

/**
 * Issue 12 §1, the embedded database: each case starts real processes (the engine opened exactly as the server
 * opens it, test/embedded/hold-folder.ts) on a real data folder. Today's engine (PGlite in DATA_DIR/pgdata) fails
 * every one of them.
 */
const folders: string[] = [];
const holders: Holder[] = [];
afterEach(async () => {
  for (const h of holders.splice(0)) await stopHolder(h);
  for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
});

function folder(): string {
  const dir = freshDataDir();
  folders.push(dir);
  return dir;
}

function hold(dataDir: string, env: NodeJS.ProcessEnv = {}): Holder {
  const h = holdFolder(dataDir, env);
  holders.push(h);
  return h;
}

const postmasterPid = (dataDir: string) =>
  Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);

describe('the embedded engine', () => {
  it('is PostgreSQL from the npm binaries, in <DATA_DIR>/postgres, as the postgres user when run as root', async () => {
    const dir = folder();
    const h = hold(dir);
    expect(await h.first).toBe(`ready embedded postgres in ${dir}`);
    expect(await h.sql('SHOW server_version')).toMatch(/^ok \[\{"server_version":"18\./);
    expect(await h.sql('SHOW fsync')).toBe('ok [{"fsync":"on"}]');
    const owner = statSync(path.join(dir, 'postgres')).uid;
    if (process.getuid?.() === 0) expect(owner).not.toBe(0);
    expect(existsSync(path.join(dir, 'pgdata'))).toBe(false);
  }, 90_000);

  it('keeps an existing PGlite folder on PGlite and says so in one line', async () => {
    const dir = folder();
    const first = hold(dir, { EMBEDDED_ENGINE: 'pglite' });
    expect(await first.first).toBe(`ready pglite in ${dir}`);
    await first.sql('CREATE TABLE kept (x int)');
    await first.sql('INSERT INTO kept VALUES (7)');
    await stopHolder(first);
    const again = hold(dir);
    expect(await again.first).toMatch(
      /^ready pglite in .* note: keeping PGlite: .* holds a PGlite database \(pgdata\)/,
    );
    expect(await again.sql('SELECT x FROM kept')).toBe('ok [{"x":7}]');
  }, 90_000);

  it.skipIf(process.getuid?.() !== 0)(
    'as root, falls back to PGlite with one line when the postgres user cannot enter a folder that holds no database yet',
    async () => {
      const dir = folder();
      chmodSync(dir, 0o700);
      const h = hold(dir);
      expect(await h.first).toBe(
        `ready pglite in ${dir} note: using PGlite, not PostgreSQL: the "postgres" system user cannot enter ${dir} (PGlite: one connection on the server thread: slower under load, and a full disk hangs it)`,
      );
    },
    90_000,
  );

  it('puts its socket in a short folder under the temp folder when the data folder’s path is too long for one', async () => {
    const dir = path.join(
      folder(),
      'a-data-folder-whose-path-is-longer-than-a-unix-socket-path-may-be-on-linux',
    );
    mkdirSync(dir, { mode: 0o755 });
    const h = hold(dir);
    expect(await h.first).toBe(`ready embedded postgres in ${dir}`);
    const socketDir = (await h.sql('SHOW unix_socket_directories')).slice(3);
    expect(socketDir).toMatch(
      new RegExp(`^\\[\\{"unix_socket_directories":"${tmpdir()}/cc-pg-[0-9a-f]{12}"\\}\\]$`),
    );
  }, 90_000);

  it('stops its PostgreSQL when the process is stopped (SIGTERM), and frees the folder', async () => {
    const dir = folder();
    const h = hold(dir);
    await h.first;
    const pid = postmasterPid(dir);
    await stopHolder(h);
    expect(isRunning(pid)).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['postgres', 'postgres.log']);
  }, 90_000);
});

describe('two processes on one data folder', () => {
  it('a second process refuses at once with one line naming the folder', async () => {
    const dir = folder();
    const first = hold(dir);
    await first.first;
    const second = hold(dir);
    expect(await second.first).toBe(
      `failed The data folder ${dir} is in use by another CareCompliance process (pid ${first.child.pid}): stop it first, or set DATA_DIR to another folder.`,
    );
    expect(await second.exited).toBe(1);
    expect(await first.sql('SELECT 1 AS one')).toBe('ok [{"one":1}]');
  }, 90_000);

  it('the seed command joins the running server and its rows are the server’s', async () => {
    const dir = folder();
    const server = hold(dir);
    await server.first;
    const seed = spawnSync(process.execPath, ['--import', 'tsx', 'src/demo/cli.ts'], {
      cwd: path.resolve(__dirname, '../..'),
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dir, NODE_ENV: 'development' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(seed.stderr).toBe('');
    expect(seed.stdout).toMatch(
      /Demo organisation created \(embedded postgres in .*, of the server running there/,
    );
    expect(await server.sql("SELECT count(*)::int AS n FROM users WHERE email = 'admin@demo.test'")).toBe(
      'ok [{"n":1}]',
    );
    expect(await server.sql('SELECT 1 AS still')).toBe('ok [{"still":1}]');
  }, 150_000);

  it('on PGlite the seed command refuses while a server holds the folder', async () => {
    const dir = folder();
    const server = hold(dir, { EMBEDDED_ENGINE: 'pglite' });
    await server.first;
    const seed = spawnSync(process.execPath, ['--import', 'tsx', 'src/demo/cli.ts'], {
      cwd: path.resolve(__dirname, '../..'),
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dir, EMBEDDED_ENGINE: 'pglite' },
      encoding: 'utf8',
    });
    expect(seed.status).toBe(1);
    expect(seed.stderr.trim()).toBe(
      `The data folder ${dir} is in use by another CareCompliance process (pid ${server.child.pid}): stop it first, or set DATA_DIR to another folder.`,
    );
  }, 120_000);

  it('a PostgreSQL left running by a process killed with -9 does not block the next start', async () => {
    const dir = folder();
    const killed = hold(dir);
    await killed.first;
    await killed.sql('CREATE TABLE acknowledged (x int)');
    await killed.sql('INSERT INTO acknowledged VALUES (1)');
    const orphan = postmasterPid(dir);
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(isRunning(orphan)).toBe(true);

    const next = hold(dir);
    expect(await next.first).toBe(`ready embedded postgres in ${dir}`);
    expect(isRunning(orphan)).toBe(false);
    expect(await next.sql('SELECT x FROM acknowledged')).toBe('ok [{"x":1}]');
  }, 90_000);
});

describe('an interrupted first start', () => {
  it('killed (-9 and Ctrl-C) while the cluster is being made, N times, the next start works', async () => {
    const dir = folder();
    const making = () => readdirSync(dir).some((n) => n.startsWith('postgres.init-'));
    // After the cluster's temporary folder appears, initdb runs for about a second: kill inside that window.
    const afterMs = [0, 150, 400, 50, 250, 600];
    for (const [i, delay] of afterMs.entries()) {
      const h = hold(dir);
      while (!making()) {
        expect(existsSync(path.join(dir, 'postgres'))).toBe(false); // no half-made cluster was ever left in place
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      h.child.kill(i % 2 === 0 ? 'SIGKILL' : 'SIGINT');
      await h.exited;
    }
    const next = hold(dir);
    expect(await next.first).toBe(`ready embedded postgres in ${dir}`);
    expect(await next.sql('SELECT count(*)::int AS n FROM kysely_migration')).toMatch(/^ok \[\{"n":\d+\}\]$/);
    expect(readdirSync(dir).filter((n) => n.includes('.init-'))).toEqual([]);
  }, 120_000);

  it('a process a killed start left writing into its temporary folder is stopped, and the next start works', async () => {
    const dir = folder();
    // What a server killed with -9 during initdb leaves: a process of its own group still adding files to the folder,
    // faster than a recursive remove can empty it (CI: "ENOTEMPTY: directory not empty, rmdir …/base/1").
    const leftover = path.join(dir, 'postgres.init-999999');
    mkdirSync(path.join(leftover, 'base', '1'), { recursive: true });
    const writer = spawn(
      'sh',
      ['-c', 'i=0; while :; do i=$((i+1)); mkdir -p base/1 && : > base/1/f$i; done'],
      {
        cwd: leftover,
        detached: true,
        stdio: 'ignore',
      },
    );
    const writerExited = new Promise((resolve) => writer.once('exit', resolve));
    try {
      const next = hold(dir);
      expect(await next.first).toBe(`ready embedded postgres in ${dir}`);
      await writerExited;
      expect(existsSync(leftover)).toBe(false);
    } finally {
      if (writer.exitCode === null && writer.signalCode === null) process.kill(-(writer.pid ?? 0), 'SIGKILL');
    }
  }, 90_000);

  it('Ctrl-C while initdb runs: the real server says so in one line, exit 130, and leaves nothing running (issue 30 §10)', async () => {
    const dir = folder();
    const making = () => readdirSync(dir).find((n) => n.startsWith('postgres.init-'));
    for (const delay of [0, 200, 500, 900]) {
      const run = startServer(dir);
      let temporary = making();
      while (!temporary) {
        expect(run.child.exitCode).toBeNull();
        await new Promise((resolve) => setTimeout(resolve, 5));
        temporary = making();
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(130);
      expect(run.stderr()).toBe('Stopped during start-up (SIGINT).\n');
      // initdb's own children (postgres --boot, --single) went with it: none is left writing in the folder.
      expect(processesUsing(path.join(dir, temporary))).toEqual([]);
    }
    // No half-made cluster: none at all, or (when initdb had just finished before the last Ctrl-C, on a fast machine)
    // a whole one, renamed into place only once complete.
    if (existsSync(path.join(dir, 'postgres')))
      expect(existsSync(path.join(dir, 'postgres', 'global', 'pg_control'))).toBe(true);
    const next = hold(dir);
    expect(await next.first).toBe(`ready embedded postgres in ${dir}`);
    expect(readdirSync(dir).filter((n) => n.includes('.init-'))).toEqual([]);
  }, 180_000);

  it('an exit hook that fails (a folder still being written) prints no stack trace and stops no other hook (issue 30 §10)', async () => {
    const dir = folder();
    const mark = path.join(dir, 'mark');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'exit-hooks.ts')], {
      cwd: path.resolve(__dirname, '../..'),
      env: { ...process.env, MARK_FILE: mark },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const closed = new Promise<number | string>((resolve) =>
      child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown')),
    );
    child.kill('SIGINT');
    expect(await closed).toBe(130);
    expect(stderr).toBe('Stopped during start-up (SIGINT).\n');
    expect(readFileSync(mark, 'utf8')).toBe('the next hook ran');
  }, 60_000);

  it('on the PGlite fallback too: killed while PGlite makes its folder, N times, the next start works', async () => {
    const dir = folder();
    const making = () => readdirSync(dir).some((n) => n.startsWith('pgdata.init-'));
    for (const [i, delay] of [0, 200, 500, 100].entries()) {
      const h = hold(dir, { EMBEDDED_ENGINE: 'pglite' });
      while (!making()) {
        expect(existsSync(path.join(dir, 'pgdata'))).toBe(false);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      h.child.kill(i % 2 === 0 ? 'SIGKILL' : 'SIGINT');
      await h.exited;
    }
    const next = hold(dir, { EMBEDDED_ENGINE: 'pglite' });
    expect(await next.first).toBe(`ready pglite in ${dir}`);
    expect(readdirSync(dir).filter((n) => n.includes('.init-'))).toEqual([]);
  }, 120_000);
});

describe('start-up errors are one clear line', () => {
  it('a schema newer than the code', async () => {
    const dir = folder();
    const h = hold(dir);
    await h.first;
    await h.sql("INSERT INTO kysely_migration (name, timestamp) VALUES ('999_from_the_future', now()::text)");
    await stopHolder(h);
    const again = hold(dir);
    expect(await again.first).toBe(
      'failed The database was updated by a newer version of CareCompliance (migration 999_from_the_future is unknown to this one): run the newer version, or restore a backup made before it.',
    );
  }, 90_000);

  it.skipIf(process.getuid?.() !== 0)(
    'an existing database the postgres user cannot enter stops the real server in one line, never a PGlite beside it (issue 30 §3)',
    async () => {
      const dir = folder();
      const cluster = path.join(dir, 'postgres');
      const first = hold(dir);
      expect(await first.first).toBe(`ready embedded postgres in ${dir}`);
      await first.sql('CREATE TABLE kept (x int)');
      await first.sql('INSERT INTO kept VALUES (7)');
      await stopHolder(first);

      // As an unpack or a backup restore may leave it: the data folder closed to everyone but root.
      chmodSync(dir, 0o700);
      const closed = await failedStart(dir);
      expect(closed.started).toBe(false);
      expect(closed.code).toBe(1);
      expect(closed.stderr).toBe(
        `The data folder ${dir} holds an embedded PostgreSQL database that cannot be opened: the "postgres" system user cannot enter ${dir}. To fix it, let it in (chmod 755 ${dir}) and start again (no new database is started beside it).\n`,
      );
      expect(readdirSync(dir).filter((n) => n.startsWith('pgdata'))).toEqual([]);

      // Let in, but the database folder itself restored as root: PostgreSQL would refuse it with a line in its log.
      chmodSync(dir, 0o755);
      execFileSync('chown', ['-R', 'root:root', cluster]);
      const owned = hold(dir);
      expect(await owned.first).toBe(
        `failed The database folder ${cluster} belongs to root, not to the "postgres" system user, which runs PostgreSQL (an unpack or a restore may leave it so): give it back (chown -R postgres: ${cluster}) and start again.`,
      );
      expect(await owned.exited).toBe(1);

      // The command the line names brings the same database back.
      execFileSync('chown', ['-R', 'postgres:', cluster]);
      const again = hold(dir);
      expect(await again.first).toBe(`ready embedded postgres in ${dir}`);
      expect(await again.sql('SELECT x FROM kept')).toBe('ok [{"x":7}]');
      expect(readdirSync(dir).filter((n) => n.startsWith('pgdata'))).toEqual([]);
    },
    180_000,
  );

  it('a postgres folder that is not ours', async () => {
    const dir = folder();
    mkdirSync(path.join(dir, 'postgres'));
    writeFileSync(path.join(dir, 'postgres', 'notes.txt'), 'not a database');
    const h = hold(dir);
    expect(await h.first).toBe(
      `failed ${dir}/postgres is not a database folder made by CareCompliance (it has no PG_VERSION): move it away or set DATA_DIR to another folder.`,
    );
    expect(readFileSync(path.join(dir, 'postgres', 'notes.txt'), 'utf8')).toBe('not a database');
  }, 90_000);
});
