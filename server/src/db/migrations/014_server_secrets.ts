import { type Kysely, sql } from 'kysely';

/**
 * 014_server_secrets: secrets every server process shares (issue 11 finding 1). The first is the key that signs
 * package launch URLs (packages/launch.ts): it must be the same in every process behind one database, survive a
 * restart, and never be configured by hand. Created on first use (INSERT … ON CONFLICT DO NOTHING), never sent out.
 */
const statements = [
  `CREATE TABLE server_secrets (
    name text PRIMARY KEY,
    value text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
