import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { expect, it } from 'vitest';
import { writePdf } from './writers';

/**
 * Issue 32 §5 "landscape A4 pagination that repeats headers": a report table longer than a page runs onto more
 * landscape A4 pages, each starting with the column headers (the Care Certificate report's S1..S16 row among them).
 */
async function pages(stream: NodeJS.ReadableStream) {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  const doc = await getDocument({
    data: new Uint8Array(Buffer.concat(chunks)),
    isEvalSupported: false,
    verbosity: 0,
  }).promise;
  const out: { width: number; height: number; text: string }[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const [, , width, height] = page.view as [number, number, number, number];
    const text = (await page.getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
    out.push({ width, height, text: text.replace(/\s+/g, ' ') });
  }
  await doc.destroy();
  return out;
}

it('runs a long table onto landscape A4 pages, each with the header row again', async () => {
  const standards = Array.from({ length: 16 }, (_, i) => ({ header: `S${i + 1}`, width: 4 }));
  async function* rows() {
    yield Array.from({ length: 120 }, (_, i) => [
      `Person ${i + 1}`,
      ...standards.map(() => 'Awaiting approval'),
    ]);
  }
  const result = await pages(
    writePdf(
      {
        title: 'Care Certificate report',
        subtitle: ['120 people'],
        author: 'Test',
        tables: [{ columns: [{ header: 'Person', width: 12 }, ...standards], rows: rows(), lines: 2 }],
      },
      { compress: false },
    ),
  );
  expect(result.length).toBeGreaterThan(2);
  for (const [n, page] of result.entries()) {
    expect([Math.round(page.width), Math.round(page.height)], `page ${n + 1}`).toEqual([842, 595]);
    expect(page.text, `page ${n + 1}`).toContain(`Person ${standards.map((s) => s.header).join(' ')}`);
  }
  expect(result.map((p) => p.text).join(' ')).toContain('Person 120');
});
