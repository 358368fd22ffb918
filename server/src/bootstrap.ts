import path from 'node:path';
import { sql } from 'kysely';
import { provideActorLookups } from './auth/actor-lookups';
import { provideSignUpConfirmation } from './auth/email-flows';
import { usePasswordHashing } from './auth/passwords';
import { backupFiles, registerNightlyBackup } from './backup/nightly';
import { wireProcessCaches } from './cluster/process-caches';
import type { Config } from './config';
import { type CacheBus, createLocalBus, createPgBus } from './db/cache-bus';
import { connect, type DatabaseSession } from './db/connect';
import { migrate, pendingMigrations } from './db/migrate';
import { resolveActingAs } from './entities/scope';
import { aEntityIdSql } from './entities/tree';
import type { Deps } from './http/context';
import { type Probes, Readiness } from './http/probes';
import { queueDepth } from './jobs/queries';
import { observeJobs, startWorker, type Worker, type WorkerOptions } from './jobs/queue';
import { createMailer } from './mail/mailer';
import { effectivePermissionIdsSql, syncPermissionCatalogue } from './permissions/catalogue';
import { completeRegistration } from './registration/service';
// Registers pathway completion on every recorded result (results/service.ts afterResultRecorded).
import './pathways/reconcile';
// Issue 18: result.recorded and compliance.status_changed webhook events on every recorded result.
import './webhooks/listeners';
import { openSockets } from './realtime/socket-registry';
import { type SecretBox, secretBox } from './security/sealing';
import { localSecretsKey } from './security/secrets-key';
import { createDiskStorage } from './storage/storage';
import { sealClearWebhookSecrets } from './webhooks/secrets';

/** config -> database -> migrate -> catalogue. Shared by main, the seed CLI, tests and the bench. */
export async function openDeps(
  config: Config,
  opts: { inMemory?: boolean; joinRunningServer?: boolean } = {},
): Promise<
  Deps & { database: { where: string; note?: string; session: DatabaseSession }; close(): Promise<void> }
> {
  usePasswordHashing(config.passwordHashing);
  // Issue 34 §1: auth and http resolve callers and confirm sign-ups with these, and import no capability.
  provideActorLookups({ effectivePermissionIdsSql, aEntityIdSql, resolveActingAs });
  provideSignUpConfirmation(completeRegistration);
  const connection = await connect({
    databaseUrl: config.databaseUrl,
    dataDir: opts.inMemory ? null : config.dataDir,
    poolSize: config.databasePoolSize,
    signInPoolSize: config.databaseSignInPoolSize,
    pgliteSharedBuffers: config.pgliteSharedBuffers,
    embeddedEngine: config.embeddedEngine,
    joinRunningServer: opts.joinRunningServer,
  });
  let secrets: SecretBox;
  try {
    await migrate(connection.db);
    // Issue 29 §14: SECRETS_KEY (required in production), else a key kept in DATA_DIR beside the embedded database
    // (read after connect(), which made and locked the folder). Migration 047 cannot seal without the key: the
    // secrets still in clear are sealed here, at every start, before anything signs with them.
    secrets = secretBox([config.secretsKey ?? localSecretsKey(config.dataDir)]);
    await sealClearWebhookSecrets(connection.db, secrets);
  } catch (error) {
    await connection.close();
    throw error;
  }
  await syncPermissionCatalogue(connection.db);
  // Several processes share a PostgreSQL database: each hears what the others changed (issue 12 §4).
  let bus: CacheBus;
  try {
    bus = config.databaseUrl ? await createPgBus({ databaseUrl: config.databaseUrl }) : createLocalBus();
  } catch (error) {
    await connection.close();
    throw error;
  }
  const unwire = wireProcessCaches(bus);
  const clock = () => new Date();
  return {
    db: connection.db,
    signInDb: connection.signInDb,
    engine: connection.engine,
    database: { where: connection.where, note: connection.note, session: connection.session },
    config,
    mailer: createMailer(connection.db, config),
    // Issue 12 §4: the bucket when S3_BUCKET is set (shared by every process), else DATA_DIR/files.
    // The S3 module (and the AWS SDK) is loaded only when a bucket is configured.
    storage: config.s3
      ? (await import('./storage/s3')).createS3Storage(config.s3)
      : createDiskStorage(path.join(config.dataDir, 'files')),
    clock,
    bus,
    probes: probesOf(connection, clock),
    secrets,
    async close() {
      unwire();
      await bus.close();
      await connection.close();
    },
  };
}

/**
 * Issue 35 §5: what /health/ready and /metrics read, composed here so the http layer, the database and the job queue
 * stay unaware of each other. Readiness: the database answers a query, every migration this code knows is applied, and
 * this process's job worker runs ("queue" fails until startJobWorker, and again once the worker stops for a shutdown).
 */
function probesOf(connection: Awaited<ReturnType<typeof connect>>, clock: () => Date): Probes {
  const { db } = connection;
  const readiness = new Readiness();
  readiness.register('database', async () => {
    await sql`SELECT 1`.execute(db);
    return true;
  });
  readiness.register('migrations', async () => (await pendingMigrations(db)).length === 0);
  readiness.register('queue', () => false);
  return {
    readiness,
    poolUse: () => connection.poolUse?.() ?? null,
    signInPoolUse: () => connection.signInPoolUse?.() ?? null,
    queueDepth: () => queueDepth(db, clock()),
    websockets: () => openSockets().length,
    observeJobs,
  };
}

/**
 * Issue 35 §1: with BACKUP_DIR set, the nightly backup (backup/nightly.ts) of this process's database and, on local
 * disk, its files. Called with the other jobs' registration, before the worker starts.
 */
export function registerBackupJobs(deps: Awaited<ReturnType<typeof openDeps>>): void {
  const { config } = deps;
  if (!config.backup) return;
  registerNightlyBackup(
    { db: deps.db, engine: deps.engine, session: deps.database.session },
    {
      ...config.backup,
      ...backupFiles(config),
    },
  );
}

/** Starts this process's job worker (jobs/queue.ts) and counts it in readiness while it runs. */
export function startJobWorker(deps: Deps, options: WorkerOptions = {}): Worker {
  const worker = startWorker(deps, options);
  deps.probes.readiness.register('queue', () => worker.running());
  return worker;
}
