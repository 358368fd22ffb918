import {
  type CellsWire,
  dayNumberToIso,
  MATRIX_STATUSES,
  type MatrixCourse,
  type MatrixEntity,
  type MatrixRole,
  type MatrixStatus,
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
}

export interface GridCell {
  status: MatrixStatus;
  type: 'none' | 'primary' | 'secondary';
  completed: string | null;
  expires: string | null;
  resultId: number | null;
  resultCount: number;
}

export class MatrixGrid {
  users: { id: number; name: string; entityId: number; roleId: number | null; newStarter: boolean }[] = [];
  courses: MatrixCourse[] = [];
  roles = new Map<number, MatrixRole>();
  entities = new Map<number, MatrixEntity>();
  private column = new Map<number, number>();
  private blocks: Block[] = [];
  private userBlock: number[] = [];
  /** Per user: [in date (incl. expiring), required]. */
  private tally: Int32Array = new Int32Array(0);
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
    const [uids, cids, types, statuses] = cells;
    for (let k = 0; k < uids.length; k++) {
      const i = local.get(uids[k] as number);
      const col = this.column.get(cids[k] as number);
      if (i === undefined || col === undefined || col >= width) continue;
      index[i * width + col] = k + 1;
      if (types[k] !== 0) {
        const u = (userStart + i) * 2;
        tally[u + 1] = (tally[u + 1] ?? 0) + 1;
        if ((statuses[k] as number) <= 1) tally[u] = (tally[u] ?? 0) + 1;
      }
    }
    this.tally = tally;
    this.blocks.push({ userStart, count: ids.length, width, cells, index });
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
    };
  }

  /** The user's score: in-date (incl. expiring) required cells over required cells, whole percent; none required: 100. */
  score(row: number): number {
    const inDate = this.tally[row * 2] ?? 0;
    const required = this.tally[row * 2 + 1] ?? 0;
    return required <= 0 ? 100 : Math.floor((inDate * 100) / required);
  }
}

export const STATUS_LABEL: Record<MatrixStatus, string> = {
  in_date: 'In date',
  expiring: 'Expiring',
  expired: 'Expired',
  missing: 'Missing',
};

export const ukDate = (iso: string | null) =>
  iso ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : '';

export function cellTitle(courseTitle: string, c: GridCell): string {
  const parts = [`${courseTitle}: ${STATUS_LABEL[c.status]}`];
  if (c.completed) parts.push(`completed ${ukDate(c.completed)}`);
  if (c.expires) parts.push(`expires ${ukDate(c.expires)}`);
  return parts.join(', ');
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
