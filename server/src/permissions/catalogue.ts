import { PERMISSIONS } from '@cc/contracts';
import { sql } from 'kysely';
import type { Db } from '../db/connect';

/** The catalogue lives in code (contracts); the table mirrors it for joins and foreign keys. Idempotent. */
export async function syncPermissionCatalogue(db: Db): Promise<void> {
  await db
    .insertInto('permissions')
    .values(PERMISSIONS.map(({ id, name, description, category }) => ({ id, name, description, category })))
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        name: sql`excluded.name`,
        description: sql`excluded.description`,
        category: sql`excluded.category`,
      }),
    )
    .execute();
}

/**
 * Effective permissions (ARCHITECTURE): (the type's permissions + per-user grants) that the user's primary entity
 * is allowed. One query.
 */
export async function effectivePermissionIds(
  db: Db,
  user: { id: number; type_id: number | null; primary_entity_id: number },
): Promise<number[]> {
  const { rows } = await sql<{ permission_id: number }>`
    SELECT ep.permission_id
    FROM entity_permissions ep
    WHERE ep.entity_id = ${user.primary_entity_id}
      AND (
        ep.permission_id IN (SELECT permission_id FROM type_permissions WHERE type_id = ${user.type_id ?? -1})
        OR ep.permission_id IN (SELECT permission_id FROM user_permissions WHERE user_id = ${user.id})
      )
    ORDER BY ep.permission_id`.execute(db);
  return rows.map((r) => r.permission_id);
}
