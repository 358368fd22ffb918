import { PassThrough, type Readable } from 'node:stream';
import yazl from 'yazl';
import { spreadsheetText } from '../reports/spreadsheet-text';

/**
 * A minimal streaming XLSX writer for big sheets (the matrix export: 10,000 rows × 200 columns). exceljs builds a
 * Row and a Cell object per value (~6 µs a cell, seconds for a matrix); this writes the sheet XML rows as strings
 * straight into a zip entry stream (yazl), with the same workbook features the export uses: one sheet, inline
 * strings and numbers, a bold header row, column widths, frozen panes and conditional fills (containsText rules).
 * The output opens in Excel, LibreOffice and exceljs (the route test reads it back with exceljs).
 *
 * Memory stays flat: rows go through a PassThrough with backpressure (addRow returns false when the caller should
 * await drained()), and the zip is an output stream.
 */

export interface XlsxColumn {
  header: string;
  width: number;
}

export interface XlsxTextFill {
  /** A cell containing this text (case-insensitive) is filled with `argb` ('FFRRGGBB'). */
  text: string;
  argb: string;
}

/** A cell style (style id 2 + its index): a solid fill and/or the date number format. */
export interface XlsxCellStyle {
  argb?: string;
  date?: boolean;
}

/** A styled cell value; a date is an Excel serial day (excelDay) with a `date` style. */
export interface XlsxStyled {
  v: string | number;
  s: number;
}
export type XlsxValue = string | number | null | undefined | XlsxStyled;

export interface XlsxSheetOptions {
  sheetName: string;
  columns: XlsxColumn[];
  /** Frozen columns and rows (top-left). */
  frozen?: { xSplit: number; ySplit: number };
  /** Conditional fills over a range ('E2:GV10001'). */
  textFills?: { ref: string; fills: XlsxTextFill[] };
  /** Cell styles, ids 2, 3, … in addRow's styled values. */
  cellStyles?: XlsxCellStyle[];
  /** The number format of `date` styles, e.g. 'dd/mm/yyyy' (excelDateFormat). */
  dateFormatCode?: string;
  /** Rows of text above the column headers (a title block: the first bold), e.g. what the export covers. */
  titleRows?: string[][];
  /** Small sheets after the first (a legend): rows of text, the first bold. */
  extraSheets?: { name: string; rows: string[][]; widths?: number[] }[];
}

/** The Excel serial of a UTC day number (days since 1970-01-01): Excel counts from 1899-12-30. */
export const excelDay = (dayNumber: number) => dayNumber + 25569;

/** The Excel number format of one of the product's date formats ('DD/MM/YYYY' → 'dd/mm/yyyy'). */
export const excelDateFormat = (format: string) => format.toLowerCase();

/** 0 → 'A', 25 → 'Z', 26 → 'AA'. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const m = (n - 1) % 26;
    s = String.fromCharCode(65 + m) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

// XML 1.0 forbids most control characters; drop them, escape the markup ones.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it removes.
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const NEEDS_ESCAPE = /[&<>"]/;
export function xmlEscape(text: string): string {
  const clean = text.replace(INVALID_XML, '');
  if (!NEEDS_ESCAPE.test(clean)) return clean;
  return clean.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function contentTypes(sheets: number) {
  return `${HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>
${Array.from({ length: sheets }, (_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('\n')}
<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>
</Types>`;
}

const rootRels =
  () => `${HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/>
</Relationships>`;

// Sheet i (0-based) is worksheets/sheet{i+1}.xml with relationship rId{i+1}; the styles come after them.
const workbook = (names: string[]) => `${HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}">
<sheets>${names.map((name, i) => `<sheet name="${xmlEscape(name.slice(0, 31))}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets>
</workbook>`;

const workbookRels = (
  sheets: number,
) => `${HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
${Array.from({ length: sheets }, (_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('\n')}
<Relationship Id="rId${sheets + 1}" Type="${REL}/styles" Target="styles.xml"/>
</Relationships>`;

/**
 * Style 0 normal, 1 bold, then one xf per cell style (a fill of its own, the date format 164); one differential
 * format (dxf) per text fill.
 */
const styles = (fills: XlsxTextFill[], cellStyles: XlsxCellStyle[], dateFormatCode: string) => {
  const solid = cellStyles.map((c) => c.argb).filter((a): a is string => Boolean(a));
  const fillId = (argb?: string) => (argb ? 2 + solid.indexOf(argb) : 0);
  const xfs = cellStyles.map(
    (c) =>
      `<xf numFmtId="${c.date ? 164 : 0}" fontId="0" fillId="${fillId(c.argb)}" borderId="0" xfId="0"${c.date ? ' applyNumberFormat="1"' : ''}${c.argb ? ' applyFill="1"' : ''}/>`,
  );
  return `${HEAD}<styleSheet xmlns="${MAIN}">
<numFmts count="1"><numFmt numFmtId="164" formatCode="${xmlEscape(dateFormatCode)}"/></numFmts>
<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>
<fills count="${2 + solid.length}"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>${solid
    .map(
      (a) =>
        `<fill><patternFill patternType="solid"><fgColor rgb="${a}"/><bgColor indexed="64"/></patternFill></fill>`,
    )
    .join('')}</fills>
<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>
<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>
<cellXfs count="${2 + xfs.length}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>${xfs.join('')}</cellXfs>
<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>
<dxfs count="${fills.length}">${fills
    .map(
      (f) =>
        `<dxf><fill><patternFill patternType="solid"><bgColor rgb="${f.argb}"/></patternFill></fill></dxf>`,
    )
    .join('')}</dxfs>
</styleSheet>`;
};

/** A small sheet of text rows (the first bold), written at once. */
function smallSheet(rows: string[][], widths: number[] = []): string {
  const cols = widths.length
    ? `<cols>${widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join('')}</cols>`
    : '';
  const body = rows
    .map(
      (row, r) =>
        `<row r="${r + 1}">${row
          .map(
            (v, i) =>
              `<c r="${columnLetter(i)}${r + 1}"${r === 0 ? ' s="1"' : ''} t="inlineStr"><is><t>${xmlEscape(spreadsheetText(v))}</t></is></c>`,
          )
          .join('')}</row>`,
    )
    .join('');
  return `${HEAD}<worksheet xmlns="${MAIN}" xmlns:r="${REL}">${cols}<sheetData>${body}</sheetData></worksheet>`;
}

export class XlsxStreamWriter {
  readonly output: Readable;
  private zip = new yazl.ZipFile();
  private sheet = new PassThrough();
  private rowNumber = 0;
  private letters: string[];

  constructor(private o: XlsxSheetOptions) {
    this.output = this.zip.outputStream as Readable;
    const fills = o.textFills?.fills ?? [];
    const extra = o.extraSheets ?? [];
    const sheets = 1 + extra.length;
    this.zip.addBuffer(Buffer.from(contentTypes(sheets)), '[Content_Types].xml');
    this.zip.addBuffer(Buffer.from(rootRels()), '_rels/.rels');
    this.zip.addBuffer(Buffer.from(workbook([o.sheetName, ...extra.map((x) => x.name)])), 'xl/workbook.xml');
    this.zip.addBuffer(Buffer.from(workbookRels(sheets)), 'xl/_rels/workbook.xml.rels');
    this.zip.addBuffer(
      Buffer.from(styles(fills, o.cellStyles ?? [], o.dateFormatCode ?? 'dd/mm/yyyy')),
      'xl/styles.xml',
    );
    extra.forEach((x, i) => {
      this.zip.addBuffer(Buffer.from(smallSheet(x.rows, x.widths)), `xl/worksheets/sheet${i + 2}.xml`);
    });
    // Level 1 deflate: the sheet XML is very repetitive, so it still shrinks ~10×, at a fraction of the time.
    this.zip.addReadStream(this.sheet, 'xl/worksheets/sheet1.xml', { compress: true, compressionLevel: 1 });
    this.zip.end();
    this.letters = o.columns.map((_, i) => columnLetter(i));
    const pane = o.frozen
      ? `<pane xSplit="${o.frozen.xSplit}" ySplit="${o.frozen.ySplit}" topLeftCell="${columnLetter(o.frozen.xSplit)}${o.frozen.ySplit + 1}" activePane="bottomRight" state="frozen"/>`
      : '';
    const cols = o.columns
      .map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`)
      .join('');
    this.sheet.write(
      `${HEAD}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetViews><sheetView workbookViewId="0">${pane}</sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>`,
    );
    (o.titleRows ?? []).forEach((row, i) => {
      this.addRow(row, i === 0);
    });
    this.addRow(
      o.columns.map((c) => c.header),
      true,
    );
  }

  /** Appends a row (null: an empty cell). False when the caller should await drained() before the next rows. */
  addRow(values: readonly XlsxValue[], bold = false): boolean {
    const r = ++this.rowNumber;
    const rowStyle = bold ? ' s="1"' : '';
    let xml = `<row r="${r}">`;
    for (let i = 0; i < values.length; i++) {
      let v = values[i];
      if (v === null || v === undefined || v === '') continue;
      let s = rowStyle;
      if (typeof v === 'object') {
        s = ` s="${v.s}"`;
        v = v.v;
      }
      const ref = `${this.letters[i] ?? columnLetter(i)}${r}`;
      xml +=
        typeof v === 'number'
          ? `<c r="${ref}"${s}><v>${v}</v></c>`
          : `<c r="${ref}"${s} t="inlineStr"><is><t>${xmlEscape(spreadsheetText(v))}</t></is></c>`;
    }
    return this.sheet.write(`${xml}</row>`);
  }

  /** Resolves when the sheet stream can take more rows. */
  drained(): Promise<void> {
    if (!this.sheet.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => this.sheet.once('drain', () => resolve()));
  }

  /** Closes the sheet (conditional formats after the data, as the schema orders them) and the zip. */
  finish() {
    const tf = this.o.textFills;
    let tail = '</sheetData>';
    if (tf?.fills.length) {
      const first = tf.ref.split(':')[0] as string;
      tail += `<conditionalFormatting sqref="${tf.ref}">${tf.fills
        .map((f, i) => {
          const text = xmlEscape(f.text);
          return `<cfRule type="containsText" dxfId="${i}" priority="${i + 1}" operator="containsText" text="${text}"><formula>NOT(ISERROR(SEARCH("${text.replace(/&quot;/g, '&quot;&quot;')}",${first})))</formula></cfRule>`;
        })
        .join('')}</conditionalFormatting>`;
    }
    this.sheet.end(`${tail}</worksheet>`);
  }

  /** Ends the output with an error (the caller's data source failed). */
  fail(error: Error) {
    this.sheet.destroy(error);
    (this.output as PassThrough).destroy(error);
  }
}
