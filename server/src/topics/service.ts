import { ContentPerm, type PageQuery, type TopicBody, type UpdateTopicBody } from '@cc/contracts';
import { sql } from 'kysely';
import type { z } from 'zod';
import { visibleBlockOr404, visibleBlockOr422 } from '../content/blocks';
import { sanitizeRichText } from '../content/sanitize';
import { escapeLike } from '../courses/queries';
import { assertCanChange, ownerForNew, visibleOwnedClause } from '../courses/visibility';
import { pageWithTotal } from '../db/paged';
import type { TopicResource } from '../db/schema';
import { authorize, type Ctx } from '../http/context';

/**
 * Topics (spec 2 §3, §7): hidden, skippable, is_child, an optional H5P item and resources. body_html is author
 * HTML, sanitised on write (content/sanitize.ts). 63 opens, 29 adds, 30 edits and deletes; a deleted topic leaves
 * its lessons in the same statement (lesson_topics FK cascade).
 */
const P = ContentPerm;
const VIEW = [P.contentCreator];

const columns = [
  't.id',
  't.title',
  't.body_html',
  't.hidden',
  't.skippable',
  't.is_child',
  't.h5p_id',
  't.resources',
  't.entity_id',
  'h.title as h5p_title',
] as const;

type Row = {
  id: number;
  title: string;
  body_html: string;
  hidden: boolean;
  skippable: boolean;
  is_child: boolean;
  h5p_id: number | null;
  resources: TopicResource[];
  entity_id: number | null;
  h5p_title: string | null;
};

const present = ({ h5p_title, ...row }: Row) => ({
  ...row,
  resources: row.resources ?? [],
  h5p: row.h5p_id === null ? null : { id: row.h5p_id, title: h5p_title ?? '' },
  // spec 2 §3 Topic "h5ps": the same one H5P as a list (a topic holds at most one), issue 38.
  h5ps: row.h5p_id === null ? [] : [{ id: row.h5p_id, title: h5p_title ?? '' }],
});

const base = (ctx: Ctx) => ctx.db.selectFrom('topics as t').leftJoin('h5ps as h', 'h.id', 't.h5p_id');

export async function listTopics(ctx: Ctx, query: z.infer<typeof PageQuery>) {
  authorize(ctx, VIEW);
  let q = base(ctx).where(await visibleOwnedClause(ctx, 't'));
  if (query.search) q = q.where('t.title', 'ilike', `%${escapeLike(query.search)}%`);
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) => filtered.select(columns).orderBy(sql`lower(t.title)`).orderBy('t.id'),
    { page: query.page, perPage: query.per_page },
  );
  return { data: rows.map(present), total };
}

export async function getTopic(ctx: Ctx, id: number) {
  await visibleBlockOr404(ctx, 'topics', id);
  authorize(ctx, VIEW);
  return present(await base(ctx).select(columns).where('t.id', '=', id).executeTakeFirstOrThrow());
}

async function checkH5p(ctx: Ctx, h5pId: number | null | undefined) {
  if (h5pId) await visibleBlockOr422(ctx, 'h5ps', h5pId, 'h5p_id');
}

export async function createTopic(ctx: Ctx, body: z.infer<typeof TopicBody>) {
  authorize(ctx, [...VIEW, P.addContent]);
  const entityId = await ownerForNew(ctx, body.platform);
  await checkH5p(ctx, body.h5p_id);
  const row = await ctx.db
    .insertInto('topics')
    .values({
      entity_id: entityId,
      title: body.title,
      body_html: sanitizeRichText(body.body_html ?? ''),
      hidden: body.hidden,
      skippable: body.skippable,
      is_child: body.is_child,
      h5p_id: body.h5p_id ?? null,
      resources: JSON.stringify(body.resources),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return getTopic(ctx, row.id);
}

async function changeable(ctx: Ctx, id: number) {
  const topic = await visibleBlockOr404(ctx, 'topics', id);
  authorize(ctx, [...VIEW, P.editContent]);
  await assertCanChange(ctx, topic.entity_id);
}

export async function updateTopic(ctx: Ctx, id: number, body: z.infer<typeof UpdateTopicBody>) {
  await changeable(ctx, id);
  await checkH5p(ctx, body.h5p_id);
  const { body_html, resources, ...rest } = body;
  await ctx.db
    .updateTable('topics')
    .set({
      ...rest,
      ...(body_html === undefined ? {} : { body_html: sanitizeRichText(body_html) }),
      ...(resources === undefined ? {} : { resources: JSON.stringify(resources) }),
      updated_at: ctx.clock(),
    })
    .where('id', '=', id)
    .execute();
  return getTopic(ctx, id);
}

export async function deleteTopic(ctx: Ctx, id: number) {
  await changeable(ctx, id);
  await ctx.db.deleteFrom('topics').where('id', '=', id).execute();
}
