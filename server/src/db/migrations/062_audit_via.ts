import { type Kysely, sql } from 'kysely';

/**
 * 062_audit_via (issue 35 §3): how a change came about when it was not made by hand. Results earned by taking training
 * (online, offline on a device, a trainer's attendance mark, a document read, a pathway completed) and records applied
 * or undone by the importer are audited too, and say so: `{how, label, ref, detail}` (contracts AuditVia), null for a
 * change made through a form. Adding a column is no row change, so the append-only trigger of 051 is not involved.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE audit_entries ADD COLUMN via jsonb`.execute(db);
}
