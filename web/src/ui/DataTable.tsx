import type { ReactNode } from 'react';
import { cx } from './cx';

export interface Column<T> {
  key: string;
  header: ReactNode;
  render?: (row: T) => ReactNode;
  className?: string;
  /** Hide on narrow screens (the first column and actions always show). */
  hideOnMobile?: boolean;
}

/**
 * A server-paginated list (pair it with <Pagination>). Shows skeleton rows while loading, the `empty` slot
 * when there are no rows, and the row actions in a last column. Scrolls sideways on narrow screens.
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
  const colCount = columns.length + (rowActions ? 1 : 0);
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
            {rowActions ? (
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
                  {columns.map((c) => (
                    <td
                      key={c.key}
                      className={cx(
                        'px-4 py-3 text-slate-800',
                        c.hideOnMobile && 'hidden md:table-cell',
                        c.className,
                      )}
                    >
                      {c.render ? c.render(row) : String((row as Record<string, unknown>)[c.key] ?? '')}
                    </td>
                  ))}
                  {rowActions ? (
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
