import { type ReactNode, useEffect, useState } from 'react';
import { type Column, DataTable } from '../ui';

const WIDE = '(min-width: 640px)';

/** True on screens from 640 px (and where matchMedia is missing, e.g. unit tests). */
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
 * A table on wide screens, a list of cards on phones (375 px): the row actions wrap under each card instead of
 * pushing the page sideways. Only one of the two is rendered, so every action has one accessible name.
 */
export function RowList<T>({
  caption,
  columns,
  rows,
  rowKey,
  loading,
  empty,
  actions,
  card,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => number;
  loading: boolean;
  empty: ReactNode;
  actions: (row: T) => ReactNode;
  card: (row: T) => ReactNode;
}) {
  const wide = useWide();
  if (wide)
    return (
      <DataTable
        caption={caption}
        columns={columns}
        rows={rows}
        rowKey={rowKey}
        loading={loading}
        rowActions={actions}
        empty={empty}
      />
    );
  return (
    <ul className="divide-y divide-slate-100" aria-label={caption} aria-busy={loading || undefined}>
      {loading
        ? [0, 1, 2].map((i) => (
            <li key={i} className="space-y-2 p-4" data-testid="skeleton-row">
              <div className="cc-skeleton h-4 w-1/2 rounded bg-slate-200" />
              <div className="cc-skeleton h-3 w-3/4 rounded bg-slate-200" />
            </li>
          ))
        : rows?.map((row) => (
            <li key={rowKey(row)} className="space-y-2 p-4">
              {card(row)}
              <div className="-ml-2 flex flex-wrap items-center gap-1">{actions(row)}</div>
            </li>
          ))}
      {!loading && !rows?.length ? <li>{empty}</li> : null}
    </ul>
  );
}
