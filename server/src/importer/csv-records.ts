import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * The records of an import's CSV, read leniently (issue 28 item 6). A strict reader (csv-parse) stops the whole file
 * at a quote inside an unquoted cell, and a hand-typed `=HYPERLINK("https://…","Click")` is exactly that: the import
 * then failed with a 500 and stayed in "planning". Here a quote opens a quoted cell only as the cell's first
 * character (RFC 4180: `""` inside it is one quote); anywhere else, and after a closing quote, it is kept as text. So
 * every row comes through as cells, and a bad one is that row's error (plan.ts), never the file's.
 * Records end at \n, \r\n or \r outside quotes; cells are trimmed; a leading byte order mark is dropped.
 */
export class CsvReadError extends Error {}

export const MAX_RECORD_CHARS = 100_000;

export async function* csvRecords(body: Readable): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8');
  let cells: string[] = [];
  let cell = '';
  let quoted = false; // inside a quoted cell
  let opened = false; // this cell began with a quote (so a later quote is text)
  let size = 0;
  let pendingCr = false;
  let first = true;
  const endCell = () => {
    cells.push(cell.trim());
    cell = '';
    opened = false;
  };
  const endRecord = () => {
    endCell();
    const record = cells;
    cells = [];
    size = 0;
    return record;
  };
  // A quote seen at the end of a chunk inside a quoted cell: `""` (one quote) or the closing quote, decided by the
  // next character.
  let quoteAtEnd = false;
  const feed = function* (text: string): Generator<string[]> {
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (first) {
        first = false;
        if (c === '\ufeff') continue;
      }
      if (pendingCr) {
        pendingCr = false;
        if (c === '\n') continue;
      }
      if (quoteAtEnd) {
        quoteAtEnd = false;
        if (c === '"') {
          cell += '"';
          continue;
        }
        quoted = false;
      }
      if (++size > MAX_RECORD_CHARS)
        throw new CsvReadError('a row is longer than 100,000 characters (is a quote never closed?).');
      if (quoted) {
        if (c !== '"') {
          cell += c;
          continue;
        }
        const next = text[i + 1];
        if (next === undefined) {
          quoteAtEnd = true;
          continue;
        }
        if (next === '"') {
          cell += '"';
          i++;
        } else quoted = false;
        continue;
      }
      if (c === ',') endCell();
      else if (c === '\n' || c === '\r') {
        pendingCr = c === '\r';
        yield endRecord();
      } else if (c === '"' && !opened && cell.trim() === '') {
        quoted = true;
        opened = true;
        cell = '';
      } else cell += c;
    }
  };
  for await (const chunk of body as AsyncIterable<Buffer | string>) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    yield* feed(text);
  }
  yield* feed(decoder.end());
  if (quoteAtEnd) {
    quoteAtEnd = false;
    quoted = false;
  }
  if (quoted) throw new CsvReadError('a quoted cell is never closed.');
  if (cell !== '' || cells.length) yield endRecord();
}
