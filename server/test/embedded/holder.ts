import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { serverProgram } from '../server-program';

export { isRunning } from '../../src/db/embedded/processes';

const here = path.dirname(fileURLToPath(import.meta.url));

/** A fresh data folder the `postgres` system user can enter (when the tests run as root). */
export function freshDataDir(under = tmpdir()): string {
  const dir = mkdtempSync(path.join(under, 'cc-embedded-'));
  chmodSync(dir, 0o755);
  return dir;
}

export interface Holder {
  child: ChildProcess;
  /** "ready <where>" or "failed <one line>". */
  first: Promise<string>;
  sql(statement: string): Promise<string>;
  exited: Promise<number | string>;
}

/** hold-folder.ts in its own process on `dataDir`: the embedded database opened exactly as the server opens it. */
export function holdFolder(dataDir: string, env: NodeJS.ProcessEnv = {}): Holder {
  // Bundled once per run by test/global-setup.ts (a start through tsx compiles every module again).
  const child = spawn(process.execPath, inject('holderProgram'), {
    cwd: path.resolve(here, '../..'),
    env: { ...process.env, DATABASE_URL: '', ...env, DATA_DIR: dataDir },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const waiting: ((line: string) => void)[] = [];
  lines.on('line', (line) => waiting.shift()?.(line));
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return {
    child,
    first: next(),
    sql(statement) {
      const answer = next();
      child.stdin?.write(`sql ${statement}\n`);
      return answer;
    },
    exited,
  };
}

/** Stops a holder as the server stops (SIGTERM) and waits for it. */
export async function stopHolder(holder: Holder): Promise<void> {
  if (holder.child.exitCode === null && holder.child.signalCode === null) holder.child.kill('SIGTERM');
  await holder.exited;
}

export interface ServerRun {
  child: ChildProcess;
  /** Everything the server printed on stderr so far. */
  stderr(): string;
  /** Resolves once its first start-up line ("is running at") is out; never when it fails first. */
  ready: Promise<void>;
  /** Its exit code (or the signal that ended it). */
  exited: Promise<number | string>;
}

/**
 * The real server (the bundle `npm start` runs, test/server-program.ts) on `dataDir`, without DATABASE_URL: the
 * embedded engine as an operator gets it, with main.ts's start-up lines and exit codes.
 */
export function startServer(dataDir: string, env: NodeJS.ProcessEnv = {}): ServerRun {
  const child = spawn(process.execPath, serverProgram(), {
    cwd: path.resolve(here, '../../..'),
    env: {
      ...process.env,
      NODE_ENV: 'test',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'fatal',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      ...env,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let stdout = '';
  const ready = new Promise<void>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('is running at')) resolve();
    });
  });
  // 'close', not 'exit': the last of its output is read by then.
  const exited = new Promise<number | string>((resolve) =>
    child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return { child, stderr: () => stderr, ready, exited };
}

/**
 * A start that must fail: its exit code and stderr. One that starts instead is stopped (SIGTERM) as soon as it says
 * it runs, so the case fails at once rather than at its timeout.
 */
export async function failedStart(
  dataDir: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | string; stderr: string; started: boolean }> {
  const run = startServer(dataDir, env);
  let started = false;
  void run.ready.then(() => {
    started = true;
    run.child.kill('SIGTERM');
  });
  const code = await run.exited;
  return { code, stderr: run.stderr(), started };
}

/**
 * The pids of the live processes that work in `dir`: their command line names it, or it is their working folder
 * (PostgreSQL moves into its data folder, and initdb hands it to the backends it runs through PGDATA). Linux /proc;
 * none elsewhere.
 */
export function processesUsing(dir: string): number[] {
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return [];
  }
  return pids
    .filter((pid) => {
      try {
        const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
        if (state === 'Z') return false;
        if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir)) return true;
        return readlinkSync(`/proc/${pid}/cwd`).startsWith(dir);
      } catch {
        return false; // ended meanwhile
      }
    })
    .map(Number);
}
