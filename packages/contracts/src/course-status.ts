import { type DateFormat, formatDate } from './dates';

/**
 * The status of a (user, course) cell, ONE list for every renderer (matrix, exports, reports, user and learner pages,
 * preset filters). Its order is the matrix wire's status code (MATRIX_STATUSES): append, never reorder.
 * - in_date: the latest pass has not expired (or never expires);
 * - expiring: in date, but it expires within the entity's expiry_warning days;
 * - expired: the latest pass is past its end (an exemption past its end no longer counts: see countingResult);
 * - missing: no passed result;
 * - exempt: the latest result is an exemption (result type `exempt`, spec 2 §1) that has not ended. Exempt is its own
 *   status wherever a cell or a figure is shown, and counts as compliant in every score (cellCountsAsCompliant).
 */
export const CELL_STATUSES = ['in_date', 'expiring', 'expired', 'missing', 'exempt'] as const;
export type CellStatus = (typeof CELL_STATUSES)[number];
/** The words of each status (STYLE.md: status is always text as well as colour). */
export const CELL_STATUS_LABELS: Record<CellStatus, string> = {
  in_date: 'In date',
  expiring: 'Expiring',
  expired: 'Expired',
  missing: 'Missing',
  exempt: 'Exempt',
};
/**
 * The colour of an exempt cell in the matrix, its exports and the status badges' legend: a blue apart from the
 * white-label traffic lights (in date, expiring, expired) and the grey of missing. Never the only sign: the cell says
 * Exempt (web, XLSX) or carries a ring (PDF).
 */
export const EXEMPT_CELL_COLOUR = '#93c5fd';
/** Statuses that count towards a score: in date, expiring (still in date) and exempt. */
export const cellCountsAsCompliant = (status: CellStatus) =>
  status === 'in_date' || status === 'expiring' || status === 'exempt';
/** The compliant cells of a tally: in date + expiring + exempt (the numerator of every score). */
export const compliantCells = (t: { in_date: number; expiring: number; exempt: number }) =>
  t.in_date + t.expiring + t.exempt;

/**
 * The ONE status of a person x course (issue 28 item 5), read by every screen, export, message, reminder and PDF.
 * Before it, a required course a long-serving carer never did was "never completed" (manager dashboard, out of date),
 * "Not done… No due date is set" and not overdue (learner page) and "due now" (inspection pack).
 *
 * - in_date: the latest pass has not expired (or never expires);
 * - expiring: in date, but it expires within the organisation's expiry_warning days;
 * - expired: the latest pass is past its end: OUT OF DATE (an exemption past its end counts for nothing: the status
 *   is what the person's other results give, LatestResultFacts.afterEnd);
 * - missing: required, never passed, and past its due date (or without one): OUT OF DATE ("never done");
 * - exempt: an exemption that has not ended (compliant in every score);
 * - due: required, never passed, and due by a date still ahead: the later of a new starter's end of their
 *   new-starter period and a new requirement's due date (its creation plus its grace period, issue 33 §4): not out
 *   of date yet;
 * - pending: not compliant (never passed or expired), but a record the person submitted awaits approval: the
 *   person has done their part, a manager's approval decides;
 * - not_required: not one of the person's compliance courses (a course they have a result for all the same).
 *
 * `cell` is the matrix/tally status of the same person x course (CELL_STATUSES: in date, expiring, expired, missing,
 * exempt): due counts as missing there and pending as what the approved record says. Scores, the matrix wire and the
 * compliance report's figures are tallies of `cell`; their SQL twin is server/src/compliance/queries.ts cellStatusSql,
 * held to this function over the whole demo by server/src/compliance/status-agreement.test.ts.
 */
export const COURSE_STATUSES = [
  'in_date',
  'expiring',
  'expired',
  'missing',
  'exempt',
  'due',
  'pending',
  'not_required',
] as const;
export type CourseStatus = (typeof COURSE_STATUSES)[number];

/** The status in words (badges, lists, exports): the cell words plus the three that refine them. */
export const COURSE_STATUS_LABELS: Record<CourseStatus, string> = {
  ...CELL_STATUS_LABELS,
  due: 'Due',
  pending: 'Awaiting approval',
  not_required: 'Not required',
};

/** What a person x course knows of its latest APPROVED result (latest_results); null when there is none. */
export interface LatestResultFacts {
  passed: boolean;
  /** An exemption (result type `exempt`): a pass that is in date until its end (expiresAt), or for good. */
  exempt: boolean;
  expiresAt: Date | string | null;
  /**
   * An exemption with an end date (expiresAt): what counts once that end has come (issue 28 §6: the requirement
   * applies again, the status is what the person's other results give); null or absent: nothing (missing).
   */
  afterEnd?: LatestResultFacts | null;
}

/**
 * The result that counts at `now`: an exemption whose end has come no longer does (its `afterEnd` does instead, the
 * latest of the person's other results), before any job has picked the latest result again.
 */
export function countingResult(
  latest: LatestResultFacts | null | undefined,
  now: Date,
  exemptUntil?: Date | string | null,
): LatestResultFacts | null {
  if (!latest?.passed || !latest.exempt) return latest ?? null;
  const end = exemptUntil !== undefined ? ms(exemptUntil) : ms(latest.expiresAt);
  return end !== null && end <= now.getTime() ? countingResult(latest.afterEnd ?? null, now) : latest;
}

export interface CourseStatusFacts {
  /** One of the person's compliance courses (their job role's rows in their primary entity). */
  required: boolean;
  latest: LatestResultFacts | null | undefined;
  /** An exemption's own end date, when it is kept apart from the result's expiry (undefined: the result's). */
  exemptUntil?: Date | string | null;
  /** A submitted record (a pass) of the course awaits approval. */
  pending?: boolean;
  /**
   * When a never-done requirement is due: a new starter's end of their new-starter period, or already the later of it
   * and the requirement's due date (the server's dueBySql computes both at once); null: due already.
   */
  dueBy?: Date | string | null;
  /** A new requirement's own due date (its creation plus its grace period, issue 33 §4): dueBy is the later of both. */
  requirementDueAt?: Date | string | null;
  /** The organisation's expiry_warning days. */
  warningDays: number;
  now: Date;
  /**
   * The cell status when it was computed in bulk by the SQL twin (the matrix streams): used as is instead of
   * cellStatusOf. status-agreement.test.ts holds the two equal over every person x course of the demo.
   */
  cell?: CellStatus;
}

export interface CourseStatusOf {
  status: CourseStatus;
  /** The matrix/tally status (compliant when in date, expiring or exempt). */
  cell: CellStatus;
  /** The date the status is about: valid until / expired on / due by / exempt until; null without one. */
  date: string | null;
  /** Expired, or never done past its due date: what "out of date" and "overdue" mean on every screen. */
  outOfDate: boolean;
  /** Counts towards a score (in date, expiring, exempt). */
  compliant: boolean;
  /** A result exists but is not a pass (a failed attempt): "Not passed" rather than "Never done". */
  attempted: boolean;
}

const DAY_MS = 86_400_000;
const ms = (d: Date | string | null | undefined) =>
  d === null || d === undefined ? null : typeof d === 'string' ? Date.parse(d) : d.getTime();
const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

/**
 * The cell status of a latest approved result at `now` (the matrix's five; SQL twin cellStatusSql). An exemption that
 * ends within the warning period stays exempt: its end is not a lapse of training the person took.
 */
export function cellStatusOf(
  latest: LatestResultFacts | null | undefined,
  now: Date,
  warningDays: number,
  exemptUntil?: Date | string | null,
): CellStatus {
  const counted = countingResult(latest, now, exemptUntil);
  if (counted !== latest) return cellStatusOf(counted, now, warningDays);
  if (!latest?.passed) return 'missing';
  const expires = latest.exempt && exemptUntil !== undefined ? ms(exemptUntil) : ms(latest.expiresAt);
  const t = now.getTime();
  if (expires !== null && expires <= t) return 'expired';
  if (latest.exempt) return 'exempt';
  if (expires === null) return 'in_date';
  if (expires <= t + warningDays * DAY_MS) return 'expiring';
  return 'in_date';
}

const laterOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** The status of a person x course (see COURSE_STATUSES). Cheap: a few comparisons, no allocation but the answer. */
export function courseStatus(f: CourseStatusFacts): CourseStatusOf {
  // An exemption whose end has come counts for nothing: what counts is the person's other results (`afterEnd`).
  const counted = countingResult(f.latest, f.now, f.exemptUntil);
  const ended = counted !== (f.latest ?? null);
  const latest = counted;
  const exemptUntil = ended ? undefined : f.exemptUntil;
  const cell = f.cell ?? cellStatusOf(latest, f.now, f.warningDays, exemptUntil);
  const expires = latest?.passed
    ? latest.exempt && exemptUntil !== undefined
      ? ms(exemptUntil)
      : ms(latest.expiresAt)
    : null;
  const dueBy = laterOf(ms(f.dueBy), ms(f.requirementDueAt));
  let status: CourseStatus = cell;
  let date = cell === 'missing' ? null : iso(expires);
  if (!f.required) status = 'not_required';
  else if ((cell === 'missing' || cell === 'expired') && f.pending) status = 'pending';
  else if (cell === 'missing' && dueBy !== null && dueBy > f.now.getTime()) {
    status = 'due';
    date = iso(dueBy);
  }
  return {
    status,
    cell,
    date,
    outOfDate: status === 'expired' || status === 'missing',
    compliant: cellCountsAsCompliant(cell),
    attempted: latest !== null && !latest.passed,
  };
}

/** A new starter's due date for a never-done requirement: the end of their new-starter period (null once it ended). */
export function newStarterDueBy(
  startedOn: Date | string,
  starterPeriodDays: number,
  now: Date,
): string | null {
  const end = (ms(startedOn) ?? 0) + starterPeriodDays * DAY_MS;
  return end > now.getTime() ? new Date(end).toISOString() : null;
}

/**
 * When a never-done requirement is due (the TS twin of the server's dueBySql): the later of a new starter's end of
 * their new-starter period and the requirement's own due date; null once both have passed (out of date).
 */
export function requirementDueBy(
  starterDueBy: Date | string | null,
  requirementDueAt: Date | string | null,
  now: Date,
): string | null {
  const due = laterOf(ms(starterDueBy), ms(requirementDueAt));
  return due !== null && due > now.getTime() ? new Date(due).toISOString() : null;
}

/**
 * The status in a line of words, the same on every screen, export, message and PDF: "Expired on 12/10/2026",
 * "Never done", "Due by 01/03/2027", "Awaiting approval"…
 */
export function courseStatusText(
  s: Pick<CourseStatusOf, 'status' | 'date' | 'attempted'>,
  format?: DateFormat,
) {
  const d = s.date ? formatDate(s.date, format) : '';
  switch (s.status) {
    case 'in_date':
      return d ? `In date until ${d}` : 'In date (does not expire)';
    case 'expiring':
      return `Expires on ${d}`;
    case 'expired':
      return `Expired on ${d}`;
    case 'missing':
      return s.attempted ? 'Not passed' : 'Never done';
    case 'exempt':
      return d ? `Exempt until ${d}` : 'Exempt';
    case 'due':
      return `Due by ${d}`;
    case 'pending':
      return 'Awaiting approval';
    case 'not_required':
      return 'Not required';
  }
}
