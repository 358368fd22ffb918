import { z } from 'zod';
import { CELL_STATUS_LABELS, CELL_STATUSES, type CellStatus } from './course-status';
import type { NEW_STARTERS_FILTERS, PRESET_COMPLIANCE_TYPES } from './presets';

/**
 * The matrix "view" (issue 33 §5): the person search, the "Show" status filter and the sort the matrix page applies
 * to its rows. It is defined ONCE here: the page runs matrixViewRows over the streamed grid, and the XLSX / PDF
 * exports run the same function over the rows they write, so an export holds exactly the people on the screen,
 * in the screen's order. POST /reports/matrix takes it as `view` beside the matrix filters (ours: the spec names
 * only directFormat, format and emailFormat).
 */

export const MATRIX_SORTS = [
  { value: 'name', label: 'Name (A to Z)' },
  { value: 'name_desc', label: 'Name (Z to A)' },
  { value: 'score_asc', label: 'Score (lowest first)' },
  { value: 'score_desc', label: 'Score (highest first)' },
] as const;
export type MatrixSort = (typeof MATRIX_SORTS)[number]['value'];

/** Bit of a status in a person's status bits: 1 << its wire code (its index in CELL_STATUSES). */
export const matrixStatusBit = (s: CellStatus) => 1 << CELL_STATUSES.indexOf(s);
const bit = matrixStatusBit;

/** The "Show" filter: which people (by the statuses of their REQUIRED cells) the matrix lists. */
export const MATRIX_STATUS_FILTERS = [
  { value: 'all', label: 'Everyone', test: (_: number) => true },
  {
    value: 'gaps',
    label: 'Expired or missing only',
    test: (b: number) => (b & (bit('expired') | bit('missing'))) !== 0,
  },
  { value: 'expiring', label: 'Expiring soon', test: (b: number) => (b & bit('expiring')) !== 0 },
  { value: 'expired', label: 'Expired', test: (b: number) => (b & bit('expired')) !== 0 },
  { value: 'missing', label: 'Missing', test: (b: number) => (b & bit('missing')) !== 0 },
  { value: 'exempt', label: 'Exempt', test: (b: number) => (b & bit('exempt')) !== 0 },
  {
    value: 'complete',
    label: 'Fully in date',
    test: (b: number) => (b & (bit('expired') | bit('missing'))) === 0,
  },
] as const;
export type MatrixStatusFilter = (typeof MATRIX_STATUS_FILTERS)[number]['value'];

const sortValues = MATRIX_SORTS.map((s) => s.value) as [MatrixSort, ...MatrixSort[]];
const statusValues = MATRIX_STATUS_FILTERS.map((s) => s.value) as [
  MatrixStatusFilter,
  ...MatrixStatusFilter[],
];

export const MatrixView = z.object({
  search: z.string().max(200).default(''),
  status: z.enum(statusValues).default('all'),
  sort: z.enum(sortValues).default('name'),
});
export type MatrixView = z.infer<typeof MatrixView>;
export const DEFAULT_MATRIX_VIEW: MatrixView = { search: '', sort: 'name', status: 'all' };

/** What matrixViewRows reads of row i: the person's name, status bits (required cells) and score. */
export interface MatrixViewSource {
  count: number;
  name(i: number): string;
  statusBits(i: number): number;
  score(i: number): number;
}

const collator = new Intl.Collator('en-GB', { sensitivity: 'base', numeric: true });

/** Whether a view narrows the people at all (a search or a "Show" filter other than Everyone). */
export const matrixViewFilters = (view: MatrixView) => view.search.trim() !== '' || view.status !== 'all';

/** The search and the "Show" filter: the rows that pass, in load order (names[i] is filled for every row read). */
function matches(src: MatrixViewSource, view: MatrixView, names: string[]): number[] {
  const needle = view.search.trim().toLocaleLowerCase();
  const test = MATRIX_STATUS_FILTERS.find((f) => f.value === view.status)?.test ?? (() => true);
  const rows: number[] = [];
  for (let i = 0; i < src.count; i++) {
    const name = src.name(i);
    names[i] = name;
    if (needle && !name.toLocaleLowerCase().includes(needle)) continue;
    if (!test(src.statusBits(i))) continue;
    rows.push(i);
  }
  return rows;
}

/**
 * The rows a view keeps (its search and "Show" filter), in load order, without sorting: what an export uses to drop
 * the people of a block the screen does not list as soon as the block is read (matrixViewRows filters the same way).
 */
export function matrixViewMatches(src: MatrixViewSource, view: MatrixView): Int32Array {
  return Int32Array.from(matches(src, view, new Array(src.count)));
}

/**
 * The rows (indexes 0..count-1, in load order: user id) a view shows, in its order: the people whose name contains
 * the search (any case) and whose required cells match the status filter, sorted by name or score (ties by name,
 * then load order). O(n log n).
 */
export function matrixViewRows(src: MatrixViewSource, view: MatrixView): Int32Array {
  const names: string[] = new Array(src.count);
  const rows = matches(src, view, names);
  const byName = (a: number, b: number) => collator.compare(names[a] ?? '', names[b] ?? '') || a - b;
  if (view.sort === 'name') rows.sort(byName);
  else if (view.sort === 'name_desc') rows.sort((a, b) => byName(b, a));
  else {
    const scores = new Int16Array(src.count);
    for (const r of rows) scores[r] = src.score(r);
    const dir = view.sort === 'score_asc' ? 1 : -1;
    rows.sort((a, b) => dir * ((scores[a] as number) - (scores[b] as number)) || byName(a, b));
  }
  return Int32Array.from(rows);
}

/** The organisation's words an export's header uses (white-label labels). */
export interface MatrixFilterWords {
  /** White-label entityAltName ("Home"). */
  entityAltName: string;
  /** White-label primaryComplianceAltName / secondaryComplianceAltName ("Mandatory" / "Required"). */
  primary: string;
  secondary: string;
}

const NEW_STARTER_WORDS: Record<(typeof NEW_STARTERS_FILTERS)[number], string> = {
  include_new_starters: 'included',
  exclude_new_starters: 'excluded',
  new_starters_only: 'only new starters',
};

/** The compliance filters every compliance-style report shares (its type and new starters), in the page's words. */
export function describeComplianceFilters(
  filters: {
    compliance_type: (typeof PRESET_COMPLIANCE_TYPES)[number];
    new_starters_filter: (typeof NEW_STARTERS_FILTERS)[number];
  },
  words: Pick<MatrixFilterWords, 'primary' | 'secondary'>,
): { type: string; newStarters: string } {
  const type =
    filters.compliance_type === 'all'
      ? `${words.primary} and ${words.secondary}`
      : filters.compliance_type === 'primary'
        ? words.primary
        : words.secondary;
  return {
    type: `Compliance type: ${type}`,
    newStarters: `New starters: ${NEW_STARTER_WORDS[filters.new_starters_filter]}`,
  };
}

/**
 * The filters, search and sort behind a matrix, in the words of the page's controls, one phrase each:
 * "Compliance type: Mandatory", "Home: Oakfield House", "New starters: included", "Show: Exempt",
 * "Search: “ann”", "Sort by: Name (A to Z)". Exports print them in their header. The filters the page does not set
 * but an API caller or a report preset may (job roles, courses, pathways, people, cell statuses) are named only
 * when they narrow the matrix.
 */
export function describeMatrixView(
  filters: {
    compliance_type: (typeof PRESET_COMPLIANCE_TYPES)[number];
    new_starters_filter: (typeof NEW_STARTERS_FILTERS)[number];
    includeStatusTypes?: readonly CellStatus[];
  },
  view: MatrixView,
  words: MatrixFilterWords,
  scope: MatrixFilterScope = { entityNames: [] },
): string[] {
  const common = describeComplianceFilters(filters, words);
  const out = [common.type];
  out.push(`${words.entityAltName}: ${scope.entityNames.length ? scope.entityNames.join(', ') : 'All'}`);
  if (scope.roleNames?.length) out.push(`Job role: ${scope.roleNames.join(', ')}`);
  if (scope.pathways) out.push(`Pathways: ${scope.pathways} chosen`);
  else {
    if (scope.courseTitles?.length) out.push(`Courses: ${scope.courseTitles.join(', ')}`);
    if (scope.people) out.push(`People: ${scope.people} chosen`);
  }
  out.push(common.newStarters);
  if (filters.includeStatusTypes?.length)
    out.push(
      `Cells shown: ${CELL_STATUSES.filter((st) => filters.includeStatusTypes?.includes(st))
        .map((st) => CELL_STATUS_LABELS[st])
        .join(', ')}`,
    );
  out.push(`Show: ${MATRIX_STATUS_FILTERS.find((f) => f.value === view.status)?.label ?? 'Everyone'}`);
  if (view.search.trim()) out.push(`Search: “${view.search.trim()}”`);
  out.push(`Sort by: ${MATRIX_SORTS.find((s) => s.value === view.sort)?.label ?? MATRIX_SORTS[0].label}`);
  return out;
}

/** The names behind a matrix's id filters, for describeMatrixView (empty or absent: not narrowed). */
export interface MatrixFilterScope {
  entityNames: string[];
  roleNames?: string[];
  courseTitles?: string[];
  /** How many pathways were chosen (their courses and people are then not named apart). */
  pathways?: number;
  /** How many people were chosen by id. */
  people?: number;
}
