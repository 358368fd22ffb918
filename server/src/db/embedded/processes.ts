import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

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

/**
 * Whether a process of group `pgid` is still alive (a zombie is not: it holds no file). Linux's /proc; elsewhere
 * (no /proc) it answers false at once.
 */
function groupAlive(pgid: number): boolean {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return false;
  }
  return pids.some((pid) => {
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(pgrp) === pgid && state !== 'Z' && state !== 'X';
    } catch {
      return false; // ended while read
    }
  });
}

/**
 * Kills `child`'s whole process group and waits (blocking, for exit hooks) up to `ms` until none of it is left: a
 * process killed in the middle of an fsync ends only when the write returns, and initdb's `postgres --single` kept
 * writing into the folder for a moment after the server had exited (issue 30 §10, a 1-in-N race).
 */
export function killGroupSync(child: ChildProcess, ms = 2000): void {
  killGroup(child, 'SIGKILL');
  if (!child.pid) return;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + ms;
  while (groupAlive(child.pid) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 10);
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

/** Waits up to `ms` for `pid` to end, blocking the thread (for exit hooks, which cannot wait asynchronously). */
export function waitSync(pid: number, ms: number): boolean {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + ms;
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false;
    Atomics.wait(pause, 0, 0, 20);
  }
  return true;
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
