import type { DesignBlock, DesignBlockType, DesignPage } from '@cc/contracts';

/**
 * The editor's state of a design and the pure operations on it (add, rename, reorder, delete pages and blocks;
 * serialise for the API). Kept apart from the components so they are tested without a browser.
 *
 * Rich text (text, callout, accordion items) is edited as *source*: paragraphs separated by blank lines, with
 * inline tags the toolbar writes (<strong>, <em>, <a>) and lists (<ul><li>). `toPayload` turns source into the
 * HTML the API stores (and sanitises again); `fromDesign` turns stored HTML back into source.
 */

export interface DraftPage {
  id: string;
  title: string;
  blocks: DesignBlock[];
}
export interface Draft {
  title: string;
  pages: DraftPage[];
}

export const BLOCK_LABELS: Record<DesignBlockType, string> = {
  heading: 'Heading',
  text: 'Text',
  image: 'Image',
  video: 'Video link',
  callout: 'Callout',
  accordion: 'Accordion',
  h5p: 'H5P item',
  question: 'Question',
};

let counter = 0;
/** A short id, unique within the design (pages and blocks are addressed by it). */
export function newId(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 6)}`;
}

/** A new block of a type, with empty fields the author fills in. */
export function newBlock(type: DesignBlockType, id = newId('b')): DesignBlock {
  switch (type) {
    case 'heading':
      return { id, type, text: '', level: 2 };
    case 'text':
      return { id, type, html: '' };
    case 'image':
      return { id, type, url: '', alt: '' };
    case 'video':
      return { id, type, url: '', title: '' };
    case 'callout':
      return { id, type, tone: 'info', html: '' };
    case 'accordion':
      return { id, type, items: [{ title: '', html: '' }] };
    case 'h5p':
      return { id, type, h5p_id: 0 };
    case 'question':
      return { id, type, question: '', options: ['', ''], correct: 0, feedback: '' };
  }
}

export const emptyDraft = (): Draft => ({ title: '', pages: [newPage(1)] });

export function newPage(n: number, id = newId('p')): DraftPage {
  return { id, title: `Page ${n}`, blocks: [] };
}

/** `list` with the item at `from` moved to `to` (both clamped); the same array when nothing moves. */
export function move<T>(list: readonly T[], from: number, to: number): T[] {
  const target = Math.max(0, Math.min(list.length - 1, to));
  if (from < 0 || from >= list.length || from === target) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(target, 0, item as T);
  return next;
}

const mapPage = (draft: Draft, pageId: string, fn: (p: DraftPage) => DraftPage): Draft => ({
  ...draft,
  pages: draft.pages.map((p) => (p.id === pageId ? fn(p) : p)),
});

export const addPage = (draft: Draft): Draft => ({
  ...draft,
  pages: [...draft.pages, newPage(draft.pages.length + 1)],
});
export const renamePage = (draft: Draft, pageId: string, title: string) =>
  mapPage(draft, pageId, (p) => ({ ...p, title }));
export const deletePage = (draft: Draft, pageId: string): Draft => ({
  ...draft,
  pages: draft.pages.filter((p) => p.id !== pageId),
});
export function movePage(draft: Draft, pageId: string, by: number): Draft {
  const from = draft.pages.findIndex((p) => p.id === pageId);
  return { ...draft, pages: move(draft.pages, from, from + by) };
}

export const addBlock = (draft: Draft, pageId: string, type: DesignBlockType, block = newBlock(type)) =>
  mapPage(draft, pageId, (p) => ({ ...p, blocks: [...p.blocks, block] }));
export const updateBlock = (draft: Draft, pageId: string, block: DesignBlock) =>
  mapPage(draft, pageId, (p) => ({ ...p, blocks: p.blocks.map((b) => (b.id === block.id ? block : b)) }));
export const deleteBlock = (draft: Draft, pageId: string, blockId: string) =>
  mapPage(draft, pageId, (p) => ({ ...p, blocks: p.blocks.filter((b) => b.id !== blockId) }));
/** Moves a block by `by` places (keyboard: up -1, down +1) or to an index (drag and drop: `to`). */
export function moveBlock(
  draft: Draft,
  pageId: string,
  blockId: string,
  where: { by: number } | { to: number },
) {
  return mapPage(draft, pageId, (p) => {
    const from = p.blocks.findIndex((b) => b.id === blockId);
    const to = 'by' in where ? from + where.by : where.to;
    return { ...p, blocks: move(p.blocks, from, to) };
  });
}

// --- Rich text source <-> HTML -------------------------------------------------------------------------------

const BLOCK_START = /^<(ul|ol|h[2-4]|blockquote|p|table|pre)[\s>]/i;

/** Author source to HTML: blank-line separated paragraphs (line breaks kept); lists and block tags as written. */
export function sourceToHtml(source: string): string {
  return source
    .replace(/\r\n/g, '\n')
    .split(/\n{2,}/)
    .map((chunk) => chunk.trim())
    .filter(Boolean)
    .map((chunk) => (BLOCK_START.test(chunk) ? chunk : `<p>${chunk.replace(/\n/g, '<br>')}</p>`))
    .join('\n');
}

/** Stored HTML back to author source (the inverse of sourceToHtml for what it writes). */
export function htmlToSource(html: string): string {
  return html
    .replace(/<\/p>\s*<p>/gi, '\n\n')
    .replace(/^\s*<p>/i, '')
    .replace(/<\/p>\s*$/i, '')
    .replace(/<\/p>\s*(?=<(ul|ol|h[2-4]|blockquote))/gi, '\n\n')
    .replace(/(<\/(ul|ol|h[2-4]|blockquote)>)\s*<p>/gi, '$1\n\n')
    .replace(/<br\s*\/?>/gi, '\n');
}

function mapRich(block: DesignBlock, fn: (s: string) => string): DesignBlock {
  switch (block.type) {
    case 'text':
    case 'callout':
      return { ...block, html: fn(block.html) };
    case 'accordion':
      return { ...block, items: block.items.map((i) => ({ ...i, html: fn(i.html) })) };
    default:
      return block;
  }
}

/** The design as the API gave it, as editor state (rich text as source). */
export function fromDesign(design: { title: string; pages: DesignPage[] }): Draft {
  return {
    title: design.title,
    pages: design.pages.map((p) => ({ ...p, blocks: p.blocks.map((b) => mapRich(b, htmlToSource)) })),
  };
}

/** The editor state as the API body's title and pages (rich text as HTML; trimmed titles). */
export function toPayload(draft: Draft): { title: string; pages: DesignPage[] } {
  return {
    title: draft.title.trim(),
    pages: draft.pages.map((p) => ({
      id: p.id,
      title: p.title.trim(),
      blocks: p.blocks.map((b) => mapRich(b, sourceToHtml)),
    })),
  };
}

/** True when the draft differs from what was last saved (compared as payloads, so whitespace edits count). */
export const isDirty = (draft: Draft, saved: Draft) =>
  JSON.stringify(toPayload(draft)) !== JSON.stringify(toPayload(saved));

/** Field errors of one block from the server's 422 (keys pages.N.blocks.M.field), keyed by field. */
export function blockErrors(errors: Record<string, string[]>, pageIndex: number, blockIndex: number) {
  const prefix = `pages.${pageIndex}.blocks.${blockIndex}.`;
  const out: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(errors))
    if (key.startsWith(prefix)) out[key.slice(prefix.length)] = messages;
  return out;
}

/** Wraps the selected text of a textarea's value in `before`/`after` (the formatting toolbar). */
export function wrapSelection(value: string, start: number, end: number, before: string, after: string) {
  const selected = value.slice(start, end);
  return {
    value: value.slice(0, start) + before + selected + after + value.slice(end),
    start: start + before.length,
    end: start + before.length + selected.length,
  };
}
