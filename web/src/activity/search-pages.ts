import { ReportsPerm } from '@cc/contracts';
import { INSPECTION_PACK_PATH } from '../reports/inspection-pack';

/**
 * Pages the system search finds by what they are for (issue 33 §6: a manager types "inspection" and finds the
 * inspection pack). The API searches records; these are the app's own pages, matched here, each only for the
 * people its permission lets in.
 */
export interface PageHit {
  title: string;
  detail: string;
  to: string;
}

interface SearchablePage extends PageHit {
  /** Words people use for it, besides its title. */
  words: string[];
  permissions: number[];
}

const PAGES: SearchablePage[] = [
  {
    title: 'Inspection pack',
    detail: 'A PDF and a zip of evidence for an inspector (CQC Regulation 18)',
    to: INSPECTION_PACK_PATH,
    words: [
      'inspection',
      'inspector',
      'cqc',
      'regulation 18',
      'quality statement',
      'single assessment framework',
      'evidence',
      'audit',
      'sign-off',
      'pack',
    ],
    permissions: [ReportsPerm.complianceReport],
  },
  {
    title: 'ASC-WDS training export',
    detail: 'Training records as the workforce data set’s bulk upload file (Skills for Care)',
    to: '/reports/asc-wds',
    words: [
      'asc-wds',
      'ascwds',
      'wds',
      'skills for care',
      'workforce data set',
      'nmds',
      'bulk upload',
      'export',
    ],
    permissions: [ReportsPerm.complianceReport, ReportsPerm.complianceExcel],
  },
  {
    title: 'Compliance report',
    detail: 'Scores by organisation, job role and person, to export',
    to: '/reports/compliance',
    words: ['compliance', 'report', 'score', 'export'],
    permissions: [ReportsPerm.complianceReport],
  },
  {
    title: 'Compliance matrix',
    detail: 'Every person against every required course',
    to: '/reports/matrix',
    words: ['matrix', 'training matrix', 'compliance'],
    permissions: [ReportsPerm.matrixReport],
  },
];

/** The pages that match every word of `q` (at least 2 characters), for a caller with `can`. */
export function pageHits(q: string, can: (ids: number[]) => boolean): PageHit[] {
  const terms = q.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.join('').length < 2) return [];
  return PAGES.filter((p) => can(p.permissions))
    .filter((p) => {
      const text = [p.title, ...p.words].join(' ').toLowerCase();
      return terms.every((t) => text.includes(t));
    })
    .map(({ title, detail, to }) => ({ title, detail, to }));
}
