import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sql } from 'kysely';
import yauzl from 'yauzl';
import type { DatabaseSession, Db } from '../db/connect';
import { migrateTo, migrationNames } from '../db/migrate';
import { checkKey } from '../storage/storage';
import { copyOf, ident, readTables, sequenceColumns } from './catalogue';
import { BACKUP_FORMAT, BACKUP_VERSION, MANIFEST_ENTRY, type Manifest } from './manifest';
import { meter } from './meter';
import { type Session, withSession } from './session';

/** An empty database to restore into: its Kysely handle and how a session of the restore's own is opened. */
export interface RestoreTarget {
  db: Db;
  session: DatabaseSession;
}

export interface RestoreSummary {
  tables: number;
  rows: number;
  files: number;
  /** The backup's schema; the next start migrates it to this code's latest. */
  lastMigration: string;
  seconds: number;
}

/** A restore that cannot be done (a non-empty target, a damaged or newer backup), in one line for the operator. */
export class RestoreError extends Error {}

/** Reads the archive's entries lazily: only the central directory is read up front (yauzl), never a whole entry. */
class ArchiveReader {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly entries: Map<string, yauzl.Entry>,
  ) {}

  static async open(file: string): Promise<ArchiveReader> {
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.open(file, { lazyEntries: true, autoClose: false }, (error, opened) =>
        error ? reject(new RestoreError(`${file} is not a backup (${error.message}).`)) : resolve(opened),
      ),
    );
    const entries = new Map<string, yauzl.Entry>();
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.set(entry.fileName, entry);
        zip.readEntry();
      });
      zip.on('end', resolve);
      zip.on('error', reject);
      zip.readEntry();
    });
    return new ArchiveReader(zip, entries);
  }

  async stream(name: string): Promise<Readable> {
    const entry = this.entries.get(name);
    if (!entry) throw new RestoreError(`The backup is damaged: ${name} is missing.`);
    return new Promise<Readable>((resolve, reject) =>
      this.zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))),
    );
  }

  async manifest(): Promise<Manifest> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.stream(MANIFEST_ENTRY)) chunks.push(chunk as Buffer);
    const manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Manifest;
    if (manifest.format !== BACKUP_FORMAT)
      throw new RestoreError('This file is not a CareCompliance backup.');
    if (manifest.version !== BACKUP_VERSION)
      throw new RestoreError(
        `This backup has format version ${manifest.version}; this version of CareCompliance reads version ${BACKUP_VERSION}: restore it with the version that made it.`,
      );
    return manifest;
  }

  close() {
    this.zip.close();
  }
}

/** What makes a target not empty: the public schema's tables, and files in the files folder. */
export async function targetContents(db: Db, filesRoot: string | null): Promise<string | null> {
  const { rows } = await sql<{ count: number }>`
    SELECT count(*)::int AS count FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')`.execute(db);
  const relations = { count: rows[0]?.count ?? 0 };
  if (Number(relations.count) > 0) return `the database has ${relations.count} tables and sequences`;
  if (filesRoot && (await readdir(filesRoot).catch(() => [])).length > 0)
    return `the files folder ${filesRoot} is not empty`;
  return null;
}

async function loadTables(session: Session, archive: ArchiveReader, manifest: Manifest): Promise<void> {
  try {
    // Rows go in as they were: no trigger fires (they would add derived rows the backup already holds) and no key is
    // checked row by row (the snapshot was consistent). Needs a superuser, or SET permission on the parameter.
    await session.query("SET LOCAL session_replication_role = 'replica'");
  } catch (error) {
    throw new RestoreError(
      `The restore needs a database role that may set session_replication_role (a superuser, or on PostgreSQL 15+ GRANT SET ON PARAMETER session_replication_role): ${(error as Error).message}.`,
    );
  }
  const present = new Map((await readTables(session)).map((t) => [t.name, t.columns.join(',')]));
  for (const table of manifest.tables) {
    if (present.get(table.name) !== table.columns.join(','))
      throw new RestoreError(
        `The backup's table ${table.name} does not match the schema its migrations make here: restore it with the version that made it.`,
      );
  }
  // Migrations may seed rows (the permission catalogue, settings): the backup's rows replace them.
  if (present.size)
    await session.query(`TRUNCATE ${[...present.keys()].map(ident).join(', ')} RESTART IDENTITY`);
  for (const table of manifest.tables) {
    const metered = meter();
    const source = await archive.stream(table.entry);
    source.on('error', (error) => metered.stream.destroy(error));
    await session.copyIn(copyOf(table), source.pipe(metered.stream));
    if (metered.digest() !== table.sha256 || metered.counted.lines !== table.rows)
      throw new RestoreError(
        `The backup is damaged: table ${table.name} does not match its checksum (${metered.counted.lines} of ${table.rows} rows read).`,
      );
  }
  const recorded = new Map(manifest.sequences.map((s) => [s.name, s.lastValue]));
  for (const [name, value] of recorded)
    if (value !== null) await session.query('SELECT setval($1::regclass, $2::bigint)', [ident(name), value]);
  // Never below a copied id, whatever the recorded value said.
  for (const { sequence, table, column } of await sequenceColumns(session)) {
    await session.query(
      `SELECT setval($1::regclass, m) FROM (SELECT max(${ident(column)})::bigint AS m FROM ${ident(table)}) t
        WHERE m IS NOT NULL AND m > COALESCE($2::bigint, 0)`,
      [ident(sequence), recorded.get(sequence) ?? null],
    );
  }
}

async function restoreFiles(archive: ArchiveReader, manifest: Manifest, filesRoot: string): Promise<void> {
  for (const file of manifest.files.list) {
    const target = path.join(filesRoot, checkKey(file.key));
    await mkdir(path.dirname(target), { recursive: true });
    const metered = meter();
    const partial = `${target}.restoring`;
    await pipeline(await archive.stream(`files/${file.key}`), metered.stream, createWriteStream(partial));
    if (metered.digest() !== file.sha256 || metered.counted.bytes !== file.size) {
      await rm(partial, { force: true });
      throw new RestoreError(`The backup is damaged: file ${file.key} does not match its SHA-256.`);
    }
    await rename(partial, target);
  }
}

/**
 * Issue 35 §1: restores `file` (backup.ts) into an empty database and files folder. The schema is rebuilt by this
 * code's own migrations up to the backup's last (the next start migrates on to the latest, as for any upgrade), then
 * every table, the migrations table included, is loaded by COPY in one transaction (parents first), each checked
 * against its row count and SHA-256; sequences are set to their recorded value, and never below a restored id; the
 * planner's statistics are gathered (ANALYZE). Then the files, each checked against its SHA-256. Refuses a target
 * that holds anything, and a backup made by a newer version.
 */
export async function restoreBackup(
  target: RestoreTarget,
  file: string,
  options: { filesRoot: string | null },
): Promise<RestoreSummary> {
  const started = performance.now();
  const archive = await ArchiveReader.open(file);
  try {
    const manifest = await archive.manifest();
    const known = migrationNames();
    const unknown = manifest.migrations.filter((name) => !known.includes(name));
    if (unknown.length)
      throw new RestoreError(
        `This backup was made by a newer version of CareCompliance (migration ${unknown.join(', ')} is unknown to this one): restore it with that version.`,
      );
    const last = manifest.migrations.at(-1);
    if (!last || known.slice(0, known.indexOf(last) + 1).join() !== manifest.migrations.join())
      throw new RestoreError("The backup's migrations are not a sequence this version knows.");
    const contents = await targetContents(target.db, options.filesRoot);
    if (contents) throw new RestoreError(`Refusing to restore: ${contents}; restore into an empty one.`);

    await migrateTo(target.db, last);
    await withSession(target.session, target.db, async (session) => {
      await session.query('BEGIN');
      try {
        await loadTables(session, archive, manifest);
        await session.query('COMMIT');
      } catch (error) {
        await session.query('ROLLBACK').catch(() => {});
        throw error;
      }
      // The planner's statistics are not in a backup, and COPY gathers none: without them the first queries plan
      // blind (the matrix and the importer with nested loops over a million rows) until autovacuum analyses each
      // table, and where autovacuum is off, never.
      await session.query('ANALYZE');
    });
    if (options.filesRoot && manifest.files.included)
      await restoreFiles(archive, manifest, options.filesRoot);
    return {
      tables: manifest.tables.length,
      rows: manifest.tables.reduce((sum, t) => sum + t.rows, 0),
      files: options.filesRoot && manifest.files.included ? manifest.files.list.length : 0,
      lastMigration: last,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    archive.close();
  }
}
