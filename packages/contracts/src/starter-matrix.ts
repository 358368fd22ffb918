import { z } from 'zod';
import { COMPLIANCE_TYPES, CompliancePerm } from './compliance';
import { ContentPerm } from './content';
import { Perm } from './permissions';

/**
 * The starter training matrix (issue 37 §2): the care sector's common core and mandatory training for the usual job
 * roles of a care home (care worker, senior carer, nurse, registered manager, kitchen and domestic staff), with the
 * refresh periods Skills for Care's guidance gives (server/src/starter-matrix/SOURCES.md cites each one; where it
 * gives none the period is left unset and the organisation decides).
 *
 * GET /entities/{slug}/starter-matrix previews what applying it to the organisation would do; POST applies it. Both
 * need the permissions that create its parts: 63 + 27 (add courses), 33 (create job roles) and 68 (edit the
 * courses of job roles). Applying never changes what the organisation already has: a course is matched by its title
 * (or a usual other name of it) among the organisation's courses, a job role by its name (or a usual other name),
 * and a compliance rule the organisation already has for a role and course is left as it is. Applying again
 * creates nothing new. Only a level A organisation takes it (its sites inherit its roles and rules).
 */
export const STARTER_MATRIX_PERMISSIONS = [
  ContentPerm.contentCreator,
  ContentPerm.addCourses,
  Perm.createRoles,
  CompliancePerm.editEntityCourses,
] as const;

export const StarterMatrixMessages = {
  applied: (n: { courses: number; roles: number; rules: number }) =>
    n.courses + n.roles + n.rules === 0
      ? 'Nothing to add: your organisation already has everything in the starter training matrix.'
      : `Starter training matrix applied: ${n.courses} ${n.courses === 1 ? 'course' : 'courses'}, ${n.roles} job ${
          n.roles === 1 ? 'role' : 'roles'
        } and ${n.rules} course ${n.rules === 1 ? 'rule' : 'rules'} added.`,
  siteOnly:
    'The starter training matrix is added to a whole organisation, not to one of its sites: open the organisation instead.',
  failedToFetch: 'Failed to fetch the starter training matrix.',
} as const;

/** What applying does with one item: create it, or keep (use) what the organisation already has. */
export const STARTER_ACTIONS = ['create', 'keep'] as const;

export const StarterCourse = z.object({
  key: z.string(),
  title: z.string(),
  action: z.enum(STARTER_ACTIONS),
  /** The organisation's course that is kept and used, when it has one. */
  existing: z.object({ id: z.number(), title: z.string() }).nullable(),
  /** Whole months, or null: the guidance gives no period (the organisation decides). */
  refresh_months: z.number().nullable(),
  /** Where the period comes from, or why there is none, in one sentence. */
  refresh_basis: z.string(),
  /** The Care Certificate standard the topic belongs to (2025 numbering), when it is one. */
  care_certificate_standard: z.string().nullable(),
});
export type StarterCourse = z.infer<typeof StarterCourse>;

export const StarterRole = z.object({
  key: z.string(),
  name: z.string(),
  action: z.enum(STARTER_ACTIONS),
  existing: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type StarterRole = z.infer<typeof StarterRole>;

export const StarterRule = z.object({
  role_key: z.string(),
  course_key: z.string(),
  /** primary: the white-label's Mandatory; secondary: Required. */
  type: z.enum(COMPLIANCE_TYPES),
  refresh_months: z.number().nullable(),
  action: z.enum(STARTER_ACTIONS),
  /** The organisation's own rule for this role and course, kept as it is. */
  existing: z
    .object({ id: z.number(), type: z.enum(COMPLIANCE_TYPES), refresh_months: z.number().nullable() })
    .nullable(),
});
export type StarterRule = z.infer<typeof StarterRule>;

export const StarterMatrixPreview = z.object({
  entity: z.object({ id: z.number(), slug: z.string(), name: z.string() }),
  courses: z.array(StarterCourse),
  roles: z.array(StarterRole),
  rules: z.array(StarterRule),
  /** What applying now would add (0, 0, 0 once applied). */
  to_create: z.object({ courses: z.number(), roles: z.number(), rules: z.number() }),
  /** The organisation has no course rules on any job role yet (the first-run offer shows then). */
  fresh: z.boolean(),
});
export type StarterMatrixPreview = z.infer<typeof StarterMatrixPreview>;

export const StarterMatrixApplied = StarterMatrixPreview.extend({
  created: z.object({ courses: z.number(), roles: z.number(), rules: z.number() }),
});
export type StarterMatrixApplied = z.infer<typeof StarterMatrixApplied>;
