import { createRequire } from 'node:module';
import type sanitizeHtml from 'sanitize-html';

/**
 * Author rich text is sanitised on write (issue 4 item 5), so every reader (web, GraphQL, certificates, exports)
 * gets the same safe HTML. Allowed: headings, paragraphs, lists, links (http, https, mailto; opened with
 * rel="noopener noreferrer"), images (https, or our own /api/files/...), tables, emphasis, quotes and code.
 * Never: script, style, event handlers (on*), inline styles, forms, object/embed, iframes. Video is embedded
 * through H5P items (topics.h5p_id), not through author HTML, so no iframe allow-list is needed.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'a',
    'img',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'small',
    'mark',
    'span',
    'div',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
    'colgroup',
    'col',
    // The content designer's accordion blocks (issue 17): native disclosure, no script needed to open them.
    'details',
    'summary',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    ol: ['start'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, rel: 'noopener noreferrer', ...(attribs.target ? { target: '_blank' } : {}) },
    }),
    img: (tagName, attribs) => {
      const src = attribs.src ?? '';
      // Relative sources are only allowed for our own file route; everything else must be https (checked by schemes).
      const ours = /^\/api\/files\/[0-9a-f-]{36}$/i.test(src);
      const absolute = /^https:\/\//i.test(src);
      const { src: _src, ...rest } = attribs;
      return { tagName, attribs: ours || absolute ? attribs : rest };
    },
  },
};

let sanitize: typeof sanitizeHtml | null = null;

export function sanitizeRichText(html: string): string {
  // Required on first use: sanitize-html and its parsers are only needed when an author saves rich text.
  sanitize ??= createRequire(import.meta.url)('sanitize-html') as typeof sanitizeHtml;
  return sanitize(html, OPTIONS);
}

/** Same rules for optional fields (aims, outcomes): null stays null. */
export function sanitizeOptional(html: string | null | undefined): string | null | undefined {
  return html === null || html === undefined ? html : sanitizeRichText(html);
}
