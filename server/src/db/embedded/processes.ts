import type { ChildProcess } from 'node:child_process';

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
      for (const stop of live) stop();
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
