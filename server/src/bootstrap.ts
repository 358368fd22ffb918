import path from 'node:path';
import type { Config } from './config';
import { connect } from './db/connect';
import { migrate } from './db/migrate';
import type { Deps } from './http/context';
import { createMailer } from './mail/mailer';
import { syncPermissionCatalogue } from './permissions/catalogue';
import { createDiskStorage } from './storage/storage';

/** config -> database -> migrate -> catalogue. Shared by main, the seed CLI, tests and the bench. */
export async function openDeps(
  config: Config,
  opts: { inMemory?: boolean } = {},
): Promise<Deps & { close(): Promise<void> }> {
  const connection = await connect({
    databaseUrl: config.databaseUrl,
    dataDir: opts.inMemory ? null : config.dataDir,
    poolSize: config.databasePoolSize,
    pgliteSharedBuffers: config.pgliteSharedBuffers,
  });
  await migrate(connection.db);
  await syncPermissionCatalogue(connection.db);
  return {
    db: connection.db,
    engine: connection.engine,
    config,
    mailer: createMailer(connection.db, config),
    storage: createDiskStorage(path.join(config.dataDir, 'files')),
    clock: () => new Date(),
    close: connection.close,
  };
}
