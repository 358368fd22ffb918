import {
  type CreateLibraryBody,
  type LibraryListQuery,
  type LibraryView,
  DocumentMessages as M,
  LibraryPerm as P,
  type UpdateLibraryBody,
} from '@cc/contracts';
import type { z } from 'zod';
import { pageWithTotal } from '../db/paged';
import { findEntityByRef } from '../entities/queries';
import { entityScope } from '../entities/scope';
import { actorOf, type Ctx } from '../http/context';
import { conflict, notFound } from '../http/errors';
import { presentLibrary } from './document-views';
import { libraryView as presentLibraryRow } from './presenters';
import { librariesQuery, libraryColumns } from './queries';
import {
  libraryEntityVisible,
  libraryFor,
  managesEntity,
  requireManage,
  requirePerm,
  visibleLibraryEntityIds,
} from './scope';

/** Libraries (contracts documents.ts): list (134 or 135), create, rename and delete (135, in scope). */

/** GET /libraries: the libraries the actor sees (shared down from above, and those of their scope), by name. */
export async function listLibraries(
  ctx: Ctx,
  query: z.infer<typeof LibraryListQuery>,
): Promise<{ data: LibraryView[]; total: number }> {
  requirePerm(ctx, [P.view, P.manage]);
  let ids = await visibleLibraryEntityIds(ctx);
  if (query.entity) {
    const entity = await findEntityByRef(ctx.db, query.entity);
    if (!entity || !(await libraryEntityVisible(ctx, entity.id))) throw notFound();
    ids = [entity.id];
  }
  const base = librariesQuery(ctx.db, ids, query.search);
  const { rows, total } = await pageWithTotal(
    base,
    (q) => libraryColumns(q).orderBy('l.name').orderBy('l.id'),
    { page: query.page, perPage: query.per_page },
  );
  const data = await Promise.all(
    rows.map(async (r) => ({ row: r, manage: await managesEntity(ctx, r.entity_id) })),
  );
  return {
    data: data.map(({ row, manage }) => presentLibraryRow(row, manage)),
    total: total,
  };
}

/** GET /libraries/{id}. */
export async function getLibrary(ctx: Ctx, id: number): Promise<LibraryView> {
  const library = await libraryFor(ctx, id);
  requirePerm(ctx, [P.view, P.manage]);
  return presentLibrary(ctx, library.id);
}

/** POST /libraries (135): for the named organisation (in the actor's scope, else 404) or the actor's own. */
export async function createLibrary(ctx: Ctx, body: z.infer<typeof CreateLibraryBody>): Promise<LibraryView> {
  const actor = actorOf(ctx);
  const scope = await entityScope(ctx);
  const entity = await findEntityByRef(ctx.db, body.entity ?? String(scope.baseId));
  if (!entity || !(scope.accessible === 'all' || scope.accessible.has(entity.id))) throw notFound();
  await requireManage(ctx, entity.id);
  const row = await ctx.db
    .insertInto('libraries')
    .values({
      entity_id: entity.id,
      name: body.name,
      description: body.description ?? null,
      created_by: actor.userId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return presentLibrary(ctx, row.id);
}

/** PATCH /libraries/{id} (135): only the fields sent; one UPDATE statement, so nothing to race. */
export async function updateLibrary(
  ctx: Ctx,
  id: number,
  body: z.infer<typeof UpdateLibraryBody>,
): Promise<LibraryView> {
  const library = await libraryFor(ctx, id);
  await requireManage(ctx, library.entity_id);
  const set: { name?: string; description?: string | null; updated_at: Date } = { updated_at: ctx.clock() };
  if (body.name !== undefined) set.name = body.name;
  if (body.description !== undefined) set.description = body.description ?? null;
  await ctx.db.updateTable('libraries').set(set).where('id', '=', library.id).execute();
  return presentLibrary(ctx, library.id);
}

/**
 * DELETE /libraries/{id} (135): 409 while it holds documents. The library row is locked, as adding a document locks
 * it (FOR SHARE), so a document added meanwhile is either counted here or refused there.
 */
export async function deleteLibrary(ctx: Ctx, id: number): Promise<void> {
  const library = await libraryFor(ctx, id);
  await requireManage(ctx, library.entity_id);
  await ctx.db.transaction().execute(async (trx) => {
    const locked = await libraryFor(ctx, id, { db: trx, forUpdate: true });
    const live = await trx
      .selectFrom('documents')
      .select('id')
      .where('library_id', '=', locked.id)
      .where('deleted_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    if (live) throw conflict(M.libraryNotEmpty);
    await trx.updateTable('libraries').set({ deleted_at: ctx.clock() }).where('id', '=', locked.id).execute();
  });
}
