import { PassThrough, type Readable } from 'node:stream';
import {
  type CellsWire,
  dayNumberToIso,
  MATRIX_STATUSES,
  type MatrixCourse,
  type MatrixStatus,
  type UsersWire,
} from '@cc/contracts';
import PDFDocument from 'pdfkit';
import { scoreOf } from '../compliance/rules';
import type { Ctx } from '../http/context';
import { whitelabelOfEntity } from '../whitelabel/service';
import { resultCourses } from './queries';
import { MatrixAggregator, type MatrixBlock, type MatrixPlan, matrixBlocks } from './service';
import { columnLetter, XlsxStreamWriter } from './xlsx-writer';

/**
 * Matrix exports, STREAMED so memory stays flat as the data grows: blocks come from the database one at a time and
 * each is written and dropped. XLSX: XlsxStreamWriter (sheet XML rows as strings into a zip stream). PDF:
 * pdfkit without page buffering (each page is flushed when the next begins), laid out as pages of
 * PDF_USERS_PER_PAGE users × PDF_COURSES_PER_PAGE courses (role and entity are in the XLSX).
 */

export const STATUS_LABELS: Record<MatrixStatus, string> = {
  in_date: 'In date',
  expiring: 'Expiring',
  expired: 'Expired',
  missing: 'Missing',
};

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

const colourOf = (c: Colours, s: MatrixStatus) =>
  s === 'in_date' ? c.ok : s === 'expiring' ? c.warning : s === 'expired' ? c.danger : '#d1d5db';

/** Every column of an export is known before the first row: the required courses plus (type all) courses with results. */
async function exportCourses(ctx: Ctx, plan: MatrixPlan): Promise<MatrixCourse[]> {
  if (plan.filters.compliance_type !== 'all') return plan.courses;
  const extra = await resultCourses(ctx.db, plan);
  const byId = new Map(plan.courses.map((c) => [c.id, c]));
  for (const c of extra) byId.set(c.id, c);
  return [...byId.values()].sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
}

interface Row {
  name: string;
  role: string;
  entity: string;
  score: number;
  /** course column index → [status code, expiry day or completed day] */
  cells: Map<number, [number, number | null]>;
}

/** The rows of one block: one per user, cells keyed by the course's column index. */
function rowsOf(
  block: MatrixBlock,
  plan: MatrixPlan,
  column: Map<number, number>,
  roleName: Map<number, string>,
  entityName: Map<number, string>,
): Row[] {
  const [ids, names, entities, roles] = JSON.parse(block.users) as UsersWire;
  const [uids, cids, types, statuses, , completed, expires] = JSON.parse(block.cells) as CellsWire;
  const index = new Map<number, number>();
  const rows: Row[] = ids.map((id, i) => {
    index.set(id, i);
    return {
      name: names[i] ?? '',
      role: roles[i] ? (roleName.get(roles[i] as number) ?? '') : '',
      entity: entityName.get(entities[i] as number) ?? '',
      score: 0,
      cells: new Map(),
    };
  });
  const tally = ids.map(() => [0, 0]);
  for (let k = 0; k < uids.length; k++) {
    const i = index.get(uids[k] as number);
    const col = column.get(cids[k] as number);
    if (i === undefined || col === undefined) continue;
    const status = statuses[k] as number;
    rows[i]?.cells.set(col, [status, expires[k] ?? completed[k] ?? null]);
    if (types[k] !== 0) {
      const t = tally[i] as number[];
      t[1] = (t[1] ?? 0) + 1;
      if (status <= 1) t[0] = (t[0] ?? 0) + 1;
    }
  }
  rows.forEach((r, i) => {
    const t = tally[i] as number[];
    r.score = scoreOf(t[0] ?? 0, t[1] ?? 0);
  });
  void plan;
  return rows;
}

const ukDate = (day: number | null) => {
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
  const column = new Map(courses.map((c, i) => [c.id, i]));
  const { roleName, entityName } = lookups(plan);
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
  const label = (status: number, day: number | null) => {
    const key = status * 4_000_000 + (day ?? 2_000_000);
    let text = labels.get(key);
    if (text === undefined) {
      const s = MATRIX_STATUSES[status] ?? 'missing';
      text = day !== null && s !== 'missing' ? `${STATUS_LABELS[s]} ${ukDate(day)}` : STATUS_LABELS[s];
      labels.set(key, text);
    }
    return text;
  };
  (async () => {
    const aggregator = new MatrixAggregator(plan);
    const width = 4 + courses.length;
    for await (const block of matrixBlocks(ctx, plan, aggregator, { signal, lean: true })) {
      for (const r of rowsOf(block, plan, column, roleName, entityName)) {
        const values: (string | number | null)[] = new Array(width).fill(null);
        values[0] = r.name;
        values[1] = r.role;
        values[2] = r.entity;
        values[3] = r.score;
        for (const [col, [status, day]] of r.cells) values[col + 4] = label(status, day);
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
 * with a legend; expired struck through, missing crossed). Dates are in the XLSX: text per cell made the PDF of a
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
  const column = new Map(courses.map((c, i) => [c.id, i]));
  const { roleName, entityName } = lookups(plan);
  const doc = new PDFDocument({
    size: 'A3',
    layout: 'landscape',
    margin: 24,
    autoFirstPage: false,
    bufferPages: false,
  });
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
    doc.font('Helvetica-Bold').fontSize(12).fillColor('#111827').text(title, left, 24, { lineBreak: false });
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor('#4b5563')
      .text(
        `Page ${pageNo} · courses ${chunkIndex * PDF_COURSES_PER_PAGE + 1}-${chunkIndex * PDF_COURSES_PER_PAGE + chunk.length} of ${courses.length} · ` +
          `${STATUS_LABELS.in_date}: ${colours.ok} · ${STATUS_LABELS.expiring}: ${colours.warning} · ${STATUS_LABELS.expired} (struck): ${colours.danger} · ${STATUS_LABELS.missing} (crossed): grey`,
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
      doc.text(c.title.slice(0, 38), x + 4, top + headerH - 2, { lineBreak: false });
      doc.restore();
    });
  };
  (async () => {
    const aggregator = new MatrixAggregator(plan);
    let pending: Row[] = [];
    const flush = (rows: Row[]) => {
      chunks.forEach((chunk, chunkIndex) => {
        page(chunk, chunkIndex);
        const byStatus: number[][] = MATRIX_STATUSES.map(() => []);
        rows.forEach((r, ri) => {
          const y = top + headerH + ri * rowH;
          // One text run per row (text is what costs in pdfkit): name, then the score right-aligned.
          doc
            .fontSize(7)
            .fillColor('#111827')
            .text(r.name.slice(0, 36), left, y + 2, { lineBreak: false });
          doc.text(`${r.score}%`, left + nameW, y + 2, { lineBreak: false });
          chunk.forEach((c, i) => {
            const cell = r.cells.get(column.get(c.id) as number);
            if (cell) byStatus[cell[0]]?.push(left + nameW + scoreW + i * cellW, y);
          });
        });
        // One path and one fill per status and page (a fill call per cell made the PDF take a minute).
        MATRIX_STATUSES.forEach((s, k) => {
          const xy = byStatus[k] as number[];
          if (!xy.length) return;
          for (let p = 0; p < xy.length; p += 2)
            doc.rect((xy[p] as number) + 1, (xy[p + 1] as number) + 1, cellW - 2, rowH - 2);
          doc.fill(colourOf(colours, s));
          // Not by colour alone: expired cells are struck through, missing ones crossed (vector marks).
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
    for await (const block of matrixBlocks(ctx, plan, aggregator, { signal, lean: true })) {
      pending.push(...rowsOf(block, plan, column, roleName, entityName));
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
