import { PassThrough, type Readable } from 'node:stream';
import { type DateFormat, DEFAULT_DATE_FORMAT, formatDate, formatDateTime } from '@cc/contracts';
import PDFDocument from 'pdfkit';
import { type FontWeight, fontFor, STANDARD_FONT, useUnicodeFonts } from '../pdf/fonts';
import { spreadsheetCell, spreadsheetText } from './spreadsheet-text';

/**
 * Streaming writers of report files (core brief: XLSX = exceljs WorkbookWriter, PDF = pdfkit). Rows arrive as an
 * async iterable of batches, and each batch is written (committed) before the next is read, so memory stays flat
 * however long the report is. Both return the stream at once; the caller pipes it to the response or an e-mail.
 */

export type Cell = string | number | null;
export interface Column {
  header: string;
  /** XLSX column width in characters; PDF width is proportional to it. */
  width: number;
}
export interface Sheet {
  name: string;
  /** Lines above the column headers (the first bold): what the sheet covers, which filters, when made. */
  title?: string[];
  columns: Column[];
  rows: AsyncIterable<Cell[][]> | Iterable<Cell[][]>;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function writeXlsx(sheets: Sheet[], meta: { creator: string }): Readable {
  const out = new PassThrough();
  (async () => {
    // Loaded on first use: exceljs adds ~13 MB to every server process that never writes a report.
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useStyles: true,
      useSharedStrings: false,
    });
    wb.creator = meta.creator;
    for (const sheet of sheets) {
      const title = sheet.title ?? [];
      const ws = wb.addWorksheet(sheet.name.slice(0, 31), {
        views: [{ state: 'frozen', ySplit: title.length + 1 }],
      });
      if (title.length) {
        // The title lines first, then the column headers as a bold row of their own.
        ws.columns = sheet.columns.map((c, i) => ({ key: `c${i}`, width: c.width }));
        title.forEach((line, i) => {
          const row = ws.addRow([spreadsheetText(line)]);
          if (i === 0) row.font = { bold: true };
          row.commit();
        });
        const header = ws.addRow(sheet.columns.map((c) => spreadsheetText(c.header)));
        header.font = { bold: true };
        header.commit();
      } else {
        ws.columns = sheet.columns.map((c, i) => ({
          header: spreadsheetText(c.header),
          key: `c${i}`,
          width: c.width,
        }));
        ws.getRow(1).font = { bold: true };
        ws.getRow(1).commit();
      }
      // Text cells that could read as formulas are quoted (spreadsheet-text.ts).
      for await (const batch of sheet.rows)
        for (const row of batch) ws.addRow(row.map(spreadsheetCell)).commit();
      ws.commit();
    }
    await wb.commit();
  })().catch((err) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}

export interface PdfTable {
  heading?: string;
  columns: Column[];
  rows: AsyncIterable<Cell[][]> | Iterable<Cell[][]>;
  /** Fill colour of a row (e.g. a score band), by row. */
  rowColour?: (row: Cell[]) => string | null;
  /** Text size of the header and cells (8 unless given). */
  fontSize?: number;
  /** Lines a cell may wrap to before its ellipsis (1 unless given): narrow columns of words stay whole. */
  lines?: number;
  /** Space between a cell's edge and its text, in points (3 unless given). */
  padding?: number;
}

/** A landscape A4 document of a title, facts lines and tables, drawn as rows arrive (pdfkit flushes pages). */
export function writePdf(
  doc: { title: string; subtitle: string[]; tables: PdfTable[]; author: string },
  opts: { compress?: boolean } = {},
): Readable {
  const pdf = useUnicodeFonts(
    new PDFDocument({
      size: 'A4',
      layout: 'landscape',
      margin: 36,
      compress: opts.compress ?? true,
      bufferPages: false,
      info: { Title: doc.title, Author: doc.author },
    }),
  );
  const left = 36;
  const usable = pdf.page.width - 72;
  const bottom = () => pdf.page.height - 48;
  /** A table's line metrics: one line of 8 pt is the 16 pt row every report had; more lines grow the row. */
  const metrics = (table: PdfTable) => {
    const fontSize = table.fontSize ?? 8;
    const lines = table.lines ?? 1;
    const pad = table.padding ?? 3;
    const lineHeight = fontSize * 1.2;
    return {
      fontSize,
      lines,
      pad,
      rowHeight: lines === 1 ? 2 * fontSize : Math.ceil(lines * lineHeight + 6),
    };
  };
  type Metrics = ReturnType<typeof metrics>;

  /** One row of a table at pdf.y: each text wrapped to its column's lines, then cut with an ellipsis. */
  const drawCells = (texts: string[], widths: number[], y: number, weight: FontWeight, m: Metrics) => {
    let x = left;
    texts.forEach((text, i) => {
      pdf
        .font(fontFor(text, weight))
        .fontSize(m.fontSize)
        .text(text, x + m.pad, y + 2, {
          width: widths[i] - 2 * m.pad,
          height: m.lines === 1 ? m.rowHeight : m.rowHeight - 3,
          ellipsis: true,
          lineBreak: m.lines > 1,
        });
      x += widths[i];
    });
    pdf.y = y + m.rowHeight;
  };
  /** The header row: one line (headers are short), repeated at the top of every page the table runs onto. */
  const drawHeader = (columns: Column[], widths: number[], table: Metrics) => {
    const m = { ...table, lines: 1, rowHeight: 2 * table.fontSize };
    const y = pdf.y;
    pdf.rect(left, y - 2, usable, m.rowHeight).fill('#e5e7eb');
    pdf.fillColor('#111827');
    drawCells(
      columns.map((c) => c.header),
      widths,
      y,
      'bold',
      m,
    );
  };

  (async () => {
    pdf.fillColor('#111827').font(fontFor(doc.title, 'bold')).fontSize(16).text(doc.title, left, 36);
    pdf.fontSize(9).fillColor('#374151');
    for (const line of doc.subtitle) pdf.font(fontFor(line)).text(line);
    pdf.moveDown(0.5);
    for (const table of doc.tables) {
      const total = table.columns.reduce((s, c) => s + c.width, 0);
      const widths = table.columns.map((c) => (c.width / total) * usable);
      const m = metrics(table);
      if (pdf.y > bottom() - 3 * m.rowHeight) pdf.addPage();
      if (table.heading) {
        pdf.moveDown(0.5);
        pdf.fillColor('#111827').font(fontFor(table.heading, 'bold')).fontSize(11).text(table.heading, left);
        pdf.moveDown(0.2);
      }
      drawHeader(table.columns, widths, m);
      let n = 0;
      for await (const batch of table.rows) {
        for (const row of batch) {
          if (pdf.y + m.rowHeight > bottom()) {
            pdf.addPage();
            pdf.y = 36;
            drawHeader(table.columns, widths, m);
          }
          const y = pdf.y;
          const fill = table.rowColour?.(row) ?? (n % 2 === 1 ? '#f9fafb' : null);
          if (fill) pdf.rect(left, y - 2, usable, m.rowHeight).fill(fill);
          pdf.fillColor('#111827');
          drawCells(
            row.map((cell) => (cell === null ? '' : String(cell))),
            widths,
            y,
            'regular',
            m,
          );
          n += 1;
        }
        // Let pdfkit hand finished pages to the stream between batches.
        await new Promise((r) => setImmediate(r));
      }
      if (n === 0)
        pdf
          .fillColor('#6b7280')
          .font(STANDARD_FONT.regular)
          .text('Nothing to show.', left + 3, pdf.y + 2);
      pdf.x = left;
      pdf.moveDown(1);
    }
    pdf.end();
  })().catch((err) => pdf.destroy(err instanceof Error ? err : new Error(String(err))));
  return pdf as unknown as Readable;
}

/**
 * A date in the organisation's format (one date format on pages, PDFs and XLSX: packages/contracts dates.ts;
 * whitelabel/service.ts dateFormatOf gives an entity's), or '' for none.
 */
export function dmy(d: Date | string | null | undefined, format: DateFormat = DEFAULT_DATE_FORMAT): string {
  return formatDate(d, format);
}

/** A date and time (24-hour, UK time) in the organisation's format, or '' for none. */
export function dmyTime(
  d: Date | string | null | undefined,
  format: DateFormat = DEFAULT_DATE_FORMAT,
): string {
  return formatDateTime(d, format);
}
