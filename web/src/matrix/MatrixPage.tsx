// biome-ignore-all lint/a11y/useSemanticElements: a virtualised grid positions divs absolutely; ARIA grid roles describe them
// biome-ignore-all lint/a11y/useFocusableInteractive: the grid's scroll region is the focus stop (tabIndex 0); cells are read, not operated
import {
  compliantCells,
  MATRIX_TAKING_LONG_MS,
  MatrixMessages,
  type MatrixTopLevelAggregate,
  matrixColumnSpan,
  type ServerMessage,
} from '@cc/contracts';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { useActingAs } from '../app/acting-as';
import { api } from '../app/api';
import { notifyError, notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { ComplianceFilters, complianceFilterParams, useComplianceFilters } from '../compliance/filters';
import { download } from '../reports/api';
import { Button, Card, EmptyState, PageHeader, Select } from '../ui';
import { MatrixGrid } from './grid';
import { MatrixCell, MatrixLegend } from './MatrixCell';
import { RestartNotice } from './RestartNotice';
import { subscribeMatrix } from './socket';

/**
 * /reports/matrix (spec 2 §2, §4, §9): the live matrix over the websocket. Progress until 1, then the grid:
 * virtualised both ways (only the visible window is rendered), sticky user column and course header row, column
 * span = courses + 4 (user, role, entity, score + courses), cells coloured with the white-label traffic lights and
 * titled (status, completed, expires). Taking-long notice after 15 s; "too large" on 500/504/no response.
 */

const ROW_H = 36;
const COL_W = 44;
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
  const { filters: nav } = useComplianceFilters();
  const [entity, setEntity] = useState('');
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
  const scroller = useRef<HTMLDivElement>(null);
  const layout = useNarrow() ? NARROW : WIDE;
  const FIXED_W = layout.fixed;
  const rows = useVirtualizer({
    count: grid.users.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_H,
    overscan: 8,
  });
  const cols = useVirtualizer({
    horizontal: true,
    count: courses.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => COL_W,
    overscan: 4,
  });
  const tooLarge = error && (error.status === 500 || error.status === 504);
  const body = { ...filters, directFormat: 'file' };

  const emailMe = async (format: 'pdf' | 'xlsx') => {
    try {
      await api.post('/reports/matrix', { ...filters, emailFormat: format });
      notifySuccess(MatrixMessages.emailQueued);
    } catch {
      // spec 2 §8: the emailed-matrix failure message, whatever the server said.
      notifyError(null, MatrixMessages.emailFailed);
    }
  };

  return (
    <div className="flex flex-col gap-4">
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
              label={wl.entityAltName ?? 'Entity'}
              value={entity}
              onChange={(e) => setEntity(e.target.value)}
              options={[
                { value: '', label: 'All' },
                ...[...grid.entities.values()].map((e) => ({ value: String(e.id), label: e.name })),
              ]}
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
        <section
          ref={scroller}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the scroll region must be reachable by keyboard
          tabIndex={0}
          aria-label="Compliance matrix"
          className="relative h-[70vh] overflow-auto rounded-md border border-gray-200 bg-white"
        >
          <div
            role="grid"
            aria-rowcount={grid.users.length + 1}
            aria-colcount={matrixColumnSpan(courses.length)}
            style={{
              width: FIXED_W + cols.getTotalSize(),
              height: rows.getTotalSize() + 110,
              position: 'relative',
            }}
          >
            <div
              role="row"
              aria-rowindex={1}
              className="sticky top-0 z-20 flex bg-white"
              style={{ height: 110 }}
            >
              <div
                className="sticky left-0 z-30 flex items-end bg-white text-xs font-semibold"
                style={{ width: FIXED_W }}
              >
                <span role="columnheader" className={`${layout.user} truncate p-2`}>
                  User
                </span>
                <span role="columnheader" className={`${layout.aside} p-2`}>
                  Role
                </span>
                <span role="columnheader" className={`${layout.aside} p-2`}>
                  {wl.entityAltName ?? 'Entity'}
                </span>
                <span role="columnheader" className={`${layout.score} p-2`}>
                  Score
                </span>
              </div>
              {cols.getVirtualItems().map((c) => (
                <div
                  key={c.key}
                  role="columnheader"
                  title={courses[c.index]?.title}
                  className="absolute bottom-0 overflow-hidden text-[11px] text-gray-800"
                  style={{ left: FIXED_W + c.start, width: COL_W, height: 110 }}
                >
                  <span className="absolute bottom-2 left-3 block w-[100px] origin-bottom-left -rotate-60 truncate">
                    {courses[c.index]?.title}
                  </span>
                </div>
              ))}
            </div>
            {rows.getVirtualItems().map((r) => {
              const u = grid.users[r.index];
              if (!u) return null;
              return (
                <div
                  key={r.key}
                  role="row"
                  aria-rowindex={r.index + 2}
                  className="absolute left-0 flex border-t border-gray-100"
                  style={{ top: 110 + r.start, height: ROW_H, width: FIXED_W + cols.getTotalSize() }}
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
                      {u.name}
                    </span>
                    <span role="gridcell" className={`${layout.aside} px-2`}>
                      {u.roleId ? grid.roles.get(u.roleId)?.name : ''}
                    </span>
                    <span role="gridcell" className={`${layout.aside} px-2`}>
                      {grid.entities.get(u.entityId)?.name}
                    </span>
                    <span role="gridcell" className={`${layout.score} px-2`}>
                      {grid.score(r.index)}%
                    </span>
                  </div>
                  {cols.getVirtualItems().map((c) => {
                    const course = courses[c.index];
                    const cell = course ? grid.cell(r.index, course.id) : null;
                    if (!course || !cell) return null;
                    return (
                      <MatrixCell
                        key={c.key}
                        courseTitle={course.title}
                        cell={cell}
                        wl={wl}
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
