import type { StandardsSource } from '@cc/contracts';

/**
 * Where the official text of each built-in version is published (standards/SOURCES.md; the project's reference
 * ../shared/reference/care-certificate-criteria.md §1). The Skills for Care pages hold the official PDFs: the
 * standards document (every outcome and criterion) and, for 2015, one "progress log, mapping and sign-off" document
 * per standard. A version that is not built in has no known source.
 */
const SFC = 'https://www.skillsforcare.org.uk/Developing-your-workforce/Care-Certificate';
const PAGES: Record<string, { page: string; document: string; perStandard: (n: number) => string }> = {
  '2015': {
    page: `${SFC}/2015-Care-Certificate-standards.aspx`,
    document:
      'Skills for Care: 2015 Care Certificate standards (the standards PDF and its per-standard documents)',
    perStandard: (n) => `Standard ${n} progress log, mapping and sign-off (Skills for Care, 2015)`,
  },
  '2025': {
    page: `${SFC}/Care-Certificate-standards.aspx`,
    document: 'Skills for Care: The Care Certificate standards (updated 2025)',
    perStandard: (n) => `Standard ${n} in "The Care Certificate standards (updated 2025)" (Skills for Care)`,
  },
};

/** The version's publication page (none for a version that is not built in). */
export function versionSources(code: string): StandardsSource[] {
  const p = PAGES[code];
  return p ? [{ label: p.document, url: p.page }] : [];
}

/** The official document that holds one standard's criteria. */
export function standardSources(code: string, number: number): StandardsSource[] {
  const p = PAGES[code];
  return p ? [{ label: p.perStandard(number), url: p.page }] : [];
}
