import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { exited, isRunning, stopPostmasterSync } from '../../src/db/embedded/processes';

/**
 * Issue 30 §2: a server that ended while its PostgreSQL was in crash recovery on a full disk left it running: its exit
 * hook sent SIGINT (fast shutdown), which that postmaster took and stayed, an orphan holding the folder. The exit hook
 * now follows with SIGQUIT (immediate shutdown) when the process is still there after the grace period. Here the
 * process that takes SIGINT and stays is a stand-in (a real postmaster in that state needs a full disk at the right
 * moment: test/embedded/full-disk-checkpoint.test.ts covers the real one's stop).
 */
describe('the exit hook stops a postmaster that ignores a fast shutdown (issue 30 §2)', () => {
  it('sends SIGINT, then SIGQUIT after the grace period', async () => {
    const child = spawn(
      process.execPath,
      [
        '-e',
        "process.on('SIGINT', () => console.log('SIGINT ignored')); console.log('up'); setInterval(() => {}, 1000)",
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
    });
    while (!out.includes('up')) await new Promise((resolve) => setTimeout(resolve, 20));
    const pid = child.pid as number;
    const started = Date.now();
    stopPostmasterSync(pid, 500);
    const took = Date.now() - started;
    expect(await exited(child)).toBe('SIGQUIT');
    expect(isRunning(pid)).toBe(false);
    expect(out).toContain('SIGINT ignored');
    expect(took).toBeGreaterThanOrEqual(500);
    expect(took).toBeLessThan(5000);
  });
});
