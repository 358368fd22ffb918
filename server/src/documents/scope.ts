import { LibraryPerm as P } from '@cc/contracts';
import type { Selectable } from 'kysely';
import type { Db } from '../db/connect';
import type { DocumentsTable, LibrariesTable } from '../db/schema';
import { entityScope, inScope } from '../entities/scope';
import { ancestorIds } from '../entities/tree';
import { type Actor, actorOf, type Ctx, can, memo } from '../http/context';
import { forbidden, notFound } from '../http/errors';
import type { Trx } from '../results/queries';

/**
 * Who may reach a library or a document (contracts documents.ts "Who may do what"). THE tenant boundary of
 * documents and libraries: every service, REST and GraphQL, loads them through here. Read any change twice.
 *
 * A library is visible to people of its organisation and of its descendants (shared down: its organisation is the
 * actor's base entity or an ancestor of it), and to people whose entity scope holds its organisation (a group
 * manager sees the libraries of its homes). A document is visible with its library, and to anyone it is required
 * of (a user_requirements row on its backing course: a requirement set for a home reaches its staff wherever the
 * library sits). Anything else: the same 404 as a missing id. Seen but without the action's permission: 403.
 */
export type LibraryRow = Selectable<LibrariesTable>;
export type DocumentRow = Selectable<DocumentsTable>;
type Executor = Db | Trx;

/** Entity ids whose libraries the actor sees: null = every one (super admin without acting-as). */
export async function visibleLibraryEntityIds(ctx: Ctx): Promise<number[] | null> {
  return memo(ctx, 'documents.libraryEntities', async () => {
    const scope = await entityScope(ctx);
    if (scope.accessible === 'all') return null;
    const above = await ancestorIds(ctx.db, scope.baseId);
    return [...new Set([...above, ...scope.accessible])];
  });
}

export async function libraryEntityVisible(ctx: Ctx, entityId: number): Promise<boolean> {
  const ids = await visibleLibraryEntityIds(ctx);
  return ids === null || ids.includes(entityId);
}

/** True when the actor may manage (135) what belongs to `entityId`: it must be in their entity scope. */
export async function managesEntity(ctx: Ctx, entityId: number): Promise<boolean> {
  const actor = actorOf(ctx);
  return can(actor, [P.manage]) && inScope(await entityScope(ctx), entityId);
}

/** The library, or 404 (missing, deleted, out of scope). `forUpdate` locks the row in `db`'s transaction. */
export async function libraryFor(
  ctx: Ctx,
  id: number,
  o: { db?: Executor; forUpdate?: boolean; forShare?: boolean } = {},
): Promise<LibraryRow> {
  actorOf(ctx);
  let q = (o.db ?? ctx.db)
    .selectFrom('libraries')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  if (o.forUpdate) q = q.forUpdate();
  if (o.forShare) q = q.forShare();
  const row = id > 0 && id <= 2147483647 ? await q.executeTakeFirst() : undefined;
  if (!row || !(await libraryEntityVisible(ctx, row.entity_id))) throw notFound();
  return row;
}

/** True when the actor must read the document (a requirement on its backing course). */
export async function requiredOf(db: Executor, userId: number, courseId: number): Promise<boolean> {
  const row = await db
    .selectFrom('user_requirements')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .executeTakeFirst();
  return !!row;
}

/**
 * The document, or 404 (missing, deleted, its library deleted, out of scope and not required of the actor).
 * `lock`: 'update' (a new version, an edit) or 'share' (an acknowledgement: many at once, never with a new version).
 */
export async function documentFor(
  ctx: Ctx,
  id: number,
  o: { db?: Executor; lock?: 'update' | 'share' } = {},
): Promise<DocumentRow> {
  const actor = actorOf(ctx);
  const db = o.db ?? ctx.db;
  let q = db
    .selectFrom('documents as d')
    .innerJoin('libraries as l', 'l.id', 'd.library_id')
    .selectAll('d')
    .where('d.id', '=', id)
    .where('d.deleted_at', 'is', null)
    .where('l.deleted_at', 'is', null);
  if (o.lock === 'update') q = q.forUpdate('d');
  if (o.lock === 'share') q = q.forShare('d');
  const row = id > 0 && id <= 2147483647 ? await q.executeTakeFirst() : undefined;
  if (!row) throw notFound();
  if (await libraryEntityVisible(ctx, row.entity_id)) return row;
  if (await requiredOf(db, actor.userId, row.course_id)) return row;
  throw notFound();
}

/** 403 unless the actor holds one of `perms`. Call after libraryFor/documentFor turned out-of-scope into 404. */
export function requirePerm(ctx: Ctx, perms: readonly number[]): Actor {
  const actor = actorOf(ctx);
  if (!can(actor, perms, 'any')) throw forbidden();
  return actor;
}

/** 403 unless the actor manages (135) the owner entity in their scope (a shared-down library is read-only below). */
export async function requireManage(ctx: Ctx, entityId: number): Promise<Actor> {
  const actor = requirePerm(ctx, [P.manage]);
  if (!inScope(await entityScope(ctx), entityId)) throw forbidden();
  return actor;
}
