import { z } from 'zod';
import { PageQuery, queryBool, updateSchemaOf } from './common';
import { CELL_STATUSES, COURSE_STATUSES } from './course-status';
import { exemptionEndDate, exemptionReason } from './results';

/**
 * Role-course compliance, user compliance courses and entity scores (issue 5 items 2 and 3; spec 2 §3 "Compliance",
 * §4 compliance update flow and navigation filters, §7 "Compliance", §9 score bands; spec 1 §7 score endpoint).
 *
 * Where the spec names a call without its shapes, ours (used by server and web alike):
 * - A compliance row is (entity, role, course, type, validity). `type` is `primary` (labelled by the white-label
 *   primaryComplianceAltName, default "Mandatory") or `secondary` (secondaryComplianceAltName, "Required").
 *   `validity` is in whole months; null means a pass never expires.
 * - `entity` in a body is the entity's id or slug, as /entities/{id} accepts. Absent: the caller's acting-as
 *   entity, else their primary entity.
 * - A level B entity inherits its level A parent's rows (`inherited: true`); changing an inherited row from the
 *   level B entity creates the entity's own overriding row (PATCH answers 201 with the new row), deleting that
 *   override brings the inherited row back.
 * - The existing-results marker (spec 2 §4): POST or PATCH that sets a validity while passed results exist under
 *   the rule, WITHOUT `update_previous_results`, changes nothing and answers **409** with
 *   `data: { existing_results: N }`. The client asks "apply to previous results or only future ones" and re-sends
 *   with update_previous_results true (every previous pass is re-dated from its completion date with the new
 *   validity, in the same transaction) or false (only future results get the new validity).
 *
 * Permissions (spec 2 §6): reading rows needs any of 49 (view entity roles), 98 (read-only entity roles) or 68 (edit
 * entity courses); adding, changing and deleting rows needs 68. User compliance courses: the user themself, or any of
 * 24 (search training records), 43 (update user compliance courses); marking a course exempt for a user needs 43.
 * Scores: any of 40 (entity compliance widget), 12 (matrix report), 13 (compliance report).
 */
export const CompliancePerm = {
  viewRoles: 49,
  readOnlyRoles: 98,
  editEntityCourses: 68,
  searchTrainingRecords: 24,
  updateUserComplianceCourses: 43,
  complianceWidget: 40,
  matrixReport: 12,
  complianceReport: 13,
} as const;
export const COMPLIANCE_READ_ANY_OF = [
  CompliancePerm.viewRoles,
  CompliancePerm.readOnlyRoles,
  CompliancePerm.editEntityCourses,
] as const;
export const SCORE_READ_ANY_OF = [
  CompliancePerm.complianceWidget,
  CompliancePerm.matrixReport,
  CompliancePerm.complianceReport,
] as const;

export const ComplianceMessages = {
  /** spec 2 §8 success notice. */
  updated: 'Compliance has been updated.',
  // Ours, in the spec's style.
  created: 'Compliance has been updated.',
  deleted: 'Compliance has been updated.',
  existingResults: (n: number) =>
    `${n} existing ${n === 1 ? 'result is' : 'results are'} affected. Apply the change to previous results or only to future ones?`,
  alreadyOnRole: 'This course is already on this job role.',
  roleInvalid: 'The selected job role is invalid.',
  courseInvalid: 'The selected course is invalid.',
  validityInvalid: 'The validity must be a whole number of months between 1 and 600, or none.',
  typeInvalid: 'The type must be primary or secondary.',
  inheritedReadOnly: 'This compliance row belongs to a parent organisation and can only be deleted there.',
  scoreComputing: 'The score is being calculated. Please try again shortly.',
  failedToFetch: 'Failed to fetch compliance.',
  failedToFetchScore: 'Failed to fetch the compliance score.',
  exemptionAdded: 'The user is now exempt from this course.',
  exemptionRemoved: 'The exemption has been removed.',
  exemptionUpdated: 'The exemption has been updated.',
  notExempt: 'The user is not exempt from this course: exempt them first.',
  notRequired: 'This course is not one of the user’s compliance courses.',
  graceDaysInvalid: 'The days to complete must be a whole number between 0 and 365.',
} as const;

export const COMPLIANCE_TYPES = ['primary', 'secondary'] as const;
export type ComplianceType = (typeof COMPLIANCE_TYPES)[number];
/** Score types: one compliance type, or both together (`all`). */
export const SCORE_TYPES = ['primary', 'secondary', 'all'] as const;
export type ScoreType = (typeof SCORE_TYPES)[number];
export const VALIDITY_MAX_MONTHS = 600;
/** How long a computed score is served before it is recomputed even without a known change. */
export const SCORE_MAX_AGE_MS = 5 * 60_000;

const dbId = z.coerce.number().int().positive().max(2147483647);
const entityRef = z
  .union([z.string(), z.number()])
  .transform((v) => String(v))
  .pipe(
    z
      .string()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/, 'The entity must be an id or a slug.'),
  );
const validity = z
  .number({ message: ComplianceMessages.validityInvalid })
  .int(ComplianceMessages.validityInvalid)
  .min(1, ComplianceMessages.validityInvalid)
  .max(VALIDITY_MAX_MONTHS, ComplianceMessages.validityInvalid)
  .nullable();
const type = z.enum(COMPLIANCE_TYPES, { message: ComplianceMessages.typeInvalid });

/** POST /compliance. */
export const ComplianceBody = z.object({
  entity: entityRef.optional(),
  roleId: dbId,
  courseId: dbId,
  type,
  validity,
  update_previous_results: z.boolean().optional(),
  /**
   * Issue 33 §4: days people have to do a new requirement before they are out of date (until then "due by" that
   * date, and left out of the scores). Default: the organisation's new_requirement_days. 0: due at once.
   */
  grace_days: z
    .number({ message: ComplianceMessages.graceDaysInvalid })
    .int(ComplianceMessages.graceDaysInvalid)
    .min(0, ComplianceMessages.graceDaysInvalid)
    .max(365, ComplianceMessages.graceDaysInvalid)
    .optional(),
});
export type ComplianceBody = z.infer<typeof ComplianceBody>;

/**
 * PATCH /compliance/{id}. `entity`: the entity making the change (a level B entity overrides an inherited row).
 * `grace_days` (issue 33 §4) sets the requirement's due date again: its creation plus that many days (0: due at
 * once), so people who have not done it are "due by" the new date.
 */
export const UpdateComplianceBody = updateSchemaOf(ComplianceBody.omit({ roleId: true, courseId: true }));
export type UpdateComplianceBody = z.infer<typeof UpdateComplianceBody>;

export const ComplianceIdParams = z.object({ id: dbId });
export const RoleCourseParams = z.object({ roleId: dbId, courseId: dbId });
export const EntityRoleParams = z.object({ entity: entityRef, roleId: dbId });
export const RoleCourseQuery = z.object({
  entity: entityRef.optional(),
  actingAs: z.string().max(120).optional(),
});
export const EntityRoleQuery = PageQuery;

const Named = z.object({ id: z.number(), name: z.string() });
/** A compliance row as seen from an entity (`inherited`: the level A parent's row, not overridden here). */
export const Compliance = z.object({
  id: z.number(),
  entity_id: z.number(),
  entity: z.object({ id: z.number(), slug: z.string(), name: z.string() }),
  role_id: z.number(),
  role: Named,
  course_id: z.number(),
  course: z.object({ id: z.number(), title: z.string() }),
  /** spec 2 §3 Compliance `roleId` / `courseId`: the same values as role_id / course_id (the request's names). */
  roleId: z.number(),
  courseId: z.number(),
  type,
  validity: z.number().nullable(),
  /** Issue 33 §4: when people who have not done it become out of date (a new requirement's grace); null: at once. */
  due_at: z.string().nullable(),
  inherited: z.boolean(),
  /** The entity the row is seen from (for inherited rows: the level B entity). */
  seen_from: z.object({ id: z.number(), slug: z.string() }),
  updated_at: z.string(),
});
export type Compliance = z.infer<typeof Compliance>;

/** The 409 body's data of the existing-results marker. */
export const ExistingResultsMarker = z.object({ existing_results: z.number() });
export type ExistingResultsMarker = z.infer<typeof ExistingResultsMarker>;

// --- User compliance courses (GET /users/{id}/compliance-courses, permission 43 to change).

export const UserComplianceCourse = z.object({
  course: z.object({ id: z.number(), title: z.string() }),
  type,
  validity: z.number().nullable(),
  inherited: z.boolean(),
  rule_id: z.number(),
  /** The matrix/tally status (course-status.ts: in date, expiring, expired, missing, exempt). */
  status: z.enum(CELL_STATUSES),
  /** The one status of this person x course (course-status.ts courseStatus): what every screen says. */
  course_status: z.enum(COURSE_STATUSES),
  /** The date course_status is about (valid until, expired on, due by, exempt until); null without one. */
  status_date: z.string().nullable(),
  /** Expired, or never done past its due date (courseStatus outOfDate). */
  out_of_date: z.boolean(),
  exempt: z.boolean(),
  /** The exemption of the latest result, when it is one: its reason and end date (null: it does not end). */
  exemption: z.object({ reason: z.string().nullable(), end_date: z.string().nullable() }).nullable(),
  latest_result: z
    .object({
      result_id: z.number(),
      type: z.string(),
      passed: z.boolean(),
      completed_at: z.string(),
      expires_at: z.string().nullable(),
      result_count: z.number(),
    })
    .nullable(),
});
export type UserComplianceCourse = z.infer<typeof UserComplianceCourse>;
export const UserComplianceQuery = PageQuery.extend({ type: z.enum(SCORE_TYPES).optional() });
export const UserCourseParams = z.object({ id: z.string().min(1).max(64), courseId: dbId });
/**
 * PATCH /users/{id}/compliance-courses/{courseId}: exempt the user from a required course, or lift it. An exemption
 * says why (`notes`, required with `exempt: true`) and may end (`end_date`, after today), as POST /results/exempt.
 */
export const UserComplianceBody = z.object({
  /** Omitted: the running exemption's reason or end date change (notes, end_date), nothing else. */
  exempt: z.boolean().optional(),
  notes: exemptionReason.optional(),
  end_date: exemptionEndDate,
});

// --- Scores (GET /entities/{id}/score/{x}).

export const ScoreParams = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/, 'The entity must be an id or a slug.'),
  x: z.enum(SCORE_TYPES, { message: 'The score type must be primary, secondary or all.' }),
});
export const NEW_STARTER_MODES = ['include', 'exclude'] as const;
export const ScoreQuery = z.object({
  deep: queryBool.optional(),
  /** spec 2 §4 navigation filter: new starters include (default) or exclude. */
  new_starters: z.enum(NEW_STARTER_MODES).optional(),
  actingAs: z.string().max(120).optional(),
});
export type ScoreQuery = z.infer<typeof ScoreQuery>;
export const SCORE_BANDS_LIST = ['green', 'amber', 'red'] as const;
export type ScoreBandName = (typeof SCORE_BANDS_LIST)[number];
export const EntityScore = z.object({
  entity_id: z.number(),
  type: z.enum(SCORE_TYPES),
  deep: z.boolean(),
  new_starters: z.enum(NEW_STARTER_MODES),
  /** Whole percent: compliant cells (in date, expiring, exempt) over required cells; nothing required is 100. */
  score: z.number(),
  band: z.enum(SCORE_BANDS_LIST),
  /** The traffic-light colour of the band, from the entity's white-label. */
  colour: z.string(),
  margins: z.object({ green: z.number(), amber: z.number() }),
  users: z.number(),
  required: z.number(),
  in_date: z.number(),
  expiring: z.number(),
  expired: z.number(),
  missing: z.number(),
  exempt: z.number(),
  computed_at: z.string(),
});
export type EntityScore = z.infer<typeof EntityScore>;
