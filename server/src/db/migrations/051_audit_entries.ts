import { type Kysely, sql } from 'kysely';

/**
 * 051_audit_entries (issue 35 §3): the audit trail, an append-only record of who changed a training record, a
 * requirement, a person's role, an organisation, its user types and permissions (audit/record.ts writes it in the
 * change's own transaction).
 *
 * - No foreign keys: an entry outlives the person, result or organisation it names (names are copied in at write).
 * - subject_entity_id is the organisation the subject belongs to (the tenant bound of every read), subject_user_id the
 *   person concerned (a person's history), both null-able for subjects that have none.
 * - A trigger refuses UPDATE and DELETE of any row, so not even a bug in the product can rewrite history (TRUNCATE, which
 *   only a restore of a backup runs, is not a row change and still empties the table before the restore fills it).
 */
const statements = [
  `CREATE TABLE audit_entries (
    id bigserial PRIMARY KEY,
    occurred_at timestamptz NOT NULL DEFAULT now(),
    actor_user_id integer,
    actor_name text,
    acting_as_entity_id integer,
    acting_as_name text,
    ip text,
    action text NOT NULL CHECK (action IN ('created', 'updated', 'deleted', 'approved')),
    subject_kind text NOT NULL CHECK (length(subject_kind) BETWEEN 1 AND 40),
    subject_id integer,
    subject_entity_id integer,
    subject_user_id integer,
    subject_label text NOT NULL DEFAULT '',
    before jsonb,
    after jsonb
  )`,
  `CREATE INDEX audit_entries_entity_idx ON audit_entries (subject_entity_id, occurred_at DESC, id DESC)`,
  `CREATE INDEX audit_entries_user_idx ON audit_entries (subject_user_id, occurred_at DESC, id DESC)`,
  `CREATE INDEX audit_entries_subject_idx ON audit_entries (subject_kind, subject_id, id DESC)`,
  `CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     RAISE EXCEPTION 'audit entries cannot be changed or deleted' USING ERRCODE = 'insufficient_privilege';
   END
   $$`,
  `CREATE TRIGGER audit_entries_append_only BEFORE UPDATE OR DELETE ON audit_entries
     FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
