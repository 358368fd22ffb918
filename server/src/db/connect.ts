import { existsSync, renameSync, rmSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { isLostConnection, setDiskFullCheck } from './connection-errors';
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
  /**
   * The sign-in lane (issue 36 §2): a small pool of its own on PostgreSQL, so a sign-in never waits for a connection
   * behind the read load; on PGlite, which has one connection, the same as `db`.
   */
  signInDb: Db;
  engine: 'postgres' | 'pglite';
  /** For the start-up line: "PostgreSQL", "embedded postgres in <folder>", "pglite in <folder>". */
  where: string;
  /** One line to print at start when the embedded engine is not the one asked for (README "Embedded database"). */
  note?: string;
  /**
   * The pool's connections now (issue 35 §5 metrics): opened in all, idle among them, requests waiting for one, and
   * the most it opens. Absent on PGlite, which has one connection and no pool.
   */
  poolUse?: () => PoolUse;
  /** The sign-in lane's pool the same way (absent on PGlite). */
  signInPoolUse?: () => PoolUse;
  /**
   * How a tool opens a session of its own beside the pool (the backup's snapshot transaction and COPY, issue 35 §1):
   * PostgreSQL's address (a URL, or the embedded cluster's socket), or PGlite's one client, which Kysely shares.
   */
  session: DatabaseSession;
  close(): Promise<void>;
}

export type DatabaseSession = { kind: 'postgres'; url: string } | { kind: 'pglite'; client: PGlite };

export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/**
 * PostgreSQL when a URL is given; else the embedded database in `dataDir` (PostgreSQL binaries, or PGlite where
 * they cannot run: db/embedded/open.ts); PGlite in memory when dataDir is null (the tests' default).
 */
export async function connect(opts: {
  databaseUrl?: string;
  dataDir: string | null;
  poolSize?: number;
  /** The sign-in lane's connections (config DATABASE_SIGN_IN_POOL_SIZE), besides poolSize. */
  signInPoolSize?: number;
  /** PostgreSQL's shared_buffers inside PGlite (config PGLITE_SHARED_BUFFERS); PGlite's own default when absent. */
  pgliteSharedBuffers?: string;
  embeddedEngine?: EngineRequest;
  /** The seed command: on the folder of a running server, join its PostgreSQL instead of refusing. */
  joinRunningServer?: boolean;
}): Promise<Connection> {
  const sizes = { main: opts.poolSize, signIn: opts.signInPoolSize };
  if (opts.databaseUrl) return connectPostgres(opts.databaseUrl, sizes, 'PostgreSQL');
  if (!opts.dataDir) return connectPglite(undefined, opts.pgliteSharedBuffers, 'pglite in memory');
  const embedded = await openEmbedded(opts.dataDir, opts.embeddedEngine ?? 'auto', {
    joinRunningServer: opts.joinRunningServer,
  });
  try {
    const connection =
      embedded.engine === 'postgres'
        ? await connectPostgres(socketUrl(embedded.socketDir), sizes, embedded.where)
        : await connectPglite(embedded.dir, opts.pgliteSharedBuffers, embedded.where);
    const diskFull = embedded.engine === 'postgres' ? embedded.diskFull : undefined;
    if (diskFull) setDiskFullCheck(diskFull);
    return {
      ...connection,
      note: embedded.note,
      close: async () => {
        if (diskFull) setDiskFullCheck(null);
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

async function connectPostgres(url: string, sizes: PoolSizes, where: string): Promise<Connection> {
  // One reporter for both pools: a restart cuts the lane's connections too, and that is still one event.
  const report = lossReporter();
  const main = openPool(url, sizes.main ?? 10, report);
  const signIn = openPool(url, sizes.signIn ?? 2, report);
  return {
    db: main.db,
    signInDb: signIn.db,
    engine: 'postgres',
    where,
    poolUse: main.use,
    signInPoolUse: signIn.use,
    session: { kind: 'postgres', url },
    close: async () => {
      await Promise.all([main.db.destroy(), signIn.db.destroy()]);
    },
  };
}

/** The connections asked for: the main pool (DATABASE_POOL_SIZE) and the sign-in lane (DATABASE_SIGN_IN_POOL_SIZE). */
export interface PoolSizes {
  main?: number;
  signIn?: number;
}

function openPool(url: string, max: number, report: ReturnType<typeof lossReporter>) {
  const pool = new pg.Pool({ connectionString: url, max });
  // Issue 30 §1: any connection can be lost (a restart, a failover, pg_terminate_backend, a killed backend). pg
  // reports it as an 'error' event on the client, and an 'error' event nobody listens to ends the process. The pool
  // listens only while a client is idle; a client lent to a request (in a query or between a transaction's
  // statements) has no listener then. So every client gets one of its own for its whole life: the queries on it fail
  // (the request answers 503, http/error-handler.ts), the pool drops it when it comes back (it is no longer
  // queryable) and opens a new one for the next request.
  const fresh = new WeakSet<pg.PoolClient>();
  const lost = new WeakSet<pg.PoolClient>();
  pool.on('connect', (client) => {
    fresh.add(client);
    client.on('error', (error) => {
      lost.add(client);
      report(client, error);
    });
    client.on('end', () => lost.add(client));
  });
  pool.on('error', () => {}); // an idle client's loss, already reported by its own listener
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: retryingPool(pool, fresh, lost) }),
  });
  const use = (): PoolUse => ({
    total: pool.totalCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
    max: pool.options.max ?? max,
  });
  return { db, use };
}

/**
 * Issue 30 §1-2: a connection that died while idle in the pool (a restart, pg_terminate_backend) failed the next
 * request that took it, though nothing of that request reached the database. So:
 * - a connection whose query failed for a lost connection goes back to the pool as broken (it is destroyed): pg-pool
 *   kept one whose socket had not closed yet, and lent it to the next request;
 * - a connection the pool lends that is known to be lost is dropped and another taken: before its first statement,
 *   what arrived on it meanwhile is read (one turn of the event loop), so a connection that ended while idle, whose
 *   end the pool had not read yet because the event loop was busy, is known;
 * - the first statement on a connection taken from the pool (not a new one) that pg refused to send ("not
 *   queryable": the connection had died) runs on another connection. Nothing else is repeated: a statement that
 *   reached the database, read or write, fails its request (503, retryable), as its outcome is unknown.
 * Each try drops a dead connection, so at most the pool's size of them are tried; a new connection is never retried.
 */
function retryingPool(
  pool: pg.Pool,
  fresh: WeakSet<pg.PoolClient>,
  lost: WeakSet<pg.PoolClient>,
): PostgresPool {
  const maxTries = (pool.options.max ?? 10) + 1;
  const take = async () => {
    for (let tries = 1; ; tries++) {
      const client = await pool.connect();
      const reused = !fresh.has(client);
      fresh.delete(client);
      // What the database sent while this connection was idle (its end, say) and the event loop has not read yet,
      // is read before anything of this request is sent on it.
      if (reused) await new Promise((resolve) => setImmediate(resolve));
      if (!lost.has(client) || tries >= maxTries) return { client, reused };
      client.release(new Error('connection lost while idle')); // destroyed
    }
  };
  return {
    end: () => pool.end(),
    async connect() {
      let { client: current, reused } = await take();
      let held = true;
      let broken: Error | undefined;
      let first = true;
      const fail = (client: pg.PoolClient, error: unknown) => {
        if (isLostConnection(error)) {
          lost.add(client);
          broken = error as Error;
        }
        throw error;
      };
      const run = async (text: string, params: unknown[]) => {
        for (let tries = 1; ; tries++) {
          const client = current;
          try {
            return await client.query(text, params);
          } catch (error) {
            if (!reused || tries >= maxTries || !notSent(error)) fail(client, error);
            client.release(error as Error); // destroyed, not returned to the pool
            held = false;
            ({ client: current, reused } = await take());
            held = true;
          }
        }
      };
      const wrapped = {
        query(text: unknown, params?: unknown[]) {
          if (first && typeof text === 'string') {
            first = false;
            return run(text, params ?? []);
          }
          first = false;
          if (typeof text !== 'string') return (current.query as (cursor: unknown) => unknown)(text);
          const client = current;
          return client.query(text, params).catch((error: unknown) => fail(client, error));
        },
        release() {
          if (held) current.release(broken);
          held = false;
        },
      };
      return wrapped as unknown as PostgresPoolClient;
    },
  };
}

/** pg refused to send the statement: its connection had already failed, so nothing of it reached the database. */
function notSent(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.message.startsWith('Client has encountered a connection error and is not queryable')
  );
}

/**
 * One line for the first lost connection, then quiet for LOSS_REPORT_MS (a restart cuts every connection at once):
 * the next line says how many more were lost meanwhile. A client that reports twice (the server's message, then the
 * closed socket) counts once.
 */
function lossReporter(log: (line: string) => void = (line) => console.error(line)) {
  const seen = new WeakSet<pg.Client>();
  let quietUntil = 0;
  let more = 0;
  return (client: pg.Client, error: Error) => {
    if (seen.has(client)) return;
    seen.add(client);
    const now = Date.now();
    if (now < quietUntil) {
      more += 1;
      return;
    }
    log(
      `database: a connection was lost (${error.message})${more ? `; ${more} more were lost since the last such line` : ''}; the requests using it answer 503 and new connections are made.`,
    );
    more = 0;
    quietUntil = now + LOSS_REPORT_MS;
  };
}
const LOSS_REPORT_MS = 5000;

/**
 * PGlite's first start copies its initial files into the folder; interrupted, the folder never started again (issue
 * 12 §1). So the first start happens in a temporary folder, renamed into place when complete.
 */
async function firstPgliteStart(dir: string): Promise<void> {
  if (existsSync(dir)) return;
  const temporary = firstStartFolder(dir);
  const untrack = trackUntilExit(() => rmSync(temporary, { recursive: true, force: true }));
  const { PGlite } = await import('@electric-sql/pglite');
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
  // Loaded only when PGlite runs: a server on PostgreSQL does not carry it.
  const [{ PGlite }, { pg_trgm }, { PGliteDialect }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('kysely-pglite-dialect'),
  ]);
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
  return {
    db,
    signInDb: db,
    engine: 'pglite',
    where,
    session: { kind: 'pglite', client },
    close: () => db.destroy(),
  };
}
