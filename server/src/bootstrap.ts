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
  opts: { inMemory?: boolean; joinRunningServer?: boolean } = {},
): Promise<Deps & { database: { where: string; note?: string }; close(): Promise<void> }> {
  const connection = await connect({
    databaseUrl: config.databaseUrl,
    dataDir: opts.inMemory ? null : config.dataDir,
    pgliteSharedBuffers: config.pgliteSharedBuffers,
    embeddedEngine: config.embeddedEngine,
    joinRunningServer: opts.joinRunningServer,
  });
  try {
    await migrate(connection.db);
  } catch (error) {
    await connection.close();
    throw error;
  }
  await syncPermissionCatalogue(connection.db);
  return {
    db: connection.db,
    engine: connection.engine,
    database: { where: connection.where, note: connection.note },
    config,
    mailer: createMailer(connection.db, config),
    storage: createDiskStorage(path.join(config.dataDir, 'files')),
    clock: () => new Date(),
    close: connection.close,
  };
}
