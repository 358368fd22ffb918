import type { DesignBlock, DesignPage } from '@cc/contracts';
import { videoHostOf } from '@cc/contracts';
import { sanitizeRichText } from '../content/sanitize';

/**
 * A design's pages as the player's topics (contracts designer.ts): each page's blocks become one HTML body, passed
 * through the one sanitiser every author HTML goes through (content/sanitize.ts), so what publishing writes and what
 * the editor previews are the same string. H5P blocks are not HTML: the page's topic links the item (topics.h5p_id);
 * question blocks are not HTML either: they become the content's quiz.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const esc = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const CALLOUT_LABEL = { info: 'Note', tip: 'Tip', warning: 'Warning' } as const;

/** The HTML of one block; '' for blocks that are not part of the page's text (H5P, question). */
export function blockHtml(block: DesignBlock): string {
  switch (block.type) {
    case 'heading':
      return `<h${block.level}>${esc(block.text)}</h${block.level}>`;
    case 'text':
      return block.html;
    case 'image':
      return `<p><img src="${esc(block.url)}" alt="${esc(block.alt)}"></p>`;
    case 'video': {
      // No iframe reaches author HTML (sanitize.ts): a video is a link card that opens the host's own page.
      const host = videoHostOf(block.url) ?? 'video';
      const label = block.title ? `Watch “${esc(block.title)}” on ${host}` : `Watch the video on ${host}`;
      return `<p><a href="${esc(block.url)}" target="_blank">▶ ${label}</a></p>`;
    }
    case 'callout':
      return `<blockquote><p><strong>${CALLOUT_LABEL[block.tone]}</strong></p>${block.html}</blockquote>`;
    case 'accordion':
      return block.items
        .map((item) => `<details><summary>${esc(item.title)}</summary>${item.html}</details>`)
        .join('');
    case 'h5p':
    case 'question':
      return '';
  }
}

/** The page's topic body: every block's HTML in order, sanitised as a whole. */
export function pageHtml(page: DesignPage): string {
  return sanitizeRichText(page.blocks.map(blockHtml).join('\n'));
}

/** The H5P item the page's topic links (a page holds at most one: the save refuses a second). */
export function pageH5pId(page: DesignPage): number | null {
  const block = page.blocks.find((b) => b.type === 'h5p');
  return block?.type === 'h5p' ? block.h5p_id : null;
}

export interface QuizQuestion {
  text: string;
  answers: { text: string; is_correct: boolean }[];
}

/** The question blocks of every page, in page then block order, as single-choice quiz questions. */
export function designQuestions(pages: DesignPage[]): QuizQuestion[] {
  return pages.flatMap((page) =>
    page.blocks.flatMap((b) =>
      b.type === 'question'
        ? [{ text: b.question, answers: b.options.map((text, i) => ({ text, is_correct: i === b.correct })) }]
        : [],
    ),
  );
}

/** The pages with every author HTML field sanitised (what a save stores). */
export function sanitizePages(pages: DesignPage[]): DesignPage[] {
  return pages.map((page) => ({ ...page, blocks: page.blocks.map(sanitizeBlock) }));
}

function sanitizeBlock(block: DesignBlock): DesignBlock {
  switch (block.type) {
    case 'text':
    case 'callout':
      return { ...block, html: sanitizeRichText(block.html) };
    case 'accordion':
      return { ...block, items: block.items.map((i) => ({ ...i, html: sanitizeRichText(i.html) })) };
    default:
      return block;
  }
}
