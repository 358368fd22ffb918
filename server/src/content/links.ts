import { sql } from 'kysely';
import type { Trx } from '../courses/queries';
import type { Db } from '../db/connect';
import { invalidField, notFound } from '../http/errors';

/**
 * Ordered links between authored items (spec 2 §4 "add, remove or order"): lessons and quizzes on content, topics
 * on lessons. One implementation for the three link tables; callers check visibility and permissions first.
 */
export type LinkKind = 'content_lessons' | 'content_quizzes' | 'lesson_topics';
const COLS: Record<LinkKind, { parent: string; child: string; table: string; label: string }> = {
  content_lessons: { parent: 'content_id', child: 'lesson_id', table: 'lessons', label: 'lesson' },
  content_quizzes: { parent: 'content_id', child: 'quiz_id', table: 'quizzes', label: 'quiz' },
  lesson_topics: { parent: 'lesson_id', child: 'topic_id', table: 'topics', label: 'topic' },
};

const t = (kind: LinkKind) => sql.table(kind);
const parentCol = (kind: LinkKind) => sql.ref(COLS[kind].parent);
const childCol = (kind: LinkKind) => sql.ref(COLS[kind].child);

/** Appends the child at the end; adding one already attached changes nothing. */
export async function addLink(db: Db | Trx, kind: LinkKind, parentId: number, childId: number) {
  await sql`INSERT INTO ${t(kind)} (${parentCol(kind)}, ${childCol(kind)}, position)
    SELECT ${parentId}, ${childId}, COALESCE(max(position), -1) + 1 FROM ${t(kind)} WHERE ${parentCol(kind)} = ${parentId}
    ON CONFLICT DO NOTHING`.execute(db);
}

/** 404 when the child is not attached to the parent. */
export async function removeLink(db: Db | Trx, kind: LinkKind, parentId: number, childId: number) {
  const res =
    await sql`DELETE FROM ${t(kind)} WHERE ${parentCol(kind)} = ${parentId} AND ${childCol(kind)} = ${childId}`.execute(
      db,
    );
  if (!Number(res.numAffectedRows ?? 0)) throw notFound();
}

export async function linkedIds(db: Db | Trx, kind: LinkKind, parentId: number): Promise<number[]> {
  const { rows } = await sql<{ id: number }>`SELECT ${childCol(kind)} AS id FROM ${t(kind)}
    WHERE ${parentCol(kind)} = ${parentId} ORDER BY position, ${childCol(kind)}`.execute(db);
  return rows.map((r) => r.id);
}

/** `ids` must name every attached child exactly once (422 otherwise); positions become 0..n-1. */
export async function orderLinks(trx: Trx, kind: LinkKind, parentId: number, ids: number[]) {
  const current = await linkedIds(trx, kind, parentId);
  const same =
    ids.length === current.length &&
    new Set(ids).size === ids.length &&
    ids.every((id) => current.includes(id));
  if (!same) throw invalidField('ids', `The ids must list every attached ${COLS[kind].label} exactly once.`);
  if (!ids.length) return;
  const values = sql.join(ids.map((id, i) => sql`(${id}::int, ${i}::int)`));
  await sql`UPDATE ${t(kind)} AS l SET position = v.pos FROM (VALUES ${values}) AS v(id, pos)
    WHERE l.${parentCol(kind)} = ${parentId} AND l.${childCol(kind)} = v.id`.execute(trx);
}

/** The children of a parent with titles, in order. */
export async function linkedItems(db: Db | Trx, kind: LinkKind, parentId: number) {
  const { rows } = await sql<{ id: number; title: string; position: number }>`SELECT c.id, c.title, l.position
    FROM ${t(kind)} l JOIN ${sql.table(COLS[kind].table)} c ON c.id = l.${childCol(kind)}
    WHERE l.${parentCol(kind)} = ${parentId} ORDER BY l.position, c.id`.execute(db);
  return rows;
}

/** Detach a child from every parent (before deleting it, in the same transaction). */
export async function detachEverywhere(trx: Trx, kind: LinkKind, childId: number) {
  await sql`DELETE FROM ${t(kind)} WHERE ${childCol(kind)} = ${childId}`.execute(trx);
}

export type Action = { action: 'add' | 'remove' | 'order'; ids?: number[] };

/** Runs one action in a transaction; `child` is the already checked child id for add/remove. */
export async function applyLinkAction(
  db: Db,
  kind: LinkKind,
  parentId: number,
  body: Action,
  child: number | undefined,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Serialise concurrent actions on one parent so positions stay unique and dense.
    await sql`SELECT pg_advisory_xact_lock(hashtext(${kind}), ${parentId})`.execute(trx);
    if (body.action === 'order') return orderLinks(trx, kind, parentId, body.ids ?? []);
    if (child === undefined)
      throw invalidField(COLS[kind].child, `The ${COLS[kind].child.replace('_', ' ')} field is required.`);
    if (body.action === 'add') return addLink(trx, kind, parentId, child);
    return removeLink(trx, kind, parentId, child);
  });
}
