import { type Kysely, sql } from 'kysely';

/**
 * 052_data_protection (issue 35 §4, docs/data-protection.md): UK GDPR for staff records.
 *
 * - users.left_on: the day the person left; erasure needs it (a current member of staff is not erased).
 * - users.erased_at: when the personal details were erased (name pseudonymised, e-mail a placeholder, sign-in ended);
 *   the training record stays until the organisation's retention period after left_on has passed.
 * - entities.retention_years: how long a leaver's training record is kept after leaving (default 6 years, the sector's
 *   practice; 1 to 75). The nightly job (data-protection/jobs.ts) removes the person and their records after it.
 */
const statements = [
  `ALTER TABLE users ADD COLUMN left_on date, ADD COLUMN erased_at timestamptz`,
  `CREATE INDEX users_erased_left_idx ON users (left_on) WHERE erased_at IS NOT NULL`,
  `ALTER TABLE entities ADD COLUMN retention_years integer NOT NULL DEFAULT 6
     CHECK (retention_years BETWEEN 1 AND 75)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
