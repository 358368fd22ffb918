import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The fonts of every PDF we make (certificates, reports, the matrix). PDF's built-in Helvetica only encodes
 * Windows-1252, so a care worker called Łukasz, Ștefan or Nguyễn came out as garbage on their own certificate.
 * DejaVu Sans Condensed (the `dejavu-fonts-ttf` package) covers Latin, Greek and Cyrillic at about Helvetica's width;
 * pdfkit embeds only the glyphs a document uses. Characters it lacks (CJK) show as an empty box, not as other
 * letters.
 */
export const PDF_FONT = { regular: 'Body', bold: 'Body-Bold' } as const;
export type FontWeight = keyof typeof PDF_FONT;

/** PDF's built-in fonts, for text we write ourselves (labels, numbers). */
export const STANDARD_FONT = { regular: 'Helvetica', bold: 'Helvetica-Bold' } as const;
/** Windows-1252, the encoding of PDF's standard fonts. */
const WIN_ANSI = /^[\x20-\x7e\xa0-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ\n\t]*$/;

/**
 * The font to draw `text` in, for long streamed documents (the matrix, report tables): Helvetica when Windows-1252
 * holds the text, else the embedded font. Embedded text goes through fontkit's layout, which costs ~100 times more
 * per string and is cached by pdfkit per word for the document's life; most names need neither.
 */
export function fontFor(text: string, weight: FontWeight = 'regular'): string {
  return WIN_ANSI.test(text) ? STANDARD_FONT[weight] : PDF_FONT[weight];
}

const require = createRequire(import.meta.url);
let files: { regular: Buffer; bold: Buffer } | null = null;

/** Read once per process (~1.3 MB); each document parses them again, as pdfkit does for a registered font. */
function fontFiles() {
  files ??= {
    regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf')),
    bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf')),
  };
  return files;
}

/** The subset of pdfkit's document that registering fonts needs. */
interface FontRegistry {
  registerFont(name: string, src: Buffer): unknown;
}

/** Registers PDF_FONT's names on a new document (pdfkit reads a font the first time it is selected). */
export function useUnicodeFonts<D extends FontRegistry>(doc: D): D {
  const { regular, bold } = fontFiles();
  doc.registerFont(PDF_FONT.regular, regular);
  doc.registerFont(PDF_FONT.bold, bold);
  return doc;
}
