import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
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
  close(): Promise<void>;
}

/** PostgreSQL when a URL is given, else the embedded PGlite (in `dataDir`, or in memory when dataDir is null). */
export async function connect(opts: {
  databaseUrl?: string;
  dataDir: string | null;
  poolSize?: number;
  /** PostgreSQL's shared_buffers inside PGlite (config PGLITE_SHARED_BUFFERS); PGlite's own default when absent. */
  pgliteSharedBuffers?: string;
}): Promise<Connection> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    // An idle client can lose its connection (server restart, failover, a dropped test database): pg reports that
    // on the pool, and an 'error' event nobody listens to would end the process. The pool replaces the client.
    pool.on('error', (error) => {
      console.error(`database: an idle connection ended (${error.message}); it will be replaced.`);
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, engine: 'postgres', close: () => db.destroy() };
  }
  let dir: string | undefined;
  if (opts.dataDir) {
    dir = path.join(opts.dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true });
  }
  // PGlite.create applies custom parsers to every type; the constructor form ignores them for DATE.
  const sharedBuffers = opts.pgliteSharedBuffers;
  const client = await PGlite.create({
    ...(dir ? { dataDir: dir } : {}),
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
  return { db, engine: 'pglite', close: () => db.destroy() };
}
