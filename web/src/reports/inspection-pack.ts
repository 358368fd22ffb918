/**
 * Which organisations the inspection pack page offers (issue 33 §6): every one the manager can see, each home under
 * its group, by name; the caller's own organisation when they cannot list organisations (no permission 22).
 */
export interface PackPlace {
  id: number;
  slug: string;
  name: string;
  level: 'A' | 'B';
}

export function packPlaces(listed: readonly PackPlace[] | undefined, own: PackPlace | null): PackPlace[] {
  const places = listed?.length ? [...listed] : own ? [own] : [];
  const unique = [...new Map(places.map((p) => [p.id, p])).values()];
  return unique.sort((a, b) =>
    a.level === b.level ? a.name.localeCompare(b.name) : a.level === 'A' ? -1 : 1,
  );
}

/** The page that offers every pack (Reports → Inspection pack; the dashboard and the search link to it). */
export const INSPECTION_PACK_PATH = '/reports/inspection-pack';
