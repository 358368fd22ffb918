import { sql } from 'kysely';
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
 * a_entity: the level A organisation at the top of the entity's branch (ARCHITECTURE reading of the term).
 * Falls back to the root when no level A ancestor exists.
 */
export async function aEntityIdOf(db: Db, entityId: number): Promise<number> {
  const { rows } = await sql<{ id: number; level: string }>`
    WITH RECURSIVE chain AS (
      SELECT id, parent_id, level, 0 AS depth FROM entities WHERE id = ${entityId}
      UNION ALL
      SELECT e.id, e.parent_id, e.level, c.depth + 1 FROM entities e JOIN chain c ON e.id = c.parent_id WHERE c.depth < 50
    )
    SELECT id, level FROM chain ORDER BY depth DESC`.execute(db);
  const topA = rows.find((r) => r.level === 'A');
  return (topA ?? rows[0] ?? { id: entityId }).id;
}
