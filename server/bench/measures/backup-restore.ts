import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { connect, type Db } from '../../src/db/connect';
import type { DatabaseContext } from '../run';
import { runNpmCommand } from '../server-process';

/**
 * Bench measure (issue 36 §2): `npm run backup FILE` of the bench database, then `npm run restore FILE` into a fresh,
 * empty database, each run as an operator runs it (its own process, server/src/backup/cli.ts) while the bench holds
 * the source open, as a server would: with the embedded engine the backup joins the running cluster through its
 * socket (docs/backup-and-restore.md "While the server runs") and the restore goes into a new DATA_DIR, whose
 * cluster it creates; with PostgreSQL the restore goes into a new database `<bench database>_restored`.
 *
 * Figures: backup_ms and restore_ms, each command's wall-clock to its exit (npm and tsx starting, connecting,
 * writing; for the embedded restore, creating and starting the new cluster too); backup_write_ms and
 * restore_load_ms, the part each command reports itself (the archive written; the schema migrated and the rows
 * and files loaded and checked); backup_bytes, the file's size; backup_peak_rss_mb and restore_peak_rss_mb, the
 * kernel's peak resident memory of the node process running the command (not the PostgreSQL processes). Then
 * every table's row count in the restored database is compared with the source's (restore_rows, their sum): the
 * measure fails when one differs. The restored database and the file are removed afterwards, and on failure.
 *
 * Not on PGlite: one process owns its folder, and the bench holds it, so `npm run backup` refuses it (the nightly
 * backup, run by the server itself, is PGlite's way while it runs).
 */
export const name = 'backup and restore';
export const needs = 'database';

/** Every table's row count (partitions and their parents alike: both sides are counted the same way). */
async function rowCounts(db: Db): Promise<Map<string, number>> {
  const { rows: tables } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1`.execute(db);
  const counts = new Map<string, number>();
  for (const { name } of tables) {
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(name)}`.execute(db);
    counts.set(name, rows[0]?.n ?? 0);
  }
  return counts;
}

function differences(source: Map<string, number>, restored: Map<string, number>): string[] {
  const names = new Set([...source.keys(), ...restored.keys()]);
  return [...names]
    .filter((t) => source.get(t) !== restored.get(t))
    .map((t) => `${t} ${source.get(t) ?? 'missing'} -> ${restored.get(t) ?? 'missing'}`);
}

/** The seconds a command's summary line ends with ("… in 41.3 s."), as ms; 0 when it has none. */
function reportedMs(output: string): number {
  const seconds = /in (\d+(?:\.\d+)?) s\./.exec(output)?.[1];
  return seconds ? Math.round(Number(seconds) * 1000) : 0;
}

/** A folder the embedded PostgreSQL's own user (`postgres`, when the bench runs as root) may enter. */
function openFolder(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

/** The restore's target: an empty database (PostgreSQL) or an empty DATA_DIR (embedded), and how to drop it. */
async function freshTarget(source: DatabaseContext['deps']['config'], work: string) {
  const dataDir = path.join(work, 'restored');
  if (!source.databaseUrl) return { dataDir, databaseUrl: undefined, drop: async () => {} };
  const url = new URL(source.databaseUrl);
  const database = `${url.pathname.slice(1)}_restored`.slice(0, 63);
  const admin = new URL(source.databaseUrl);
  admin.pathname = '/postgres';
  const onAdmin = async (statement: string) => {
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await onAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`); // what a run stopped half-way left
  await onAdmin(`CREATE DATABASE ${database}`);
  url.pathname = `/${database}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    drop: () => onAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`),
  };
}

/**
 * The row counts of the restored database; the embedded one is started for it in this process, then stopped (its
 * close clears the process's disk-full check, db/connection-errors.ts: the bench's source loses it for the measures
 * after this one, which only changes how a full disk would be reported).
 */
async function restoredCounts(target: {
  dataDir: string;
  databaseUrl?: string;
}): Promise<Map<string, number>> {
  const connection = await connect({ databaseUrl: target.databaseUrl, dataDir: target.dataDir, poolSize: 2 });
  try {
    return await rowCounts(connection.db);
  } finally {
    await connection.close();
  }
}

export async function run(ctx: DatabaseContext): Promise<Record<string, number>> {
  if (ctx.engine === 'pglite') {
    console.error(
      '  backup and restore: not on PGlite (the bench holds its folder; npm run backup refuses it)',
    );
    return {};
  }
  const { config } = ctx.deps;
  const work = openFolder('cc-bench-backup-');
  const file = path.join(work, 'bench.zip');
  // The command's environment as an operator's shell would give it: the source's DATA_DIR or DATABASE_URL.
  const envOf = (target: { dataDir: string; databaseUrl?: string }): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: target.dataDir,
      LOG_LEVEL: 'error',
      // Read, never used, by both commands; required when NODE_ENV=production (issue 29 §14).
      SECRETS_KEY: process.env.SECRETS_KEY || randomBytes(32).toString('base64'),
    };
    delete env.BACKUP_DIR;
    if (target.databaseUrl) env.DATABASE_URL = target.databaseUrl;
    else delete env.DATABASE_URL;
    return env;
  };
  let target: Awaited<ReturnType<typeof freshTarget>> | null = null;
  try {
    const backup = await runNpmCommand({
      command: 'backup',
      args: [file],
      script: 'backup/cli.ts',
      env: envOf({ dataDir: config.dataDir, databaseUrl: config.databaseUrl }),
    });
    const bytes = statSync(file).size;
    target = await freshTarget(config, work);
    const restore = await runNpmCommand({
      command: 'restore',
      args: [file],
      script: 'backup/cli.ts',
      env: envOf(target),
    });
    const source = await rowCounts(ctx.deps.db);
    const restored = await restoredCounts(target);
    const differ = differences(source, restored);
    if (differ.length)
      throw new Error(`the restored database differs from the source: ${differ.slice(0, 10).join(', ')}`);
    return {
      backup_ms: backup.ms,
      backup_write_ms: reportedMs(backup.output),
      backup_bytes: bytes,
      backup_peak_rss_mb: backup.peakMb,
      restore_ms: restore.ms,
      restore_load_ms: reportedMs(restore.output),
      restore_peak_rss_mb: restore.peakMb,
      restore_rows: [...restored.values()].reduce((sum, n) => sum + n, 0),
    };
  } finally {
    await target?.drop();
    rmSync(work, { recursive: true, force: true });
  }
}
