import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import { errorText } from '../../ui/Field';
import { searchPeople } from './api';

export interface PickedPerson {
  id: number;
  label: string;
}

/** Choose one person in scope: search, pick from the matches, change the choice with "Choose someone else". */
export function PersonPicker({
  value,
  onChange,
  error,
  label = 'Person',
}: {
  value: PickedPerson | null;
  onChange: (p: PickedPerson | null) => void;
  error?: string | string[];
  label?: string;
}) {
  const id = useId();
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search.trim());
  const people = useQuery({
    queryKey: ['care-certificate', 'people', deferred],
    queryFn: () => searchPeople(deferred),
    enabled: value === null,
    staleTime: 30_000,
  });
  const err = errorText(error ?? null);
  return (
    <fieldset className="space-y-2" aria-describedby={err ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium text-slate-800">
        {label}
        <span className="text-danger-700" aria-hidden="true">
          {' '}
          *
        </span>
      </legend>
      {value ? (
        <div className="flex flex-wrap items-center gap-3">
          <span
            className="rounded-full bg-primary-100 px-3 py-1 text-sm font-medium text-primary-900"
            data-testid="picked-person"
          >
            {value.label}
          </span>
          <button
            type="button"
            className="focus-ring rounded text-sm font-medium text-primary-800 underline"
            onClick={() => onChange(null)}
          >
            Choose someone else
          </button>
        </div>
      ) : (
        <>
          <label htmlFor={id} className="sr-only">
            Search people
          </label>
          <input
            id={id}
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Search by name or e-mail"
            aria-invalid={err ? true : undefined}
            className="block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm focus:border-primary-700 focus:outline-none focus:ring-2 focus:ring-primary-300"
          />
          {people.isError ? (
            <p className="text-sm text-danger-700">Could not load people.</p>
          ) : people.isLoading ? (
            <p className="text-sm text-slate-600">Loading…</p>
          ) : people.data?.length ? (
            <ul
              className="max-h-56 divide-y divide-slate-100 overflow-y-auto rounded-lg ring-1 ring-slate-200"
              aria-label="Matching people"
            >
              {people.data.slice(0, 8).map((p) => (
                <li key={p.id}>
                  <button
                    type="button"
                    className="focus-ring block w-full px-3 py-2 text-left text-sm hover:bg-slate-50"
                    onClick={() => onChange({ id: p.id, label: p.label })}
                  >
                    <span className="font-medium text-slate-900">{p.label}</span>
                    {p.hint ? <span className="block text-xs break-all text-slate-600">{p.hint}</span> : null}
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
