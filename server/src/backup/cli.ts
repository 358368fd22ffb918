import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { connect } from '../db/connect';
import { StartupError } from '../db/embedded/errors';
import { guardStartupSignals } from '../db/embedded/processes';
import { BackupError, writeBackup } from './backup';
import { backupFiles, backupName } from './nightly';
import { RestoreError, restoreBackup } from './restore';

const USAGE = `Usage: npm run backup [-- FILE]
       npm run restore -- FILE

backup   writes one file (a zip) holding a consistent snapshot of the database and the uploaded files
         (DATA_DIR/files), while the server runs: with the server running on the same DATA_DIR it joins the server's
         embedded PostgreSQL. FILE defaults to BACKUP_DIR (or the current folder)/carecompliance-<time>.zip.
restore  loads FILE into an empty database (DATABASE_URL) or an empty DATA_DIR, and the files into DATA_DIR/files;
         it refuses a target that holds anything. Start the server afterwards: it migrates the restored database
         to this version's schema.

Both use the configured database (DATA_DIR, or DATABASE_URL). With S3_BUCKET the files stay in the bucket and
only the database is backed up and restored. docs/backup-and-restore.md "Backup and restore".`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function backup(file: string | undefined) {
  const config = loadConfig();
  const hasEmbedded = ['postgres', 'pgdata'].some((name) => existsSync(path.join(config.dataDir, name)));
  if (!config.databaseUrl && !hasEmbedded)
    throw new BackupError(`There is no database in ${config.dataDir} to back up (DATA_DIR).`);
  const target = path.resolve(file ?? path.join(config.backup?.dir ?? '.', backupName(new Date())));
  if (existsSync(target)) throw new BackupError(`${target} exists already: name another file.`);
  const connection = await connect({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    embeddedEngine: config.embeddedEngine,
    poolSize: 2,
    joinRunningServer: true,
  });
  try {
    const files = backupFiles(config);
    const summary = await writeBackup(connection, target, files);
    console.log(
      `Backup of ${connection.where} written to ${summary.file}: ${summary.tables} tables, ${summary.rows} rows, ${files.filesRoot ? `${summary.files} files` : `no files (${files.filesNote})`}; ${megabytes(summary.bytes)} in ${summary.seconds.toFixed(1)} s.`,
    );
    if (summary.vanished.length)
      console.log(`${summary.vanished.length} file(s) were deleted while the backup ran and are not in it.`);
  } finally {
    await connection.close();
  }
}

async function restore(file: string) {
  const config = loadConfig();
  if (!existsSync(file)) throw new RestoreError(`${file} does not exist.`);
  if (!config.databaseUrl && existsSync(config.dataDir) && readdirSync(config.dataDir).length > 0)
    throw new RestoreError(
      `Refusing to restore: the data folder ${config.dataDir} is not empty; set DATA_DIR to a new folder (or empty this one).`,
    );
  const connection = await connect({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    embeddedEngine: config.embeddedEngine,
    poolSize: 2,
  });
  try {
    const { filesRoot } = backupFiles(config);
    const summary = await restoreBackup(connection, path.resolve(file), { filesRoot });
    console.log(
      `Restored ${file} into ${connection.where}: ${summary.tables} tables, ${summary.rows} rows, ${filesRoot ? `${summary.files} files (each SHA-256 checked)` : 'no files (S3_BUCKET is set: copy them to the bucket yourself)'} in ${summary.seconds.toFixed(1)} s. Schema at ${summary.lastMigration}: the next start migrates it to this version.`,
    );
  } finally {
    await connection.close();
  }
}

/** Issue 35 §1: `npm run backup` and `npm run restore`, operator commands like create-admin. */
async function main() {
  guardStartupSignals(); // Ctrl-C stops the embedded engine this command started
  const { values, positionals } = parseArgs({
    options: { help: { type: 'boolean', short: 'h', default: false } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return console.log(USAGE);
  const [command, file, ...rest] = positionals;
  if (rest.length) fail('One file at most.');
  if (command === 'backup') return backup(file);
  if (command === 'restore') return file ? restore(file) : fail('restore needs the backup FILE.');
  fail('The command is backup or restore.');
}

main().catch((error) => {
  const oneLine =
    error instanceof ConfigError ||
    error instanceof StartupError ||
    error instanceof BackupError ||
    error instanceof RestoreError;
  console.error(oneLine ? error.message : error);
  process.exit(1);
});
