import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';

/**
 * The engine processes this process started (initdb, postgres), so that however it exits (a signal during start-up,
 * an uncaught error, process.exit) none is left running: each one's `onExit` runs synchronously at exit.
 */
const live = new Set<() => void>();
let hooked = false;

export function trackUntilExit(onExit: () => void): () => void {
  if (!hooked) {
    hooked = true;
    process.on('exit', () => {
      for (const stop of live) {
        // One that fails (a folder still being written) must neither stop the others nor print a stack trace over
        // the one line the exit already printed (issue 30 §10); what it leaves, the next start clears.
        try {
          stop();
        } catch {
          // left for the next start
        }
      }
    });
  }
  live.add(onExit);
  return () => live.delete(onExit);
}

/** Resolves with the exit code (or signal) once `child` has ended; immediately if it already has. */
export function exited(child: ChildProcess): Promise<number | string> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  if (child.signalCode !== null) return Promise.resolve(child.signalCode);
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    child.once('error', (error) => resolve((error as NodeJS.ErrnoException).code ?? 'error')); // could not start
  });
}

/**
 * Kills a child started `detached` (the leader of its own process group) together with what it started: initdb runs
 * `postgres --boot` and `postgres --single` as children of its own, which a kill of initdb alone left writing into
 * the folder being removed.
 */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    child.kill(signal); // no group (Windows) or it is gone already
  }
}

/** The ids of the processes running now (Linux's /proc; elsewhere, no /proc, none). */
function processIds(): number[] {
  try {
    return readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return [];
  }
}

/** A process's state letter and process group, or null once it has ended. */
function statOf(pid: number): { state: string; pgrp: number } | null {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state = '', , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, pgrp: Number(pgrp) };
  } catch {
    return null;
  }
}

/** Alive and not a zombie (a zombie holds no file). */
function alive(pid: number): boolean {
  const stat = statOf(pid);
  return stat !== null && stat.state !== 'Z' && stat.state !== 'X';
}

/** Whether a process of group `pgid` is still alive. */
function groupAlive(pgid: number): boolean {
  return processIds().some((pid) => statOf(pid)?.pgrp === pgid && alive(pid));
}

/**
 * Kills `child`'s whole process group and waits (blocking, for exit hooks) up to `ms` until none of it is left: a
 * process killed in the middle of an fsync ends only when the write returns, and initdb's `postgres --single` kept
 * writing into the folder for a moment after the server had exited (issue 30 §10, a 1-in-N race).
 */
export function killGroupSync(child: ChildProcess, ms = 2000): void {
  killGroup(child, 'SIGKILL');
  const pgid = child.pid;
  if (pgid) blockWhile(() => groupAlive(pgid), ms, 10);
}

/**
 * Kills (SIGKILL, with their process groups) the processes still working in `folder`: those whose command line names
 * it or whose working directory is in it, and waits (blocking) up to `ms` until they are gone. A server killed with -9
 * during its first start leaves its initdb and `postgres --boot` running into the temporary folder, and removing the
 * folder under them failed the next start with ENOTEMPTY (a 1-in-N race seen in CI).
 */
export function stopProcessesIn(folder: string, ms = 3000): void {
  const names = [folder, realOrSame(folder)];
  const within = (p: string) => names.some((name) => p === name || p.startsWith(`${name}/`));
  const writers = processIds().filter((pid) => {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').some(within)) return true;
      return within(readlinkSync(`/proc/${pid}/cwd`));
    } catch {
      return false; // ended while read, or not ours to read
    }
  });
  for (const pid of writers) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // not a group leader, or gone already
      }
    }
  }
  blockWhile(() => writers.some(alive), ms, 10);
}

function realOrSame(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Blocks the thread, looking every `stepMs`, while `busy()` holds, for up to `ms` (exit hooks and the first start's
 * clean-up cannot wait asynchronously). True when it stopped holding in time.
 */
function blockWhile(busy: () => boolean, ms: number, stepMs: number): boolean {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + ms;
  while (busy()) {
    if (Date.now() > deadline) return false;
    Atomics.wait(pause, 0, 0, stepMs);
  }
  return true;
}

/** Waits up to `ms` for `pid` to end, blocking the thread (for exit hooks, which cannot wait asynchronously). */
export function waitSync(pid: number, ms: number): boolean {
  return blockWhile(() => isRunning(pid), ms, 20);
}

/**
 * A postmaster's stop at this process's exit: fast shutdown (SIGINT), then immediate (SIGQUIT) when it is still there
 * after `graceMs`. Issue 30 §2: a postmaster in crash recovery on a full disk took the SIGINT and stayed, an orphan
 * holding the folder; SIGQUIT ends it in any state (the next start replays the WAL).
 */
export function stopPostmasterSync(pid: number, graceMs = 3000): void {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(pid, s);
    } catch {
      // already gone
    }
  };
  signal('SIGINT');
  if (waitSync(pid, graceMs)) return;
  signal('SIGQUIT');
  waitSync(pid, graceMs);
}

/**
 * Ctrl-C or SIGTERM while the server starts: exit at once (the exit hook above stops what was started and a
 * half-made cluster stays in its temporary folder). Call before start-up work begins; the returned function hands
 * the signals over to the running server's own shutdown.
 */
export function guardStartupSignals(): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`Stopped during start-up (${signal}).`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
