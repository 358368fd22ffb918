import { type Kysely, sql } from 'kysely';

/**
 * 064_person_reference_indexes: removing a person (the retention job's removal of erased leavers, docs/data-protection.md;
 * an organisation removed with its people) makes PostgreSQL find every row that names her through a foreign key. On
 * the largest tables those columns had no index, so each removed person cost a full scan of `results` twice (who
 * recorded it, who approved it: 1.3M rows on the bench's organisation) and of the read receipts and bookings (found by
 * the bench's cleanup, issue 36 §1). Partial where most rows hold no one, so the index stays small.
 */
const statements = [
  `CREATE INDEX IF NOT EXISTS results_created_by ON results (created_by) WHERE created_by IS NOT NULL`,
  `CREATE INDEX IF NOT EXISTS results_approved_by ON results (approved_by) WHERE approved_by IS NOT NULL`,
  `CREATE INDEX IF NOT EXISTS document_views_user ON document_views (user_id)`,
  `CREATE INDEX IF NOT EXISTS session_delegates_booked_by ON session_delegates (booked_by) WHERE booked_by IS NOT NULL`,
  `CREATE INDEX IF NOT EXISTS session_delegates_marked_by ON session_delegates (marked_by) WHERE marked_by IS NOT NULL`,
  `CREATE INDEX IF NOT EXISTS feedback_user ON feedback (user_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
