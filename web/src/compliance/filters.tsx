import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useWhitelabel } from '../app/whitelabel';
import { Select } from '../ui';

/**
 * The navigation filters of spec 1 §3 / spec 2 §4, shared by the compliance pages, the matrix and the reports:
 * new starters include or exclude (default include), compliance type (default primary; `all` = both), role
 * inspectable filter (default all). They live in the URL query (new_starters, compliance_type, inspectable) so a
 * filtered page can be bookmarked and shared; defaults are left out of the URL.
 */
export interface ComplianceFilterValues {
  newStarters: 'include' | 'exclude';
  complianceType: 'primary' | 'secondary' | 'all';
  inspectable: 'all' | '1' | '0';
}

export const COMPLIANCE_FILTER_DEFAULTS: ComplianceFilterValues = {
  newStarters: 'include',
  complianceType: 'primary',
  inspectable: 'all',
};

const PARAM: Record<keyof ComplianceFilterValues, string> = {
  newStarters: 'new_starters',
  complianceType: 'compliance_type',
  inspectable: 'inspectable',
};
const ALLOWED: { [K in keyof ComplianceFilterValues]: readonly ComplianceFilterValues[K][] } = {
  newStarters: ['include', 'exclude'],
  complianceType: ['primary', 'secondary', 'all'],
  inspectable: ['all', '1', '0'],
};

/** Reads the filters from a query string (unknown values fall back to the defaults). */
export function parseComplianceFilters(search: URLSearchParams): ComplianceFilterValues {
  const pick = <K extends keyof ComplianceFilterValues>(key: K): ComplianceFilterValues[K] => {
    const raw = search.get(PARAM[key]);
    return (ALLOWED[key] as readonly string[]).includes(raw ?? '')
      ? (raw as ComplianceFilterValues[K])
      : COMPLIANCE_FILTER_DEFAULTS[key];
  };
  return {
    newStarters: pick('newStarters'),
    complianceType: pick('complianceType'),
    inspectable: pick('inspectable'),
  };
}

/**
 * The API parameters for the filters: new_starters_filter (spec 2 §3 enumeration), compliance_type, inspectable
 * (only when not all) and new_starters (include/exclude, the score endpoint's name).
 */
export function complianceFilterParams(f: ComplianceFilterValues) {
  return {
    new_starters: f.newStarters,
    new_starters_filter: f.newStarters === 'include' ? 'include_new_starters' : 'exclude_new_starters',
    compliance_type: f.complianceType,
    inspectable: f.inspectable === 'all' ? undefined : f.inspectable,
  } as const;
}

/** `const { filters, setFilter, reset } = useComplianceFilters()`: the filters in the URL query. */
export function useComplianceFilters() {
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => parseComplianceFilters(search), [search]);
  const setFilter = useCallback(
    <K extends keyof ComplianceFilterValues>(key: K, value: ComplianceFilterValues[K]) => {
      setSearch(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (value === COMPLIANCE_FILTER_DEFAULTS[key]) next.delete(PARAM[key]);
          else next.set(PARAM[key], value);
          next.delete('page');
          return next;
        },
        { replace: true },
      );
    },
    [setSearch],
  );
  const reset = useCallback(
    () =>
      setSearch(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const p of Object.values(PARAM)) next.delete(p);
          return next;
        },
        { replace: true },
      ),
    [setSearch],
  );
  return { filters, setFilter, reset };
}

/**
 * The filter bar. `show` picks which filters appear (all three by default). Labels of the compliance types come
 * from the white-label (primaryComplianceAltName / secondaryComplianceAltName).
 */
export function ComplianceFilters({
  show = ['newStarters', 'complianceType', 'inspectable'],
}: {
  show?: (keyof ComplianceFilterValues)[];
}) {
  const { filters, setFilter } = useComplianceFilters();
  const wl = useWhitelabel();
  return (
    <fieldset className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end" aria-label="Filters">
      {show.includes('newStarters') ? (
        <div className="w-full sm:w-52">
          <Select
            label="New starters"
            value={filters.newStarters}
            options={[
              { value: 'include', label: 'Include new starters' },
              { value: 'exclude', label: 'Exclude new starters' },
            ]}
            onChange={(e) =>
              setFilter('newStarters', e.target.value as ComplianceFilterValues['newStarters'])
            }
          />
        </div>
      ) : null}
      {show.includes('complianceType') ? (
        <div className="w-full sm:w-52">
          <Select
            label="Compliance type"
            value={filters.complianceType}
            options={[
              { value: 'primary', label: wl.primaryComplianceAltName },
              { value: 'secondary', label: wl.secondaryComplianceAltName },
              { value: 'all', label: `${wl.primaryComplianceAltName} and ${wl.secondaryComplianceAltName}` },
            ]}
            onChange={(e) =>
              setFilter('complianceType', e.target.value as ComplianceFilterValues['complianceType'])
            }
          />
        </div>
      ) : null}
      {show.includes('inspectable') ? (
        <div className="w-full sm:w-52">
          <Select
            label="Job roles"
            value={filters.inspectable}
            options={[
              { value: 'all', label: 'All job roles' },
              { value: '1', label: 'Inspectable roles' },
              { value: '0', label: 'Not inspectable roles' },
            ]}
            onChange={(e) =>
              setFilter('inspectable', e.target.value as ComplianceFilterValues['inspectable'])
            }
          />
        </div>
      ) : null}
    </fieldset>
  );
}
