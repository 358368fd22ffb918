import { type Kysely, sql } from 'kysely';

/**
 * 043_pending_signups (issue 29 §5): a sign-up through a sign-up link waits here until its address is confirmed, as a
 * registration waits in pending_registrations (issue 11 §8). POST /signup-links/sign-up then answers a new address
 * exactly as a taken one ("check your e-mail"); following the link mailed to a new address spends a use of the link
 * and makes the account. Only the confirm token's SHA-256 is stored.
 */
const statements = [
  `CREATE TABLE pending_signups (
    id serial PRIMARY KEY,
    token_hash text NOT NULL UNIQUE,
    link_id integer NOT NULL REFERENCES signup_links(id) ON DELETE CASCADE,
    name text NOT NULL,
    email text NOT NULL,
    password_hash text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
  )`,
  `CREATE INDEX pending_signups_expires_idx ON pending_signups(expires_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
