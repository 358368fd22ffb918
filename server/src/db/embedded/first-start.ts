import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { stopProcessesIn } from './processes';

/**
 * The temporary folder a first start builds `target` in, beside it, to be renamed into place when complete (issue 12
 * §1: an interrupted first start must not leave a half-made database). What earlier interrupted starts left there
 * (`<name>.init-<pid>`) is removed first, after stopping what a server killed with -9 left running in it.
 */
export function firstStartFolder(target: string): string {
  const parent = path.dirname(target);
  const prefix = `${path.basename(target)}.init-`;
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(prefix)) continue;
    const leftover = path.join(parent, name);
    stopProcessesIn(leftover);
    rmSync(leftover, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  }
  return path.join(parent, `${prefix}${process.pid}`);
}
