import type { PresetOption } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useId, useState } from 'react';
import { errorText } from '../ui/Field';

export type PickOption = PresetOption;

/**
 * Choose ids for a preset list (entities, roles, courses, users): the chosen ones as removable chips, and a search
 * whose matches can be added. Options come from the capability's own list endpoint, so they are already bounded
 * by the caller's scope. An id whose name is not loaded shows as "#id".
 */
export function IdPicker({
  label,
  hint,
  selected,
  onChange,
  load,
  resolve,
  queryKey,
  error,
  disabled = false,
}: {
  label: string;
  hint?: string;
  selected: number[];
  onChange: (ids: number[]) => void;
  load: (search: string) => Promise<PickOption[]>;
  /** Labels of chosen ids not loaded yet (a saved preset's choices). */
  resolve?: (ids: number[]) => Promise<PickOption[]>;
  queryKey: readonly unknown[];
  error?: string[] | string;
  disabled?: boolean;
}) {
  const id = useId();
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search.trim());
  const [known, setKnown] = useState<Record<number, string>>({});
  const options = useQuery({
    queryKey: [...queryKey, deferred],
    queryFn: async () => {
      const found = await load(deferred);
      setKnown((k) => ({ ...k, ...Object.fromEntries(found.map((o) => [o.id, o.label])) }));
      return found;
    },
    enabled: !disabled,
    staleTime: 30_000,
  });
  const unknown = selected.filter((value) => known[value] === undefined);
  const unknownKey = unknown.join(',');
  useEffect(() => {
    if (!resolve || !unknownKey) return;
    let live = true;
    const ids = unknownKey.split(',').map(Number);
    resolve(ids)
      .then((found) => {
        // Ids the server no longer offers keep their number, and are not asked for again.
        const labels = Object.fromEntries(ids.map((i) => [i, `#${i}`]));
        for (const o of found) labels[o.id] = o.label;
        if (live) setKnown((k) => ({ ...k, ...labels }));
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [resolve, unknownKey]);
  const err = errorText(error ?? null);
  const available = (options.data ?? []).filter((o) => !selected.includes(o.id)).slice(0, 8);
  return (
    <fieldset className="space-y-2" aria-describedby={err ? `${id}-error` : hint ? `${id}-hint` : undefined}>
      <legend className="text-sm font-medium text-slate-800">{label}</legend>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {selected.length ? (
        <ul className="flex flex-wrap gap-2" aria-label={`Chosen ${label.toLowerCase()}`}>
          {selected.map((value) => {
            const name = known[value] ?? `#${value}`;
            return (
              <li key={value}>
                <button
                  type="button"
                  className="focus-ring inline-flex items-center gap-1 rounded-full bg-primary-100 px-3 py-1 text-sm text-primary-900 hover:bg-primary-200"
                  onClick={() => onChange(selected.filter((s) => s !== value))}
                  aria-label={`Remove ${name}`}
                >
                  {name}
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">All (no limit).</p>
      )}
      {disabled ? null : (
        <>
          <label htmlFor={id} className="sr-only">
            {`Search ${label.toLowerCase()}`}
          </label>
          <input
            id={id}
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder={`Search ${label.toLowerCase()}`}
            className="block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm focus:border-primary-700 focus:outline-none focus:ring-2 focus:ring-primary-300"
          />
          {options.isError ? (
            <p className="text-sm text-danger-700">Could not load the {label.toLowerCase()}.</p>
          ) : options.isLoading ? (
            <p className="text-sm text-slate-600">Loading…</p>
          ) : available.length ? (
            <ul className="flex flex-wrap gap-2" aria-label={`Add ${label.toLowerCase()}`}>
              {available.map((o) => (
                <li key={o.id}>
                  <button
                    type="button"
                    className="focus-ring rounded-full border border-slate-300 px-3 py-1 text-sm text-slate-800 hover:bg-slate-100"
                    onClick={() => onChange([...selected, o.id])}
                    aria-label={`Add ${o.label}`}
                  >
                    + {o.label}
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600">No matches.</p>
          )}
        </>
      )}
      {err ? (
        <p id={`${id}-error`} className="text-sm text-danger-700">
          {err}
        </p>
      ) : null}
    </fieldset>
  );
}
