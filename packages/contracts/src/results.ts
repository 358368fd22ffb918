import { z } from 'zod';
import { PageQuery, queryBool, updateSchemaOf } from './common';
import { RESULT_TYPES } from './learning';

/**
 * Results of every kind (issue 5 item 1; spec 2 §2 /results/..., §4 "Results defaults", §6 permission ids):
 * historical results with evidence, exemptions, pending results awaiting approval, deleting a training record,
 * suppressing a certificate, a user's results list, and bulk-added events with their history.
 * Argument shapes are "not shown" in the spec (§3); the field names below are ours and documented here.
 */

/** Permission ids used by results (spec 2 §6). */
export const ResultsPerm = {
  /** search training records: read results lists, a result, its evidence. */
  searchTrainingRecords: 24,
  /** update record: edit historical results and exemptions, approve pending results. */
  updateRecord: 25,
  /** add record: add historical results and exemptions. */
  addRecord: 26,
  /** add user events: bulk add events for users. */
  addUserEvents: 35,
  /** delete user events: undo a bulk add. */
  deleteUserEvents: 36,
  /** delete training record: (soft) delete any result, exemption or pending result. */
  deleteTrainingRecord: 85,
  /** suppress certificate. */
  suppressCertificate: 124,
} as const;

export const ResultsMessages = {
  historicalCreated: 'Historical result has been created.',
  historicalSubmitted: 'Historical result has been submitted for approval.',
  historicalUpdated: 'Historical result has been updated.',
  exemptCreated: 'Exemption has been created.',
  exemptUpdated: 'Exemption has been updated.',
  exemptDeleted: 'Exemption has been deleted.',
  resultApproved: 'Result has been approved.',
  resultDeleted: 'Result has been deleted.',
  certificateSuppressed: 'Certificate has been suppressed.',
  certificateRestored: 'Certificate is no longer suppressed.',
  bulkAdded: 'Events have been added.',
  bulkDeleted: 'The bulk-added events have been deleted.',
  evidenceRequired:
    'This organisation requires evidence for training records. Attach a PDF, PNG or JPEG file.',
  evidenceType: 'The evidence must be a file of type: pdf, png, jpeg.',
  evidenceSize: 'The evidence may not be greater than 5120 kilobytes.',
  noEvidence: 'This result has no evidence file.',
  completedInFuture: 'The completed date cannot be in the future.',
  startInFuture: 'The start date cannot be in the future.',
  endBeforeStart: 'The end date must be after the start date.',
  endNotFuture: 'The end date must be after today.',
  reasonRequired: 'Give the reason for the exemption.',
  courseInvalid: 'The selected course is invalid.',
  notPending: 'This result is not pending approval.',
  bulkAlreadyDeleted: 'These events have already been deleted.',
  // Client-side failures (spec 2 §8 gives none for results; ours, in its style).
  fetchResultsFailed: 'Failed to fetch results.',
  fetchResultFailed: 'Error loading result. Please contact support.',
  fetchHistoryFailed: 'Failed to fetch bulk add history.',
} as const;

/** Evidence files: pdf, png or jpeg up to 5 MB (issue 5 item 1). */
export const EVIDENCE_MAX_BYTES = 5 * 1024 * 1024;
export const EVIDENCE_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
/** How many users one bulk add may cover (one transaction). */
export const BULK_EVENTS_MAX_USERS = 500;

const id = z.coerce.number().int().positive().max(2147483647);
const dateOnly = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'The date must be a date (YYYY-MM-DD).')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'The date must be a valid date.');
/** Form fields arrive as strings in multipart bodies: booleans as true/false/1/0/on. */
const formBool = z
  .union([z.boolean(), z.enum(['0', '1', 'true', 'false', 'on'])])
  .transform((v) => v === true || v === '1' || v === 'true' || v === 'on');
const score = z.preprocess(
  (v) => (v === '' || v === undefined ? null : v),
  z.coerce
    .number()
    .min(0, 'The score must be between 0 and 100.')
    .max(100, 'The score must be between 0 and 100.')
    .nullable(),
);
const notes = z.preprocess(
  (v) => (v === '' ? null : v),
  z.string().trim().max(2000, 'The notes may not be greater than 2000 characters.').nullable(),
);

export const ResultIdParams = z.object({ id });
export const PendingTypeParams = z.object({ type: z.enum(RESULT_TYPES) });
export const PendingIdParams = z.object({ id });

/**
 * POST /results/historical/create (26): JSON, or multipart with the same fields plus a file part `evidence`.
 * A learner without 26 may submit one for themself: it waits in /results/pending/historical until approved.
 */
export const HistoricalResultBody = z.object({
  user_id: id,
  course_id: id,
  completed_at: dateOnly,
  passed: formBool.default(true),
  score: score.optional(),
  notes: notes.optional(),
});
export type HistoricalResultBody = z.infer<typeof HistoricalResultBody>;

/** PATCH /results/historical/{id} (25): any of the fields; `remove_evidence` drops the current file. */
export const UpdateHistoricalResultBody = updateSchemaOf(HistoricalResultBody.omit({ user_id: true })).extend(
  {
    remove_evidence: formBool.optional(),
  },
);
export type UpdateHistoricalResultBody = z.infer<typeof UpdateHistoricalResultBody>;

/**
 * The reason of an exemption (issue 28 item 6): required wherever one is made (here and the one-click PATCH
 * /users/{id}/compliance-courses/{courseId}), stored as the result's notes, shown in the exemptions list, the
 * person's compliance courses (where a matrix cell opens) and the inspection pack.
 */
export const exemptionReason = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : v),
  z
    .string({ error: ResultsMessages.reasonRequired })
    .min(1, ResultsMessages.reasonRequired)
    .max(2000, 'The notes may not be greater than 2000 characters.'),
);
/** An exemption's optional end date: after it the requirement applies again (after today when it is set). */
export const exemptionEndDate = dateOnly.nullable().optional();

/**
 * POST /results/exempt (26): an exemption counts as in date from start_date until end_date (never ends without one).
 * `notes` is its reason, required.
 */
export const ExemptResultBody = z.object({
  user_id: id,
  course_id: id,
  start_date: dateOnly.optional(),
  end_date: exemptionEndDate,
  notes: exemptionReason,
});
export type ExemptResultBody = z.infer<typeof ExemptResultBody>;

export const UpdateExemptResultBody = updateSchemaOf(ExemptResultBody.omit({ user_id: true }));
export type UpdateExemptResultBody = z.infer<typeof UpdateExemptResultBody>;

/** Lists of results over the caller's scope (its subtree unless deep=0); `entity_id` narrows to one entity's subtree. */
export const ResultListQuery = PageQuery.extend({
  entity_id: id.optional(),
  user_id: id.optional(),
  course_id: id.optional(),
});
export type ResultListQuery = z.infer<typeof ResultListQuery>;

export const RESULT_DATE_BY = ['completed', 'created'] as const;
/**
 * GET /users/{id}/results. spec 2 §4 "Results defaults": date by completed, assessments included, admin-only
 * included; each can be changed. from/to bound the chosen date (inclusive days).
 */
export const UserResultsQuery = PageQuery.extend({
  date_by: z.enum(RESULT_DATE_BY).default('completed'),
  include_assessments: queryBool.default(true),
  include_admin_only: queryBool.default(true),
  type: z.enum(RESULT_TYPES).optional(),
  course_id: id.optional(),
  status: z.enum(['approved', 'pending']).optional(),
  from: dateOnly.optional(),
  to: dateOnly.optional(),
});
export type UserResultsQuery = z.infer<typeof UserResultsQuery>;

export const SuppressCertificateBody = z.object({ suppressed: z.boolean() });

export const BULK_EVENT_TYPES = ['face2face', 'historical'] as const;
/** POST /users/bulk-add-events (35): one result per user, all in one transaction. */
export const BulkAddEventsBody = z.object({
  user_ids: z
    .array(z.number().int().positive().max(2147483647))
    .min(1, 'Choose at least one user.')
    .max(BULK_EVENTS_MAX_USERS, `Choose at most ${BULK_EVENTS_MAX_USERS} users at a time.`),
  course_id: z.number().int().positive().max(2147483647),
  completed_at: dateOnly,
  type: z.enum(BULK_EVENT_TYPES),
  passed: z.boolean().default(true),
  score: z.number().min(0).max(100).nullable().optional(),
  notes: notes.optional(),
});
export type BulkAddEventsBody = z.infer<typeof BulkAddEventsBody>;

/** `self=1`: the courses the caller may record for themselves (any signed-in user; published, not switched off). */
export const CoursePickerQuery = PageQuery.extend({ self: queryBool.optional() });
export type CoursePickerQuery = z.infer<typeof CoursePickerQuery>;

const ref = z.object({ id: z.number(), name: z.string() });
export const ResultView = z.object({
  id: z.number(),
  uuid: z.string(),
  type: z.enum(RESULT_TYPES),
  status: z.enum(['approved', 'pending']),
  passed: z.boolean(),
  score: z.number().nullable(),
  completed_at: z.string(),
  expires_at: z.string().nullable(),
  notes: z.string().nullable(),
  certificate_suppressed: z.boolean(),
  admin_only: z.boolean(),
  user: z.object({ id: z.number(), uuid: z.string(), name: z.string() }),
  course: z.object({ id: z.number(), title: z.string() }),
  content: z.object({ id: z.number(), title: z.string() }).nullable(),
  entity: ref,
  evidence: z
    .object({
      id: z.number(),
      name: z.string(),
      mime_type: z.string(),
      size_bytes: z.number(),
      url: z.string(),
    })
    .nullable(),
  created_by: ref.nullable(),
  approved_by: ref.nullable(),
  approved_at: z.string().nullable(),
  bulk_operation_id: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ResultView = z.infer<typeof ResultView>;

export const BulkOperationView = z.object({
  id: z.number(),
  uuid: z.string(),
  type: z.enum(BULK_EVENT_TYPES),
  course: z.object({ id: z.number(), title: z.string() }),
  entity: ref,
  completed_at: z.string(),
  passed: z.boolean(),
  user_count: z.number(),
  created_by: ref.nullable(),
  created_at: z.string(),
  deleted_at: z.string().nullable(),
  deleted_by: ref.nullable(),
});
export type BulkOperationView = z.infer<typeof BulkOperationView>;

export const CoursePick = z.object({ id: z.number(), title: z.string(), short_title: z.string().nullable() });
export type CoursePick = z.infer<typeof CoursePick>;
