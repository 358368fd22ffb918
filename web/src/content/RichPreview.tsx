import { createElement, type ReactNode } from 'react';

/**
 * A live preview of an author's HTML without ever injecting markup: the text is parsed into an inert document
 * (DOMParser runs no scripts) and walked into React elements, keeping only a small allowlist of tags and, on
 * links, only http(s) and mailto addresses. Anything else becomes its text. The server sanitises again on save.
 */
const ALLOWED = new Set([
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  'ul',
  'ol',
  'li',
  'h2',
  'h3',
  'h4',
  'blockquote',
  'a',
  'code',
  'pre',
  'hr',
]);

function walk(node: Node, key: string): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const el = node as Element;
  const tag = el.tagName.toLowerCase();
  const children = Array.from(el.childNodes).map((c, i) => walk(c, `${key}.${i}`));
  if (tag === 'script' || tag === 'style') return null;
  if (!ALLOWED.has(tag)) return <span key={key}>{children}</span>;
  if (tag === 'br' || tag === 'hr') return createElement(tag, { key });
  if (tag === 'a') {
    const href = el.getAttribute('href') ?? '';
    const safe = /^(https?:|mailto:)/i.test(href.trim());
    return safe ? (
      <a
        key={key}
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        className="text-primary-800 underline"
      >
        {children}
      </a>
    ) : (
      <span key={key}>{children}</span>
    );
  }
  return createElement(tag, { key }, ...children);
}

export function richTextNodes(html: string): ReactNode[] {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  return Array.from(doc.body.childNodes).map((n, i) => walk(n, String(i)));
}

export function RichPreview({ html, label }: { html: string; label: string }) {
  return (
    <section
      aria-label={label}
      className="cc-prose min-h-24 rounded-lg bg-slate-50 p-4 text-sm text-slate-800 ring-1 ring-slate-200 [&_a]:underline [&_h2]:text-lg [&_h2]:font-semibold [&_h3]:font-semibold [&_li]:ml-5 [&_ol]:list-decimal [&_p]:mb-2 [&_ul]:list-disc"
    >
      {html.trim() ? richTextNodes(html) : <p className="text-slate-500">Nothing to preview yet.</p>}
    </section>
  );
}
