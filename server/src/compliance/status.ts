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
  /** What counts once an exemption's end has come (latest_results / user_requirements then_*, migration 063). */
  then_passed: boolean | null;
  then_expires_at: Date | string | null;
  then_exempt: boolean | null;
  expiry_warning: number;
  due_by: Date | string | null;
  pending: boolean | null;
}

export function requirementStatus(r: RequirementFacts, now: Date, required = true): CourseStatusOf {
  return courseStatus({
    required,
    latest:
      r.passed === null
        ? null
        : {
            passed: r.passed,
            exempt: r.exempt,
            expiresAt: r.expires_at,
            afterEnd:
              r.then_passed === null
                ? null
                : { passed: r.then_passed, exempt: r.then_exempt === true, expiresAt: r.then_expires_at },
          },
    pending: r.pending === true,
    dueBy: r.due_by,
    warningDays: r.expiry_warning,
    now,
  });
}
