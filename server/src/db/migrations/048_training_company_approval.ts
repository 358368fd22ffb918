import { type Kysely, sql } from 'kysely';

/**
 * 048_training_company_approval (issue 29 §7): an organisation that marks itself a training company no longer
 * reaches every organisation's marketplace at once; a super admin approves it first.
 *
 * - training_company_status: null when the entity is not a training company; 'pending' while its request waits;
 *   'approved' (its external sessions are listed to other organisations, its trainers can be named by those who
 *   book with it); 'refused'. Only an approved training company is a provider to others.
 * - requested_at / decided_at / decided_by: when it asked and which super admin answered, for the requests list.
 * - Every training company that exists already (the demo's Brightpath Training) is approved, so nothing it
 *   offers today disappears.
 */
const statements = [
  `ALTER TABLE entities
     ADD COLUMN training_company_status text
       CONSTRAINT entities_training_company_status_check
       CHECK (training_company_status IN ('pending', 'approved', 'refused')),
     ADD COLUMN training_company_requested_at timestamptz,
     ADD COLUMN training_company_decided_at timestamptz,
     ADD COLUMN training_company_decided_by integer REFERENCES users (id) ON DELETE SET NULL`,
  `UPDATE entities SET training_company_status = 'approved', training_company_decided_at = now()
     WHERE is_training_company`,
  `CREATE INDEX entities_training_company_pending ON entities (training_company_requested_at)
     WHERE training_company_status = 'pending'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
