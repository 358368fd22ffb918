import { type ReactNode, useId, useState } from 'react';
import { Button } from './Button';
import { cx } from './cx';

/**
 * A list's filters: a grid of fields on wide screens; on narrow ones folded away behind one button so the list comes
 * first. `summary` says what is shown while folded ("Filtered" / "Everyone"); `onClear` (when filters are active)
 * adds "Clear filters" at the end. `align`: how the grid's cells line up (fields of different heights).
 */
export function FoldingFilters({
  summary,
  onClear,
  align = 'end',
  children,
}: {
  summary: string;
  onClear?: (() => void) | null;
  align?: 'start' | 'end';
  children: ReactNode;
}) {
  const panelId = useId();
  const [open, setOpen] = useState(false);
  return (
    <>
      <div className="flex items-center justify-between gap-3 p-4 sm:hidden">
        <span className="text-sm text-slate-700">{summary}</span>
        <Button
          variant="secondary"
          size="sm"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide filters' : 'Filters'}
        </Button>
      </div>
      <div
        id={panelId}
        className={cx(
          'grid-cols-1 gap-3 p-4 sm:grid sm:grid-cols-2 lg:grid-cols-4',
          align === 'end' ? 'sm:items-end' : 'sm:items-start',
          open ? 'grid border-t border-slate-200 sm:border-t-0' : 'hidden',
        )}
      >
        {children}
        {onClear ? (
          <div className="flex h-10 items-center sm:self-end">
            <button
              type="button"
              className="focus-ring rounded text-sm font-medium text-primary-800 underline"
              onClick={onClear}
            >
              Clear filters
            </button>
          </div>
        ) : null}
      </div>
    </>
  );
}
