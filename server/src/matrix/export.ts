import { PassThrough, type Readable } from 'node:stream';
import {
  CELL_STATUS_LABELS,
  cellCountsAsCompliant,
  dayNumberToIso,
  EXEMPT_CELL_COLOUR,
  MATRIX_STATUSES,
  type MatrixCourse,
  type MatrixStatus,
  type UsersWire,
} from '@cc/contracts';
import PDFDocument from 'pdfkit';
import { scoreOf } from '../compliance/rules';
import type { Ctx } from '../http/context';
import { fontFor, STANDARD_FONT, useUnicodeFonts } from '../pdf/fonts';
import { whitelabelOfEntity } from '../whitelabel/service';
import { NULL_INT, parseIntColumns } from './int-columns';
import { resultCourses } from './queries';
import { MatrixAggregator, type MatrixBlock, type MatrixPlan, matrixBlocks } from './service';
import { columnLetter, XlsxStreamWriter } from './xlsx-writer';

/**
 * Matrix exports, STREAMED so memory stays flat as the data grows: blocks come from the database one at a time and
 * each is written and dropped. XLSX: XlsxStreamWriter (sheet XML rows as strings into a zip stream). PDF:
 * pdfkit without page buffering (each page is flushed when the next begins), laid out as pages of
 * PDF_USERS_PER_PAGE users × PDF_COURSES_PER_PAGE courses (role and entity are in the XLSX).
 */

export const STATUS_LABELS = CELL_STATUS_LABELS;
/** Per wire status code: 1 when it counts towards the score (in date, expiring, exempt): one array read per cell. */
const COMPLIANT_CODE = Uint8Array.from(MATRIX_STATUSES, (s) => (cellCountsAsCompliant(s) ? 1 : 0));
const EXEMPT_CODE = MATRIX_STATUSES.indexOf('exempt');

interface Colours {
  ok: string;
  warning: string;
  danger: string;
}

async function coloursOf(ctx: Ctx, plan: MatrixPlan): Promise<Colours> {
  const entityId = plan.entities[0]?.id;
  const wl = entityId ? await whitelabelOfEntity(ctx, entityId).catch(() => null) : null;
  const w = (wl ?? {}) as Record<string, unknown>;
  const pick = (k: string, d: string) =>
    typeof w[k] === 'string' && /^#[0-9a-f]{6}$/i.test(w[k] as string) ? (w[k] as string) : d;
  return {
    ok: pick('trafficLightOk', '#48bb78'),
    warning: pick('trafficLightWarning', '#ffbf00'),
    danger: pick('trafficLightDanger', '#e53e3e'),
  };
}

const MISSING_COLOUR = '#d1d5db';
function colourOf(c: Colours, s: MatrixStatus): string {
  switch (s) {
    case 'in_date':
      return c.ok;
    case 'expiring':
      return c.warning;
    case 'expired':
      return c.danger;
    case 'exempt':
      return EXEMPT_CELL_COLOUR;
    case 'missing':
      return MISSING_COLOUR;
  }
}

/** Every column of an export is known before the first row: the required courses plus (type all) courses with results. */
async function exportCourses(ctx: Ctx, plan: MatrixPlan): Promise<MatrixCourse[]> {
  if (plan.filters.compliance_type !== 'all') return plan.courses;
  const extra = await resultCourses(ctx.db, plan);
  const byId = new Map(plan.courses.map((c) => [c.id, c]));
  for (const c of extra) byId.set(c.id, c);
  return [...byId.values()].sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
}

/**
 * One block as the exports write it: per user the name, role, entity and score; per (user, course column) the status
 * code and date in typed arrays (memory stays flat: a block is a few hundred KB outside the JS heap).
 */
interface ExportRows {
  count: number;
  names: string[];
  roles: string[];
  entities: string[];
  scores: number[];
  /** Course columns: row i, column c is at i × width + c. */
  width: number;
  /** Status code (MATRIX_STATUSES); -1: no cell. */
  status: Int8Array;
  /** Expiry day, else completed day (UTC day numbers); an exemption: its end day only; NULL_INT: none. */
  day: Int32Array;
}

function exportRowsOf(
  block: MatrixBlock,
  column: Map<number, number>,
  width: number,
  roleName: Map<number, string>,
  entityName: Map<number, string>,
): ExportRows {
  const [ids, names, entities, roles] = JSON.parse(block.users) as UsersWire;
  const [uids, cids, types, statuses, , completed, expires] = parseIntColumns(block.cells) as Int32Array[];
  const index = new Map(ids.map((id, i) => [id, i]));
  const status = new Int8Array(ids.length * width).fill(-1);
  const day = new Int32Array(ids.length * width).fill(NULL_INT);
  const passed = new Int32Array(ids.length);
  const required = new Int32Array(ids.length);
  const cellCount = uids?.length ?? 0;
  for (let k = 0; k < cellCount; k++) {
    const i = index.get(uids?.[k] as number);
    const col = column.get(cids?.[k] as number);
    if (i === undefined || col === undefined) continue;
    const code = statuses?.[k] as number;
    const expiry = expires?.[k] as number;
    status[i * width + col] = code;
    // An exemption without an end shows no date: its start is not an expiry (it read "In date <start>" before).
    day[i * width + col] = expiry !== NULL_INT || code === EXEMPT_CODE ? expiry : (completed?.[k] as number);
    if (types?.[k] !== 0) {
      required[i] = (required[i] as number) + 1;
      passed[i] = (passed[i] as number) + (COMPLIANT_CODE[code] ?? 0);
    }
  }
  return {
    count: ids.length,
    names: names.map((n) => n ?? ''),
    roles: roles.map((r) => (r ? (roleName.get(r) ?? '') : '')),
    entities: entities.map((e) => entityName.get(e) ?? ''),
    scores: ids.map((_, i) => scoreOf(passed[i] as number, required[i] as number)),
    width,
    status,
    day,
  };
}

/**
 * The export's blocks as ExportRows, in order. Each block's JSON text (a few MB) is parsed inside `nextRows` and let
 * go there, before the rows are drawn: it dies young instead of outliving the drawing in V8's old generation.
 */
async function* exportBlocks(
  ctx: Ctx,
  plan: MatrixPlan,
  courses: MatrixCourse[],
  signal?: AbortSignal,
): AsyncGenerator<ExportRows> {
  const column = new Map(courses.map((c, i) => [c.id, i]));
  const { roleName, entityName } = lookups(plan);
  const blocks = matrixBlocks(ctx, plan, new MatrixAggregator(plan), { signal, lean: true });
  const nextRows = async () => {
    const next = await blocks.next();
    return next.done ? null : exportRowsOf(next.value, column, courses.length, roleName, entityName);
  };
  for (let rows = await nextRows(); rows; rows = await nextRows()) yield rows;
}

const ukDate = (day: number) => {
  const iso = dayNumberToIso(day);
  return iso ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : '';
};

function lookups(plan: MatrixPlan) {
  return {
    roleName: new Map(plan.roles.map((r) => [r.id, r.name])),
    entityName: new Map(plan.entities.map((e) => [e.id, e.name])),
  };
}

/**
 * The matrix as an XLSX stream: a header row (User, Role, Entity, Score, courses…) and one row per user, written
 * as sheet XML by XlsxStreamWriter (exceljs costs ~6 µs a cell: 12 s for a 10,000 × 200 matrix).
 */
export async function matrixXlsx(ctx: Ctx, plan: MatrixPlan, signal?: AbortSignal): Promise<Readable> {
  const colours = await coloursOf(ctx, plan);
  const courses = await exportCourses(ctx, plan);
  // Colours by conditional formatting on the course range (one rule per status, matched on the cell's status word)
  // instead of a style per cell.
  const lastCol = columnLetter(4 + Math.max(1, courses.length) - 1);
  const xlsx = new XlsxStreamWriter({
    sheetName: 'Matrix',
    columns: [
      { header: 'User', width: 28 },
      { header: 'Role', width: 18 },
      { header: 'Entity', width: 22 },
      { header: 'Score', width: 8 },
      ...courses.map((c) => ({ header: c.title, width: 12 })),
    ],
    frozen: { xSplit: 1, ySplit: 1 },
    textFills: {
      ref: `E2:${lastCol}${Math.max(2, plan.total + 1)}`,
      fills: MATRIX_STATUSES.map((s) => ({
        text: STATUS_LABELS[s],
        argb: `FF${colourOf(colours, s).slice(1).toUpperCase()}`,
      })),
    },
  });
  // A 10,000 × 200 matrix has ~1.5M cells but only a few thousand distinct (status, date) labels.
  const labels = new Map<number, string>();
  const label = (status: number, day: number) => {
    const key = status * 4_000_000 + (day === NULL_INT ? 2_000_000 : day);
    let text = labels.get(key);
    if (text === undefined) {
      const s = MATRIX_STATUSES[status] ?? 'missing';
      // "Exempt 01/03/2027": an exemption that ends, with its end day; "Exempt": one that does not.
      text = day !== NULL_INT && s !== 'missing' ? `${STATUS_LABELS[s]} ${ukDate(day)}` : STATUS_LABELS[s];
      labels.set(key, text);
    }
    return text;
  };
  (async () => {
    const width = courses.length;
    for await (const rows of exportBlocks(ctx, plan, courses, signal)) {
      for (let i = 0; i < rows.count; i++) {
        const values: (string | number | null)[] = new Array(width + 4).fill(null);
        values[0] = rows.names[i] as string;
        values[1] = rows.roles[i] as string;
        values[2] = rows.entities[i] as string;
        values[3] = rows.scores[i] as number;
        for (let col = 0, at = i * width; col < width; col++, at++) {
          const code = rows.status[at] as number;
          if (code >= 0) values[col + 4] = label(code, rows.day[at] as number);
        }
        xlsx.addRow(values);
      }
      // Let the stream drain before the next block (backpressure: memory stays flat).
      await xlsx.drained();
    }
    xlsx.finish();
  })().catch((error) => xlsx.fail(error instanceof Error ? error : new Error(String(error))));
  return xlsx.output;
}

export const PDF_USERS_PER_PAGE = 60;
export const PDF_COURSES_PER_PAGE = 40;

/**
 * The matrix as a PDF stream: A3 landscape pages of 60 users × 40 courses, cells coloured by status (traffic lights,
 * with a legend; expired struck through, missing crossed, exempt ringed). Dates are in the XLSX: text per cell made the PDF of a
 * 10,000 × 200 matrix take over a minute.
 */
export async function matrixPdf(
  ctx: Ctx,
  plan: MatrixPlan,
  title: string,
  signal?: AbortSignal,
): Promise<Readable> {
  const colours = await coloursOf(ctx, plan);
  const courses = await exportCourses(ctx, plan);
  const doc = useUnicodeFonts(
    new PDFDocument({
      size: 'A3',
      layout: 'landscape',
      margin: 24,
      autoFirstPage: false,
      bufferPages: false,
    }),
  );
  const out = new PassThrough();
  doc.pipe(out);
  const pageW = 1190.55;
  const left = 24;
  const nameW = 160;
  const scoreW = 34;
  const cellW = (pageW - left * 2 - nameW - scoreW) / PDF_COURSES_PER_PAGE;
  const rowH = 11.5;
  const headerH = 90;
  const top = 60;
  const chunks: MatrixCourse[][] = [];
  for (let i = 0; i < Math.max(1, courses.length); i += PDF_COURSES_PER_PAGE)
    chunks.push(courses.slice(i, i + PDF_COURSES_PER_PAGE));
  let pageNo = 0;
  const page = (chunk: MatrixCourse[], chunkIndex: number) => {
    doc.addPage();
    pageNo++;
    doc
      .font(fontFor(title, 'bold'))
      .fontSize(12)
      .fillColor('#111827')
      .text(title, left, 24, { lineBreak: false });
    doc
      .font(STANDARD_FONT.regular)
      .fontSize(8)
      .fillColor('#4b5563')
      .text(
        `Page ${pageNo} · courses ${chunkIndex * PDF_COURSES_PER_PAGE + 1}-${chunkIndex * PDF_COURSES_PER_PAGE + chunk.length} of ${courses.length} · ` +
          `${STATUS_LABELS.in_date}: ${colours.ok} · ${STATUS_LABELS.expiring}: ${colours.warning} · ${STATUS_LABELS.expired} (struck): ${colours.danger} · ${STATUS_LABELS.missing} (crossed): grey · ${STATUS_LABELS.exempt} (ringed): blue`,
        left,
        40,
        { lineBreak: false },
      );
    doc.fontSize(7).fillColor('#111827');
    doc.text('User', left, top + headerH - 10, { lineBreak: false });
    doc.text('Score', left + nameW, top + headerH - 10, { lineBreak: false });
    chunk.forEach((c, i) => {
      const x = left + nameW + scoreW + i * cellW;
      doc.save();
      doc.rotate(-60, { origin: [x + 4, top + headerH - 2] });
      const courseTitle = c.title.slice(0, 38);
      doc.font(fontFor(courseTitle)).text(courseTitle, x + 4, top + headerH - 2, { lineBreak: false });
      doc.restore();
    });
  };
  (async () => {
    /** Rows waiting for their page: a page holds PDF_USERS_PER_PAGE users and may span two blocks. */
    let pending: { rows: ExportRows; i: number }[] = [];
    const flush = (pageRows: { rows: ExportRows; i: number }[]) => {
      chunks.forEach((chunk, chunkIndex) => {
        page(chunk, chunkIndex);
        const byStatus: number[][] = MATRIX_STATUSES.map(() => []);
        pageRows.forEach(({ rows, i }, ri) => {
          const y = top + headerH + ri * rowH;
          // One text run per row (text is what costs in pdfkit): name, then the score right-aligned.
          const name = (rows.names[i] as string).slice(0, 36);
          doc
            .fontSize(7)
            .fillColor('#111827')
            .font(fontFor(name))
            .text(name, left, y + 2, { lineBreak: false });
          doc
            .font(STANDARD_FONT.regular)
            .text(`${rows.scores[i]}%`, left + nameW, y + 2, { lineBreak: false });
          // The chunk is courses[chunkIndex × PDF_COURSES_PER_PAGE …], so its k-th course is that column of the rows.
          const first = i * rows.width + chunkIndex * PDF_COURSES_PER_PAGE;
          chunk.forEach((_, k) => {
            const code = rows.status[first + k] as number;
            if (code >= 0) byStatus[code]?.push(left + nameW + scoreW + k * cellW, y);
          });
        });
        // One path and one fill per status and page (a fill call per cell made the PDF take a minute).
        MATRIX_STATUSES.forEach((s, k) => {
          const xy = byStatus[k] as number[];
          if (!xy.length) return;
          for (let p = 0; p < xy.length; p += 2)
            doc.rect((xy[p] as number) + 1, (xy[p + 1] as number) + 1, cellW - 2, rowH - 2);
          doc.fill(colourOf(colours, s));
          // Not by colour alone: expired cells are struck through, missing ones crossed, exempt ones ringed (vector
          // marks: one path per status and page, like the fill).
          if (s === 'exempt') {
            for (let p = 0; p < xy.length; p += 2)
              doc.circle((xy[p] as number) + cellW / 2, (xy[p + 1] as number) + rowH / 2, rowH / 2 - 3);
            doc.lineWidth(0.8).stroke('#1e3a8a');
          }
          if (s === 'expired' || s === 'missing') {
            for (let p = 0; p < xy.length; p += 2) {
              const x = xy[p] as number;
              const y = xy[p + 1] as number;
              doc.moveTo(x + 4, y + rowH - 3).lineTo(x + cellW - 4, y + 3);
              if (s === 'missing') doc.moveTo(x + 4, y + 3).lineTo(x + cellW - 4, y + rowH - 3);
            }
            doc.lineWidth(0.6).stroke(s === 'expired' ? '#111827' : '#6b7280');
          }
        });
      });
    };
    for await (const rows of exportBlocks(ctx, plan, courses, signal)) {
      for (let i = 0; i < rows.count; i++) pending.push({ rows, i });
      while (pending.length >= PDF_USERS_PER_PAGE) {
        flush(pending.slice(0, PDF_USERS_PER_PAGE));
        pending = pending.slice(PDF_USERS_PER_PAGE);
        // pdfkit pushes without backpressure: wait while its unread output is large (memory stays flat).
        while (doc.readableLength > 1 << 20 && !signal?.aborted)
          await new Promise((resolve) => setTimeout(resolve, 2));
      }
    }
    if (pending.length || pageNo === 0) flush(pending);
    doc.end();
  })().catch((error) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
