import { type Kysely, sql } from 'kysely';

/**
 * 054_requirement_due_dates (issue 33 §4): a new requirement gives people time to do it.
 *
 * - entities.new_requirement_days: "Days to complete new requirements", the organisation's default grace period of a
 *   requirement added to a job role (a course, or a document to read). 0 (due at once, as before) until the
 *   organisation chooses: an organisation's figures never move because the code was upgraded, and a grace period can
 *   also be given per requirement as it is added.
 * - compliance_rules.due_at: when people under the rule who have not done it become out of date (its creation plus
 *   its grace period). Null: due at once (every rule made before this migration). Until then a never-done course of
 *   the rule is "due by" that date (contracts courseStatus's dueBy, compliance/queries.ts dueBySql) and left out of
 *   the scores.
 * - notifications.kind gains 'document_reminder' (a manager's "remind those who have not read it") and
 *   'due_reminder' (a new requirement's due date is near).
 */
const statements = [
  `ALTER TABLE entities ADD COLUMN new_requirement_days integer NOT NULL DEFAULT 0
     CHECK (new_requirement_days BETWEEN 0 AND 365)`,
  `ALTER TABLE compliance_rules ADD COLUMN due_at timestamptz`,
  `ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check`,
  `ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
     CHECK (kind IN ('expiry_reminder', 'manager_digest', 'booking', 'care_certificate', 'message',
                     'document_reminder', 'due_reminder'))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
