import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { DatabaseSession, Db } from '../db/connect';

/**
 * One database session of the backup or the restore, the same on both engines: plain queries, and COPY in PostgreSQL's
 * text format out of and into a table. On PostgreSQL a client of its own beside the pool, streaming both ways (memory
 * stays flat whatever a table holds). On PGlite the one connection, held for the whole session (the app's queries wait)
 * and COPY through PGlite's /dev/blob: a table passes through memory whole (docs/backup-and-restore.md "Backup and restore").
 */
export interface Session {
  query<R>(text: string, params?: unknown[]): Promise<R[]>;
  /** `copy` is `COPY <table> (<columns>)`; the table's rows come out as COPY text. */
  copyOut(copy: string): Promise<Readable>;
  /** `copy` is `COPY <table> (<columns>)`; `rows` (COPY text) go in. */
  copyIn(copy: string, rows: Readable): Promise<void>;
}

export async function withSession<T>(
  source: DatabaseSession,
  db: Db,
  run: (session: Session) => Promise<T>,
): Promise<T> {
  if (source.kind === 'pglite') {
    // Holding Kysely's connection keeps the app's queries out of the session (PGlite has one connection).
    return db.connection().execute(() => run(pgliteSession(source.client)));
  }
  const client = new pg.Client({ connectionString: source.url });
  client.on('error', () => {}); // a lost connection fails the query in hand, which reports it
  await client.connect();
  try {
    return await run(postgresSession(client));
  } finally {
    await client.end().catch(() => {});
  }
}

function postgresSession(client: pg.Client): Session {
  return {
    async query<R>(text: string, params: unknown[] = []) {
      return (await client.query(text, params)).rows as R[];
    },
    async copyOut(copy) {
      return client.query(copyTo(`${copy} TO STDOUT`));
    },
    async copyIn(copy, rows) {
      await pipeline(rows, client.query(copyFrom(`${copy} FROM STDIN`)) as Writable);
    },
  };
}

function pgliteSession(client: PGlite): Session {
  return {
    async query<R>(text: string, params: unknown[] = []) {
      return (await client.query<R>(text, params)).rows;
    },
    async copyOut(copy) {
      const result = await client.query(`${copy} TO '/dev/blob'`);
      const bytes = result.blob ? Buffer.from(await result.blob.arrayBuffer()) : Buffer.alloc(0);
      return Readable.from(bytes.length ? [bytes] : []);
    },
    async copyIn(copy, rows) {
      const chunks: Buffer[] = [];
      for await (const chunk of rows) chunks.push(chunk as Buffer);
      await client.query(`${copy} FROM '/dev/blob'`, [], { blob: new Blob(chunks as unknown as BlobPart[]) });
    },
  };
}
