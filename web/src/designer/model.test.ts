import { DesignPage } from '@cc/contracts';
import { describe, expect, it } from 'vitest';
import {
  addBlock,
  addPage,
  blockErrors,
  type Draft,
  deleteBlock,
  deletePage,
  emptyDraft,
  fromDesign,
  htmlToSource,
  isDirty,
  move,
  moveBlock,
  movePage,
  newBlock,
  renamePage,
  sourceToHtml,
  toPayload,
  updateBlock,
  wrapSelection,
} from './model';

const draftOf = (): Draft => ({
  title: ' Fire safety ',
  pages: [
    {
      id: 'p1',
      title: 'One',
      blocks: [newBlock('heading', 'a'), newBlock('text', 'b'), newBlock('video', 'c')],
    },
    { id: 'p2', title: 'Two', blocks: [] },
  ],
});
const ids = (d: Draft, page = 0) => d.pages[page]?.blocks.map((b) => b.id);

describe('move', () => {
  it('moves within bounds and clamps past the ends', () => {
    expect(move(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(move(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(move(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(move(['a', 'b', 'c'], 2, 9)).toEqual(['a', 'b', 'c']);
    expect(move(['a', 'b', 'c'], 5, 0)).toEqual(['a', 'b', 'c']);
  });
});

describe('pages', () => {
  it('adds (numbered), renames, reorders and deletes, leaving the other pages alone', () => {
    let d = addPage(draftOf());
    expect(d.pages.map((p) => p.title)).toEqual(['One', 'Two', 'Page 3']);
    const third = d.pages[2]?.id as string;
    d = renamePage(d, third, 'Three');
    d = movePage(d, third, -1);
    expect(d.pages.map((p) => p.title)).toEqual(['One', 'Three', 'Two']);
    d = movePage(d, 'p1', -1); // already first
    expect(d.pages[0]?.id).toBe('p1');
    d = deletePage(d, 'p2');
    expect(d.pages.map((p) => p.title)).toEqual(['One', 'Three']);
    expect(ids(d)).toEqual(['a', 'b', 'c']);
  });

  it('a new design starts with one empty page and no title', () => {
    expect(emptyDraft()).toMatchObject({ title: '', pages: [{ title: 'Page 1', blocks: [] }] });
  });
});

describe('blocks', () => {
  it('adds at the end, edits one, deletes one, on its own page only', () => {
    let d = addBlock(draftOf(), 'p2', 'question');
    const q = d.pages[1]?.blocks[0];
    expect(q).toMatchObject({ type: 'question', options: ['', ''], correct: 0 });
    d = updateBlock(d, 'p2', {
      ...(q as Extract<typeof q, { type: 'question' }>),
      question: 'Why?',
    } as never);
    expect(d.pages[1]?.blocks[0]).toMatchObject({ question: 'Why?' });
    d = deleteBlock(d, 'p1', 'b');
    expect(ids(d)).toEqual(['a', 'c']);
    expect(d.pages[1]?.blocks).toHaveLength(1);
  });

  it('reorders by keyboard steps and by drop position', () => {
    let d = moveBlock(draftOf(), 'p1', 'c', { by: -1 });
    expect(ids(d)).toEqual(['a', 'c', 'b']);
    d = moveBlock(d, 'p1', 'a', { by: 1 });
    expect(ids(d)).toEqual(['c', 'a', 'b']);
    d = moveBlock(d, 'p1', 'b', { to: 0 });
    expect(ids(d)).toEqual(['b', 'c', 'a']);
    d = moveBlock(d, 'p1', 'b', { by: -1 });
    expect(ids(d)).toEqual(['b', 'c', 'a']);
  });

  it('every new block is valid for the API once its required words are filled in', () => {
    for (const type of ['heading', 'text', 'callout', 'accordion', 'question'] as const) {
      const block = newBlock(type);
      const filled =
        type === 'heading'
          ? { ...block, text: 'H' }
          : type === 'accordion'
            ? { ...block, items: [{ title: 'T', html: '' }] }
            : type === 'question'
              ? { ...block, question: 'Q', options: ['a', 'b'] }
              : block;
      expect(DesignPage.safeParse({ id: 'p', title: 'P', blocks: [filled] }).success, type).toBe(true);
    }
  });
});

describe('serialisation', () => {
  it('source becomes paragraphs with line breaks; lists stay lists', () => {
    expect(sourceToHtml('One <strong>bold</strong>\nline\n\nTwo\n\n\n<ul>\n<li>x</li>\n</ul>')).toBe(
      '<p>One <strong>bold</strong><br>line</p>\n<p>Two</p>\n<ul>\n<li>x</li>\n</ul>',
    );
    expect(sourceToHtml('  \n\n ')).toBe('');
  });

  it('stored HTML (as the server sanitises it) comes back as the same source', () => {
    const source = 'One <em>it</em>\nline\n\nTwo';
    const stored = sourceToHtml(source).replace('<br>', '<br />');
    expect(htmlToSource(stored)).toBe(source);
    expect(htmlToSource(sourceToHtml(htmlToSource(stored)))).toBe(source);
  });

  it('toPayload trims titles and writes rich text as HTML; fromDesign reads it back', () => {
    let d = draftOf();
    const text = d.pages[0]?.blocks[1] as Extract<ReturnType<typeof newBlock>, { type: 'text' }>;
    d = updateBlock(d, 'p1', { ...text, html: 'Hello\n\nWorld' });
    d = renamePage(d, 'p2', ' Two ');
    const payload = toPayload(d);
    expect(payload.title).toBe('Fire safety');
    expect(payload.pages[1]?.title).toBe('Two');
    expect(payload.pages[0]?.blocks[1]).toEqual({
      id: 'b',
      type: 'text',
      html: '<p>Hello</p>\n<p>World</p>',
    });
    const back = fromDesign(payload);
    expect(back.pages[0]?.blocks[1]).toMatchObject({ html: 'Hello\n\nWorld' });
    expect(isDirty(back, d)).toBe(false);
    expect(isDirty(renamePage(back, 'p1', 'Changed'), d)).toBe(true);
  });

  it('picks one block’s server errors by path', () => {
    const errors = { 'pages.1.blocks.2.url': ['Bad'], 'pages.1.blocks.20.url': ['Other'], title: ['T'] };
    expect(blockErrors(errors, 1, 2)).toEqual({ url: ['Bad'] });
  });

  it('wraps the selection for the formatting toolbar', () => {
    expect(wrapSelection('make it bold', 8, 12, '<strong>', '</strong>')).toEqual({
      value: 'make it <strong>bold</strong>',
      start: 16,
      end: 20,
    });
  });
});
