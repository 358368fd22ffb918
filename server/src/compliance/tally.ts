import type { ComplianceTally } from '@cc/contracts';

/**
 * Compliance figures (users, required cells and cells per status) are summed the same way by the matrix, the
 * compliance report, the drill-downs and the scores: one set of helpers over the contracts' ComplianceTally.
 */
export const emptyTally = (): ComplianceTally => ({
  users: 0,
  required: 0,
  in_date: 0,
  expiring: 0,
  expired: 0,
  missing: 0,
  exempt: 0,
});

/** Adds `t`'s figures into `into` (changed in place, and returned). */
export function addTally(into: ComplianceTally, t: ComplianceTally): ComplianceTally {
  into.users += t.users;
  into.required += t.required;
  into.in_date += t.in_date;
  into.expiring += t.expiring;
  into.expired += t.expired;
  into.missing += t.missing;
  into.exempt += t.exempt;
  return into;
}

export const sumTallies = (rows: readonly ComplianceTally[]): ComplianceTally =>
  rows.reduce<ComplianceTally>((total, t) => addTally(total, t), emptyTally());
