import { PERMISSIONS } from '@cc/contracts';
import { type Expression, type RawBuilder, sql } from 'kysely';
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
 * is allowed, ascending. SQL over the user's columns, so resolving a caller reads them in its own statement
 * (auth/actor.ts, through auth/actor-lookups.ts); a user without a type has only their grants.
 */
export function effectivePermissionIdsSql(user: {
  id: Expression<number | null>;
  typeId: Expression<number | null>;
  primaryEntityId: Expression<number | null>;
}): RawBuilder<number[]> {
  return sql<number[]>`ARRAY(
    SELECT ep.permission_id
    FROM entity_permissions ep
    WHERE ep.entity_id = ${user.primaryEntityId}
      AND (
        ep.permission_id IN (SELECT permission_id FROM type_permissions WHERE type_id = ${user.typeId})
        OR ep.permission_id IN (SELECT permission_id FROM user_permissions WHERE user_id = ${user.id})
      )
    ORDER BY ep.permission_id)`;
}

/** The same for a user read already. One query. */
export async function effectivePermissionIds(
  db: Db,
  user: { id: number; type_id: number | null; primary_entity_id: number },
): Promise<number[]> {
  const ids = effectivePermissionIdsSql({
    id: sql.val(user.id),
    typeId: sql.val(user.type_id),
    primaryEntityId: sql.val(user.primary_entity_id),
  });
  const { rows } = await sql<{ ids: number[] }>`SELECT ${ids} AS ids`.execute(db);
  return rows[0]?.ids ?? [];
}
