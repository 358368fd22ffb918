import { type Kysely, sql } from 'kysely';

/**
 * 032_pathway_role_lock (issue 17, pathways server).
 *
 * A role allocation and a person joining the role at the same moment must not miss each other: the service's
 * INSERT ... SELECT does not see the uncommitted move, and the trigger does not see the uncommitted role allocation.
 * Both now take the same transaction-scoped advisory lock of the role first (db/locks.ts key space:
 * `pathway_role_members:{roleId}`, which pathways/role-service.ts takes through lockKeys), so the second one waits
 * and its next statement sees what the first committed. And a person who completed the pathway already is not
 * allocated it again by a role (the service's INSERT ... SELECT skips them too). Otherwise the function is 031's.
 */
const statements = [
  `CREATE OR REPLACE FUNCTION pathway_role_members_allocate() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.role_id IS NULL THEN RETURN NEW; END IF;
    IF TG_OP = 'UPDATE' AND NEW.role_id IS NOT DISTINCT FROM OLD.role_id
       AND NEW.primary_entity_id IS NOT DISTINCT FROM OLD.primary_entity_id THEN RETURN NEW; END IF;
    PERFORM pg_advisory_xact_lock(hashtextextended('pathway_role_members:' || NEW.role_id, 0));
    INSERT INTO pathway_allocations (pathway_id, version_id, user_id, role_allocation_id)
    SELECT p.id, p.current_version_id, NEW.id, pra.id
      FROM pathway_role_allocations pra
      JOIN pathways p ON p.id = pra.pathway_id AND p.deleted_at IS NULL AND p.current_version_id IS NOT NULL
      JOIN entities e ON e.id = NEW.primary_entity_id
     WHERE pra.role_id = NEW.role_id AND (pra.entity_id = e.id OR pra.entity_id = e.parent_id)
       AND NOT EXISTS (SELECT 1 FROM pathway_allocations done
                        WHERE done.pathway_id = p.id AND done.user_id = NEW.id AND done.status = 'completed')
    ON CONFLICT DO NOTHING;
    RETURN NEW;
  END $$`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
