import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CsvReadError, csvRecords } from './csv-records';

/** Reads `parts` as chunks of one stream (so a quote or a CRLF may fall on a boundary). */
async function read(...parts: (string | Buffer)[]) {
  const out: string[][] = [];
  for await (const r of csvRecords(
    Readable.from(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))),
  ))
    out.push(r);
  return out;
}

describe('csvRecords', () => {
  it('reads RFC 4180: quoted cells with commas, "" and line breaks; CRLF, CR and LF; a BOM; trimmed cells', async () => {
    expect(await read('\ufeffname, email\r\n"Carter, Amy","say ""hi""\nthere"\rB,b@x\n')).toEqual([
      ['name', 'email'],
      ['Carter, Amy', 'say "hi"\nthere'],
      ['B', 'b@x'],
    ]);
  });

  it('is the same whichever byte a chunk ends on', async () => {
    const text = 'a,"b ""q"" c"\r\n"d\ne",£f\n';
    const whole = await read(text);
    const bytes = Buffer.from(text);
    for (let i = 1; i < bytes.length; i++)
      expect(await read(bytes.subarray(0, i), bytes.subarray(i))).toEqual(whole);
  });

  it('keeps a quote inside an unquoted cell, and after a closing quote, as text: the row reads, the file goes on', async () => {
    expect(await read('=HYPERLINK("http://x.test/a","Click me"),e@x\nnext,row\n')).toEqual([
      ['=HYPERLINK("http://x.test/a"', 'Click me)', 'e@x'],
      ['next', 'row'],
    ]);
  });

  it('a quote never closed is the file’s error', async () => {
    await expect(read('a,"b\nc\n')).rejects.toBeInstanceOf(CsvReadError);
  });
});
