import { createWriteStream } from 'node:fs';
import { open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import type { DatabaseSession, Db } from '../db/connect';
import { copyOf, readSequences, readTables } from './catalogue';
import { BACKUP_FORMAT, BACKUP_VERSION, MANIFEST_ENTRY, type Manifest } from './manifest';
import { meter } from './meter';
import { withSession } from './session';

/** The database to back up: its Kysely handle and how a session of the backup's own is opened (db/connect.ts). */
export interface BackupSource {
  db: Db;
  engine: 'postgres' | 'pglite';
  session: DatabaseSession;
}

export interface BackupOptions {
  /** The uploaded files' folder (DATA_DIR/files), or null when they are not on this disk (S3): the database alone. */
  filesRoot: string | null;
  /** Why the files are not in the backup, when filesRoot is null (kept in the manifest). */
  filesNote?: string;
  /** Called once the snapshot is taken: what commits from then on is not in the backup (the restore drill writes here). */
  afterSnapshot?: () => Promise<void>;
}

export interface BackupSummary {
  file: string;
  bytes: number;
  tables: number;
  rows: number;
  files: number;
  /** Files listed at the snapshot and removed before they were read (a delete during the backup). */
  vanished: string[];
  seconds: number;
}

/** The archive being written: entries go in one at a time, each streamed through (never held in memory). */
class ArchiveWriter {
  private readonly zip = new yazl.ZipFile();
  private failure: Error | null = null;
  private readonly failed: Promise<never>;
  private readonly written: Promise<void>;

  constructor(file: string) {
    const out = createWriteStream(file);
    let fail: (error: Error) => void = () => {};
    this.failed = new Promise<never>((_, reject) => {
      fail = reject;
    });
    this.failed.catch(() => {});
    const onError = (error: Error) => {
      this.failure ??= error;
      fail(error);
    };
    this.zip.on('error', onError);
    out.on('error', onError);
    this.written = new Promise<void>((resolve) => out.on('close', resolve));
    this.zip.outputStream.on('error', onError).pipe(out);
  }

  /** Adds `name` with the bytes of `source`; resolves once they are all in, with their count, lines and hash. */
  async add(name: string, source: Readable) {
    if (this.failure) throw this.failure;
    const metered = meter();
    const done = new Promise<void>((resolve, reject) => {
      metered.stream.on('end', resolve);
      metered.stream.on('error', reject);
      source.on('error', (error) => metered.stream.destroy(error));
    });
    source.pipe(metered.stream);
    this.zip.addReadStream(metered.stream, name);
    await Promise.race([done, this.failed]);
    return { ...metered.counted, sha256: metered.digest() };
  }

  addBuffer(name: string, bytes: Buffer) {
    this.zip.addBuffer(bytes, name);
  }

  async finish() {
    this.zip.end();
    await Promise.race([this.written, this.failed]);
    if (this.failure) throw this.failure;
  }
}

async function listFiles(root: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(path.join(root, prefix), { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const entry of entries) {
    const key = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(root, key)));
    else if (entry.isFile()) out.push(key);
  }
  return out.sort();
}

/**
 * Issue 35 §1: writes `file`, one zip holding a consistent snapshot of the database and the uploaded files, while the
 * server serves. The tables come out of one REPEATABLE READ, READ ONLY transaction by COPY (the embedded PostgreSQL
 * ships no pg_dump), parents first; the migrations table comes with them, so the restore knows the schema. The files
 * are those present when the snapshot was taken, each with its SHA-256. The archive is written beside `file` and
 * renamed into place once complete: a backup cut short never looks like one.
 */
export async function writeBackup(
  source: BackupSource,
  file: string,
  options: BackupOptions,
): Promise<BackupSummary> {
  const started = performance.now();
  const partial = `${file}.partial`;
  const archive = new ArchiveWriter(partial);
  try {
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: '',
      engine: source.engine,
      serverVersion: '',
      migrations: [],
      tables: [],
      sequences: [],
      files: { included: options.filesRoot !== null, note: options.filesNote, list: [], vanished: [] },
    };
    let keys: string[] = [];
    await withSession(source.session, source.db, async (session) => {
      await session.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      try {
        // The first query takes the snapshot: everything below reads the database as it was at this moment.
        const [facts] = await session.query<{ now: string; version: string; migrations: boolean }>(
          `SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS now,
                  current_setting('server_version') AS version,
                  to_regclass('public.kysely_migration') IS NOT NULL AS migrations`,
        );
        if (!facts?.migrations)
          throw new BackupError('The database has no schema yet (no migrations table): nothing to back up.');
        manifest.createdAt = facts.now;
        manifest.serverVersion = facts.version;
        manifest.migrations = (
          await session.query<{ name: string }>('SELECT name FROM kysely_migration ORDER BY name')
        ).map((r) => r.name);
        await options.afterSnapshot?.();
        if (options.filesRoot) keys = await listFiles(options.filesRoot);
        for (const table of await readTables(session)) {
          const entry = `tables/${table.name}.copy`;
          const added = await archive.add(entry, await session.copyOut(copyOf(table)));
          manifest.tables.push({
            ...table,
            entry,
            rows: added.lines,
            bytes: added.bytes,
            sha256: added.sha256,
          });
        }
        // Sequences are outside transactions: read last, each is at least what the copied rows used.
        manifest.sequences = await readSequences(session);
      } finally {
        await session.query('ROLLBACK').catch(() => {});
      }
    });
    // The files after the transaction: on PGlite the session holds the app's only connection.
    for (const key of options.filesRoot ? keys : []) {
      const handle = await open(path.join(options.filesRoot as string, key), 'r').catch((error) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      });
      if (!handle) {
        manifest.files.vanished.push(key);
        continue;
      }
      const added = await archive.add(`files/${key}`, handle.createReadStream());
      manifest.files.list.push({ key, size: added.bytes, sha256: added.sha256 });
    }
    archive.addBuffer(MANIFEST_ENTRY, Buffer.from(JSON.stringify(manifest, null, 1)));
    await archive.finish();
    await rename(partial, file);
    const { size } = await stat(file);
    return {
      file,
      bytes: size,
      tables: manifest.tables.length,
      rows: manifest.tables.reduce((sum, t) => sum + t.rows, 0),
      files: manifest.files.list.length,
      vanished: manifest.files.vanished,
      seconds: (performance.now() - started) / 1000,
    };
  } catch (error) {
    await archive.finish().catch(() => {});
    await rm(partial, { force: true });
    throw error;
  }
}

/** A backup that cannot be taken, in one line for the operator. */
export class BackupError extends Error {}
