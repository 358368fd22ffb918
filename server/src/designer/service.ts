import {
  type CreateDesignBody,
  DesignerMessages,
  type DesignListQuery,
  type DesignPage,
  type DesignPreview,
  type DesignSummary,
  type DesignView,
  type UpdateDesignBody,
  videoHostOf,
} from '@cc/contracts';
import type { z } from 'zod';
import { findVisibleBlock } from '../content/blocks';
import { ownerForNew } from '../courses/visibility';
import type { Ctx } from '../http/context';
import { conflict, type FieldErrors, invalid } from '../http/errors';
import {
  type DesignRow,
  insertDesign,
  listDesigns as listDesignRows,
  softDeleteDesign,
  updateDesignGuarded,
} from './queries';
import { designQuestions, pageH5pId, pageHtml, sanitizePages } from './render';
import { designEntityIds, designFor, entityForNew, requireDesigner } from './scope';

/**
 * Designs (issue 17; contracts designer.ts): the rules of listing, creating, saving and deleting. Publishing is
 * publish.ts. Pages are checked beyond their schema here (video hosts, image sources, answers, H5P items the author
 * can see, one H5P item per page) and their HTML sanitised before it is stored.
 */

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

type SummaryRow = Omit<DesignRow, 'pages'> & { pages?: unknown };

export function stateOf(row: Pick<DesignRow, 'content_id' | 'published_revision' | 'revision'>) {
  if (row.content_id === null || row.published_revision === null) return 'draft' as const;
  return row.published_revision === row.revision ? ('published' as const) : ('changed' as const);
}

export function presentSummary(row: SummaryRow): DesignSummary {
  return {
    id: row.id,
    uuid: row.uuid,
    title: row.title,
    entity: { id: row.entity_id, slug: row.entity_slug, name: row.entity_name },
    page_count: Number(row.page_count),
    revision: row.revision,
    state: stateOf(row),
    published_at: row.published_at ? iso(row.published_at) : null,
    content:
      row.content_id !== null && row.content_title !== null && row.content_course_id !== null
        ? { id: row.content_id, title: row.content_title, course_id: row.content_course_id }
        : null,
    updated_at: iso(row.updated_at),
    created_by:
      row.created_by !== null && row.creator_uuid && row.creator_name
        ? { id: row.created_by, uuid: row.creator_uuid, name: row.creator_name }
        : null,
  };
}

export function presentDesign(row: DesignRow): DesignView {
  return { ...presentSummary(row), pages: row.pages as DesignPage[] };
}

export async function listDesigns(ctx: Ctx, query: z.infer<typeof DesignListQuery>) {
  requireDesigner(ctx);
  const { rows, total } = await listDesignRows(ctx.db, await designEntityIds(ctx), {
    search: query.search,
    page: query.page,
    perPage: query.per_page,
  });
  return { data: rows.map(presentSummary), total };
}

export async function getDesign(ctx: Ctx, id: number): Promise<DesignView> {
  const row = await designFor(ctx, id);
  requireDesigner(ctx);
  return presentDesign(row);
}

const IMAGE_SOURCE = /^(\/api\/files\/[0-9a-f-]{36}|https:\/\/\S+)$/i;

/**
 * The checks the schema cannot make, each as a 422 on the block's path (pages.N.blocks.M.field), then the pages
 * with their HTML sanitised. H5P items must be visible to the author (another organisation's id reveals nothing).
 */
export async function checkPages(ctx: Ctx, pages: DesignPage[]): Promise<DesignPage[]> {
  const errors: FieldErrors = {};
  const add = (path: string, message: string) => {
    errors[path] = [...(errors[path] ?? []), message];
  };
  const pageIds = new Set<string>();
  const blockIds = new Set<string>();
  for (const [i, page] of pages.entries()) {
    if (pageIds.has(page.id)) add(`pages.${i}.id`, 'Each page needs its own id.');
    pageIds.add(page.id);
    let h5ps = 0;
    for (const [j, block] of page.blocks.entries()) {
      const at = `pages.${i}.blocks.${j}`;
      if (blockIds.has(block.id)) add(`${at}.id`, 'Each block needs its own id.');
      blockIds.add(block.id);
      if (block.type === 'video' && !videoHostOf(block.url)) add(`${at}.url`, DesignerMessages.videoHost);
      if (block.type === 'image' && !IMAGE_SOURCE.test(block.url)) add(`${at}.url`, 'Upload an image.');
      if (block.type === 'question' && block.correct >= block.options.length)
        add(`${at}.correct`, 'Choose the right answer.');
      if (block.type === 'h5p') {
        h5ps += 1;
        if (h5ps > 1) add(`${at}.h5p_id`, 'A page can hold one H5P item: put this one on a page of its own.');
        else if (!(await findVisibleBlock(ctx, 'h5ps', block.h5p_id)))
          add(`${at}.h5p_id`, 'The selected H5P item is invalid.');
      }
    }
  }
  if (Object.keys(errors).length) throw invalid(errors);
  return sanitizePages(pages);
}

export async function createDesign(ctx: Ctx, body: z.infer<typeof CreateDesignBody>): Promise<DesignView> {
  const actor = requireDesigner(ctx);
  const entityId = body.entity ? await entityForNew(ctx, body.entity) : await ownerForNew(ctx, false);
  if (entityId === null) throw invalid({ entity: ['The selected organisation is invalid.'] });
  const pages = await checkPages(ctx, body.pages);
  const id = await insertDesign(ctx.db, {
    entity_id: entityId,
    title: body.title,
    pages,
    created_by: actor.userId,
  });
  return getDesign(ctx, id);
}

/** PATCH: only the fields sent change; a stale `revision` is 409 and changes nothing (queries.ts guarded update). */
export async function updateDesign(
  ctx: Ctx,
  id: number,
  body: z.infer<typeof UpdateDesignBody>,
): Promise<DesignView> {
  await designFor(ctx, id);
  requireDesigner(ctx);
  const pages = body.pages === undefined ? undefined : await checkPages(ctx, body.pages);
  const saved = await updateDesignGuarded(
    ctx.db,
    id,
    body.revision,
    { title: body.title, pages },
    ctx.clock(),
  );
  if (!saved) throw conflict(DesignerMessages.staleRevision);
  return getDesign(ctx, id);
}

export async function deleteDesign(ctx: Ctx, id: number): Promise<void> {
  await designFor(ctx, id);
  requireDesigner(ctx);
  await softDeleteDesign(ctx.db, id, ctx.clock());
}

/** POST /designs/preview: the pages rendered exactly as publishing renders them; nothing is stored. */
export async function previewDesign(ctx: Ctx, pagesIn: DesignPage[]): Promise<DesignPreview> {
  requireDesigner(ctx);
  const pages = await checkPages(ctx, pagesIn);
  const previews = [];
  for (const page of pages) {
    const h5pId = pageH5pId(page);
    const h5p = h5pId === null ? undefined : await findVisibleBlock(ctx, 'h5ps', h5pId);
    previews.push({
      id: page.id,
      title: page.title,
      body_html: pageHtml(page),
      h5p: h5p ? { id: h5p.id, title: h5p.title } : null,
    });
  }
  const questions = designQuestions(pages).map((q) => ({
    text: q.text,
    answers: q.answers.map((a) => a.text),
  }));
  return { pages: previews, questions };
}
