import { type CourseStatusOf, courseStatus } from '@cc/contracts';

/**
 * The facts of a person x course as the compliance queries select them (latest_results / user_requirements beside
 * the organisation's expiry_warning, dueBySql and pendingSql), turned into the one status (contracts courseStatus).
 */
export interface RequirementFacts {
  passed: boolean | null;
  /** The latest approved result is an exemption. */
  exempt: boolean;
  expires_at: Date | string | null;
  expiry_warning: number;
  due_by: Date | string | null;
  pending: boolean | null;
}

export function requirementStatus(r: RequirementFacts, now: Date, required = true): CourseStatusOf {
  return courseStatus({
    required,
    latest: r.passed === null ? null : { passed: r.passed, exempt: r.exempt, expiresAt: r.expires_at },
    pending: r.pending === true,
    dueBy: r.due_by,
    warningDays: r.expiry_warning,
    now,
  });
}
