import { ContentPerm, type H5pBody, type PageQuery, type UpdateH5pBody } from '@cc/contracts';
import { sql } from 'kysely';
import type { z } from 'zod';
import { visibleBlockOr404 } from '../content/blocks';
import { escapeLike } from '../courses/queries';
import { assertCanChange, ownerForNew, visibleOwnedClause } from '../courses/visibility';
import { pageWithTotal } from '../db/paged';
import { authorize, type Ctx } from '../http/context';
import { removePackageFiles } from '../packages/files';

/**
 * H5P items (spec 2 §3, §7): metadata only here (title, video_id). The .h5p package upload and extraction fill
 * package_dir and library later (issue 4 item 2). 63 opens, 29 adds, 30 edits and deletes. Topics using a deleted
 * item lose it (topics.h5p_id ON DELETE SET NULL).
 */
const P = ContentPerm;
const VIEW = [P.contentCreator];
const columns = ['h.id', 'h.title', 'h.video_id', 'h.library', 'h.entity_id'] as const;

export async function listH5ps(ctx: Ctx, query: z.infer<typeof PageQuery>) {
  authorize(ctx, VIEW);
  let q = ctx.db.selectFrom('h5ps as h').where(await visibleOwnedClause(ctx, 'h'));
  if (query.search) q = q.where('h.title', 'ilike', `%${escapeLike(query.search)}%`);
  const { rows: data, total } = await pageWithTotal(
    q,
    (filtered) => filtered.select(columns).orderBy(sql`lower(h.title)`).orderBy('h.id'),
    { page: query.page, perPage: query.per_page },
  );
  return { data, total };
}

export async function getH5p(ctx: Ctx, id: number) {
  await visibleBlockOr404(ctx, 'h5ps', id);
  authorize(ctx, VIEW);
  return ctx.db.selectFrom('h5ps as h').select(columns).where('h.id', '=', id).executeTakeFirstOrThrow();
}

export async function createH5p(ctx: Ctx, body: z.infer<typeof H5pBody>) {
  authorize(ctx, [...VIEW, P.addContent]);
  const entityId = await ownerForNew(ctx, body.platform);
  const row = await ctx.db
    .insertInto('h5ps')
    .values({ entity_id: entityId, title: body.title, video_id: body.video_id ?? null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return getH5p(ctx, row.id);
}

async function changeable(ctx: Ctx, id: number) {
  const item = await visibleBlockOr404(ctx, 'h5ps', id);
  authorize(ctx, [...VIEW, P.editContent]);
  await assertCanChange(ctx, item.entity_id);
}

export async function updateH5p(ctx: Ctx, id: number, body: z.infer<typeof UpdateH5pBody>) {
  await changeable(ctx, id);
  await ctx.db
    .updateTable('h5ps')
    .set({ ...body, updated_at: ctx.clock() })
    .where('id', '=', id)
    .execute();
  return getH5p(ctx, id);
}

export async function deleteH5p(ctx: Ctx, id: number) {
  await changeable(ctx, id);
  const pkg = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .deleteFrom('h5p_packages')
      .where('h5p_id', '=', id)
      .returning('storage_dir')
      .executeTakeFirst();
    await trx.deleteFrom('h5ps').where('id', '=', id).execute();
    return row;
  });
  // Issue 12 §4: the package's files leave the store with it (after the commit).
  await removePackageFiles(ctx, pkg?.storage_dir);
}
