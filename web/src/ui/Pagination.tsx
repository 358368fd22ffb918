import { cx } from './cx';

/** Laravel-style paging meta (contracts PageMeta). */
export interface PaginationMeta {
  current_page: number;
  last_page: number;
  total: number;
  from?: number | null;
  to?: number | null;
}

/** Page numbers to show: first, last, and a window around the current page, with gaps as null. */
export function pageWindow(current: number, last: number, radius = 1): (number | null)[] {
  const pages: (number | null)[] = [];
  for (let p = 1; p <= last; p++) {
    if (p === 1 || p === last || Math.abs(p - current) <= radius) pages.push(p);
    else if (pages[pages.length - 1] !== null) pages.push(null);
  }
  return pages;
}

const BTN =
  'focus-ring inline-flex h-9 min-w-9 items-center justify-center rounded-lg px-3 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-50';

export function Pagination({
  meta,
  onPageChange,
  label = 'Pagination',
}: {
  meta: PaginationMeta;
  onPageChange: (page: number) => void;
  label?: string;
}) {
  const { current_page: current, last_page: last, total } = meta;
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-3 px-1 py-3">
      <p className="text-sm text-slate-600">
        {meta.from && meta.to
          ? `${meta.from}–${meta.to} of ${total}`
          : `${total} ${total === 1 ? 'result' : 'results'}`}
      </p>
      {last > 1 ? (
        <ul className="flex items-center gap-1">
          <li>
            <button
              type="button"
              className={cx(BTN, 'text-slate-700 hover:bg-slate-100')}
              onClick={() => onPageChange(current - 1)}
              disabled={current <= 1}
            >
              Previous
            </button>
          </li>
          {pageWindow(current, last).map((page, i) =>
            page === null ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity
              <li key={`gap-${i}`} aria-hidden="true" className="hidden px-1 text-slate-400 sm:block">
                …
              </li>
            ) : (
              <li key={page} className={page === current ? '' : 'hidden sm:block'}>
                <button
                  type="button"
                  className={cx(
                    BTN,
                    page === current
                      ? 'bg-primary-700 text-on-primary-700'
                      : 'text-slate-700 hover:bg-slate-100',
                  )}
                  aria-current={page === current ? 'page' : undefined}
                  aria-label={`Page ${page}`}
                  onClick={() => onPageChange(page)}
                >
                  {page}
                </button>
              </li>
            ),
          )}
          <li>
            <button
              type="button"
              className={cx(BTN, 'text-slate-700 hover:bg-slate-100')}
              onClick={() => onPageChange(current + 1)}
              disabled={current >= last}
            >
              Next
            </button>
          </li>
        </ul>
      ) : null}
    </nav>
  );
}

/**
 * The pagination of a list inside a Card, under its table: shown once the list has loaded and has rows (an empty list
 * shows its empty state alone).
 */
export function CardPagination({
  meta,
  onPageChange,
  label,
}: {
  meta: PaginationMeta | undefined;
  onPageChange: (page: number) => void;
  label: string;
}) {
  if (!meta || meta.total === 0) return null;
  return (
    <div className="border-t border-slate-200 px-4">
      <Pagination meta={meta} onPageChange={onPageChange} label={label} />
    </div>
  );
}
