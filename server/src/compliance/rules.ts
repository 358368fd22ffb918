/**
 * The compliance rules as pure functions (ARCHITECTURE "Compliance rules"). The SQL in queries.ts computes the same
 * thing in bulk; rules.test.ts holds both to one table of cases.
 */

import { type CellStatus, cellStatusOf, plusMonths } from '@cc/contracts';

export type { CellStatus } from '@cc/contracts';

/** What a cell knows of its latest result (latest_results): absent when the user has none for the course. */
export interface LatestResultFacts {
  passed: boolean;
  /** An exemption is a pass: in date until its end date (expiresAt), or for good when it has none. */
  type: string;
  expiresAt: Date | null;
  /** An exemption with an end: what counts once the end has come (latest_results then_*, migration 063). */
  afterEnd?: LatestResultFacts | null;
}

const factsOf = (l: LatestResultFacts | null | undefined): Parameters<typeof cellStatusOf>[0] =>
  l
    ? {
        passed: l.passed,
        exempt: l.type === 'exempt',
        expiresAt: l.expiresAt,
        afterEnd: factsOf(l.afterEnd ?? null),
      }
    : null;

const DAY_MS = 86_400_000;

/**
 * The cell status (in date, expiring, expired, missing, exempt): contracts course-status.ts cellStatusOf, the one
 * definition every path reads; here over a result's `type`.
 */
export function cellStatus(
  latest: LatestResultFacts | null | undefined,
  now: Date,
  expiryWarningDays: number,
): CellStatus {
  return cellStatusOf(factsOf(latest), now, expiryWarningDays);
}

/**
 * A user who started less than `starter_period` days ago. The start date is the user's start_date when set,
 * else the day the account was created.
 */
export function isNewStarter(startedOn: Date, now: Date, starterPeriodDays: number): boolean {
  return now.getTime() - startedOn.getTime() < starterPeriodDays * DAY_MS;
}

/** The expiry of a pass completed at `completedAt` under a validity of `months` (null: never). */
export function expiryOf(completedAt: Date, months: number | null): Date | null {
  return months === null ? null : plusMonths(completedAt, months);
}

/** A score in whole percent: compliant cells (in date + expiring + exempt) over required cells; nothing required is 100. */
export function scoreOf(inDate: number, required: number): number {
  if (required <= 0) return 100;
  return Math.floor((inDate * 100) / required);
}

export type ScoreBand = 'green' | 'amber' | 'red';

/** Default lower margins (spec 2 §9): green 85-100, amber 65-84, red 0-64; white-label may change them. */
export const DEFAULT_SCORE_MARGINS = { green: 85, amber: 65 } as const;

export function scoreBand(
  score: number,
  margins: { green: number; amber: number } = DEFAULT_SCORE_MARGINS,
): ScoreBand {
  if (score >= margins.green) return 'green';
  if (score >= margins.amber) return 'amber';
  return 'red';
}
