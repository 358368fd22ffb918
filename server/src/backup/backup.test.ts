import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { type Connection, connect, type Db } from '../db/connect';
import { seedDemoIfEmpty } from '../demo/seed';
import { writeBackup } from './backup';
import { backupName, takeNightlyBackup } from './nightly';
import { RestoreError, restoreBackup } from './restore';

/** Every public table's row count and an md5 over the md5 of each of its rows (sorted): equal iff the rows are. */
async function fingerprint(db: Db): Promise<Record<string, string>> {
  const { rows: tables } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 1`.execute(db);
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await sql<{ n: number; sum: string | null }>`
      SELECT count(*)::int AS n, md5(string_agg(md5(t::text), '' ORDER BY md5(t::text))) AS sum
        FROM ${sql.table(name)} t`.execute(db);
    out[name] = `${rows[0]?.n} ${rows[0]?.sum}`;
  }
  return out;
}

/** Every file under `root` with its SHA-256. */
function fileHashes(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(root, file)] = createHash('sha256').update(readFileSync(file)).digest('hex');
  }
  return out;
}

describe('backup and restore (issue 35 §1)', () => {
  let h: Harness;
  let work: string;
  let target: Connection;
  let targetDatabase: TestDatabase | null = null;
  const filesRoot = () => path.join(h.deps.config.dataDir, 'files');

  beforeAll(async () => {
    h = await createHarness();
    work = mkdtempSync(path.join(tmpdir(), 'cc-backup-'));
    await seedDemoIfEmpty(h.db, h.deps.storage);
    const org = await buildEntity(h.db);
    await buildUser(h.db, { entityId: org.id });
    await h.deps.storage.put('evidence', Buffer.from('%PDF-1.4 evidence\n'), 'pdf');
    await h.deps.storage.write('packages/p-1/sco/index.html', Readable.from(['<p>line\none</p>']));
    if (process.env.DATABASE_URL) {
      targetDatabase = await createTestDatabase(process.env.DATABASE_URL, 'cc_restore');
      target = await connect({ databaseUrl: targetDatabase.url, dataDir: null });
    } else {
      target = await connect({ dataDir: null });
    }
  });

  afterAll(async () => {
    await target?.close();
    await targetDatabase?.drop();
    await h?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('restores the snapshot into an empty database: every row and file as committed before, a write during the backup absent', async () => {
    const before = await fingerprint(h.db);
    const filesBefore = fileHashes(filesRoot());
    expect(Object.keys(filesBefore).length).toBeGreaterThanOrEqual(2);

    let during: Promise<{ id: number }> | null = null;
    const file = path.join(work, 'one.zip');
    const summary = await writeBackup({ db: h.db, engine: h.deps.engine, session: sessionOf(h) }, file, {
      filesRoot: filesRoot(),
      afterSnapshot: async () => {
        during = buildEntity(h.db, { name: 'Written during the backup' });
        // PostgreSQL: it commits while the backup runs. PGlite's one connection is the backup's until it ends.
        if (h.deps.engine === 'postgres') await during;
      },
    });
    const written = await (during as unknown as Promise<{ id: number }>);
    expect(
      await h.db.selectFrom('entities').where('id', '=', written.id).select('id').executeTakeFirst(),
    ).toEqual({ id: written.id });
    expect(summary.rows).toBeGreaterThan(100);
    expect(summary.files).toBe(Object.keys(filesBefore).length);

    const restoredFiles = path.join(work, 'restored-files');
    const restored = await restoreBackup({ db: target.db, session: target.session }, file, {
      filesRoot: restoredFiles,
    });
    expect(restored.rows).toBe(summary.rows);
    expect(await fingerprint(target.db)).toEqual(before);
    expect(fileHashes(restoredFiles)).toEqual(filesBefore);
    // The planner's statistics were gathered (a table never analysed has reltuples -1).
    const { rows: planned } = await sql<{ reltuples: number }>`
      SELECT reltuples FROM pg_class WHERE oid = 'users'::regclass`.execute(target.db);
    expect(Number(planned[0]?.reltuples)).toBeGreaterThan(0);
    expect(
      await target.db
        .selectFrom('entities')
        .where('name', '=', 'Written during the backup')
        .selectAll()
        .execute(),
    ).toEqual([]);

    // Sequences follow the restored ids: a new row gets a fresh one.
    const { max } = await target.db
      .selectFrom('entities')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirstOrThrow();
    const next = await buildEntity(target.db);
    expect(next.id).toBeGreaterThan(Number(max));

    // The target is no longer empty: a second restore refuses it in one line.
    await expect(
      restoreBackup({ db: target.db, session: target.session }, file, {
        filesRoot: path.join(work, 'other'),
      }),
    ).rejects.toThrow(RestoreError);
    await expect(
      restoreBackup({ db: target.db, session: target.session }, file, {
        filesRoot: path.join(work, 'other'),
      }),
    ).rejects.toThrow(
      /^Refusing to restore: the database has \d+ tables and sequences; restore into an empty one\.$/,
    );
  });

  it('the nightly backup keeps the newest BACKUP_KEEP and removes an interrupted one', async () => {
    const dir = path.join(work, 'nightly');
    const source = { db: h.db, engine: h.deps.engine, session: sessionOf(h) };
    const settings = { dir, keep: 2, filesRoot: filesRoot() };
    for (const day of ['2026-01-01', '2026-01-02'])
      await takeNightlyBackup(source, settings, new Date(`${day}T00:00:05Z`));
    writeFileSync(path.join(dir, `${backupName(new Date('2026-01-03T00:00:05Z'))}.partial`), 'cut short');
    writeFileSync(path.join(dir, 'notes.txt'), 'not a backup');
    const { removed } = await takeNightlyBackup(source, settings, new Date('2026-01-03T00:00:05Z'));
    expect(removed).toEqual(['carecompliance-20260101-000005.zip']);
    expect(readdirSync(dir).sort()).toEqual([
      'carecompliance-20260102-000005.zip',
      'carecompliance-20260103-000005.zip',
      'notes.txt',
    ]);
  });
});

function sessionOf(h: Harness) {
  return (h.deps as unknown as { database: { session: Connection['session'] } }).database.session;
}
