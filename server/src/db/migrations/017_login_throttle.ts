import { type Kysely, sql } from 'kysely';

/**
 * 017_login_throttle (issue 11 §5, §7, §8).
 *
 * - auth_throttles: failed sign-ins (and sign-up attempts) per key ("account:<e-mail>", "address:<ip>",
 *   "device:<id>", "register-address:<ip>", ...), counted in a one-hour window. One row per key, written by a single
 *   upsert per failure, so every process shares it and concurrent failures are all counted (ASVS 2.2.1).
 * - known_devices: browsers and apps a user has signed in from before (the hash of a long-lived device secret the
 *   client keeps); they are not held back by an account's throttle, so an attacker cannot lock the owner out.
 * - pending_registrations: a sign-up waits here until its address is confirmed, so POST /register answers the same
 *   for a taken address as for a new one (issue 11 §8).
 * - entities.compromised_passwords defaults to enforce_change (ASVS 2.1.7: the breached check on by default).
 */
const statements = [
  `CREATE TABLE auth_throttles (
    key text PRIMARY KEY,
    failures integer NOT NULL,
    window_started_at timestamptz NOT NULL,
    last_failure_at timestamptz NOT NULL
  )`,
  `CREATE INDEX auth_throttles_window_idx ON auth_throttles(window_started_at)`,
  `CREATE TABLE known_devices (
    token_hash text NOT NULL,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name text,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_login_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (token_hash, user_id)
  )`,
  `CREATE INDEX known_devices_user_idx ON known_devices(user_id)`,
  `CREATE TABLE pending_registrations (
    id serial PRIMARY KEY,
    token_hash text NOT NULL UNIQUE,
    plan text NOT NULL,
    name text NOT NULL,
    organisation text NOT NULL,
    email text NOT NULL,
    password_hash text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
  )`,
  `CREATE INDEX pending_registrations_expires_idx ON pending_registrations(expires_at)`,
  `ALTER TABLE entities ALTER COLUMN compromised_passwords SET DEFAULT 'enforce_change'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
