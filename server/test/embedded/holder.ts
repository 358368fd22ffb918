import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

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
