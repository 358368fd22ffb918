import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { TestProject } from 'vitest/node';
import { connect } from '../src/db/connect';
import { migrate } from '../src/db/migrate';
import type { Database } from '../src/db/schema';
import { serverBundle } from './cluster/cluster';
import { createTestDatabase } from './test-database';
import { bundleTestPrograms } from './test-programs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tar of an in-memory PGlite migrated by this run: each test file loads it (test/harness.ts). */
    pgliteSnapshot: string | null;
    /** A database on DATABASE_URL's server migrated by this run: each test file's database is a copy of it. */
    templateDatabase: string | null;
    /** Node's arguments for the real server process: the bundle `npm start` runs, built once by this run. */
    serverProgram: string[];
    /** Node's arguments for test/embedded/hold-folder.ts, bundled by this run (test/test-programs.ts). */
    holderProgram: string[];
  }
}

/**
 * Migrates once per run instead of once per test file: starting an empty PGlite (its initdb) and running every
 * migration cost each file about 4 s of CPU; loading a migrated data folder costs about 1 s. On PostgreSQL, CREATE
 * DATABASE ... TEMPLATE copies a migrated database instead of migrating a new one.
 */
export default async function setup(project: TestProject) {
  project.provide('pgliteSnapshot', null);
  project.provide('templateDatabase', null);
  // Tests that start the real server process start this bundle (test/server-program.ts).
  project.provide('serverProgram', await serverBundle());
  const testPrograms = await bundleTestPrograms({ 'hold-folder': 'server/test/embedded/hold-folder.ts' });
  project.provide('holderProgram', testPrograms.programs['hold-folder'] as string[]);
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    const template = await migratedTemplate(adminUrl);
    project.provide('templateDatabase', template.name);
    return async () => {
      testPrograms.remove();
      await template.drop();
    };
  }
  const file = await migratedPgliteSnapshot();
  project.provide('pgliteSnapshot', file);
  return () => {
    testPrograms.remove();
    rmSync(file, { force: true });
  };
}

async function migratedTemplate(adminUrl: string) {
  const database = await createTestDatabase(adminUrl, 'cc_template');
  try {
    const connection = await connect({ databaseUrl: database.url, dataDir: null });
    try {
      await migrate(connection.db);
    } finally {
      // CREATE DATABASE ... TEMPLATE refuses a template anyone is connected to.
      await connection.close();
    }
  } catch (error) {
    await database.drop();
    throw error;
  }
  return database;
}

async function migratedPgliteSnapshot(): Promise<string> {
  // The same extensions as db/connect.ts gives PGlite, so the loaded folder starts the same way.
  const client = await PGlite.create({ extensions: { pg_trgm } });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  try {
    await migrate(db);
    const tar = await client.dumpDataDir('none');
    const file = path.join(tmpdir(), `cc-test-migrated-${process.pid}-${Date.now()}.tar`);
    writeFileSync(file, Buffer.from(await tar.arrayBuffer()));
    return file;
  } finally {
    await db.destroy();
  }
}
