import { PassThrough, type Readable } from 'node:stream';
import {
  CELL_STATUS_LABELS,
  cellCountsAsCompliant,
  courseStatusText,
  type DateFormat,
  DEFAULT_MATRIX_VIEW,
  dayNumberToIso,
  describeMatrixView,
  EXEMPT_CELL_COLOUR,
  formatDate,
  formatDateTime,
  MATRIX_BLOCK_USERS,
  MATRIX_STATUSES,
  type MatrixCourse,
  type MatrixStatus,
  type MatrixView,
  matrixViewFilters,
  matrixViewMatches,
  matrixViewRows,
  type UsersWire,
} from '@cc/contracts';
import PDFDocument from 'pdfkit';
import { scoreOf } from '../compliance/rules';
import type { Ctx } from '../http/context';
import { fontFor, STANDARD_FONT, useUnicodeFonts } from '../pdf/fonts';
import { literal, PageText, type RunStyle } from '../pdf/page-text';
import { whitelabelOfEntity } from '../whitelabel/service';
import { NULL_INT, parseIntColumns } from './int-columns';
import { matrixBlock, matrixUserNames, resultCourses } from './queries';
import {
  blocksAhead,
  MatrixAggregator,
  type MatrixBlock,
  type MatrixPlan,
  matrixBlocks,
  readAhead,
} from './service';
import { excelDateFormat, excelDay, XlsxStreamWriter, type XlsxValue } from './xlsx-writer';

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
const MISSING_CODE = MATRIX_STATUSES.indexOf('missing');
const EXPIRED_CODE = MATRIX_STATUSES.indexOf('expired');

interface Colours {
  ok: string;
  warning: string;
  danger: string;
  /** The white-label word for a home (the "Home" column). */
  entityAltName: string;
  /** The white-label words for the compliance types (Mandatory, Required). */
  primary: string;
  secondary: string;
}

async function coloursOf(ctx: Ctx, plan: MatrixPlan): Promise<Colours> {
  const entityId = plan.entities[0]?.id;
  const wl = entityId ? await whitelabelOfEntity(ctx, entityId).catch(() => null) : null;
  const w = (wl ?? {}) as Record<string, unknown>;
  const pick = (k: string, d: string) =>
    typeof w[k] === 'string' && /^#[0-9a-f]{6}$/i.test(w[k] as string) ? (w[k] as string) : d;
  const word = (k: string, d: string) =>
    typeof w[k] === 'string' && (w[k] as string).trim() ? (w[k] as string).trim() : d;
  return {
    ok: pick('trafficLightOk', '#48bb78'),
    warning: pick('trafficLightWarning', '#ffbf00'),
    danger: pick('trafficLightDanger', '#e53e3e'),
    entityAltName: word('entityAltName', 'Home'),
    primary: word('primaryComplianceAltName', 'Mandatory'),
    secondary: word('secondaryComplianceAltName', 'Required'),
  };
}

/** The filters, search and sort behind the export, in the organisation's words (describeMatrixView). */
function filterLine(plan: MatrixPlan, courses: MatrixCourse[], view: MatrixView, colours: Colours): string {
  const { filters } = plan;
  const named = <T extends { id: number }>(list: T[], ids: number[]) => {
    const set = new Set(ids);
    return list.filter((x) => set.has(x.id));
  };
  return describeMatrixView(filters, view, colours, {
    entityNames: named(plan.entities, filters.entities).map((e) => e.name),
    roleNames: named(plan.roles, filters.roles).map((r) => r.name),
    courseTitles: named(courses, filters.courses).map((c) => c.title),
    pathways: filters.pathways.length,
    people: filters.users.length,
  }).join(' · ');
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
  /** The people's ids, in the block's order (user id). */
  ids: number[];
  names: string[];
  roles: string[];
  entities: string[];
  scores: number[];
  /** Course columns: row i, column c is at i × width + c. */
  width: number;
  /** Status code (MATRIX_STATUSES); -1: no cell. */
  status: Int8Array;
  /** Expiry day (UTC day number); an exemption: its end day; NULL_INT: none (never expires, or not done). */
  day: Int32Array;
  /** A never-done cell due by a date still ahead (issue 33 §4): that day ("Due by <date>"); NULL_INT: not due. */
  due: Int32Array;
  /** Per user: one bit per status (1 << wire code) of their REQUIRED cells, for the view's "Show" filter. */
  bits: Uint8Array;
}

function exportRowsOf(
  block: Pick<MatrixBlock, 'users' | 'cells'>,
  column: Map<number, number>,
  width: number,
  roleName: Map<number, string>,
  entityName: Map<number, string>,
): ExportRows {
  const [ids, names, entities, roles] = JSON.parse(block.users) as UsersWire;
  const [uids, cids, types, statuses, , , expires, , dueUsers, dueCourses, dueDays, dueLeftOut] =
    parseIntColumns(block.cells) as Int32Array[];
  const index = new Map(ids.map((id, i) => [id, i]));
  const status = new Int8Array(ids.length * width).fill(-1);
  const day = new Int32Array(ids.length * width).fill(NULL_INT);
  const due = new Int32Array(ids.length * width).fill(NULL_INT);
  // The due cells first (a few, or none): their day, and those left out of the score (a new requirement's grace).
  const leftOut = new Set<number>();
  for (let k = 0; k < (dueUsers?.length ?? 0); k++) {
    const i = index.get(dueUsers?.[k] as number);
    const col = column.get(dueCourses?.[k] as number);
    if (i === undefined || col === undefined) continue;
    due[i * width + col] = dueDays?.[k] as number;
    if (dueLeftOut?.[k] === 1) leftOut.add(i * width + col);
  }
  const passed = new Int32Array(ids.length);
  const required = new Int32Array(ids.length);
  const bits = new Uint8Array(ids.length);
  const cellCount = uids?.length ?? 0;
  for (let k = 0; k < cellCount; k++) {
    const i = index.get(uids?.[k] as number);
    const col = column.get(cids?.[k] as number);
    if (i === undefined || col === undefined) continue;
    const code = statuses?.[k] as number;
    const expiry = expires?.[k] as number;
    status[i * width + col] = code;
    // Only an expiry is shown: a completion day read as one ("In date <completed>"), an exemption's start too.
    day[i * width + col] = expiry;
    // Left out: neither counted nor a gap of the "Show" filter, as the compliance figures leave it out.
    if (types?.[k] !== 0 && !(leftOut.size && leftOut.has(i * width + col))) {
      required[i] = (required[i] as number) + 1;
      passed[i] = (passed[i] as number) + (COMPLIANT_CODE[code] ?? 0);
      bits[i] = (bits[i] as number) | (1 << code);
    }
  }
  return {
    count: ids.length,
    ids,
    names: names.map((n) => n ?? ''),
    roles: roles.map((r) => (r ? (roleName.get(r) ?? '') : '')),
    entities: entities.map((e) => entityName.get(e) ?? ''),
    scores: ids.map((_, i) => scoreOf(passed[i] as number, required[i] as number)),
    width,
    status,
    day,
    due,
    bits,
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

/** One row of an export: a user (i) of a block. */
interface ExportRow {
  rows: ExportRows;
  i: number;
}

/** What the view function (contracts matrixViewRows / matrixViewMatches) reads of one block's row i. */
const blockSource = (rows: ExportRows) => ({
  count: rows.count,
  name: (i: number) => rows.names[i] as string,
  statusBits: (i: number) => rows.bits[i] as number,
  score: (i: number) => rows.scores[i] as number,
});

/** A block cut down to the rows `keep` (ascending): the rest of its people are let go with the original. */
function keepRows(rows: ExportRows, keep: Int32Array): ExportRows {
  const w = rows.width;
  const status = new Int8Array(keep.length * w);
  const day = new Int32Array(keep.length * w);
  const due = new Int32Array(keep.length * w);
  keep.forEach((i, k) => {
    status.set(rows.status.subarray(i * w, i * w + w), k * w);
    day.set(rows.day.subarray(i * w, i * w + w), k * w);
    due.set(rows.due.subarray(i * w, i * w + w), k * w);
  });
  const pick = <T>(a: ArrayLike<T>) => Array.from(keep, (i) => a[i] as T);
  return {
    count: keep.length,
    ids: pick(rows.ids),
    names: pick(rows.names),
    roles: pick(rows.roles),
    entities: pick(rows.entities),
    scores: pick(rows.scores),
    width: w,
    status,
    day,
    due,
    bits: Uint8Array.from(keep, (i) => rows.bits[i] as number),
  };
}

/** The rows an export writes, in the view's order, and how many they are (the title says it before the first row). */
interface ViewedRows {
  count: number;
  rows: AsyncIterable<ExportRow>;
}

/**
 * The rows the export writes, in order, with the matrix page's own view functions (contracts matrix-view.ts), so the
 * file holds exactly the people the screen lists, in its order (issue 33 §5). A view whose order and people follow
 * from the names alone (sorted by name, no "Show" filter: the default) is streamed (nameOrderedRows); the others
 * need every person's cells first (sortedRows).
 */
async function viewedRows(
  ctx: Ctx,
  plan: MatrixPlan,
  courses: MatrixCourse[],
  view: MatrixView,
  signal?: AbortSignal,
): Promise<ViewedRows> {
  const byNameOnly = view.status === 'all' && (view.sort === 'name' || view.sort === 'name_desc');
  return byNameOnly
    ? nameOrderedRows(ctx, plan, courses, view, signal)
    : sortedRows(ctx, plan, courses, view, signal);
}

/**
 * The view's order from the people's names (one small query), then their cells in blocks of that order, so each
 * block is written while the database reads the next ones (issue 36 §2: the file no longer waits for the whole
 * matrix to be read, and only the blocks in flight are in memory). The order is matrixViewRows' own, over the
 * people in user id order, as sortedRows gives it.
 */
async function nameOrderedRows(
  ctx: Ctx,
  plan: MatrixPlan,
  courses: MatrixCourse[],
  view: MatrixView,
  signal?: AbortSignal,
): Promise<ViewedRows> {
  const people = await matrixUserNames(ctx.db, plan);
  const order = matrixViewRows(
    {
      count: people.length,
      name: (k) => people[k]?.name ?? '',
      statusBits: () => 0,
      score: () => 0,
    },
    view,
  );
  const ids = Array.from(order, (k) => people[k]?.id as number);
  const column = new Map(courses.map((c, i) => [c.id, i]));
  const { roleName, entityName } = lookups(plan);
  const chunks: number[][] = [];
  for (let k = 0; k < ids.length; k += MATRIX_BLOCK_USERS) chunks.push(ids.slice(k, k + MATRIX_BLOCK_USERS));
  const readChunk = (chunk: number[]) =>
    matrixBlock(ctx.db, { ...plan, filters: { ...plan.filters, users: chunk } }, 0, chunk.length, null, {
      lean: true,
    });
  async function* rows(): AsyncGenerator<ExportRow> {
    const blocks = readAhead(
      chunks.length,
      (c) => readChunk(chunks[c] as number[]),
      blocksAhead(ctx.engine),
      signal,
    );
    let c = 0;
    for await (const block of blocks) {
      const read = exportRowsOf(block, column, courses.length, roleName, entityName);
      const at = new Map(read.ids.map((id, i) => [id, i]));
      // A person removed since the names were read is left out.
      for (const id of chunks[c++] as number[]) {
        const i = at.get(id);
        if (i !== undefined) yield { rows: read, i };
      }
    }
  }
  return { count: ids.length, rows: rows() };
}

/**
 * Every block first, then the view's order. Blocks come from the database one at a time (user id order); as each is
 * read, the view's search and "Show" filter (matrixViewMatches) drop the people the screen does not list, so only
 * the kept rows stay (compact typed arrays, 5 bytes a cell): a file filtered to 11 people holds 11 rows in memory
 * whatever the scope. The sort needs every kept row, then matrixViewRows orders them (it filters again, the same
 * way: nothing more drops).
 */
async function sortedRows(
  ctx: Ctx,
  plan: MatrixPlan,
  courses: MatrixCourse[],
  view: MatrixView,
  signal?: AbortSignal,
): Promise<ViewedRows> {
  const kept: ExportRow[] = [];
  const narrowing = matrixViewFilters(view);
  for await (const block of exportBlocks(ctx, plan, courses, signal)) {
    let rows = block;
    if (narrowing) {
      const keep = matrixViewMatches(blockSource(block), view);
      if (!keep.length) continue;
      if (keep.length < block.count) rows = keepRows(block, keep);
    }
    for (let i = 0; i < rows.count; i++) kept.push({ rows, i });
  }
  const order = matrixViewRows(
    {
      count: kept.length,
      name: (k) => (kept[k] as ExportRow).rows.names[(kept[k] as ExportRow).i] as string,
      statusBits: (k) => (kept[k] as ExportRow).rows.bits[(kept[k] as ExportRow).i] as number,
      score: (k) => (kept[k] as ExportRow).rows.scores[(kept[k] as ExportRow).i] as number,
    },
    view,
  );
  const shown = Array.from(order, (k) => kept[k] as ExportRow);
  return {
    count: shown.length,
    rows: (async function* () {
      yield* shown;
    })(),
  };
}

function lookups(plan: MatrixPlan) {
  return {
    roleName: new Map(plan.roles.map((r) => [r.id, r.name])),
    entityName: new Map(plan.entities.map((e) => [e.id, e.name])),
  };
}

/**
 * The matrix as an XLSX stream: a title block (title and scope, the filters, search and sort that made it, when),
 * a header row (User, Role, Home, Score, courses…) and one row per user the view shows, in its order, written as
 * sheet XML by XlsxStreamWriter (exceljs costs ~6 µs a cell: 12 s for a 10,000 × 200 matrix). A cell with an expiry is
 * a real date (the one date format) filled with its status colour; the others say No expiry, Missing or Exempt (with
 * its end date). A second sheet, Legend, says what the colours mean, for which scope and when it was made.
 */
export async function matrixXlsx(
  ctx: Ctx,
  plan: MatrixPlan,
  options: MatrixPdfOptions,
  signal?: AbortSignal,
): Promise<Readable> {
  const colours = await coloursOf(ctx, plan);
  const courses = await exportCourses(ctx, plan);
  const view = options.view ?? DEFAULT_MATRIX_VIEW;
  const shown = await viewedRows(ctx, plan, courses, view, signal);
  const filters = filterLine(plan, courses, view, colours);
  const generated = formatDateTime(options.generatedAt, options.dateFormat);
  // The title block above the table: what the file covers and which filters, search and sort made it (issue 33 §5).
  const titleRows = [
    [`${options.title} · ${options.scopeName}`],
    [`Filters: ${filters}`],
    [`Generated ${generated} · ${peopleCount(shown.count)}`],
  ];
  const argb = (s: MatrixStatus) => `FF${colourOf(colours, s).slice(1).toUpperCase()}`;
  // Styles 2 + code: a date on the status fill; 2 + statuses + code: text on the status fill.
  const dateStyle = (code: number) => 2 + code;
  const textStyle = (code: number) => 2 + MATRIX_STATUSES.length + code;
  const xlsx = new XlsxStreamWriter({
    sheetName: 'Matrix',
    columns: [
      { header: 'User', width: 28 },
      { header: 'Role', width: 18 },
      { header: colours.entityAltName, width: 22 },
      { header: 'Score', width: 8 },
      ...courses.map((c) => ({ header: c.title, width: 12 })),
    ],
    titleRows,
    frozen: { xSplit: 1, ySplit: titleRows.length + 1 },
    cellStyles: [
      ...MATRIX_STATUSES.map((s) => ({ argb: argb(s), date: true })),
      ...MATRIX_STATUSES.map((s) => ({ argb: argb(s) })),
    ],
    dateFormatCode: excelDateFormat(options.dateFormat),
    extraSheets: [
      {
        name: 'Legend',
        widths: [18, 70],
        rows: [
          ['Colour', 'Meaning'],
          ...PDF_LEGEND.map((l) => {
            const [name, meaning] = l.text.split(': ');
            return [name ?? '', meaning ?? ''];
          }),
          [],
          ['Covers', options.scopeName],
          ['Filters', filters],
          ['Generated', generated],
          [
            'Fills',
            "In date green, Expiring soon amber, Expired red, Missing grey, Exempt blue (the organisation's colours).",
          ],
        ],
      },
    ],
  });
  const exemptTo = new Map<number, string>();
  (async () => {
    const width = courses.length;
    let written = 0;
    for await (const { rows, i } of shown.rows) {
      const values: XlsxValue[] = new Array(width + 4).fill(null);
      values[0] = rows.names[i] as string;
      values[1] = rows.roles[i] as string;
      values[2] = rows.entities[i] as string;
      values[3] = rows.scores[i] as number;
      for (let col = 0, at = i * width; col < width; col++, at++) {
        const code = rows.status[at] as number;
        if (code < 0) continue;
        const day = rows.day[at] as number;
        if (code === EXEMPT_CODE) {
          let t = exemptTo.get(day);
          if (t === undefined) {
            t =
              day === NULL_INT
                ? STATUS_LABELS.exempt
                : `${STATUS_LABELS.exempt} to ${formatDate(dayNumberToIso(day), options.dateFormat)}`;
            exemptTo.set(day, t);
          }
          values[col + 4] = { v: t, s: textStyle(code) };
        } else if (code === MISSING_CODE) {
          const due = rows.due[at] as number;
          values[col + 4] = {
            v: due === NULL_INT ? STATUS_LABELS.missing : dueText(due, options.dateFormat),
            s: textStyle(code),
          };
        } else if (day === NULL_INT) values[col + 4] = { v: 'No expiry', s: textStyle(code) };
        else values[col + 4] = { v: excelDay(day), s: dateStyle(code) };
      }
      // Let the stream drain now and then (backpressure: the sheet XML does not pile up in memory).
      if (!xlsx.addRow(values) || ++written % 500 === 0) await xlsx.drained();
      if (signal?.aborted) break;
    }
    xlsx.finish();
  })().catch((error) => xlsx.fail(error instanceof Error ? error : new Error(String(error))));
  return xlsx.output;
}

/**
 * A due cell's words, the one status's own (contracts courseStatusText): "Due by 29/12/2026". Its fill is the
 * missing grey: not done, but not out of date.
 */
const dueText = (day: number, format: MatrixPdfOptions['dateFormat']) =>
  courseStatusText({ status: 'due', date: dayNumberToIso(day), attempted: false }, format);

const peopleCount = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`;

/** How a matrix PDF is titled: the scope's real name, when it was made, and the one date format. */
export interface MatrixPdfOptions {
  /** The page's search, "Show" filter and sort (issue 33 §5); absent: everyone, by name. */
  view?: MatrixView;
  /** "Compliance matrix" (or the inspection pack's heading). */
  title: string;
  /** The home or organisation the matrix covers. */
  scopeName: string;
  generatedAt: Date;
  dateFormat: DateFormat;
}

// A3 landscape, in points.
const PAGE_W = 1190.55;
const PAGE_H = 841.89;
const MARGIN = 24;
const ROW_H = 12;
const HEADER_H = 118;
const TABLE_TOP = 84;
const FOOTER_H = 22;
/** Fixed columns: name, role, home, score. */
const FIXED = { name: 132, role: 96, home: 96, score: 30 };
const FIXED_W = FIXED.name + FIXED.role + FIXED.home + FIXED.score;
/** A course column is at least wide enough for a date at CELL_FONT_SIZE, at most MAX_CELL_W. */
const MIN_CELL_W = 38;
const MAX_CELL_W = 96;
const CELL_FONT_SIZE = 6.5;
const TEXT_SIZE = 7;
export const PDF_USERS_PER_PAGE = Math.floor((PAGE_H - MARGIN - FOOTER_H - TABLE_TOP - HEADER_H) / ROW_H);
export const PDF_COURSES_PER_PAGE = Math.floor((PAGE_W - MARGIN * 2 - FIXED_W) / MIN_CELL_W);

/** The legend in words (the PDF's and the inspection pack's): status, its mark, what the cell says. */
export const PDF_LEGEND: { status: MatrixStatus | 'blank'; text: string }[] = [
  { status: 'in_date', text: `${STATUS_LABELS.in_date}: the date it expires` },
  { status: 'expiring', text: 'Expiring soon: in date, expires within the warning period' },
  { status: 'expired', text: `${STATUS_LABELS.expired} (dark bar): the date it expired` },
  { status: 'missing', text: `${STATUS_LABELS.missing}: required, not done` },
  { status: 'missing', text: 'Due by (date): not done yet' },
  { status: 'exempt', text: `${STATUS_LABELS.exempt}: excused, counts as compliant` },
  { status: 'blank', text: 'Blank: not required for the role' },
];

/** Black or white, whichever reads better on the fill. */
function inkOn(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const ch = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * ch((n >> 16) & 255) + 0.7152 * ch((n >> 8) & 255) + 0.0722 * ch(n & 255);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#111827' : '#ffffff';
}

/**
 * The matrix as a PDF stream an inspector can read: A3 landscape; every page has the scope's name, the generation
 * date and time, the legend in words, the column headers (name, role, home, score, course names at an angle) and
 * "Page n of m". Course columns are sized to fit the page (between MIN_CELL_W and MAX_CELL_W; a matrix wider than
 * one page continues on the next pages, courses split evenly, users repeated). Each cell has its fill and its words:
 * the expiry date in the one date format, "No expiry", Missing or Exempt; expired cells also carry a dark bar.
 * Memory stays flat (pages are flushed as they are made); text goes through PageText (one text object per page).
 */
export async function matrixPdf(
  ctx: Ctx,
  plan: MatrixPlan,
  options: MatrixPdfOptions,
  signal?: AbortSignal,
): Promise<Readable> {
  const colours = await coloursOf(ctx, plan);
  const courses = await exportCourses(ctx, plan);
  const view = options.view ?? DEFAULT_MATRIX_VIEW;
  const shown = await viewedRows(ctx, plan, courses, view, signal);
  const filters = `Filters: ${filterLine(plan, courses, view, colours)}`;
  const doc = useUnicodeFonts(
    new PDFDocument({
      size: 'A3',
      layout: 'landscape',
      margin: MARGIN,
      autoFirstPage: false,
      bufferPages: false,
      info: { Title: `${options.title} · ${options.scopeName}`, CreationDate: options.generatedAt },
    }),
  );
  const out = new PassThrough();
  doc.pipe(out);
  const text = new PageText(doc);
  const REGULAR = STANDARD_FONT.regular;
  const BOLD = STANDARD_FONT.bold;
  /** Standard-font text through PageText; other text (a name in Polish or Vietnamese) with doc.text. */
  const put = (
    value: string,
    x: number,
    y: number,
    size: number,
    font: string = REGULAR,
    colour = '#111827',
  ) => {
    if (text.add(value, x, y, { font, size, colour })) return;
    const bold = font === BOLD ? 'bold' : 'regular';
    doc
      .font(fontFor(value, bold))
      .fontSize(size)
      .fillColor(colour)
      .text(value, x, y, { lineBreak: false, width: undefined });
  };
  /** Fits standard-font text to a width; other text is cut by characters (its width is not measured). */
  const fitText = (value: string, size: number, width: number, font: string = REGULAR) =>
    PageText.encodable(value)
      ? text.fitWidth(value, font, size, width)
      : value.length > width / (size * 0.5)
        ? `${value.slice(0, Math.floor(width / (size * 0.5)) - 1)}…`
        : value;

  // Course columns: split evenly over as few page-widths as hold them at MIN_CELL_W.
  const chunkCount = Math.max(1, Math.ceil(courses.length / PDF_COURSES_PER_PAGE));
  const perChunk = Math.max(1, Math.ceil(courses.length / chunkCount));
  const chunks: MatrixCourse[][] = [];
  for (let i = 0; i < Math.max(1, courses.length); i += perChunk) chunks.push(courses.slice(i, i + perChunk));
  const available = PAGE_W - MARGIN * 2 - FIXED_W;
  const cellW = Math.min(MAX_CELL_W, available / perChunk);
  const rowPages = Math.max(1, Math.ceil(shown.count / PDF_USERS_PER_PAGE));
  const totalPages = rowPages * chunks.length;
  const generated = formatDateTime(options.generatedAt, options.dateFormat);
  const homeHeader = colours.entityAltName;
  // The course headers of each chunk, fitted once.
  const headerText = chunks.map((chunk) =>
    chunk.map((c) => fitText(c.title, TEXT_SIZE, HEADER_H / 0.87 - 10)),
  );
  // Every date in the one format has the same width (Helvetica's digits are equal): centred once.
  const sample = formatDate('2027-12-31', options.dateFormat);
  const dateW = text.widthOf(sample, REGULAR, CELL_FONT_SIZE);
  const words = {
    missing: STATUS_LABELS.missing,
    exempt: STATUS_LABELS.exempt,
    none: 'No expiry',
  };
  const wordW = Object.fromEntries(
    Object.entries(words).map(([k, v]) => [k, text.widthOf(v, REGULAR, CELL_FONT_SIZE)]),
  ) as Record<keyof typeof words, number>;
  const ink = MATRIX_STATUSES.map((s) => inkOn(colourOf(colours, s)));
  // Each distinct date's PDF literal, made once (a big matrix repeats a few thousand dates ~1.5M times).
  const dateText = new Map<number, string>();
  const dateOf = (day: number) => {
    let t = dateText.get(day);
    if (t === undefined) {
      t = literal(formatDate(dayNumberToIso(day), options.dateFormat));
      dateText.set(day, t);
    }
    return t;
  };
  // A due cell's words (issue 33 §4): "Due by <date>" when the column is wide enough, else "Due <date>".
  const dueCache = new Map<number, [string, number]>();
  const dueOf = (day: number): [string, number] => {
    let d = dueCache.get(day);
    if (d === undefined) {
      const full = dueText(day, options.dateFormat);
      const short = `Due ${formatDate(dayNumberToIso(day), options.dateFormat)}`;
      const fullW = text.widthOf(full, REGULAR, CELL_FONT_SIZE);
      const words = fullW <= cellW - 3 ? full : short;
      d = [literal(words), words === full ? fullW : text.widthOf(short, REGULAR, CELL_FONT_SIZE)];
      dueCache.set(day, d);
    }
    return d;
  };
  const wordLiteral = {
    missing: literal(words.missing),
    exempt: literal(words.exempt),
    none: literal(words.none),
  };
  const cellStyles = MATRIX_STATUSES.map((_, code) => ({
    font: REGULAR,
    size: CELL_FONT_SIZE,
    colour: ink[code] ?? '#111827',
  }));

  let pageNo = 0;
  const startPage = (chunkIndex: number) => {
    doc.addPage();
    pageNo++;
    put(`${options.title} · ${options.scopeName}`, MARGIN, MARGIN - 4, 14, BOLD);
    // Right under the title: which filters, search and sort made this file, in the organisation's words
    // (issue 33 §5), then when it was made and how many people it holds.
    put(fitText(filters, 9, PAGE_W - MARGIN * 2, BOLD), MARGIN, MARGIN + 14, 9, BOLD, '#111827');
    put(
      `Generated ${generated} · ${peopleCount(shown.count)} · ${courses.length} courses` +
        (chunks.length > 1
          ? ` (this page: ${chunkIndex * perChunk + 1}–${chunkIndex * perChunk + (chunks[chunkIndex]?.length ?? 0)})`
          : ''),
      MARGIN,
      MARGIN + 28,
      8,
      REGULAR,
      '#374151',
    );
    // The legend: a swatch (with the expired bar) and the words of each status.
    let x = MARGIN;
    const ly = MARGIN + 42;
    for (const l of PDF_LEGEND) {
      const fill = l.status === 'blank' ? '#ffffff' : colourOf(colours, l.status);
      doc.rect(x, ly, 12, 9).fillAndStroke(fill, '#9ca3af');
      if (l.status === 'expired') doc.rect(x, ly, 2.5, 9).fill('#111827');
      put(l.text, x + 16, ly + 1, 7.5, REGULAR, '#111827');
      x += 16 + text.widthOf(l.text, REGULAR, 7.5) + 18;
    }
    // Column headers.
    const hy = TABLE_TOP + HEADER_H - 10;
    put('Name', MARGIN, hy, TEXT_SIZE, BOLD);
    put('Job role', MARGIN + FIXED.name, hy, TEXT_SIZE, BOLD);
    put(homeHeader, MARGIN + FIXED.name + FIXED.role, hy, TEXT_SIZE, BOLD);
    put('Score', MARGIN + FIXED.name + FIXED.role + FIXED.home, hy, TEXT_SIZE, BOLD);
    const left = MARGIN + FIXED_W;
    (headerText[chunkIndex] ?? []).forEach((t, i) => {
      const cx = left + i * cellW + cellW / 2 - 3;
      if (!text.add(t, cx, TABLE_TOP + HEADER_H - 6, { font: REGULAR, size: TEXT_SIZE, angle: 60 })) {
        doc.save();
        doc.rotate(-60, { origin: [cx, TABLE_TOP + HEADER_H - 6] });
        doc.font(fontFor(t)).fontSize(TEXT_SIZE).fillColor('#111827');
        doc.text(t, cx, TABLE_TOP + HEADER_H - 6, { lineBreak: false });
        doc.restore();
      }
    });
    doc
      .moveTo(MARGIN, TABLE_TOP + HEADER_H)
      .lineTo(left + (chunks[chunkIndex]?.length ?? 0) * cellW, TABLE_TOP + HEADER_H)
      .lineWidth(0.8)
      .stroke('#6b7280');
    put(
      `${options.title} · ${options.scopeName} · generated ${generated}`,
      MARGIN,
      PAGE_H - MARGIN - 6,
      7,
      REGULAR,
      '#6b7280',
    );
    const pageLabel = `Page ${pageNo} of ${Math.max(totalPages, pageNo)}`;
    put(
      pageLabel,
      PAGE_W - MARGIN - text.widthOf(pageLabel, REGULAR, 7),
      PAGE_H - MARGIN - 6,
      7,
      REGULAR,
      '#6b7280',
    );
  };

  (async () => {
    /** Rows waiting for their page: a page holds PDF_USERS_PER_PAGE users and may span two blocks. */
    let pending: ExportRow[] = [];
    const flush = (pageRows: ExportRow[]) => {
      // Each row's name, role and home fitted once for all the page-widths it is repeated on.
      const fixedText = pageRows.map(({ rows, i }) => [
        fitText(rows.names[i] as string, TEXT_SIZE, FIXED.name - 6),
        fitText(rows.roles[i] as string, TEXT_SIZE, FIXED.role - 6),
        fitText(rows.entities[i] as string, TEXT_SIZE, FIXED.home - 6),
        `${rows.scores[i]}%`,
      ]);
      chunks.forEach((chunk, chunkIndex) => {
        startPage(chunkIndex);
        const top = TABLE_TOP + HEADER_H;
        const left = MARGIN + FIXED_W;
        const right = left + chunk.length * cellW;
        // Row rules: one path per page.
        for (let ri = 1; ri <= pageRows.length; ri++)
          doc.moveTo(MARGIN, top + ri * ROW_H).lineTo(right, top + ri * ROW_H);
        doc.lineWidth(0.3).stroke('#e5e7eb');
        const byStatus: number[][] = MATRIX_STATUSES.map(() => []);
        pageRows.forEach(({ rows, i }, ri) => {
          const y = top + ri * ROW_H;
          const ty = y + 2.5;
          const [name = '', role = '', home = '', score = ''] = fixedText[ri] ?? [];
          put(name, MARGIN, ty, TEXT_SIZE);
          put(role, MARGIN + FIXED.name, ty, TEXT_SIZE);
          put(home, MARGIN + FIXED.name + FIXED.role, ty, TEXT_SIZE);
          put(score, MARGIN + FIXED.name + FIXED.role + FIXED.home, ty, TEXT_SIZE);
          const first = i * rows.width + chunkIndex * perChunk;
          for (let k = 0; k < chunk.length; k++) {
            const code = rows.status[first + k] as number;
            if (code < 0) continue;
            const x = left + k * cellW;
            byStatus[code]?.push(x, y);
          }
        });
        // One path and one fill per status and page (a fill call per cell made the PDF take a minute).
        MATRIX_STATUSES.forEach((s, k) => {
          const xy = byStatus[k] as number[];
          if (!xy.length) return;
          for (let p = 0; p < xy.length; p += 2)
            doc.rect((xy[p] as number) + 1, (xy[p + 1] as number) + 1, cellW - 2, ROW_H - 2);
          doc.fill(colourOf(colours, s));
          if (s === 'expired') {
            for (let p = 0; p < xy.length; p += 2)
              doc.rect((xy[p] as number) + 1, (xy[p + 1] as number) + 1, 2.5, ROW_H - 2);
            doc.fill('#111827');
          }
        });
        // The words of every cell, after the fills (text over them), one text object per page.
        pageRows.forEach(({ rows, i }, ri) => {
          const ty = top + ri * ROW_H + 3;
          const first = i * rows.width + chunkIndex * perChunk;
          for (let k = 0; k < chunk.length; k++) {
            const code = rows.status[first + k] as number;
            if (code < 0) continue;
            const x = left + k * cellW;
            const day = rows.day[first + k] as number;
            let t: string;
            let w: number;
            if (code === EXEMPT_CODE) {
              t = wordLiteral.exempt;
              w = wordW.exempt;
            } else if (code === MISSING_CODE) {
              const due = rows.due[first + k] as number;
              if (due === NULL_INT) {
                t = wordLiteral.missing;
                w = wordW.missing;
              } else {
                [t, w] = dueOf(due);
              }
            } else if (day === NULL_INT) {
              t = wordLiteral.none;
              w = wordW.none;
            } else {
              t = dateOf(day);
              w = dateW;
            }
            text.addLiteral(
              t,
              x + (cellW - w) / 2 + (code === EXPIRED_CODE ? 1 : 0),
              ty,
              cellStyles[code] as RunStyle,
            );
          }
        });
        text.flush();
      });
    };
    for await (const row of shown.rows) {
      pending.push(row);
      if (pending.length < PDF_USERS_PER_PAGE) continue;
      flush(pending);
      pending = [];
      if (signal?.aborted) break;
      // pdfkit pushes without backpressure: wait while its unread output is large (memory stays flat).
      while (doc.readableLength > 1 << 20 && !signal?.aborted)
        await new Promise((resolve) => setTimeout(resolve, 2));
    }
    if (pending.length || pageNo === 0) flush(pending);
    doc.end();
  })().catch((error) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}
