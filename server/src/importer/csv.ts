import type { Readable } from 'node:stream';
import type { IMPORT_COLUMNS, ImportKind } from '@cc/contracts';
import { csvRecords } from './csv-records';

/**
 * Reading an import's CSV: a streaming, lenient parse (csv-records.ts), headers mapped to our column names through an alias table,
 * dates in ISO (2024-03-31) or UK (31/03/2024) form.
 *
 * The training aliases accept the national workforce data set's bulk upload training file (ASC-WDS, Skills for
 * Care): LOCALESTID, UNIQUEWORKERID, CATEGORY, DESCRIPTION, DATECOMPLETED, EXPIRYDATE, ACCREDITED, NOTES, dates as
 * DD/MM/YYYY and ACCREDITED as 0 (no), 1 (yes) or 999 (don't know). Source: the ASC-WDS service's own validator of
 * that file, github.com/NMDSdevopsServiceAdm/SopraSteria-SFC, server/models/BulkImport/csv/trainingCSVValidator.js.
 * UNIQUEWORKERID is the person's id in the workplace's records, our employee number; DESCRIPTION is the training's
 * title, matched to a course; CATEGORY (an ASC-WDS category code) and LOCALESTID (the workplace) are not needed.
 * The service's current file names the title TRAININGNAME (read as the course too) and adds WHODELIVERED,
 * PROVIDERNAME, HOWDELIVERED and VALIDITY (codes, not read): lambdas/bulkUpload/classes/trainingCSVValidator.js and
 * backend/server/routes/establishments/bulkUpload/data/trainingHeaders.js in the same repository. A file with a
 * LOCALESTID column is checked against that format's own rules too (plan.ts trainingRowErrors); the ASC-WDS export
 * writes this file (reports/asc-wds-export.ts, contracts asc-wds.ts).
 */
export type Column = (typeof IMPORT_COLUMNS)[ImportKind][number] | 'accredited' | 'category' | 'workplace';

/** Headers are compared lower-case with everything but letters and digits removed ("Employee No." = "employeeno"). */
export const normaliseHeader = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');

const ALIASES: Record<ImportKind, Partial<Record<Column, string[]>>> = {
  users: {
    name: ['name', 'fullname', 'personname', 'username'],
    email: ['email', 'emailaddress'],
    employee_number: [
      'employeenumber',
      'employeeno',
      'employeeid',
      'staffnumber',
      'payrollnumber',
      'uniqueworkerid',
      'workerid',
    ],
    organisation: ['organisation', 'organization', 'home', 'site', 'location'],
    job_role: ['jobrole', 'role'],
    user_type: ['usertype', 'type'],
    start_date: ['startdate', 'started', 'dateofstart'],
  },
  training: {
    email: ['email', 'emailaddress'],
    employee_number: [
      'employeenumber',
      'employeeno',
      'employeeid',
      'staffnumber',
      'payrollnumber',
      'uniqueworkerid',
      'workerid',
    ],
    course: ['course', 'coursetitle', 'coursename', 'training', 'trainingname', 'description'],
    completed_date: ['completeddate', 'datecompleted', 'completed', 'completedon', 'completiondate'],
    expiry_date: ['expirydate', 'expiry', 'expires', 'expireson', 'dateexpires'],
    certificate_number: ['certificatenumber', 'certificateno', 'certificate', 'certificateid'],
    provider: ['provider', 'trainingprovider'],
    notes: ['notes', 'note', 'comments'],
    accredited: ['accredited'],
    category: ['category', 'trainingcategory'],
    workplace: ['localestid', 'workplace'],
  },
};

/** The column each header stands for (null: not one we read; its values are kept for the error report only). */
export function mapHeaders(kind: ImportKind, headers: string[]): (Column | null)[] {
  const lookup = new Map<string, Column>();
  for (const [column, names] of Object.entries(ALIASES[kind]) as [Column, string[]][])
    for (const n of names) lookup.set(n, column);
  const seen = new Set<Column>();
  return headers.map((h) => {
    const column = lookup.get(normaliseHeader(h)) ?? null;
    if (!column || seen.has(column)) return null;
    seen.add(column);
    return column;
  });
}

/** The header problems that stop a whole file (a 422 on `file`), or [] when it can be planned. */
export function headerErrors(kind: ImportKind, columns: (Column | null)[]): string[] {
  const has = (c: Column) => columns.includes(c);
  const errors: string[] = [];
  if (!has('email') && !has('employee_number'))
    errors.push('The file needs an "email" or an "employee_number" column to find each person.');
  if (kind === 'training') {
    if (!has('course')) errors.push('The file needs a "course" column (the course title).');
    if (!has('completed_date')) errors.push('The file needs a "completed_date" column.');
  }
  return errors;
}

export interface CsvRow {
  /** The row's line in a spreadsheet: the header is row 1. */
  rowNumber: number;
  /** Our columns, trimmed; a blank cell is absent. */
  fields: Partial<Record<Column, string>>;
  /** Every cell under its own header, as the file had it (for the errors CSV). */
  values: Record<string, string>;
  /** The first of our columns whose cell reads as a spreadsheet formula (FORMULA): the row is refused, not stored. */
  formula: Column | null;
}

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @ first: OWASP "CSV injection"). Such a cell is not a
 * name, address, number or date; stored, it would run on the next export of the people or records.
 */
export const FORMULA = /^[=+\-@]/;
export const formulaMessage = (cell: string) =>
  `"${cell.length > 40 ? `${cell.slice(0, 40)}…` : cell}" is a spreadsheet formula, not a value: enter the value itself.`;

/**
 * Streams the CSV's rows in chunks of `chunkSize`, so a 50 MB file is never in memory at once; `onHeader` sees the
 * mapped header first and may throw to stop.
 */
export async function* csvChunks(
  kind: ImportKind,
  body: Readable,
  chunkSize: number,
  onHeader: (headers: string[], columns: (Column | null)[]) => void,
): AsyncGenerator<CsvRow[]> {
  let headers: string[] | null = null;
  let columns: (Column | null)[] = [];
  let chunk: CsvRow[] = [];
  let rowNumber = 1;
  for await (const record of csvRecords(body)) {
    // An empty line is no row (as csv-parse's skip_empty_lines had it); a row of empty cells is counted.
    if (record.length === 1 && record[0] === '') continue;
    if (!headers) {
      headers = record.map((h) => h.trim());
      columns = mapHeaders(kind, headers);
      onHeader(headers, columns);
      continue;
    }
    rowNumber += 1;
    if (record.every((cell) => cell === '')) continue;
    const fields: CsvRow['fields'] = {};
    const values: Record<string, string> = {};
    let formula: Column | null = null;
    headers.forEach((h, i) => {
      const cell = record[i] ?? '';
      values[h || `column ${i + 1}`] = cell;
      const column = columns[i];
      if (column && cell !== '') fields[column] = cell;
      if (column && !formula && FORMULA.test(cell)) formula = column;
    });
    chunk.push({ rowNumber, fields, values, formula });
    if (chunk.length >= chunkSize) {
      yield chunk;
      chunk = [];
    }
  }
  if (!headers) onHeader([], []);
  if (chunk.length) yield chunk;
}

/** 'YYYY-MM-DD' from ISO or UK day-first dates; null when it is not a real date. */
export function parseDate(raw: string): string | null {
  let y: number;
  let m: number;
  let d: number;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(raw);
  const uk = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(raw);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (uk) [d, m, y] = [Number(uk[1]), Number(uk[2]), Number(uk[3])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  if (y < 1900 || y > 2200) return null;
  return date.toISOString().slice(0, 10);
}

/** The ASC-WDS ACCREDITED codes in words. */
export function accreditedWords(raw: string): string | null {
  const v = raw.trim().toLowerCase();
  if (v === '1' || v === 'yes' || v === 'y' || v === 'true') return 'Yes';
  if (v === '0' || v === '2' || v === 'no' || v === 'n' || v === 'false') return 'No';
  if (v === '999' || v === "don't know" || v === 'dont know') return "Don't know";
  return null;
}

/** One CSV line (RFC 4180 quoting; formula-looking cells are prefixed so a spreadsheet does not run them). */
export function csvLine(cells: (string | number | null | undefined)[]): string {
  return cells
    .map((c) => {
      let s = c === null || c === undefined ? '' : String(c);
      if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
      return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    })
    .join(',');
}
