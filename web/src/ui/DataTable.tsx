import { type ReactNode, useEffect, useState } from 'react';
import { cx } from './cx';

export interface Column<T> {
  key: string;
  header: ReactNode;
  render?: (row: T) => ReactNode;
  className?: string;
  /** Hide on narrow screens (the first column and actions always show). */
  hideOnMobile?: boolean;
}

const WIDE = '(min-width: 640px)';

/** True from 640 px wide (and where matchMedia is missing, e.g. unit tests): the same test as presets/RowList. */
function useWide(): boolean {
  const query = () => typeof window === 'undefined' || !window.matchMedia || window.matchMedia(WIDE).matches;
  const [wide, setWide] = useState(query);
  useEffect(() => {
    if (!window.matchMedia) return;
    const media = window.matchMedia(WIDE);
    const onChange = () => setWide(media.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  return wide;
}

/**
 * A server-paginated list (pair it with <Pagination>). Shows skeleton rows while loading, the `empty` slot
 * when there are no rows, and the row actions in a last column. Below 640 px the row actions wrap under the first
 * cell instead (a last column would be pushed out of sight at 375 px); only one place is rendered, so each action
 * keeps one accessible name.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  loading = false,
  empty,
  rowActions,
  caption,
  skeletonRows = 5,
}: {
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string | number;
  loading?: boolean;
  empty?: ReactNode;
  rowActions?: (row: T) => ReactNode;
  /** Names the table for screen readers. */
  caption: string;
  skeletonRows?: number;
}) {
  const wide = useWide();
  const actionsColumn = Boolean(rowActions) && wide;
  const colCount = columns.length + (actionsColumn ? 1 : 0);
  const showEmpty = !loading && (!rows || rows.length === 0);
  return (
    <div className="relative overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-sm" aria-busy={loading || undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50">
          <tr>
            {columns.map((c) => (
              <th
                key={c.key}
                scope="col"
                className={cx(
                  'px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase',
                  c.hideOnMobile && 'hidden md:table-cell',
                  c.className,
                )}
              >
                {c.header}
              </th>
            ))}
            {actionsColumn ? (
              <th scope="col" className="px-4 py-3 text-right">
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">
          {loading
            ? Array.from({ length: skeletonRows }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
                <tr key={i} data-testid="skeleton-row">
                  {Array.from({ length: colCount }, (_, j) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cells have no identity
                    <td key={j} className="px-4 py-3">
                      <div className="cc-skeleton h-4 w-3/4 rounded bg-slate-200" />
                    </td>
                  ))}
                </tr>
              ))
            : rows?.map((row) => (
                <tr key={rowKey(row)} className="hover:bg-slate-50">
                  {columns.map((c, i) => (
                    <td
                      key={c.key}
                      className={cx(
                        'px-4 py-3 text-slate-800',
                        c.hideOnMobile && 'hidden md:table-cell',
                        c.className,
                      )}
                    >
                      {c.render ? c.render(row) : String((row as Record<string, unknown>)[c.key] ?? '')}
                      {i === 0 && rowActions && !wide ? (
                        <div className="mt-2 flex flex-wrap gap-1" data-testid="row-actions">
                          {rowActions(row)}
                        </div>
                      ) : null}
                    </td>
                  ))}
                  {actionsColumn && rowActions ? (
                    <td className="px-4 py-3 text-right whitespace-nowrap">
                      <div className="inline-flex gap-1">{rowActions(row)}</div>
                    </td>
                  ) : null}
                </tr>
              ))}
          {showEmpty ? (
            <tr>
              <td colSpan={colCount}>
                {empty ?? <p className="px-4 py-8 text-center text-slate-600">Nothing here yet.</p>}
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
