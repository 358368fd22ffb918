// biome-ignore-all lint/a11y/useSemanticElements: a virtualised grid positions divs absolutely; ARIA grid roles describe them
// biome-ignore-all lint/a11y/useFocusableInteractive: the roving focus stops on the course cells, headers and names; the role, home and score cells beside a name are read, not operated
import {
  compliantCells,
  MATRIX_TAKING_LONG_MS,
  MatrixMessages,
  type MatrixTopLevelAggregate,
  matrixColumnSpan,
  matrixViewFilters,
  type ServerMessage,
} from '@cc/contracts';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useActingAs } from '../app/acting-as';
import { api } from '../app/api';
import { notifyError, notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { ComplianceFilters, complianceFilterParams, useComplianceFilters } from '../compliance/filters';
import { download } from '../reports/api';
import { taskStarted } from '../tasks/api';
import { Button, Card, EmptyState, PageHeader, SearchInput, Select } from '../ui';
import { organisationWord } from '../whitelabel/words';
import {
  DEFAULT_VIEW,
  MATRIX_SORTS,
  MATRIX_STATUS_FILTERS,
  MatrixGrid,
  type MatrixSort,
  type MatrixStatusFilter,
  type MatrixView,
  viewRows,
} from './grid';
import { MatrixCell, MatrixLegend } from './MatrixCell';
import { RestartNotice } from './RestartNotice';
import { subscribeMatrix } from './socket';

/**
 * /reports/matrix (spec 2 §2, §4, §9): the live matrix over the websocket. Progress until 1, then the grid:
 * virtualised both ways (only the visible window is rendered), sticky user column and course header row, column
 * span = courses + 4 (user, role, entity, score + courses), cells coloured with the white-label traffic lights and
 * titled (status, completed, expires). Taking-long notice after 15 s; "too large" on 500/504/no response.
 * Search (person), status filter and sort work on the streamed grid in the browser (viewRows), so the first block
 * shows as soon as it arrives. The grid is one tab stop with a roving focus (arrow keys, Home/End, Page Up/Down):
 * a course header shows its full name on focus and hover; a cell opens the person's record at that course.
 */

const ROW_H = 36;
const COL_W = 80;
const HEADER_H = 140;
const PAGE_ROWS = 10;
/** Below the mobile breakpoint (spec 2 §9: 768 px) only the user and score stay visible beside the courses. */
const WIDE = { user: 'w-[140px]', aside: 'w-[140px] truncate', score: 'w-[64px]', fixed: 3 * 140 + 64 };
const NARROW = { user: 'w-[112px]', aside: 'sr-only', score: 'w-[48px]', fixed: 112 + 48 };
function useNarrow() {
  const query = '(max-width: 767px)';
  const [narrow, setNarrow] = useState(
    () => typeof window !== 'undefined' && window.matchMedia?.(query).matches,
  );
  useEffect(() => {
    const m = window.matchMedia?.(query);
    if (!m) return;
    const on = () => setNarrow(m.matches);
    m.addEventListener('change', on);
    return () => m.removeEventListener('change', on);
  }, []);
  return narrow;
}

export function useMatrix(filters: Record<string, unknown>) {
  const acting = useActingAs();
  const [grid, setGrid] = useState(() => new MatrixGrid());
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const [progress, setProgress] = useState(0);
  const [error, setError] = useState<{ message: string; status?: number } | null>(null);
  const [top, setTop] = useState<MatrixTopLevelAggregate | null>(null);
  const [takingLong, setTakingLong] = useState(false);
  /** "The server is restarting — reconnecting…" while the socket reconnects (issue 12 §3). */
  const [notice, setNotice] = useState<string | null>(null);
  const key = JSON.stringify(filters);
  useEffect(() => {
    let g = new MatrixGrid();
    setGrid(g);
    setProgress(0);
    setError(null);
    setTop(null);
    setTakingLong(false);
    setNotice(null);
    const pendingUsers = new Map<number, unknown>();
    let frame = 0;
    const refresh = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        bump();
      });
    };
    const long = setTimeout(() => setTakingLong(true), MATRIX_TAKING_LONG_MS);
    const sub = subscribeMatrix({
      filters: JSON.parse(key),
      actingAs: acting?.slug,
      onError: (message, status) => {
        clearTimeout(long);
        setError({ message, status });
      },
      onStatus: setNotice,
      // The stream starts over after a reconnect: a fresh grid, never the cut one's half.
      onRestart: () => {
        g = new MatrixGrid();
        pendingUsers.clear();
        setGrid(g);
        setProgress(0);
        setTop(null);
      },
      onMessage: (m: ServerMessage) => {
        if (m.type === 'progress') {
          setProgress(m.progress);
          if (m.progress >= 1) clearTimeout(long);
        } else if (m.type === 'fetch_data') {
          if (m.kind === 'courses') g.addCourses(m.data);
          else if (m.kind === 'roles') for (const r of m.data) g.roles.set(r.id, r);
          else if (m.kind === 'entities') for (const e of m.data) g.entities.set(e.id, e);
          else if (m.kind === 'users') pendingUsers.set(m.block, m.data);
          else if (m.kind === 'matrix_cells') {
            g.addBlock(pendingUsers.get(m.block) as never, m.data);
            pendingUsers.delete(m.block);
          } else if (m.kind === 'top_level_aggregate') setTop(m.data);
          refresh();
        }
      },
    });
    return () => {
      clearTimeout(long);
      cancelAnimationFrame(frame);
      sub.close();
    };
  }, [key, acting?.slug]);
  return { grid, progress, error, top, takingLong, notice };
}

export default function MatrixPage() {
  const wl = useWhitelabel();
  const navigate = useNavigate();
  const { filters: nav } = useComplianceFilters();
  const [entity, setEntity] = useState('');
  const [view, setView] = useState<MatrixView>(DEFAULT_VIEW);
  const params = complianceFilterParams(nav);
  const filters = {
    compliance_type: params.compliance_type,
    new_starters_filter: params.new_starters_filter,
    entities: entity ? [Number(entity)] : [],
  };
  const { grid, progress, error, top, takingLong, notice } = useMatrix(filters);
  // The grid grows in place as blocks arrive: its course count is what changes the column order.
  // biome-ignore lint/correctness/useExhaustiveDependencies: grid.courses.length is the change signal
  const courses = useMemo(() => grid.orderedCourses(), [grid, grid.courses.length]);
  // The rows shown (search, status filter, sort), recomputed when a block arrives or the view changes.
  const shown = useMemo(() => viewRows(grid, view), [grid, grid.users.length, view]);
  const scroller = useRef<HTMLDivElement>(null);
  const layout = useNarrow() ? NARROW : WIDE;
  const FIXED_W = layout.fixed;
  const rows = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_H,
    overscan: 8,
    // The sticky course header covers the top of the scroll box.
    scrollPaddingEnd: HEADER_H,
  });
  const cols = useVirtualizer({
    horizontal: true,
    count: courses.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => COL_W,
    overscan: 4,
    // The sticky user columns cover the left of the scroll box.
    scrollPaddingEnd: FIXED_W,
  });
  // Roving focus: row -1 is the course header row, column -1 the person's name.
  const [active, setActive] = useState({ row: 0, col: 0 });
  const focusPending = useRef(false);
  const lastRow = shown.length - 1;
  const lastCol = courses.length - 1;
  const moveTo = (row: number, col: number) => {
    const r = Math.max(-1, Math.min(lastRow, row));
    const c = Math.max(-1, Math.min(lastCol, col));
    setActive({ row: r, col: c });
    focusPending.current = true;
    if (r >= 0) rows.scrollToIndex(r, { align: 'auto' });
    if (c >= 0) cols.scrollToIndex(c, { align: 'auto' });
  };
  useEffect(() => {
    if (!focusPending.current) return;
    const el = scroller.current?.querySelector<HTMLElement>(`[data-cell="${active.row}:${active.col}"]`);
    if (el) {
      focusPending.current = false;
      el.focus({ preventScroll: true });
    }
  });
  const onGridKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const pos = (e.target as HTMLElement).dataset.cell;
    if (!pos) return;
    const [r = 0, c = 0] = pos.split(':').map(Number);
    const moves: Record<string, [number, number]> = {
      ArrowRight: [r, c + 1],
      ArrowLeft: [r, c - 1],
      ArrowDown: [r + 1, c],
      ArrowUp: [r - 1, c],
      Home: e.ctrlKey ? [0, -1] : [r, -1],
      End: e.ctrlKey ? [lastRow, lastCol] : [r, lastCol],
      PageDown: [r + PAGE_ROWS, c],
      PageUp: [Math.max(0, r - PAGE_ROWS), c],
    };
    const to = moves[e.key];
    if (!to) return;
    e.preventDefault();
    moveTo(to[0], to[1]);
  };
  const rowItems = rows.getVirtualItems();
  const colItems = cols.getVirtualItems();
  // The tab stop: the active cell when it is rendered, else the first rendered one (the grid is virtualised).
  const rendered = (r: number, c: number) =>
    (r === -1 || rowItems.some((x) => x.index === r)) && (c === -1 || colItems.some((x) => x.index === c));
  const tabStop = rendered(active.row, active.col)
    ? `${active.row}:${active.col}`
    : `${rowItems[0]?.index ?? -1}:${colItems[0]?.index ?? -1}`;
  const tooLarge = error && (error.status === 500 || error.status === 504);
  // Exports follow the screen (issue 33 §5): the same filters, plus the search, "Show" filter and sort (view).
  const body = { ...filters, view, directFormat: 'file' };
  const filtering = matrixViewFilters(view);

  const emailMe = async (format: 'pdf' | 'xlsx') => {
    try {
      await api.post('/reports/matrix', { ...filters, view, emailFormat: format });
      taskStarted(); // the header's count of tasks in progress
      notifySuccess(MatrixMessages.emailQueued);
    } catch {
      // spec 2 §8: the emailed-matrix failure message, whatever the server said.
      notifyError(null, MatrixMessages.emailFailed);
    }
  };

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <PageHeader
        title="Compliance matrix"
        description="Who is in date for what, across your organisation."
        actions={
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              onClick={() =>
                download(
                  () => api.post<Blob>('/reports/matrix', { ...body, format: 'xlsx' }),
                  'matrix.xlsx',
                  MatrixMessages.failed,
                )
              }
            >
              Export Excel
            </Button>
            <Button
              variant="secondary"
              onClick={() =>
                download(
                  () => api.post<Blob>('/reports/matrix', { ...body, format: 'pdf' }),
                  'matrix.pdf',
                  MatrixMessages.failed,
                )
              }
            >
              Export PDF
            </Button>
            <Button variant="secondary" onClick={() => emailMe('xlsx')}>
              E-mail me the report
            </Button>
          </div>
        }
      />
      <Card>
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
          <ComplianceFilters show={['newStarters', 'complianceType']} />
          <div className="w-full sm:w-60">
            <Select
              label={organisationWord(wl)}
              value={entity}
              onChange={(e) => setEntity(e.target.value)}
              options={[
                { value: '', label: 'All' },
                ...[...grid.entities.values()].map((e) => ({ value: String(e.id), label: e.name })),
              ]}
            />
          </div>
        </div>
        <div className="mt-3 flex flex-col gap-3 border-t border-slate-100 pt-3 sm:flex-row sm:flex-wrap sm:items-end">
          <div className="w-full sm:w-64">
            <SearchInput
              label="Search people"
              placeholder="Search people by name…"
              delay={150}
              value={view.search}
              onSearch={(search) => setView((v) => ({ ...v, search }))}
            />
          </div>
          <div className="w-full sm:w-60">
            <Select
              label="Show"
              value={view.status}
              onChange={(e) => setView((v) => ({ ...v, status: e.target.value as MatrixStatusFilter }))}
              options={MATRIX_STATUS_FILTERS.map((f) => ({ value: f.value, label: f.label }))}
            />
          </div>
          <div className="w-full sm:w-56">
            <Select
              label="Sort by"
              value={view.sort}
              onChange={(e) => setView((v) => ({ ...v, sort: e.target.value as MatrixSort }))}
              options={MATRIX_SORTS.map((o) => ({ value: o.value, label: o.label }))}
            />
          </div>
        </div>
      </Card>
      {error ? (
        <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-800">
          {tooLarge ? MatrixMessages.tooLarge : error.message}
        </div>
      ) : null}
      <RestartNotice notice={error ? null : notice} />
      {!error && progress < 1 ? (
        <div className="flex flex-col gap-1">
          <div
            role="progressbar"
            aria-label="Loading the matrix"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(progress * 100)}
            className="h-2 w-full overflow-hidden rounded bg-gray-200"
          >
            <div
              className="h-full bg-[var(--color-primary-500,#04b5e3)]"
              style={{ width: `${progress * 100}%` }}
            />
          </div>
          <p className="text-sm text-gray-600">
            Loading… {grid.users.length} users so far
            {takingLong ? ` — ${MatrixMessages.takingLong}` : ''}
          </p>
        </div>
      ) : null}
      {top ? (
        <p className="text-sm text-gray-700" data-testid="matrix-summary">
          {top.total_users} users · {compliantCells(top)} of {top.required} required courses in date or exempt
          {top.exempt ? ` (${top.exempt} exempt)` : ''} · score <strong>{top.score}%</strong>
        </p>
      ) : null}
      {progress >= 1 && grid.users.length === 0 && !error ? (
        <EmptyState title="No users match these filters" />
      ) : null}
      <MatrixLegend wl={wl} />
      {grid.users.length ? (
        <p className="text-sm text-gray-600" aria-live="polite" data-testid="matrix-shown">
          {filtering
            ? `Showing ${shown.length} of ${grid.users.length} people.`
            : `${grid.users.length} people.`}{' '}
          Select a cell (or press Enter on it) to open that person's record for the course.
        </p>
      ) : null}
      {grid.users.length && !shown.length ? (
        <EmptyState
          title="No one matches"
          description="Nobody loaded so far matches the search and the filter."
          action={
            <Button variant="secondary" onClick={() => setView(DEFAULT_VIEW)}>
              Clear search and filter
            </Button>
          }
        />
      ) : null}
      {shown.length ? (
        <section
          ref={scroller}
          // The cells are the grid's focus stops; with no course column the box itself must be reachable.
          tabIndex={courses.length ? undefined : 0}
          aria-label="Compliance matrix"
          className="relative h-[70vh] max-w-full overflow-auto overscroll-contain rounded-md border border-gray-200 bg-white"
        >
          <div
            role="grid"
            aria-rowcount={shown.length + 1}
            aria-colcount={matrixColumnSpan(courses.length)}
            onKeyDown={onGridKey}
            onFocus={(e) => {
              const pos = (e.target as HTMLElement).dataset.cell;
              if (!pos || pos === `${active.row}:${active.col}`) return;
              const [row = 0, col = 0] = pos.split(':').map(Number);
              setActive({ row, col });
            }}
            style={{
              width: FIXED_W + cols.getTotalSize(),
              height: rows.getTotalSize() + HEADER_H,
              position: 'relative',
            }}
          >
            <div
              role="row"
              aria-rowindex={1}
              className="sticky top-0 z-20 flex border-b border-gray-200 bg-white"
              style={{ height: HEADER_H }}
            >
              <div
                className="sticky left-0 z-30 flex items-end bg-white text-xs font-semibold"
                style={{ width: FIXED_W }}
              >
                <span
                  role="columnheader"
                  tabIndex={tabStop === '-1:-1' ? 0 : -1}
                  data-cell="-1:-1"
                  className={`${layout.user} truncate p-2`}
                >
                  User
                </span>
                <span role="columnheader" className={`${layout.aside} p-2`}>
                  Role
                </span>
                <span role="columnheader" className={`${layout.aside} p-2`}>
                  {organisationWord(wl)}
                </span>
                <span role="columnheader" className={`${layout.score} p-2`}>
                  Score
                </span>
              </div>
              {colItems.map((c) => {
                const title = courses[c.index]?.title ?? '';
                const tipId = `matrix-course-${courses[c.index]?.id}`;
                return (
                  <div
                    key={c.key}
                    role="columnheader"
                    tabIndex={tabStop === `-1:${c.index}` ? 0 : -1}
                    data-cell={`-1:${c.index}`}
                    aria-describedby={tipId}
                    className="group absolute bottom-0 text-xs text-gray-800 outline-none focus-visible:bg-slate-100"
                    style={{ left: FIXED_W + c.start, width: COL_W, height: HEADER_H }}
                  >
                    <span className="absolute bottom-2 left-5 block w-[150px] origin-bottom-left -rotate-60 truncate group-focus-visible:font-semibold group-focus-visible:underline">
                      {title}
                    </span>
                    <span
                      role="tooltip"
                      id={tipId}
                      className="pointer-events-none invisible absolute top-full left-0 z-40 mt-1 w-max max-w-[240px] rounded bg-slate-900 px-2 py-1 text-xs whitespace-normal text-white shadow-lg group-hover:visible group-focus:visible"
                    >
                      {title}
                    </span>
                  </div>
                );
              })}
            </div>
            {rowItems.map((r) => {
              const row = shown[r.index] as number;
              const u = grid.users[row];
              if (!u) return null;
              const open = (courseId: number) => navigate(`/users/${u.id}#course-${courseId}`);
              return (
                <div
                  key={r.key}
                  role="row"
                  aria-rowindex={r.index + 2}
                  className="absolute left-0 flex border-t border-gray-100"
                  style={{ top: HEADER_H + r.start, height: ROW_H, width: FIXED_W + cols.getTotalSize() }}
                >
                  <div
                    className="sticky left-0 z-10 flex items-center bg-white text-xs"
                    style={{ width: FIXED_W }}
                  >
                    <span
                      role="rowheader"
                      title={[
                        u.name,
                        u.roleId ? grid.roles.get(u.roleId)?.name : null,
                        grid.entities.get(u.entityId)?.name,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                      className={`${layout.user} truncate px-2 font-medium`}
                    >
                      <Link
                        to={`/users/${u.id}`}
                        tabIndex={tabStop === `${r.index}:-1` ? 0 : -1}
                        data-cell={`${r.index}:-1`}
                        className="text-slate-900 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-slate-900"
                      >
                        {u.name}
                      </Link>
                    </span>
                    <span role="gridcell" className={`${layout.aside} px-2`}>
                      {u.roleId ? grid.roles.get(u.roleId)?.name : ''}
                    </span>
                    <span role="gridcell" className={`${layout.aside} px-2`}>
                      {grid.entities.get(u.entityId)?.name}
                    </span>
                    <span role="gridcell" className={`${layout.score} px-2 tabular-nums`}>
                      {grid.score(row)}%
                    </span>
                  </div>
                  {colItems.map((c) => {
                    const course = courses[c.index];
                    const cell = course ? grid.cell(row, course.id) : null;
                    if (!course) return null;
                    const position = `${r.index}:${c.index}`;
                    if (!cell)
                      return (
                        <div
                          key={c.key}
                          role="gridcell"
                          aria-label={`${course.title}: not required`}
                          data-cell={position}
                          tabIndex={tabStop === position ? 0 : -1}
                          className="absolute top-1 rounded-sm outline-offset-1 focus-visible:outline-3 focus-visible:outline-slate-900"
                          style={{ left: FIXED_W + c.start + 2, width: COL_W - 4, height: ROW_H - 8 }}
                        />
                      );
                    return (
                      <MatrixCell
                        key={c.key}
                        courseTitle={course.title}
                        cell={cell}
                        wl={wl}
                        position={position}
                        tabIndex={tabStop === position ? 0 : -1}
                        onOpen={() => open(course.id)}
                        style={{ left: FIXED_W + c.start + 2, width: COL_W - 4, height: ROW_H - 8 }}
                      />
                    );
                  })}
                </div>
              );
            })}
          </div>
        </section>
      ) : null}
    </div>
  );
}
