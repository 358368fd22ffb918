import { type Kysely, sql } from 'kysely';

/**
 * 013_concurrency: constraints that let the database decide what concurrent requests raced for (issue 10 §3;
 * ARCHITECTURE "Writes that stay right").
 *
 * - mail_outbox.idempotency_key: a job's mail to one recipient has one key (the job's unique key + the recipient),
 *   unique, so a job run twice (its worker died before marking it done, or a reclaimed job still running) records
 *   each recipient's message once. Null for mail without a key (sign-in links and the like). New column: no rows
 *   to de-duplicate.
 */
const statements = [
  `ALTER TABLE mail_outbox ADD COLUMN idempotency_key text`,
  `CREATE UNIQUE INDEX mail_outbox_idempotency_key_uq ON mail_outbox(idempotency_key)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
