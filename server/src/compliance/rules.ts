/**
 * The compliance rules as pure functions (ARCHITECTURE "Compliance rules"). The SQL in queries.ts computes the same
 * thing in bulk; rules.test.ts holds both to one table of cases.
 */

import type { CellStatus } from '@cc/contracts';

export type { CellStatus } from '@cc/contracts';

/** What a cell knows of its latest result (latest_results): absent when the user has none for the course. */
export interface LatestResultFacts {
  passed: boolean;
  /** An exemption is a pass: in date until its end date (expiresAt), or for good when it has none. */
  type: string;
  expiresAt: Date | null;
}

const DAY_MS = 86_400_000;

/**
 * in date: the latest passed result has not expired (or never expires);
 * expiring: in date, but it expires within the entity's expiry_warning days;
 * expired: the latest pass (or exemption) is past its expiry; missing: no passed result;
 * exempt: the latest result is an exemption that has not ended (its own status, compliant in scores). An exemption
 * that ends within the warning period stays exempt: the cell shows its end date, and the end is not a lapse of
 * training the learner took.
 */
export function cellStatus(
  latest: LatestResultFacts | null | undefined,
  now: Date,
  expiryWarningDays: number,
): CellStatus {
  if (!latest?.passed) return 'missing';
  const expires = latest.expiresAt?.getTime() ?? null;
  if (expires !== null && expires <= now.getTime()) return 'expired';
  if (latest.type === 'exempt') return 'exempt';
  if (expires === null) return 'in_date';
  if (expires <= now.getTime() + expiryWarningDays * DAY_MS) return 'expiring';
  return 'in_date';
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
  if (months === null) return null;
  const d = new Date(completedAt.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  // 31 January + 1 month is the last day of February, not 3 March.
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d;
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
