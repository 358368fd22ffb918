import { z } from 'zod';
import { COURSE_STATUSES } from './course-status';

/**
 * The learner's events (spec 1 §2 `/` "learner events", spec 2 §7 GraphQL `events`): what they must do, in order,
 * computed from their compliance requirements (the effective rules of their job role in their primary entity, with
 * the engine's cell status) and the courses they have started. GET /users/{id}/events.
 *
 * - kind: `mandatory` (primary compliance), `required` (secondary compliance), `optional` (started, not required).
 * - state, from the one status of the person x course (course-status.ts courseStatus): `overdue` (out of date: the
 *   pass has expired, or the course was never done and its due date has passed or there is none), `expiring` (in
 *   date, expires within the organisation's warning days), `due` (never done, due by a date still ahead: a new
 *   starter's end of their new-starter period), `in_progress` (an attempt is open and the course is not otherwise
 *   overdue or expiring), `done` (in date or exempt), `pending` (a record the learner submitted awaits approval).
 */
export const EVENT_KINDS = ['mandatory', 'required', 'optional'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
export const EVENT_STATES = ['overdue', 'expiring', 'due', 'in_progress', 'done', 'pending'] as const;
export type EventState = (typeof EVENT_STATES)[number];

export const LearnerEvent = z.object({
  course: z.object({ id: z.number(), title: z.string() }),
  kind: z.enum(EVENT_KINDS),
  state: z.enum(EVENT_STATES),
  /** The compliance cell status behind the state (`in_progress` optional courses: null). */
  status: z.enum(['in_date', 'expiring', 'expired', 'missing', 'exempt']).nullable(),
  /** The one status (course-status.ts; optional courses: not_required, null while only started). */
  course_status: z.enum(COURSE_STATUSES).nullable(),
  /**
   * The date of the status (courseStatus's date): expired on, valid until, due by, exempt until; null for a course
   * never done past its due date, or without a date.
   */
  due_date: z.string().nullable(),
  /** Whole days until due_date (negative: days overdue); null without a date. */
  days_left: z.number().nullable(),
  /** The open attempt to resume. */
  attempt_id: z.number().nullable(),
  /** The online content (e-learning, SCORM) to start or retake; null when the course is not taken online here. */
  content_id: z.number().nullable(),
  /**
   * The type of content_id (`elearning`, `scorm`; null without one): the mobile app offers "Download for offline" on
   * the to-do for the types the device can take offline (issue 31 §1).
   */
  content_type: z.string().nullable(),
  /** Issue 17: the document to read when the course backs a document (link "Read" to /document/{id}). */
  document_id: z.number().nullable().optional(),
  latest_result: z
    .object({
      result_id: z.number(),
      type: z.string(),
      passed: z.boolean(),
      completed_at: z.string(),
      expires_at: z.string().nullable(),
    })
    .nullable(),
});
export type LearnerEvent = z.infer<typeof LearnerEvent>;

export const LearnerEventCounts = z.object({
  /** To do and not overdue: expiring, due, in-progress and awaiting-approval items. */
  current: z.number(),
  overdue: z.number(),
  /** Required courses in date or exempt, and optional courses passed and in date. */
  completed: z.number(),
});
export type LearnerEventCounts = z.infer<typeof LearnerEventCounts>;

export const LearnerEvents = z.object({
  counts: LearnerEventCounts,
  /** Ordered: overdue mandatory, overdue required, expiring soonest, due, in progress, optional, then done. */
  data: z.array(LearnerEvent),
});
export type LearnerEvents = z.infer<typeof LearnerEvents>;
