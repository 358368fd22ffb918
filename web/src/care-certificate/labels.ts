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

// --- Words for the learner herself (issue 32 §4) -----------------------------------------------------------------

/** What the learner does for a criterion without evidence, spoken to her. */
export const learnerHint = (c: Pick<CriterionProgress, 'requires_observation' | 'evidenced'>) =>
  c.evidenced
    ? 'Done: this has evidence.'
    : c.requires_observation
      ? 'Show your assessor you can do this at work: they record it as an observation.'
      : 'Upload a photo or a note for this, or pass the training that covers it.';

/** The standards of the certificate's version that have no assessment criteria yet (not approved). */
export const standardsWithoutCriteria = (view: Pick<CertificateView, 'standards' | 'historical'>) =>
  view.historical
    ? []
    : [...view.standards]
        .filter((s) => s.criteria_total === 0 && s.state !== 'approved')
        .sort((a, b) => a.number - b.number);

/** "Standard 4", "Standards 4 and 11", "Standards 4, 11 and 12". */
export function standardList(numbers: number[]): string {
  if (numbers.length === 1) return `Standard ${numbers[0]}`;
  return `Standards ${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
}

/**
 * What happens next on the learner's own certificate, in her words. `canSubmit`: whether she may send a standard
 * for approval herself (the view's can.submit); when she may not, she is never told to.
 */
export function learnerNext(view: Pick<CertificateView, 'standards' | 'status'>, canSubmit: boolean): string {
  if (view.status === 'complete') return 'Your certificate is complete: you can download it at any time.';
  const awaiting = view.standards.filter((s) => s.state === 'awaiting_approval').map((s) => s.number);
  const ready = readyToSubmit(view).map((s) => s.number);
  const parts: string[] = [];
  if (ready.length)
    parts.push(
      canSubmit
        ? `${standardList(ready)} ${ready.length === 1 ? 'has' : 'have'} evidence for every criterion: send ${ready.length === 1 ? 'it' : 'them'} to your assessor for approval.`
        : `${standardList(ready)} ${ready.length === 1 ? 'has' : 'have'} evidence for every criterion: your assessor will check ${ready.length === 1 ? 'it' : 'them'} and approve.`,
    );
  if (awaiting.length)
    parts.push(
      `${standardList(awaiting)} ${awaiting.length === 1 ? 'is' : 'are'} with your assessor: they approve ${awaiting.length === 1 ? 'it' : 'them'} or tell you what to add.`,
    );
  if (view.standards.some((s) => s.state === 'open' && s.criteria_total > 0 && !s.ready))
    parts.push(
      'For the criteria still open, upload a photo or a note, or show your assessor at work. When a standard has evidence for every criterion, your assessor can approve it.',
    );
  return parts.join(' ') || 'Your assessor approves each standard once it has evidence for every criterion.';
}
