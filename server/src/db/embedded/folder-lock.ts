import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Who holds a data folder: a process id and, on Linux, its start time (so a reused pid is not mistaken for it). */
interface Holder {
  pid: number;
  started: string | null;
}

export interface FolderLock {
  release(): void;
}

const LOCK_FILE = 'in-use.lock';

/** The start time of a process (field 22 of /proc/<pid>/stat), or null where there is no /proc. */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(holder: Holder): boolean {
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return holder.started === null || startTimeOf(holder.pid) === holder.started;
}

function readHolder(file: string): Holder | null {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as Holder;
    return typeof holder.pid === 'number' ? holder : null;
  } catch {
    return null;
  }
}

/**
 * The live process holding `dataDir`, or null. A holder killed with -9 leaves its lock file behind; a dead holder
 * (or a pid now reused by another program) does not count.
 */
export function holderOf(dataDir: string): number | null {
  const holder = readHolder(path.join(dataDir, LOCK_FILE));
  return holder && isAlive(holder) ? holder.pid : null;
}

/**
 * Takes `dataDir` for this process, or returns the pid of the live process holding it. The embedded engines serve
 * one process: two on one folder corrupted it (issue 12 §1).
 */
export function lockFolder(dataDir: string): FolderLock | { heldBy: number } {
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx'); // exclusive: of two processes starting together, one wins
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      if (holder && isAlive(holder)) return { heldBy: holder.pid };
      if (!holder && attempt === 0) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100); // being written right now: look again
        continue;
      }
      rmSync(file, { force: true }); // left by a process that died
      continue;
    }
    const holder: Holder = { pid: process.pid, started: startTimeOf(process.pid) };
    writeSync(fd, JSON.stringify(holder));
    closeSync(fd);
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        if (readHolder(file)?.pid === process.pid) rmSync(file, { force: true });
      },
    };
  }
  throw new Error(`Could not take the data folder ${dataDir}: its lock file ${file} keeps changing.`);
}
