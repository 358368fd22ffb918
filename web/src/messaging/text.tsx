import { Fragment } from 'react';

/**
 * Message text is plain text (contracts messaging.ts): never HTML. Only http(s) addresses become links, so a
 * `javascript:` or `data:` address stays text; React escapes everything else.
 */
export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const URL_PATTERN = /https?:\/\/[^\s<>"'`]+/gi;
/** Punctuation that ends a sentence rather than an address ("see https://x.test/a."). */
const TRAILING = /[.,;:!?'"]+$/;

/** Drops a closing bracket the address did not open ("(see https://x.test/a)" keeps the link without ")"). */
function trimAddress(raw: string): string {
  let text = raw.replace(TRAILING, '');
  while (text.endsWith(')') && count(text, ')') > count(text, '('))
    text = text.slice(0, -1).replace(TRAILING, '');
  return text;
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

function safeHref(text: string): string | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The text cut into plain parts and link parts, in order; joining every part's text gives the input back. */
export function linkParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  const push = (chunk: string) => {
    if (!chunk) return;
    const previous = parts[parts.length - 1];
    if (previous?.kind === 'text') previous.text += chunk;
    else parts.push({ kind: 'text', text: chunk });
  };
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index ?? 0;
    const address = trimAddress(match[0]);
    const href = safeHref(address);
    push(text.slice(last, start));
    if (href) parts.push({ kind: 'link', text: address, href });
    else push(address);
    last = start + address.length;
  }
  push(text.slice(last));
  return parts;
}

/** A message's text: line breaks kept, long words wrapped, http(s) addresses clickable in a new tab. */
export function MessageText({ text, className }: { text: string; className?: string }) {
  return (
    <p className={`whitespace-pre-wrap break-words ${className ?? ''}`}>
      {linkParts(text).map((part, i) =>
        part.kind === 'link' ? (
          <a
            // biome-ignore lint/suspicious/noArrayIndexKey: parts are positional (the same address may repeat)
            key={i}
            href={part.href}
            target="_blank"
            rel="noopener noreferrer"
            className="focus-ring rounded font-medium text-primary-800 underline underline-offset-2"
          >
            {part.text}
          </a>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts are positional
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </p>
  );
}
