import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config';
import { type JobContext, registerJob, registerRecurring } from '../jobs/queue';
import { type BackupOptions, type BackupSource, type BackupSummary, writeBackup } from './backup';

/** The uploaded files a backup holds: DATA_DIR/files, or none when they are in a bucket (out of the backup's scope). */
export function backupFiles(config: Config): { filesRoot: string | null; filesNote?: string } {
  return config.s3
    ? { filesRoot: null, filesNote: `files are in the S3 bucket ${config.s3.bucket}, not in the backup` }
    : { filesRoot: path.join(config.dataDir, 'files') };
}

export const NIGHTLY_BACKUP = 'backup.nightly';
const DAY_MS = 86_400_000;
const NAME = /^carecompliance-\d{8}-\d{6}\.zip$/;

/** `carecompliance-20260131-000000.zip`: the time of the backup, UTC; the names sort as the times do. */
export function backupName(at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `carecompliance-${stamp}.zip`;
}

/**
 * One backup into `dir`, then the oldest removed so that `keep` are left (only files named as backupName makes them;
 * an interrupted one's .partial goes too).
 */
export async function takeNightlyBackup(
  source: BackupSource,
  settings: { dir: string; keep: number } & Pick<BackupOptions, 'filesRoot' | 'filesNote'>,
  at: Date,
): Promise<{ summary: BackupSummary; removed: string[] }> {
  await mkdir(settings.dir, { recursive: true });
  for (const name of await readdir(settings.dir))
    if (name.endsWith('.zip.partial') && NAME.test(name.slice(0, -'.partial'.length)))
      await rm(path.join(settings.dir, name), { force: true });
  const summary = await writeBackup(source, path.join(settings.dir, backupName(at)), settings);
  const backups = (await readdir(settings.dir)).filter((name) => NAME.test(name)).sort();
  const removed = backups.slice(0, Math.max(0, backups.length - settings.keep));
  for (const name of removed) await rm(path.join(settings.dir, name), { force: true });
  return { summary, removed };
}

/**
 * Issue 35 §1: a backup a day into BACKUP_DIR keeping BACKUP_KEEP, as a recurring job (one per UTC day, by whichever
 * process gets there first; a server started during the day takes that day's at once if it has not been taken).
 * Registered at composition (bootstrap.ts), which knows how the database is reached.
 */
export function registerNightlyBackup(
  source: BackupSource,
  settings: { dir: string; keep: number } & Pick<BackupOptions, 'filesRoot' | 'filesNote'>,
): void {
  registerJob(
    NIGHTLY_BACKUP,
    async (ctx: JobContext) => {
      const { summary, removed } = await takeNightlyBackup(source, settings, ctx.clock());
      ctx.log.info(
        { file: summary.file, bytes: summary.bytes, rows: summary.rows, files: summary.files, removed },
        `nightly backup written in ${summary.seconds.toFixed(1)} s`,
      );
    },
    // A large backup takes a while; a failed one is tried again an hour later, twice.
    { maxAttempts: 3, timeoutSeconds: 6 * 3600, backoffMs: () => 3_600_000 },
  );
  registerRecurring(NIGHTLY_BACKUP, DAY_MS);
}
