import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PostgresBinaries } from './binaries';
import { diskFullIn, StartupError } from './errors';
import { firstStartFolder } from './first-start';
import { exited, isRunning, killGroupSync, sleep, stopPostmasterSync, trackUntilExit } from './processes';
import type { RunAs } from './run-as';

/** Where a data folder's PostgreSQL lives: the cluster, its socket's folder and its log. */
export interface ClusterPaths {
  cluster: string;
  socketDir: string;
  log: string;
}

// A unix socket path has a ~107-byte limit; '/.s.PGSQL.5432' takes 14 of them.
const SOCKET_PATH_LIMIT = 100;

export function clusterPaths(dataDir: string): ClusterPaths {
  const cluster = path.join(dataDir, 'postgres');
  const short = path.join(
    tmpdir(),
    `cc-pg-${createHash('sha256').update(cluster).digest('hex').slice(0, 12)}`,
  );
  const socketDir = `${cluster}/.s.PGSQL.5432`.length > SOCKET_PATH_LIMIT ? short : cluster;
  return { cluster, socketDir, log: path.join(dataDir, 'postgres.log') };
}

function giveTo(dir: string, runAs: RunAs) {
  if (runAs) chownSync(dir, runAs.uid, runAs.gid);
}

function spawnAs(command: string, args: string[], runAs: RunAs, logFd: number): ChildProcess {
  // Own process group: a Ctrl-C in the terminal reaches the server, which stops postgres after its last request.
  return spawn(command, args, {
    detached: true,
    stdio: ['ignore', logFd, logFd],
    ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
    env: { ...process.env, LC_ALL: 'C' },
  });
}

export function tail(file: string, lines = 3): string {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join(' | ');
  } catch {
    return '';
  }
}

function failure(what: string, dataDir: string, log: string): StartupError {
  const detail = tail(log);
  if (diskFullIn(detail))
    return new StartupError(`The disk is full: ${what} in ${dataDir} failed (see ${log}).`);
  return new StartupError(`${what} in ${dataDir} failed: ${detail || 'no message'} (log: ${log}).`);
}

/**
 * A new cluster, made in a temporary folder and renamed into place when complete, so an interrupted first start
 * (Ctrl-C, kill, power loss) leaves no half-made cluster to fail on next time (issue 12 §1).
 */
export async function initialiseCluster(
  binaries: PostgresBinaries,
  paths: ClusterPaths,
  runAs: RunAs,
): Promise<void> {
  const dataDir = path.dirname(paths.cluster);
  const temporary = firstStartFolder(paths.cluster);
  mkdirSync(temporary, { mode: 0o700 });
  giveTo(temporary, runAs);
  const logFd = openSync(paths.log, 'a');
  const args = ['-D', temporary, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C'];
  const child = spawnAs(binaries.initdb, args, runAs, logFd);
  closeSync(logFd);
  const untrack = trackUntilExit(() => {
    killGroupSync(child);
    // A process killed a moment ago may still add a file: retried, and what is left the next start clears.
    rmSync(temporary, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
  });
  const code = await exited(child);
  untrack();
  if (code !== 0) {
    rmSync(temporary, { recursive: true, force: true });
    throw failure('Creating the database', dataDir, paths.log);
  }
  renameSync(temporary, paths.cluster);
}

/** The pid of a postmaster still running on `cluster` (its postmaster.pid names a live process for it), or null. */
export function runningPostmaster(cluster: string): number | null {
  let lines: string[];
  try {
    lines = readFileSync(path.join(cluster, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || path.resolve(lines[1] ?? '') !== path.resolve(cluster))
    return null;
  return isRunning(pid) ? pid : null;
}

/** Stops a postmaster: fast shutdown (SIGINT), then immediate (SIGQUIT) if it is still there after `graceMs`. */
export async function stopPostmaster(pid: number, graceMs = 10_000): Promise<void> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(pid, s);
    } catch {
      // already gone
    }
  };
  signal('SIGINT');
  const deadline = Date.now() + graceMs;
  while (isRunning(pid) && Date.now() < deadline) await sleep(20);
  if (!isRunning(pid)) return;
  signal('SIGQUIT');
  while (isRunning(pid)) await sleep(20);
}

/** postmaster.pid's 8th line is the postmaster's state; 'ready' once it accepts connections. */
function isReady(cluster: string, pid: number | undefined): boolean {
  try {
    const lines = readFileSync(path.join(cluster, 'postmaster.pid'), 'utf8').split('\n');
    return Number(lines[0]) === pid && lines[7]?.trim() === 'ready'; // not a file left by an earlier postmaster
  } catch {
    return false;
  }
}

export interface RunningCluster {
  pid: number;
  /** Resolves once the postmaster has ended, by `stop` or on its own (a start-up failure after a crash). */
  ended: Promise<unknown>;
  stop(): Promise<void>;
}

/**
 * Starts postgres on the cluster: unix socket only (no TCP port), readable by its own user alone (trust
 * authentication), fsync as PostgreSQL's default (on). Resolves once it accepts connections.
 */
export async function startCluster(
  binaries: PostgresBinaries,
  paths: ClusterPaths,
  runAs: RunAs,
): Promise<RunningCluster> {
  const dataDir = path.dirname(paths.cluster);
  if (paths.socketDir !== paths.cluster) {
    mkdirSync(paths.socketDir, { recursive: true, mode: 0o700 });
    giveTo(paths.socketDir, runAs);
  }
  const args = [
    '-D',
    paths.cluster,
    '-k',
    paths.socketDir,
    '-c',
    'listen_addresses=',
    '-c',
    'unix_socket_permissions=0700',
  ];
  const logFd = openSync(paths.log, 'a');
  const child = spawnAs(binaries.postgres, args, runAs, logFd);
  closeSync(logFd);
  const untrack = trackUntilExit(() => {
    if (child.pid && child.exitCode === null && child.signalCode === null) stopPostmasterSync(child.pid);
  });
  const ended = exited(child);
  let gone = false;
  void ended.then(() => {
    gone = true;
  });
  while (!gone && !isReady(paths.cluster, child.pid)) await sleep(10);
  if (gone) {
    untrack();
    throw failure('Starting PostgreSQL', dataDir, paths.log);
  }
  const pid = child.pid as number;
  void ended.then(untrack);
  return {
    pid,
    ended,
    async stop() {
      if (!gone) await stopPostmaster(pid);
      await ended;
      untrack();
    },
  };
}
