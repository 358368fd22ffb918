import { type Kysely, sql } from 'kysely';

/**
 * 041_offline_refusals (issue 28 §3 "Offline must not be an easier route to a pass"): the steps of a synced attempt
 * the rules refused (an "I have read" on a topic whose H5P item must be passed, a topic the content no longer
 * holds…), each with its reason, kept with the offline attempt so a resend answers with the same refusals the first
 * send gave and the learner can be shown why.
 */
const statements = [`ALTER TABLE offline_attempts ADD COLUMN refused jsonb NOT NULL DEFAULT '[]'::jsonb`];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
