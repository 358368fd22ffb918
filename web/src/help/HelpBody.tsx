import type { ReactNode } from 'react';

/**
 * An article body: plain text with a small markdown subset (contracts help.ts): blank-line paragraphs, `## ` headings,
 * `- ` and `1. ` lists, `**bold**` and `[text](https://…)` links. Everything becomes React text nodes and elements,
 * never HTML, so an author cannot inject markup; links open only http(s) addresses, in a new tab.
 */

type Block =
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] };

const BULLET = /^\s*[-*]\s+(.*)$/;
const NUMBERED = /^\s*\d+[.)]\s+(.*)$/;

export function parseBlocks(body: string): Block[] {
  const blocks: Block[] = [];
  for (const chunk of body.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = chunk.split('\n').filter((l) => l.trim() !== '');
    if (!lines.length) continue;
    const first = lines[0] ?? '';
    if (lines.length === 1 && /^#{1,6}\s+/.test(first)) {
      blocks.push({ kind: 'heading', text: first.replace(/^#{1,6}\s+/, '') });
      continue;
    }
    const ordered = lines.every((l) => NUMBERED.test(l));
    const bullets = lines.every((l) => BULLET.test(l));
    if (ordered || bullets) {
      const re = ordered ? NUMBERED : BULLET;
      const items = lines.map((l) => re.exec(l)?.[1] ?? l);
      const last = blocks[blocks.length - 1];
      // "1. a\n\n2. b": items split by blank lines still make one list.
      if (last?.kind === 'list' && last.ordered === ordered) last.items.push(...items);
      else blocks.push({ kind: 'list', ordered, items });
      continue;
    }
    blocks.push({ kind: 'paragraph', text: lines.join(' ') });
  }
  return blocks;
}

const INLINE = /\*\*([^*]+)\*\*|\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g;

export function renderInline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    if (m[1] !== undefined) out.push(<strong key={at}>{m[1]}</strong>);
    else
      out.push(
        <a
          key={at}
          href={m[3]}
          target="_blank"
          rel="noopener noreferrer"
          className="font-medium text-primary-800 underline"
        >
          {m[2]}
        </a>,
      );
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function HelpBody({ body }: { body: string }) {
  return (
    <div className="space-y-3 text-sm leading-relaxed text-slate-800">
      {parseBlocks(body).map((block, i) => {
        const key = `${block.kind}-${i}`;
        if (block.kind === 'heading')
          return (
            <h4 key={key} className="pt-1 text-sm font-semibold text-slate-900">
              {renderInline(block.text)}
            </h4>
          );
        if (block.kind === 'list') {
          const items = block.items.map((item, j) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: list items of a static text have no identity
            <li key={j}>{renderInline(item)}</li>
          ));
          return block.ordered ? (
            <ol key={key} className="list-decimal space-y-1 pl-5">
              {items}
            </ol>
          ) : (
            <ul key={key} className="list-disc space-y-1 pl-5">
              {items}
            </ul>
          );
        }
        return <p key={key}>{renderInline(block.text)}</p>;
      })}
    </div>
  );
}
