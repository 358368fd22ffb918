import { COURSE_STATUS_LABELS, type CourseStatus, type MatrixCell, type MatrixUser } from '@cc/contracts';
import { scoreOf } from '../compliance/rules';
import type { PolicyReceipt } from '../documents/inspection-pack';
import {
  CQC_FRAMEWORK_NAME,
  type PackFigureKey,
  type PackSectionKey,
  QUALITY_STATEMENTS,
  type QualityStatement,
} from './cqc/quality-statements';
import type { PackCareCertificates } from './inspection-pack-care-certificate';

/** What the figures are counted from: the pack's data (inspection-pack.ts PackData) and its gaps (packGaps). */
export interface FiguresSource {
  people: (Pick<MatrixUser, 'id' | 'new_starter'> & {
    cells: Pick<MatrixCell, 'type' | 'in_date_passed' | 'counted'>[];
  })[];
  evidence: { userId: number; type: string; expires: Date | null }[];
  generatedAt: Date;
  careCertificates?: PackCareCertificates;
  receipts?: PolicyReceipt[];
  audit?: { total: number };
}
export type FiguresGap = { status: CourseStatus; booked: Date | null };

/**
 * The inspection pack's CQC summary page (issue 37 §3): for each quality statement of the CQC single assessment
 * framework that training evidences (cqc/quality-statements.ts, sourced in cqc/SOURCES.md), the pack's own figures and
 * where its evidence is in the pack (section and page).
 *
 * Every figure is counted from what the pack already holds: the gaps (packGaps: each a contracts courseStatus), the
 * matrix cells' in_date_passed (the matrix SQL's one status), the Care Certificate summaries, the policy receipts and
 * the audit trail. packFigures is the one place they are counted; the pack's cover and this page both print from it.
 */
export interface PackFigures {
  people: number;
  /** Mandatory and Required cells of the pack's people, and those in date (including expiring soon and exempt). */
  required: number;
  compliant: number;
  score: number;
  /** The gaps (packGaps) and how many of each status. */
  gaps: number;
  expired: number;
  missing: number;
  due: number;
  pending: number;
  /** Gaps with a session of the course booked. */
  booked: number;
  /** Exemptions still running (listed under Exemptions). */
  exemptions: number;
  /** Certificates and evidence listed (the latest completion of each course per person). */
  evidence: number;
  starters: number;
  /** New starters with every required course done. */
  startersDone: number;
  /** New starters' Care Certificate, under the organisation's name for it; null when the pack has no new starters. */
  careCertificate: {
    label: string;
    complete: number;
    inProgress: number;
    overdue: number;
    notAssigned: number;
  } | null;
  /** Policy receipts; null when the pack has none (no receipts read). */
  receipts: { total: number; current: number; earlier: number; none: number } | null;
  /** Changes to training records in the last 12 months; null when the requester may not read the audit trail. */
  changes: number | null;
}

/** The exemptions still running when the figures were read (an ended one is an expired cell, among the gaps). */
export function runningExemptions<T extends { type: string; expires: Date | null }>(
  evidence: T[],
  now: Date,
): T[] {
  return evidence.filter((e) => e.type === 'exempt' && (e.expires === null || e.expires > now));
}

export function packFigures(data: FiguresSource, gaps: FiguresGap[]): PackFigures {
  // A new requirement inside its grace period (Due by) is not yet counted, as in the compliance figures.
  const required = data.people.flatMap((p) => p.cells.filter((c) => c.type !== 'none' && c.counted));
  const compliant = required.filter((c) => c.in_date_passed).length;
  const count = (status: CourseStatus) => gaps.filter((g) => g.status === status).length;
  const people = new Set(data.people.map((p) => p.id));
  const evidence = data.evidence.filter((e) => people.has(e.userId));
  const starters = data.people.filter((p) => p.new_starter);
  let careCertificate: PackFigures['careCertificate'] = null;
  if (starters.length && data.careCertificates) {
    const cc = data.careCertificates;
    const of = starters.map((p) => cc.byUser.get(p.id));
    careCertificate = {
      label: cc.label,
      complete: of.filter((c) => c?.status === 'complete').length,
      inProgress: of.filter((c) => c?.status === 'in_progress').length,
      overdue: of.filter((c) => c?.overdue).length,
      notAssigned: of.filter((c) => !c).length,
    };
  }
  const receipts = data.receipts
    ? {
        total: data.receipts.length,
        current: data.receipts.filter((r) => r.state === 'current').length,
        earlier: data.receipts.filter((r) => r.state === 'earlier').length,
        none: data.receipts.filter((r) => r.state === 'none').length,
      }
    : null;
  return {
    people: data.people.length,
    required: required.length,
    compliant,
    score: scoreOf(compliant, required.length),
    gaps: gaps.length,
    expired: count('expired'),
    missing: count('missing'),
    due: count('due'),
    pending: count('pending'),
    booked: gaps.filter((g) => g.booked).length,
    exemptions: runningExemptions(evidence, data.generatedAt).length,
    evidence: evidence.length,
    starters: starters.length,
    startersDone: starters.filter((p) => {
      const req = p.cells.filter((c) => c.type !== 'none');
      return req.every((c) => c.in_date_passed);
    }).length,
    careCertificate,
    receipts,
    changes: data.audit ? data.audit.total : null,
  };
}

/** One figure in words, as the summary page prints it; null when the pack has nothing for it (no new starters). */
export function figureLine(key: PackFigureKey, f: PackFigures): string | null {
  switch (key) {
    case 'people':
      return `People in this pack: ${f.people}`;
    case 'inDate':
      return `Required courses in date: ${f.compliant} of ${f.required} (${f.score}%)`;
    case 'expired':
      return `${COURSE_STATUS_LABELS.expired} (out of date): ${f.expired}`;
    case 'missing':
      return `${COURSE_STATUS_LABELS.missing} (never done): ${f.missing}`;
    case 'due':
      return `${COURSE_STATUS_LABELS.due} (new starters, new requirements): ${f.due}`;
    case 'pending':
      return `${COURSE_STATUS_LABELS.pending}: ${f.pending}`;
    case 'booked':
      return `Gaps with a session booked: ${f.booked} of ${f.gaps}`;
    case 'exemptions':
      return `Exemptions running: ${f.exemptions}`;
    case 'evidence':
      return `Certificates and evidence listed: ${f.evidence}`;
    case 'starters':
      return `New starters: ${f.starters}, of whom ${f.startersDone} have done every required course`;
    case 'careCertificate': {
      const cc = f.careCertificate;
      if (!cc) return null;
      return `${cc.label}: ${cc.complete} complete, ${cc.inProgress} in progress (${cc.overdue} overdue), ${cc.notAssigned} not assigned`;
    }
    case 'receipts': {
      const r = f.receipts;
      if (!r) return null;
      if (!r.total) return 'Policies to read: none at this home';
      return `Policies read (current version): ${r.current} of ${r.total}; new version to read: ${r.earlier}; not read: ${r.none}`;
    }
    case 'changes':
      return f.changes === null
        ? 'Changes to training records: not in this pack (its maker may not read the audit trail)'
        : `Changes to training records in the last 12 months: ${f.changes}`;
  }
}

/** The headings the pack prints for its sections (the Care Certificate's under the organisation's name for it). */
export function sectionTitle(key: PackSectionKey, ccLabel: string): string {
  switch (key) {
    case 'figures':
      return 'Figures (cover page)';
    case 'matrix':
      return 'Training matrix by job role';
    case 'gaps':
      return 'Gaps and plans';
    case 'starters':
      return "New starters' progress";
    case 'careCertificate':
      return `${ccLabel}: new starters`;
    case 'receipts':
      return 'Policy receipts';
    case 'changes':
      return 'Changes to training records (last 12 months)';
    case 'evidence':
      return 'Certificates and evidence';
    case 'exemptions':
      return 'Exemptions';
    case 'signOff':
      return 'Sign-off';
  }
}

export interface SummaryRow {
  statement: QualityStatement;
  /** The statement's `why`, in the organisation's words. */
  why: string;
  figures: string[];
  /** Where the evidence is: the sections this pack has, each with the page it starts on. */
  evidence: { section: string; page: number }[];
}

/**
 * The summary page's rows: each quality statement with the figures the pack has for it and the pages its sections
 * start on (`pages`: those the PDF printed; a section the pack has not, such as the audit trail without permission
 * to read it, is left out).
 */
export function packSummaryRows(
  figures: PackFigures,
  pages: ReadonlyMap<PackSectionKey, number>,
  ccLabel: string,
): SummaryRow[] {
  return QUALITY_STATEMENTS.map((statement) => ({
    statement,
    why: statement.why.replaceAll('{careCertificate}', ccLabel),
    figures: statement.figures.map((k) => figureLine(k, figures)).filter((l): l is string => l !== null),
    evidence: statement.sections
      .filter((s) => pages.has(s))
      .map((s) => ({ section: sectionTitle(s, ccLabel), page: pages.get(s) as number }))
      .sort((a, b) => a.page - b.page),
  }));
}

export const SUMMARY_TITLE = 'CQC quality statements: summary of the evidence';
export const SUMMARY_INTRO =
  `The quality statements of the ${CQC_FRAMEWORK_NAME} that the training records in this pack evidence, with ` +
  "the figures from this pack and the pages where the evidence is. The statements are quoted from the CQC's website.";
