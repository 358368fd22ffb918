import pg from 'pg';

/** A database of its own on the PostgreSQL server named by `adminUrl` (DATABASE_URL), and how to drop it again. */
export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function asAdmin(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Creates `<prefix>_<pid>_<time>_<random>` (names are unique across parallel test files and processes), empty or, with
 * `template`, a copy of that database (test/global-setup.ts migrates one per run).
 */
export async function createTestDatabase(
  adminUrl: string,
  prefix = 'cc_test',
  template?: string,
): Promise<TestDatabase> {
  const name = `${prefix}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  await asAdmin(adminUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => asAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
