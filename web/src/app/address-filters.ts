import { useSearchParams } from 'react-router';

/**
 * A list's filters kept in the address (shareable, kept on reload), for the keys given. `set` changes some of them
 * (null or '' removes one) and goes back to the first page unless the patch names the page; the address is replaced,
 * not pushed, so Back leaves the list rather than stepping through its filters. `active`: any filter key set.
 */
export function useAddressFilters(keys: readonly string[]) {
  const [params, setParams] = useSearchParams();
  const set = (patch: Record<string, string | null>) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        for (const [k, v] of Object.entries(patch)) {
          if (v === null || v === '') next.delete(k);
          else next.set(k, v);
        }
        if (!('page' in patch)) next.delete('page');
        return next;
      },
      { replace: true },
    );
  return {
    params,
    set,
    active: keys.some((k) => params.get(k)),
    clear: () => set(Object.fromEntries(keys.map((k) => [k, null]))),
  };
}
