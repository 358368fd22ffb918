import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * The text of a PDF, page by page, as a reader would copy it (Mozilla's pdf.js reads embedded fonts through their
 * ToUnicode maps). Items of one line are joined as they are, lines end with a newline.
 */
export async function pdfText(pdf: Buffer | Uint8Array): Promise<string> {
  return (await pdfPages(pdf)).join('\n');
}

/** The text of each page of a PDF (as pdfText, one string per page). */
export async function pdfPages(pdf: Buffer | Uint8Array): Promise<string[]> {
  const doc = await getDocument({
    data: new Uint8Array(pdf),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  const pages: string[] = [];
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      pages.push(
        content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''),
      );
    }
  } finally {
    await doc.destroy();
  }
  return pages;
}
