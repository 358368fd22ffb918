import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { hashPassword } from '../auth/passwords';
import { openDeps } from '../bootstrap';
import { ConfigError, loadConfig } from '../config';
import { connect } from '../db/connect';
import { StartupError } from '../db/embedded/errors';
import { guardStartupSignals } from '../db/embedded/processes';
import { defaultHomeCount, seedLargeOrganisation } from './large';
import { DEMO_PASSWORD, seedDemoIfEmpty } from './seed';

const USAGE = `Usage: npm run seed -- [--users N] [--homes M] [--fresh]

Makes sure the demo organisation exists, then (with --users) adds a large organisation for benchmarks:
"Northwind Care Group <n>" with M homes (default max(3, N/40), at most 250) and N staff.
Each run adds another group. Uses the configured database (DATA_DIR, or DATABASE_URL).

  --users N   staff to create (0: demo only)
  --homes M   level B homes in the new group
  --fresh     wipe the database first (drops the public schema; PGlite: deletes DATA_DIR/pgdata)

With the server running on the same DATA_DIR, the seed joins the server's embedded PostgreSQL; with PGlite it
refuses (stop the server first).`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function positiveInt(value: string | undefined, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) fail(`--${name} must be a whole number of at least ${min}.`);
  return n;
}

async function main() {
  guardStartupSignals(); // Ctrl-C stops the embedded engine this command started
  const { values } = parseArgs({
    options: {
      users: { type: 'string' },
      homes: { type: 'string' },
      fresh: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const users = positiveInt(values.users, 'users', 0) ?? 0;
  const homes = positiveInt(values.homes, 'homes', 1);
  if (homes !== undefined && users === 0) fail('--homes needs --users.');

  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)}s`;
  const config = loadConfig();
  if (values.fresh && config.env === 'production') fail('--fresh refuses to run with NODE_ENV=production.');
  // Wiping refuses the folder of a running server; adding data joins it.
  const open = {
    dataDir: config.dataDir,
    embeddedEngine: config.embeddedEngine,
    joinRunningServer: !values.fresh,
  };
  if (values.fresh) {
    // A bare connection: openDeps would migrate the old schema before we could drop it.
    const bare = await connect({ ...open, databaseUrl: config.databaseUrl });
    if (bare.engine === 'pglite') {
      await bare.close();
      const dir = path.join(config.dataDir, 'pgdata');
      console.log(`Wiping ${dir}`);
      rmSync(dir, { recursive: true, force: true });
    } else {
      console.log(`Dropping every table of ${bare.where}`);
      await sql`DROP SCHEMA public CASCADE`.execute(bare.db);
      await sql`CREATE SCHEMA public`.execute(bare.db);
      await bare.close();
    }
  }

  const deps = await openDeps(config, { joinRunningServer: !values.fresh });
  try {
    const where = deps.database.where;
    const demo = await seedDemoIfEmpty(deps.db, deps.storage, deps);
    console.log(
      `${demo ? 'Demo organisation created' : 'Demo organisation present'} (${where}, ${elapsed()})`,
    );
    if (users === 0) return;

    const homeCount = homes ?? defaultHomeCount(users);
    console.log(`Creating a group with ${homeCount} homes and ${users.toLocaleString('en-GB')} staff ...`);
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const org = await seedLargeOrganisation(deps.db, {
      users,
      homes: homeCount,
      passwordHash,
      onProgress: (done, total) =>
        console.log(
          `  staff ${done.toLocaleString('en-GB')}/${total.toLocaleString('en-GB')} (${elapsed()})`,
        ),
    });
    console.log(
      `Created ${org.name} (slug ${org.slug}): ${org.homes} homes, ${org.users.toLocaleString('en-GB')} staff in ${elapsed()}.`,
    );
    console.log(`Log in as ${org.adminEmail} (group administrator), password ${DEMO_PASSWORD}.`);
  } finally {
    // Server processes running on the same PostgreSQL forget what they remembered (db/cache-bus.ts).
    deps.bus.publish({ topic: 'writes' });
    deps.bus.publish({ topic: 'scores' });
    await deps.close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError || error instanceof StartupError ? error.message : error);
  process.exit(1);
});
