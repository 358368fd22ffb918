import { type Kysely, sql } from 'kysely';

/**
 * 016_server_secrets: keys every server process on the database shares (issue 11 §12). The first is the key that
 * signs a signed-out browser's CSRF token: GET /sanctum/csrf-cookie no longer stores a session row per anonymous
 * call, so the token proves itself by its signature instead (auth/guest-csrf.ts). The value is made by the server
 * (node:crypto) on first use; several processes agree through the primary key (the first insert wins).
 * Guest session rows left from before are no longer needed: they are deleted here.
 */
const statements = [
  `CREATE TABLE server_secrets (
    name text PRIMARY KEY,
    value text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `DELETE FROM sessions WHERE user_id IS NULL`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
