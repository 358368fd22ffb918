import { type Expression, type RawBuilder, sql } from 'kysely';
import type { Db } from '../db/connect';

/** The entity and all its descendants (ARCHITECTURE: `deep`). */
export async function subtreeIds(db: Db, rootId: number): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    WITH RECURSIVE tree AS (
      SELECT id FROM entities WHERE id = ${rootId}
      UNION ALL
      SELECT e.id FROM entities e JOIN tree t ON e.parent_id = t.id
    )
    SELECT id FROM tree`.execute(db);
  return rows.map((r) => r.id);
}

/** The chain from the entity up to its root, nearest first. */
export async function ancestorIds(db: Db, entityId: number): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`
    WITH RECURSIVE chain AS (
      SELECT id, parent_id, 0 AS depth FROM entities WHERE id = ${entityId}
      UNION ALL
      SELECT e.id, e.parent_id, c.depth + 1 FROM entities e JOIN chain c ON e.id = c.parent_id WHERE c.depth < 50
    )
    SELECT id FROM chain ORDER BY depth`.execute(db);
  return rows.map((r) => r.id);
}

/**
 * a_entity: the level A organisation at the top of the entity's branch (ARCHITECTURE reading of the term), else the
 * root of the branch. SQL over an entity id column, so resolving a caller reads it in its own statement (auth/actor.ts,
 * through auth/actor-lookups.ts). Null when the entity does not exist.
 */
export function aEntityIdSql(entityId: Expression<number | null>): RawBuilder<number> {
  return sql<number>`(
    WITH RECURSIVE chain AS (
      SELECT id, parent_id, level, 0 AS depth FROM entities WHERE id = ${entityId}
      UNION ALL
      SELECT e.id, e.parent_id, e.level, c.depth + 1 FROM entities e JOIN chain c ON e.id = c.parent_id WHERE c.depth < 50
    )
    SELECT id FROM chain ORDER BY level = 'A' DESC, depth DESC LIMIT 1)`;
}

/** The same for an entity id; the id itself when no such entity exists. */
export async function aEntityIdOf(db: Db, entityId: number): Promise<number> {
  const { rows } = await sql<{ id: number | null }>`SELECT ${aEntityIdSql(sql.val(entityId))} AS id`.execute(
    db,
  );
  return rows[0]?.id ?? entityId;
}
