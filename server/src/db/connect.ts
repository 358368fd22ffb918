import { existsSync, renameSync, rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { firstStartFolder } from './embedded/first-start';
import { type EngineRequest, openEmbedded } from './embedded/open';
import { trackUntilExit } from './embedded/processes';
import type { Database } from './schema';

export type Db = Kysely<Database>;

const DATE_OID = 1082;
const INT8_OID = 20;
const NUMERIC_OID = 1700;

// Dates stay 'YYYY-MM-DD' strings (a start date has no time zone); counts are numbers.
pg.types.setTypeParser(DATE_OID, (v) => v);
pg.types.setTypeParser(INT8_OID, (v) => Number(v));
pg.types.setTypeParser(NUMERIC_OID, (v) => Number(v));

export interface Connection {
  db: Db;
  engine: 'postgres' | 'pglite';
  /** For the start-up line: "PostgreSQL", "embedded postgres in <folder>", "pglite in <folder>". */
  where: string;
  /** One line to print at start when the embedded engine is not the one asked for (README "Embedded database"). */
  note?: string;
  close(): Promise<void>;
}

/**
 * PostgreSQL when a URL is given; else the embedded database in `dataDir` (PostgreSQL binaries, or PGlite where
 * they cannot run: db/embedded/open.ts); PGlite in memory when dataDir is null (the tests' default).
 */
export async function connect(opts: {
  databaseUrl?: string;
  dataDir: string | null;
  poolSize?: number;
  /** PostgreSQL's shared_buffers inside PGlite (config PGLITE_SHARED_BUFFERS); PGlite's own default when absent. */
  pgliteSharedBuffers?: string;
  embeddedEngine?: EngineRequest;
  /** The seed command: on the folder of a running server, join its PostgreSQL instead of refusing. */
  joinRunningServer?: boolean;
}): Promise<Connection> {
  if (opts.databaseUrl) return connectPostgres(opts.databaseUrl, opts.poolSize, 'PostgreSQL');
  if (!opts.dataDir) return connectPglite(undefined, opts.pgliteSharedBuffers, 'pglite in memory');
  const embedded = await openEmbedded(opts.dataDir, opts.embeddedEngine ?? 'auto', {
    joinRunningServer: opts.joinRunningServer,
  });
  try {
    const connection =
      embedded.engine === 'postgres'
        ? await connectPostgres(socketUrl(embedded.socketDir), opts.poolSize, embedded.where)
        : await connectPglite(embedded.dir, opts.pgliteSharedBuffers, embedded.where);
    return {
      ...connection,
      note: embedded.note,
      close: async () => {
        await connection.close();
        await embedded.close();
      },
    };
  } catch (error) {
    await embedded.close();
    throw error;
  }
}

function socketUrl(socketDir: string): string {
  return `postgres://postgres@/postgres?host=${encodeURIComponent(socketDir)}`;
}

async function connectPostgres(
  url: string,
  poolSize: number | undefined,
  where: string,
): Promise<Connection> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize ?? 10 });
  // An idle client can lose its connection (server restart, failover, a dropped test database): pg reports that
  // on the pool, and an 'error' event nobody listens to would end the process. The pool replaces the client.
  pool.on('error', (error) => {
    console.error(`database: an idle connection ended (${error.message}); it will be replaced.`);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', where, close: () => db.destroy() };
}

/**
 * PGlite's first start copies its initial files into the folder; interrupted, the folder never started again (issue
 * 12 §1). So the first start happens in a temporary folder, renamed into place when complete.
 */
async function firstPgliteStart(dir: string): Promise<void> {
  if (existsSync(dir)) return;
  const temporary = firstStartFolder(dir);
  const untrack = trackUntilExit(() => rmSync(temporary, { recursive: true, force: true }));
  const client = await PGlite.create({ dataDir: temporary });
  await client.close();
  renameSync(temporary, dir);
  untrack();
}

async function connectPglite(
  dir: string | undefined,
  sharedBuffers: string | undefined,
  where: string,
): Promise<Connection> {
  if (dir) await firstPgliteStart(dir);
  // PGlite.create applies custom parsers to every type; the constructor form ignores them for DATE.
  const client = await PGlite.create({
    ...(dir ? { dataDir: dir } : {}),
    // Trigram indexes of the search (migration 020), as on PostgreSQL.
    extensions: { pg_trgm },
    ...(sharedBuffers
      ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`] }
      : {}),
    parsers: {
      [DATE_OID]: (v: string) => v,
      [INT8_OID]: (v: string) => Number(v),
      [NUMERIC_OID]: (v: string) => Number(v),
    },
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  return { db, engine: 'pglite', where, close: () => db.destroy() };
}
