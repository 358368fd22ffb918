import { sql } from 'kysely';
import { visibleOwnedClause } from '../courses/visibility';
import type { Ctx } from '../http/context';
import { invalidField, notFound } from '../http/errors';

/** Building blocks of content: lessons, topics, quizzes and H5P items, each owned by an entity (or the platform). */
export type BlockTable = 'lessons' | 'topics' | 'quizzes' | 'h5ps';

/** The block if the caller may see it, else undefined. */
export async function findVisibleBlock(ctx: Ctx, table: BlockTable, id: number) {
  const visible = await visibleOwnedClause(ctx, 'b');
  const { rows } = await sql<{ id: number; entity_id: number | null; title: string }>`
    SELECT b.id, b.entity_id, b.title FROM ${sql.table(table)} b WHERE b.id = ${id} AND ${visible}`.execute(
    ctx.db,
  );
  return rows[0];
}

/** Path reference: 404 when not visible. */
export async function visibleBlockOr404(ctx: Ctx, table: BlockTable, id: number) {
  const block = await findVisibleBlock(ctx, table, id);
  if (!block) throw notFound();
  return block;
}

/** Body reference: 422 on the field when not visible (other organisations' ids reveal nothing). */
export async function visibleBlockOr422(ctx: Ctx, table: BlockTable, id: number, field: string) {
  const block = await findVisibleBlock(ctx, table, id);
  if (!block) throw invalidField(field, `The selected ${field.replace('_', ' ')} is invalid.`);
  return block;
}
