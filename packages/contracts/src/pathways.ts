import { z } from 'zod';
import { EntityRef, PersonRef } from './bookings';
import { PageQuery, queryBool } from './common';

/**
 * Pathways (issue 17; spec 1 §2, spec 2 §1, §3, §4, §7).
 *
 * Model:
 * - A **pathway** is an ordered plan of **steps**: a course (any content type: passed, approved result), a document
 *   to read (acknowledged its current version), or a **sign-off** (a manager or assessor confirms a competence,
 *   with a note and a date). `sequential`: a step is locked until the previous one is done; otherwise free order.
 *   A step can be due `due_days` after the allocation or after the person's start date (`due_from`).
 * - Each pathway is backed by a course (courses.kind 'pathway'): completing it records a result of type `pathway`
 *   on that course, so a pathway can itself be Mandatory or Required for a role, and shows in the matrix.
 * - **Allocation** to a person, or to a job role of an organisation (its members, and its children's members of
 *   that role, present and future: a database trigger allocates new members). One live allocation per person and
 *   pathway. When every step is done the allocation is `completed` (result recorded), or, when the pathway
 *   `requires_final_sign_off`, `awaiting_sign_off` until a manager signs the allocation off (spec 2 §4).
 * - **Versions**: editing the steps of a pathway that has allocations makes a new version (history kept). For each
 *   changed step (added, changed or removed) the editor chooses: `keep_credit` (people in progress keep what they
 *   did), `redo` (the step must be done again: evidence counts only from the change), or `stay` (people in progress
 *   stay on their version until they finish; new allocations get the new version). If any change says `stay`,
 *   allocations in progress stay on their version; otherwise they move to the new version with the credits chosen.
 *   Unchanged steps always keep their credit. A step is matched across versions by its `key`.
 * - Evidence for a step counts from `step_credit[key]` (absent: any time): a course step needs a passed result
 *   completed at or after it that is in date; a document step an acknowledgement of the document's current
 *   version at or after it; a sign-off step a sign-off at or after it.
 *
 * Who may do what (a super admin passes every check; "in scope" = entities/scope.ts; out of scope = 404):
 * - everyone: their own allocations (`/pathways/mine`, a step's status, the allocation page).
 * - `manage` (27 add courses / 28 edit courses): create, edit, delete pathways owned by organisations in scope.
 * - `allocate` (43 update user compliance courses): allocate to people in scope, to roles of organisations in scope,
 *   withdraw allocations; list allocations.
 * - `signOff` (26 add record): sign off steps and allocations of people in scope (never their own).
 * - `view` (any of 24, 26, 27, 28, 43): list and view pathways in scope (the navigation shows Pathways for 24/26).
 */
export const PathwayPerm = {
  view: [24, 26, 27, 28, 43],
  manage: [27, 28],
  allocate: 43,
  signOff: 26,
} as const;

export const PATHWAY_STEP_TYPES = ['course', 'document', 'sign_off'] as const;
export type PathwayStepType = (typeof PATHWAY_STEP_TYPES)[number];
export const PATHWAY_DUE_FROM = ['allocation', 'start_date'] as const;
export const PATHWAY_ALLOCATION_STATUSES = [
  'in_progress',
  'awaiting_sign_off',
  'completed',
  'withdrawn',
] as const;
export type PathwayAllocationStatus = (typeof PATHWAY_ALLOCATION_STATUSES)[number];
export const PATHWAY_STEP_STATUSES = ['locked', 'to_do', 'overdue', 'done'] as const;
export type PathwayStepStatus = (typeof PATHWAY_STEP_STATUSES)[number];
export const PATHWAY_CHANGE_KINDS = ['added', 'changed', 'removed'] as const;
export const PATHWAY_VERSION_CHOICES = ['keep_credit', 'redo', 'stay'] as const;
export type PathwayVersionChoice = (typeof PATHWAY_VERSION_CHOICES)[number];

export const PathwayMessages = {
  created: 'Pathway created.',
  updated: 'Pathway updated.',
  newVersion: 'Pathway updated: a new version was made.',
  deleted: 'Pathway deleted.',
  allocated: 'Pathway allocated.',
  withdrawn: 'Allocation withdrawn.',
  roleAllocated: 'Pathway allocated to the job role.',
  roleUnallocated: 'Pathway removed from the job role.',
  stepSignedOff: 'Step signed off.',
  signedOff: 'Pathway signed off.',
  // Refusals.
  alreadyAllocated: 'This person already has this pathway.',
  notAwaitingSignOff: 'This allocation is not waiting for a sign-off.',
  notSignOffStep: 'This step is not a sign-off step.',
  stepLocked: 'The earlier steps must be done first.',
  ownSignOff: 'You cannot sign off your own pathway.',
  notLive: 'This allocation has ended.',
  choicesMissing: 'Choose what happens to people in progress for every change.',
  noSteps: 'Add at least one step.',
  roleAlreadyAllocated: 'This pathway is already allocated to the job role.',
  duplicateStep: 'Each step can appear only once.',
  signedOnFuture: 'The date cannot be in the future.',
} as const;

const text = (max: number) => z.string().trim().max(max);
const isoDate = z.string({ error: 'Enter a date.' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date.');
const id = z.number().int().positive().max(2147483647);
export const AllocationParams = z.object({ uuid: z.uuid() });
export const AllocationStepParams = z.object({ uuid: z.uuid(), key: z.uuid() });

// --- Pathways ---------------------------------------------------------------------------------------------------

/**
 * A step as the editor sends it: `key` of the step it edits (absent: a new step). A new step may carry a fresh
 * uuid the editor made up, so that `choices` can name it when the edit makes a new version (a key the pathway has
 * never had means a new step); POST /pathways/{id}/changes names keyless new steps with a fresh key the editor
 * should then send back with the step.
 */
export const PathwayStepInput = z
  .object({
    key: z.uuid().optional(),
    type: z.enum(PATHWAY_STEP_TYPES),
    course_id: id.nullish(),
    document_id: id.nullish(),
    title: text(200).nullish(),
    description: text(2000).nullish(),
    due_days: z.number().int().min(0).max(3650).nullish(),
    due_from: z.enum(PATHWAY_DUE_FROM).default('allocation'),
  })
  .superRefine((s, ctx) => {
    if (s.type === 'course' && !s.course_id)
      ctx.addIssue({ code: 'custom', path: ['course_id'], message: 'Choose a course.' });
    if (s.type === 'document' && !s.document_id)
      ctx.addIssue({ code: 'custom', path: ['document_id'], message: 'Choose a document.' });
    if (s.type === 'sign_off' && !s.title)
      ctx.addIssue({ code: 'custom', path: ['title'], message: 'Name the competence to sign off.' });
  });
export type PathwayStepInput = z.input<typeof PathwayStepInput>;

export const PathwayChangeChoice = z.object({ step_key: z.uuid(), choice: z.enum(PATHWAY_VERSION_CHOICES) });

export const CreatePathwayBody = z.object({
  /** The owning organisation's slug (default: the actor's organisation, or the acting-as one). */
  entity: z.string().max(120).optional(),
  title: text(200).min(1, 'Enter a title.'),
  description: text(5000).nullish(),
  sequential: z.boolean().default(false),
  requires_final_sign_off: z.boolean().default(false),
  steps: z.array(PathwayStepInput).min(1, PathwayMessages.noSteps).max(100),
});
export type CreatePathwayBody = z.input<typeof CreatePathwayBody>;

/**
 * PATCH: only the fields sent change. Sending `steps` replaces the steps; when the pathway has allocations and the
 * steps differ, a new version is made and `choices` must name a choice for every added, changed or removed step
 * (422 `choices` otherwise; the preview below lists them).
 */
export const UpdatePathwayBody = z.object({
  title: text(200).min(1, 'Enter a title.').optional(),
  description: text(5000).nullish(),
  sequential: z.boolean().optional(),
  requires_final_sign_off: z.boolean().optional(),
  steps: z.array(PathwayStepInput).min(1, PathwayMessages.noSteps).max(100).optional(),
  change_note: text(1000).nullish(),
  choices: z.array(PathwayChangeChoice).max(200).optional(),
});
export type UpdatePathwayBody = z.input<typeof UpdatePathwayBody>;

/** POST /pathways/{id}/changes: what an edit would change, before saving (the editor asks per change). */
export const PathwayChangesBody = z.object({ steps: z.array(PathwayStepInput).min(1).max(100) });
export const PathwayChangeView = z.object({
  step_key: z.string(),
  change: z.enum(PATHWAY_CHANGE_KINDS),
  /** The step's name as people see it (course or document title, or the sign-off's title). */
  title: z.string(),
});
export const PathwayChangesView = z.object({
  /** Whether saving makes a new version (the pathway has allocations). */
  new_version: z.boolean(),
  in_progress: z.number(),
  changes: z.array(PathwayChangeView),
});
export type PathwayChangesView = z.infer<typeof PathwayChangesView>;

export const PathwayListQuery = PageQuery.extend({ entity: z.string().max(120).optional() });

export const PathwayStepView = z.object({
  key: z.string(),
  position: z.number(),
  type: z.enum(PATHWAY_STEP_TYPES),
  course: z.object({ id: z.number(), title: z.string() }).nullable(),
  document: z.object({ id: z.number(), title: z.string() }).nullable(),
  title: z.string(),
  description: z.string().nullable(),
  due_days: z.number().nullable(),
  due_from: z.enum(PATHWAY_DUE_FROM),
});
export type PathwayStepView = z.infer<typeof PathwayStepView>;

export const PathwayVersionView = z.object({
  id: z.number(),
  number: z.number(),
  change_note: z.string().nullable(),
  changes: z.array(
    z.object({
      step_key: z.string(),
      change: z.enum(PATHWAY_CHANGE_KINDS),
      choice: z.enum(PATHWAY_VERSION_CHOICES),
    }),
  ),
  created_by: PersonRef.nullable(),
  created_at: z.string(),
  /** Live allocations on this version. */
  in_progress: z.number(),
});
export type PathwayVersionView = z.infer<typeof PathwayVersionView>;

export const PathwayCounts = z.object({
  in_progress: z.number(),
  awaiting_sign_off: z.number(),
  completed: z.number(),
});

export const PathwaySummary = z.object({
  id: z.number(),
  uuid: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  entity: EntityRef,
  /** The backing course (matrix column, compliance rules, the `pathway` result). */
  course_id: z.number(),
  sequential: z.boolean(),
  requires_final_sign_off: z.boolean(),
  version: z.number(),
  step_count: z.number(),
  counts: PathwayCounts,
  updated_at: z.string(),
});
export type PathwaySummary = z.infer<typeof PathwaySummary>;

export const PathwayRoleAllocationView = z.object({
  id: z.number(),
  entity: EntityRef,
  role: z.object({ id: z.number(), name: z.string() }),
  created_at: z.string(),
});
export type PathwayRoleAllocationView = z.infer<typeof PathwayRoleAllocationView>;

export const PathwayView = PathwaySummary.extend({
  steps: z.array(PathwayStepView),
  versions: z.array(PathwayVersionView),
  role_allocations: z.array(PathwayRoleAllocationView),
  can: z.object({ edit: z.boolean(), allocate: z.boolean(), sign_off: z.boolean() }),
});
export type PathwayView = z.infer<typeof PathwayView>;

// --- Allocations ------------------------------------------------------------------------------------------------

export const AllocatePathwayBody = z.object({
  user_ids: z.array(id).min(1, 'Choose at least one person.').max(500),
});
export const AllocationListQuery = PageQuery.extend({
  status: z.enum(PATHWAY_ALLOCATION_STATUSES).optional(),
});
export const SignOffStepBody = z.object({
  note: text(2000).min(1, 'Enter a note.'),
  signed_on: isoDate,
});
export const SignOffAllocationBody = z.object({ note: text(2000).min(1, 'Enter a note.') });

export const AllocationStepView = PathwayStepView.extend({
  status: z.enum(PATHWAY_STEP_STATUSES),
  /** yyyy-mm-dd, or null without a due date. */
  due_on: z.string().nullable(),
  done_at: z.string().nullable(),
  /** A sign-off step's latest sign-off that counts. */
  sign_off: z.object({ signed_by: PersonRef.nullable(), signed_on: z.string(), note: z.string() }).nullable(),
  /** Where the learner goes to do it: a course's page, a document's page; null for a sign-off. */
  href: z.string().nullable(),
});
export type AllocationStepView = z.infer<typeof AllocationStepView>;

export const AllocationSummary = z.object({
  uuid: z.string(),
  pathway: z.object({ id: z.number(), title: z.string() }),
  user: PersonRef,
  version: z.number(),
  /** The pathway's current version number: a person can stay on an older one. */
  current_version: z.number(),
  status: z.enum(PATHWAY_ALLOCATION_STATUSES),
  via_role: z.object({ entity: EntityRef, role: z.object({ id: z.number(), name: z.string() }) }).nullable(),
  steps_done: z.number(),
  steps_total: z.number(),
  allocated_at: z.string(),
  completed_at: z.string().nullable(),
  next_due_on: z.string().nullable(),
});
export type AllocationSummary = z.infer<typeof AllocationSummary>;

export const AllocationView = AllocationSummary.extend({
  sequential: z.boolean(),
  requires_final_sign_off: z.boolean(),
  steps: z.array(AllocationStepView),
  signed_off: z.object({ by: PersonRef.nullable(), at: z.string(), note: z.string().nullable() }).nullable(),
  result_id: z.number().nullable(),
  can: z.object({ sign_off: z.boolean(), withdraw: z.boolean() }),
});
export type AllocationView = z.infer<typeof AllocationView>;

/** The matrix response's pathway_allocations (spec 2 §3): one per live or completed allocation of its users. */
export const MatrixPathwayAllocation = z.object({
  user_id: z.number(),
  pathway_id: z.number(),
  course_id: z.number(),
  title: z.string(),
  status: z.enum(PATHWAY_ALLOCATION_STATUSES),
  steps_done: z.number(),
  steps_total: z.number(),
  completed_at: z.string().nullable(),
});
export type MatrixPathwayAllocation = z.infer<typeof MatrixPathwayAllocation>;

export const RolePathwaysBody = z.object({ pathway_id: id });
/** GET /entities/{slug}/roles/{role}/pathways: a role allocation with its pathway and how many it reached. */
export const RolePathwayView = PathwayRoleAllocationView.extend({
  pathway: z.object({ id: z.number(), title: z.string() }),
  /** Live and completed allocations made through this role allocation. */
  allocations: z.number(),
});
export type RolePathwayView = z.infer<typeof RolePathwayView>;
export const RolePathwayParams = z.object({
  slug: z.string().min(1).max(120),
  role: z.coerce.number().int().positive().max(2147483647),
});
export const RolePathwayIdParams = RolePathwayParams.extend({
  pathwayId: z.coerce.number().int().positive().max(2147483647),
});
export const PathwayVersionParams = z.object({
  id: z.coerce.number().int().positive().max(2147483647),
  number: z.coerce.number().int().positive().max(100000),
});
/** GET /pathways/{id}/versions/{number}: a version with its steps. */
export const PathwayVersionDetail = PathwayVersionView.extend({ steps: z.array(PathwayStepView) });
export type PathwayVersionDetail = z.infer<typeof PathwayVersionDetail>;
export const MyPathwaysQuery = z.object({ include_completed: queryBool.optional() });
