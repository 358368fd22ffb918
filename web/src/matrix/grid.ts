import {
  CELL_STATUS_LABELS,
  type CellsWire,
  cellCountsAsCompliant,
  courseStatusText,
  DEFAULT_MATRIX_VIEW,
  dayNumberToIso,
  dueCellsOf,
  EXEMPT_CELL_COLOUR,
  formatDate,
  MATRIX_SORTS,
  MATRIX_STATUS_FILTERS,
  MATRIX_STATUSES,
  type MatrixCourse,
  type MatrixEntity,
  type MatrixRole,
  type MatrixSort,
  type MatrixStatus,
  type MatrixStatusFilter,
  type MatrixView,
  matrixViewRows,
  type UsersWire,
} from '@cc/contracts';

/**
 * The matrix in the browser, built from the compact blocks (packages/contracts/src/matrix.ts) WITHOUT an object per
 * cell: each block keeps its wire arrays and a dense index (users × courses known when it arrived) into them, so
 * 10,000 × 200 costs a few MB and a lookup is two array reads. The page renders only the visible window.
 */
interface Block {
  userStart: number;
  count: number;
  width: number;
  cells: CellsWire;
  /** (local user × width + course column) → cell position + 1 (0: no cell). */
  index: Int32Array;
  /** Cell position → its due-by day number, for the few cells that are due (issue 33 §4); absent: none is. */
  due?: Map<number, number>;
}

export interface GridCell {
  status: MatrixStatus;
  type: 'none' | 'primary' | 'secondary';
  completed: string | null;
  expires: string | null;
  resultId: number | null;
  resultCount: number;
  /** Never done and due by this date, still ahead ('YYYY-MM-DD'): the one status 'due', "Due by <date>". */
  dueBy: string | null;
}

export class MatrixGrid {
  users: { id: number; name: string; entityId: number; roleId: number | null; newStarter: boolean }[] = [];
  courses: MatrixCourse[] = [];
  roles = new Map<number, MatrixRole>();
  entities = new Map<number, MatrixEntity>();
  private column = new Map<number, number>();
  private blocks: Block[] = [];
  private userBlock: number[] = [];
  /** Per user: [compliant (in date, expiring, exempt), required]. */
  private tally: Int32Array = new Int32Array(0);
  /** Per user: one bit per status (1 << wire code) of their REQUIRED cells, for the status filter. */
  statusBits: Uint8Array = new Uint8Array(0);
  cellCount = 0;

  addCourses(list: MatrixCourse[]) {
    for (const c of list) {
      if (this.column.has(c.id)) continue;
      this.column.set(c.id, this.courses.length);
      this.courses.push(c);
    }
  }

  /** Columns in display order (by title). */
  orderedCourses(): MatrixCourse[] {
    return [...this.courses].sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
  }

  addBlock(usersWire: UsersWire, cells: CellsWire) {
    const [ids, names, entities, roles, starters] = usersWire;
    const userStart = this.users.length;
    const local = new Map<number, number>();
    ids.forEach((id, i) => {
      local.set(id, i);
      this.users.push({
        id,
        name: names[i] ?? '',
        entityId: entities[i] ?? 0,
        roleId: roles[i] ?? null,
        newStarter: starters[i] === 1,
      });
      this.userBlock.push(this.blocks.length);
    });
    const width = this.courses.length;
    const index = new Int32Array(ids.length * width);
    const tally = new Int32Array(this.users.length * 2);
    tally.set(this.tally);
    const bits = new Uint8Array(this.users.length);
    bits.set(this.statusBits);
    const [uids, cids, types, statuses] = cells;
    // The block's due cells (a few, or none): their day, and those left out of the score (a new requirement's
    // grace period), which count neither as required nor as a gap of the "Show" filter.
    const dueOf = dueCellsOf(cells);
    const due = dueOf.size ? new Map<number, number>() : undefined;
    for (let k = 0; k < uids.length; k++) {
      const i = local.get(uids[k] as number);
      const col = this.column.get(cids[k] as number);
      if (i === undefined || col === undefined || col >= width) continue;
      index[i * width + col] = k + 1;
      const d = due ? dueOf.get(`${uids[k]}:${cids[k]}`) : undefined;
      if (d) due?.set(k, d.day);
      if (types[k] !== 0 && !d?.leftOut) {
        const u = (userStart + i) * 2;
        tally[u + 1] = (tally[u + 1] ?? 0) + 1;
        tally[u] = (tally[u] ?? 0) + (COMPLIANT_CODE[statuses[k] as number] ?? 0);
        bits[userStart + i] = (bits[userStart + i] as number) | (1 << (statuses[k] as number));
      }
    }
    this.tally = tally;
    this.statusBits = bits;
    this.blocks.push({ userStart, count: ids.length, width, cells, index, due });
    this.cellCount += uids.length;
  }

  /** The cell of (user row, course id), or null when the user has none for it. */
  cell(row: number, courseId: number): GridCell | null {
    const b = this.blocks[this.userBlock[row] ?? -1];
    const col = this.column.get(courseId);
    if (!b || col === undefined || col >= b.width) return null;
    const ptr = b.index[(row - b.userStart) * b.width + col] ?? 0;
    if (!ptr) return null;
    const k = ptr - 1;
    const [, , types, statuses, resultIds, completed, expires, counts] = b.cells;
    return {
      status: MATRIX_STATUSES[statuses[k] as number] ?? 'missing',
      type: (['none', 'primary', 'secondary'] as const)[types[k] as number] ?? 'none',
      completed: dayNumberToIso(completed[k] ?? null),
      expires: dayNumberToIso(expires[k] ?? null),
      resultId: resultIds[k] ?? null,
      resultCount: counts[k] ?? 0,
      dueBy: b.due ? dayNumberToIso(b.due.get(k) ?? null) : null,
    };
  }

  /** The user's score: compliant required cells (in date, expiring, exempt) over required cells, whole percent; none required: 100. */
  score(row: number): number {
    const inDate = this.tally[row * 2] ?? 0;
    const required = this.tally[row * 2 + 1] ?? 0;
    return required <= 0 ? 100 : Math.floor((inDate * 100) / required);
  }
}

/** Per wire status code: 1 when the status counts towards the score (one array read per cell while a block loads). */
const COMPLIANT_CODE = Uint8Array.from(MATRIX_STATUSES, (s) => (cellCountsAsCompliant(s) ? 1 : 0));

export const STATUS_LABEL = CELL_STATUS_LABELS;

/** The white-label traffic lights a cell is coloured with. */
export interface TrafficLights {
  trafficLightOk: string;
  trafficLightWarning: string;
  trafficLightDanger: string;
}
export const MISSING_CELL_COLOUR = '#e5e7eb';
/** A cell's background: the traffic lights for in date / expiring / expired, blue for exempt, grey for missing. */
export function statusColour(status: MatrixStatus, wl: TrafficLights): string {
  switch (status) {
    case 'in_date':
      return wl.trafficLightOk;
    case 'expiring':
      return wl.trafficLightWarning;
    case 'expired':
      return wl.trafficLightDanger;
    case 'exempt':
      return EXEMPT_CELL_COLOUR;
    case 'missing':
      return MISSING_CELL_COLOUR;
  }
}

/**
 * The words inside a matrix cell (never colour alone, STYLE.md): an exemption says Exempt, a course not done says
 * Missing, others their expiry date in the one date format ('12/03/2027'), or "No expiry". The full status and dates
 * are the cell's label (cellTitle).
 */
export function cellText(c: GridCell): string {
  if (c.dueBy) return dueText(c.dueBy);
  if (c.status === 'exempt') return STATUS_LABEL.exempt;
  if (c.status === 'missing') return STATUS_LABEL.missing;
  if (c.expires) return formatDate(c.expires);
  return c.completed ? 'No expiry' : '';
}

/** A due cell's words, the one status's own (contracts courseStatusText): "Due by 29/12/2026". */
export const dueText = (date: string) => courseStatusText({ status: 'due', date, attempted: false });

export function cellTitle(courseTitle: string, c: GridCell): string {
  if (c.dueBy) return `${courseTitle}: ${dueText(c.dueBy)} (not done yet)`;
  const parts = [`${courseTitle}: ${STATUS_LABEL[c.status]}`];
  // An exemption's dates are when it started and when it ends (it has no completion or expiry of training).
  const exempt = c.status === 'exempt';
  if (c.completed) parts.push(`${exempt ? 'since' : 'completed'} ${formatDate(c.completed)}`);
  if (c.expires) parts.push(`${exempt ? 'ends' : 'expires'} ${formatDate(c.expires)}`);
  return parts.join(', ');
}

/** The legend of the matrix in words: each status, what its cell shows, and what a blank cell means. */
export const LEGEND: { status: MatrixStatus | 'blank'; label: string; meaning: string }[] = [
  { status: 'in_date', label: STATUS_LABEL.in_date, meaning: 'done; the date is when it expires' },
  { status: 'expiring', label: 'Expiring soon', meaning: 'still in date, expires within the warning period' },
  { status: 'expired', label: STATUS_LABEL.expired, meaning: 'the date shown has passed' },
  { status: 'missing', label: STATUS_LABEL.missing, meaning: 'required but not done' },
  {
    status: 'missing',
    label: 'Due by (date)',
    meaning: 'required, not done yet; not out of date until then',
  },
  { status: 'exempt', label: STATUS_LABEL.exempt, meaning: 'excused; counts as compliant' },
  { status: 'blank', label: 'Blank', meaning: 'not required for their role' },
];

// --- The rows the page shows: search (person), status filter and sort, over the streamed grid. The view is defined
// once in the contracts (matrix-view.ts): the XLSX and PDF exports apply the same function to the rows they write.

export {
  DEFAULT_MATRIX_VIEW as DEFAULT_VIEW,
  MATRIX_SORTS,
  MATRIX_STATUS_FILTERS,
  type MatrixSort,
  type MatrixStatusFilter,
  type MatrixView,
};

/** The grid rows (indexes into grid.users) in the order the page shows them (contracts matrixViewRows). */
export function viewRows(grid: MatrixGrid, view: MatrixView): Int32Array {
  const users = grid.users;
  return matrixViewRows(
    {
      count: users.length,
      name: (i) => users[i]?.name ?? '',
      statusBits: (i) => grid.statusBits[i] ?? 0,
      score: (i) => grid.score(i),
    },
    view,
  );
}

const channel = (v: number) => {
  const c = v / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
/** Black or white, whichever contrasts more with the (traffic-light) background, so the cell text stays readable. */
export function textOn(hex: string): string {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return '#000000';
  const n = Number.parseInt(m[1] as string, 16);
  const l = 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
}
