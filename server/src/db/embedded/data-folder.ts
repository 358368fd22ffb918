import { closeSync, mkdirSync, openSync, type Stats, statfsSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { StartupError } from './errors';

/** The one line for a data folder that cannot be used, by the error's code; the error itself when it has none. */
export function folderError(error: unknown, dataDir: string): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM')
    return new StartupError(
      `The data folder ${dataDir} is read-only (${code}): make it writable or set DATA_DIR to another folder.`,
    );
  if (code === 'ENOSPC') return diskFull(dataDir);
  if (code === 'EEXIST' || code === 'ENOTDIR')
    return new StartupError(`DATA_DIR ${dataDir} is a file, not a folder: set DATA_DIR to a folder.`);
  if (typeof code === 'string')
    return new StartupError(
      `The data folder ${dataDir} cannot be made or written there (${code}): set DATA_DIR to a folder on a disk.`,
    );
  return error as Error;
}

/** The one line for a full disk, with what is left: the same line however the start found out. */
export function diskFull(dataDir: string): StartupError {
  let free: number | null = null;
  try {
    const fs = statfsSync(dataDir);
    free = fs.bavail * fs.bsize;
  } catch {
    // the folder is not there yet, or statfs is not: say it without the figure
  }
  return new StartupError(
    free === null
      ? `The disk is full: the data folder ${dataDir} cannot be written; free some space and start again.`
      : `The disk is full: ${Math.floor(free / 1024)} kB free for the data folder ${dataDir}; free some space and start again.`,
  );
}

// File systems of the kernel, not of a disk (statfs f_type): nothing can be stored there, and making a folder in
// one fails in ways Node's recursive mkdir does not expect (see makeDataFolder).
const KERNEL_FILE_SYSTEMS: Record<number, string> = {
  40864: 'proc',
  1650812274: 'sysfs',
  7377: 'devpts',
  2613483: 'cgroup',
  1667723888: 'cgroup2',
  1684170528: 'debugfs',
  1953653091: 'tracefs',
  1935894131: 'securityfs',
  3405662737: 'bpf',
};

function kernelFileSystemOf(dir: string): string | null {
  try {
    return KERNEL_FILE_SYSTEMS[statfsSync(dir).type] ?? null;
  } catch {
    return null; // no statfs here: the mkdir below says what is wrong
  }
}

/**
 * Makes the data folder `dataDir` (and the folders above it that are missing), after checking it can be: every part
 * of the way is a folder, on a file system of a disk. Issue 30 §10: `mkdirSync(dir, { recursive: true })` loops
 * forever, at full CPU and deaf to SIGTERM (it is synchronous), where mkdir answers ENOENT under a parent that exists
 * (`DATA_DIR=/proc/x/data`: /proc has no x and makes none). So the folders are made one level at a time, and a level
 * that cannot be made stops the start with one line.
 */
export function makeDataFolder(dataDir: string): void {
  const target = path.resolve(dataDir);
  const missing: string[] = [];
  let nearest = target;
  let stats: Stats;
  for (;;) {
    try {
      stats = statSync(nearest);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR')
        throw new StartupError(
          `DATA_DIR ${dataDir} is inside a file, not a folder: set DATA_DIR to a folder.`,
        );
      const parent = path.dirname(nearest);
      if (code !== 'ENOENT' || parent === nearest) throw folderError(error, dataDir);
      missing.unshift(nearest);
      nearest = parent;
    }
  }
  if (!stats.isDirectory())
    throw new StartupError(
      nearest === target
        ? `DATA_DIR ${dataDir} is a file, not a folder: set DATA_DIR to a folder.`
        : `DATA_DIR ${dataDir} is inside a file (${nearest}), not a folder: set DATA_DIR to a folder.`,
    );
  const kernel = kernelFileSystemOf(nearest);
  if (kernel)
    throw new StartupError(
      `DATA_DIR ${dataDir} is on ${nearest}, a ${kernel} file system of the kernel, where nothing can be stored: set DATA_DIR to a folder on a disk.`,
    );
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (error) {
      // Made meanwhile by another process starting on the same folder: fine.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(dir).isDirectory()) continue;
      throw folderError(error, dataDir);
    }
  }
}

/**
 * Makes the data folder and checks that this process can write in it (a file made and removed at once), so a folder
 * that is read-only, or not this user's, stops the start with one line rather than failing the first upload.
 */
export function makeWritableDataFolder(dataDir: string): void {
  makeDataFolder(dataDir);
  const probe = path.join(path.resolve(dataDir), `.write-check-${process.pid}`);
  try {
    closeSync(openSync(probe, 'w'));
    unlinkSync(probe);
  } catch (error) {
    throw folderError(error, dataDir);
  }
}
