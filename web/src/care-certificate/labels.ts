import type {
  CertificateStatus,
  CertificateSummary,
  CertificateView,
  CriterionProgress,
  DecisionAction,
  ObservationOutcome,
  ObservationShift,
  ObservationView,
  StandardProgress,
  StandardStatus,
} from '@cc/contracts';
import type { BadgeTone } from '../ui';

/** The words and badge colours of the certificate screens (status is always text as well as colour). */

export const STANDARD_STATUS: Record<StandardStatus, { label: string; tone: BadgeTone }> = {
  outstanding: { label: 'Not started', tone: 'neutral' },
  working_towards: { label: 'Working towards', tone: 'primary' },
  awaiting_approval: { label: 'Awaiting approval', tone: 'warning' },
  approved: { label: 'Approved', tone: 'success' },
};

export const CERTIFICATE_STATUS: Record<CertificateStatus, { label: string; tone: BadgeTone }> = {
  in_progress: { label: 'In progress', tone: 'primary' },
  complete: { label: 'Complete', tone: 'success' },
};

export const SHIFT_LABEL: Record<ObservationShift, string> = {
  early: 'Early',
  late: 'Late',
  day: 'Day',
  long_day: 'Long day',
  night: 'Night',
  other: 'Other',
};

export const OUTCOME_LABEL: Record<ObservationOutcome, string> = {
  competent: 'Competent',
  not_yet_competent: 'Not yet competent',
};

export const DECISION_LABEL: Record<DecisionAction, string> = {
  submitted: 'Selected for approval',
  approved: 'Approved',
  rejected: 'Returned with reasons',
};

export const NO_CRITERIA = 'No assessment criteria have been added for this standard yet.';

/** "3 of 8 criteria evidenced". */
export const criteriaText = (evidenced: number, total: number) =>
  total === 0
    ? 'No criteria yet'
    : `${evidenced} of ${total} ${total === 1 ? 'criterion' : 'criteria'} evidenced`;

/** "4 of 16 standards approved". */
export const standardsText = (c: Pick<CertificateSummary, 'standards_approved' | 'standards_total'>) =>
  `${c.standards_approved} of ${c.standards_total} standards approved`;

export const percent = (done: number, total: number) => (total ? Math.round((done / total) * 100) : 0);

export const criteriaOf = (s: StandardProgress): CriterionProgress[] => s.outcomes.flatMap((o) => o.criteria);

export interface NextCriterion {
  standard: StandardProgress;
  criterion: CriterionProgress;
}

/**
 * What the learner does next: the first criteria still without evidence, in standard order, skipping approved
 * and awaiting-approval standards; `limit` of them.
 */
export function nextCriteria(view: Pick<CertificateView, 'standards'>, limit = 5): NextCriterion[] {
  const out: NextCriterion[] = [];
  for (const standard of [...view.standards].sort((a, b) => a.number - b.number)) {
    if (standard.state !== 'open') continue;
    for (const criterion of criteriaOf(standard)) {
      if (criterion.evidenced) continue;
      out.push({ standard, criterion });
      if (out.length >= limit) return out;
    }
  }
  return out;
}

/** Standards ready to be selected for approval (every criterion evidenced, still open). */
export const readyToSubmit = (view: Pick<CertificateView, 'standards'>) =>
  view.standards.filter((s) => s.ready && s.state === 'open');

/** Observations as shown: newest first, each with the one that corrected it (shown struck as superseded). */
export function observationsByDate(observations: ObservationView[]): ObservationView[] {
  return [...observations].sort((a, b) => b.observed_at.localeCompare(a.observed_at) || b.id - a.id);
}

/** An observation can be edited or deleted only while not approved and not corrected. */
export const observationEditable = (o: ObservationView) => !o.approved_at && o.superseded_by_id === null;
/** Only an approved observation that has not been corrected yet can be corrected. */
export const observationCorrectable = (o: ObservationView) =>
  Boolean(o.approved_at) && o.superseded_by_id === null;

/** The criterion's code and text as one line ("9.1a Explain the meaning of …"). */
export const criterionLine = (c: { code: string; text: string }) => `${c.code} ${c.text}`;

/** An evidence file supporting an approved standard cannot be removed (the server answers evidenceLocked). */
export function fileLocked(view: Pick<CertificateView, 'standards'>, fileId: number): boolean {
  return view.standards.some(
    (s) => s.state === 'approved' && criteriaOf(s).some((c) => c.file_ids.includes(fileId)),
  );
}

/** A training record linked by hand (evidence item `evidenceId`) and the criteria it is linked to. */
export interface LinkedRecord {
  evidenceId: number;
  courseTitle: string;
  completedAt: string;
  codes: string[];
  /** It supports an approved standard: the server keeps it (409 evidenceLocked). */
  locked: boolean;
}

/** The training records linked by hand, once each, in the order they appear. */
export function linkedRecords(view: Pick<CertificateView, 'standards'>): LinkedRecord[] {
  const byId = new Map<number, LinkedRecord>();
  for (const s of view.standards)
    for (const c of criteriaOf(s))
      for (const r of c.results) {
        if (r.automatic || r.evidence_id === null) continue;
        const record = byId.get(r.evidence_id) ?? {
          evidenceId: r.evidence_id,
          courseTitle: r.course_title,
          completedAt: r.completed_at,
          codes: [],
          locked: false,
        };
        record.codes.push(c.code);
        record.locked ||= s.state === 'approved';
        byId.set(r.evidence_id, record);
      }
  return [...byId.values()];
}
