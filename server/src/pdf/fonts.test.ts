import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../test/pdf-text';
import { writePdf } from '../reports/writers';
import { fontFor, PDF_FONT, STANDARD_FONT } from './fonts';

describe('PDF fonts', () => {
  it('keeps Windows-1252 text in the standard font and the rest in the embedded one', () => {
    expect(fontFor('Zoë O’Brien – “Fire safety” €5 ©')).toBe(STANDARD_FONT.regular);
    expect(fontFor('Ann', 'bold')).toBe(STANDARD_FONT.bold);
    expect(fontFor('Łukasz Wiśniewski')).toBe(PDF_FONT.regular);
    expect(fontFor('Ștefan', 'bold')).toBe(PDF_FONT.bold);
    expect(fontFor('Пожарная безопасность')).toBe(PDF_FONT.regular);
  });

  it('writes a report whose names read back as they were given, in both fonts', async () => {
    const names = ['Łukasz Wiśniewski', 'Zoë O’Brien', 'Ștefan Nguyễn', 'Ann Learner'];
    const pdf = writePdf(
      {
        title: 'Staff – Ασφάλεια',
        subtitle: ['Organisation: Oakfield House'],
        author: 'test',
        tables: [{ columns: [{ header: 'Name', width: 30 }], rows: [names.map((n) => [n])] }],
      },
      { compress: true },
    );
    const text = await pdfText(await buffer(pdf));
    for (const n of names) expect(text).toContain(n);
    expect(text).toContain('Staff – Ασφάλεια');
  });
});
