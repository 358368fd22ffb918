import { z } from 'zod';
import { PageQuery } from './common';

/**
 * Learning (issue 4): attempts (spec 1 §7 "Attempts"), quiz taking (spec 2 §7 POST /quizzes/take), the learner's
 * course lists and certificates (spec 1 §7 "Users"), and certificate branding (spec 2 §2).
 */

/** Permission ids used by learning (spec 2 §6). */
export const LearningPerm = {
  ownCertificates: 6,
  userCertificates: 7,
  whiteLabel: 20,
  searchTrainingRecords: 24,
  availableCourses: 80,
  deleteTrainingRecord: 85,
  bulkCreateAttempts: 111,
  restrictContent: 122,
  suppressCertificate: 124,
} as const;

export const LearningMessages = {
  // spec 1 §8 (client side)
  errorLoadingAttempts: 'Error loading course attempts. Please contact support.',
  errorCreatingAttempt: 'Error creating course attempt. Please contact support.',
  errorLoadingAttempt: 'Error loading course attempt. Please contact support.',
  errorDeletingAttempt: 'Error deleting course attempt. Please contact support.',
  // Ours (spec 1 §4: on 409 the server message is shown).
  attemptConflict: 'This attempt was updated elsewhere. Reload to continue.',
  attemptCreated: 'Course attempt has been created.',
  attemptUpdated: 'Course attempt has been updated.',
  attemptDeleted: 'Course attempt has been deleted.',
  attemptFinished: 'This attempt is finished. Start a retake to try again.',
  attemptNotFinished: 'This attempt is still in progress. Finish it before starting a retake.',
  contentUnpublished: 'This content is not published, or not switched on for this organisation.',
  prerequisitesMissing: 'Complete the prerequisites first: :missing.',
  topicNotInContent: 'The topic is not part of this content.',
  h5pNotInTopic: 'The H5P item is not part of this topic.',
  h5pNotPassed: 'Pass the activity in this topic to complete it.',
  quizNotInContent: 'The quiz is not part of this content.',
  quizAlreadySubmitted: 'This quiz has already been submitted.',
  quizPassed: 'Quiz passed.',
  quizFailed: 'Quiz not passed. Review the lessons and try again.',
  noCertificate: 'There is no certificate for this course yet.',
  certificateBrandingUpdated: 'Certificate branding has been updated.',
  logoNotAvailable: 'The logo must be an image uploaded for this organisation.',
  // Issue 31 §2: an answer or a step kept in the attempt player's outbox until the server has it.
  savedOnPhone: 'Saved on this phone, will send when you are back online.',
  savedOnDevice: 'Saved on this device, will send when you are back online.',
  attemptNotOnDevice: 'You are offline, and this course has not been opened on this device yet.',
  quizOfflineNotStarted: 'You are offline. The quiz can be started when you are back online.',
} as const;

const id = z.coerce.number().int().positive().max(2147483647);
const bodyId = z.number().int().positive().max(2147483647);

export const ATTEMPT_STATUSES = ['in_progress', 'completed', 'passed', 'failed'] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];
export const RESULT_TYPES = [
  'elearning',
  'scorm',
  'historical',
  'face2face',
  'exempt',
  'assessment',
  'pathway',
  'document',
] as const;
export type ResultType = (typeof RESULT_TYPES)[number];

export const AttemptParams = z.object({ id });
export const AttemptListQuery = PageQuery.extend({
  content_id: id.optional(),
  course_id: id.optional(),
  status: z.enum(ATTEMPT_STATUSES).optional(),
});
export const CreateAttemptBody = z.object({ content_id: bodyId });

const topicIds = z.array(bodyId).max(2000);

/**
 * An H5P item's outcome, read by the player from the item's xAPI statement (verb completed or answered):
 * result.score.scaled (0..1), result.success and result.completion. Sent on PATCH /attempts/{id} as `h5p`.
 */
export const H5pOutcomeBody = z.object({
  topic_id: bodyId,
  h5p_id: bodyId,
  score_scaled: z.number().min(0).max(1).nullable().optional(),
  success: z.boolean().nullable().optional(),
  completion: z.boolean().nullable().optional(),
});
export type H5pOutcomeBody = z.infer<typeof H5pOutcomeBody>;
/** The best outcome kept per topic (key: topic id) in the attempt's progress. */
export const H5pResult = z.object({
  h5p_id: z.number(),
  score_scaled: z.number().nullable(),
  /** The verdict the server judged (server/src/learning/verdict.ts): true passed, false failed, null nothing to judge. */
  success: z.boolean().nullable(),
  completion: z.boolean(),
  /** The pass mark (0..100) a score without a verdict was judged against. */
  pass_mark: z.number().nullable().optional(),
  recorded_at: z.string(),
});
export type H5pResult = z.infer<typeof H5pResult>;

export const AttemptProgress = z.object({
  visited_topic_ids: topicIds.optional(),
  completed_topic_ids: topicIds.optional(),
  skipped_topic_ids: topicIds.optional(),
  current: z
    .object({
      lesson_id: bodyId.nullable().optional(),
      topic_id: bodyId.nullable().optional(),
      quiz_id: bodyId.nullable().optional(),
    })
    .nullable()
    .optional(),
  h5p_results: z.record(z.string(), H5pResult).optional(),
});
export type AttemptProgress = z.infer<typeof AttemptProgress>;

/**
 * PATCH /attempts/{id}. `version` is the one the client last read; a stale one answers 409 (spec 1 §4).
 * `progress` may move the position and mark topics visited; completing or skipping a topic goes through
 * completed_topic_id / skipped_topic_id so the server can apply the hidden, skippable and child rules.
 */
export const UpdateAttemptBody = z.object({
  version: z.number().int().min(1),
  progress: AttemptProgress.pick({ visited_topic_ids: true, current: true }).optional(),
  completed_topic_id: bodyId.optional(),
  skipped_topic_id: bodyId.optional(),
  cmi: z.record(z.string(), z.unknown()).optional(),
  /** SCORM: the identifier of the item (SCO) whose CMI `cmi` is; the package's first SCO when absent. */
  sco: z.string().min(1).max(255).optional(),
  /**
   * SCORM: which launch of the SCO sent `cmi` (the player's runtime session) and the commit's place in it (1, 2, …).
   * The server keeps the last one per SCO: a commit of the same session that is not newer changes nothing (a resent
   * or late one never replaces newer data), and a newer one is taken even on a stale `version` (the save sent as the
   * learner leaves, fetch keepalive, may overtake the session's commit still under way). See scorm-completion.ts.
   */
  commit: z
    .object({ session: z.string().min(8).max(64), seq: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) })
    .optional(),
  /** An H5P item's xAPI outcome in a topic of this (elearning) attempt. */
  h5p: H5pOutcomeBody.optional(),
  /**
   * The write's id, made on the device when the learner acted (issue 31 §2): the outbox sends it again until the
   * server answers, and the server records one id once (the resend answers with what the first send recorded).
   */
  client_id: z.uuid({ error: 'The write id must be a valid uuid.' }).optional(),
});
export type UpdateAttemptBody = z.infer<typeof UpdateAttemptBody>;

export const Attempt = z.object({
  id: z.number(),
  uuid: z.string(),
  user_id: z.number(),
  content_id: z.number(),
  course_id: z.number(),
  content: z.object({ id: z.number(), title: z.string(), type: z.string() }),
  course: z.object({ id: z.number(), title: z.string() }),
  status: z.enum(ATTEMPT_STATUSES),
  progress: AttemptProgress,
  cmi: z.record(z.string(), z.unknown()),
  score: z.number().nullable(),
  version: z.number(),
  started_at: z.string(),
  completed_at: z.string().nullable(),
  updated_at: z.string(),
  result_id: z.number().nullable(),
  /** Whether that result is a pass (null while there is no result). */
  result_passed: z.boolean().nullable(),
});
export type Attempt = z.infer<typeof Attempt>;

/** POST /quizzes/take: start (attempt_id + quiz_id) or submit (quiz_attempt_id + responses). */
export const StartQuizBody = z.object({ attempt_id: bodyId, quiz_id: bodyId });
export const SubmitQuizBody = z.object({
  quiz_attempt_id: bodyId,
  /** question id -> the answer ids chosen. */
  responses: z.record(z.string().regex(/^\d+$/, 'Question ids are numbers.'), z.array(bodyId).max(50)),
  /**
   * The write's id, made on the device when the learner acted (issue 31 §2): the outbox sends it again until the
   * server answers, and the server records one id once (the resend answers with what the first send recorded).
   */
  client_id: z.uuid({ error: 'The write id must be a valid uuid.' }).optional(),
});
export const TakeQuizBody = z.union([StartQuizBody.strict(), SubmitQuizBody.strict()]);
export type TakeQuizBody = z.infer<typeof TakeQuizBody>;

export const QuizSheet = z.object({
  quiz_attempt_id: z.number(),
  quiz: z.object({ id: z.number(), title: z.string(), pass_mark: z.number(), is_randomized: z.boolean() }),
  /** Never carries is_correct. */
  questions: z.array(
    z.object({
      id: z.number(),
      text: z.string(),
      answers: z.array(z.object({ id: z.number(), text: z.string() })),
    }),
  ),
});
export type QuizSheet = z.infer<typeof QuizSheet>;

export const QuizOutcome = z.object({
  quiz_attempt_id: z.number(),
  score: z.number(),
  pass_mark: z.number(),
  passed: z.boolean(),
  questions: z.array(z.object({ id: z.number(), correct: z.boolean() })),
  attempt: Attempt,
});
export type QuizOutcome = z.infer<typeof QuizOutcome>;

export const LearnerListQuery = PageQuery;
export type LearnerListQuery = z.infer<typeof LearnerListQuery>;

export const AvailableCourse = z.object({
  id: z.number(),
  uuid: z.string(),
  title: z.string(),
  short_title: z.string().nullable(),
  contents: z.array(
    z.object({
      id: z.number(),
      title: z.string(),
      type: z.string(),
      estimated_duration: z.number().nullable(),
      cpd_accredited: z.boolean(),
    }),
  ),
  latest_result: z
    .object({
      result_id: z.number(),
      passed: z.boolean(),
      completed_at: z.string(),
      expires_at: z.string().nullable(),
      type: z.string(),
    })
    .nullable(),
});
export type AvailableCourse = z.infer<typeof AvailableCourse>;

export const CertificateQuery = z
  .object({ course_id: id.optional(), result_id: id.optional() })
  .refine((q) => q.course_id !== undefined || q.result_id !== undefined, {
    message: 'The course id or the result id is required.',
    path: ['course_id'],
  });

const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'The colour must be a hex colour like #1f2937.');
const text = z.string().trim().max(120);
export const CertificateBrandingBody = z.object({
  title: text.nullable().optional(),
  signatory_name: text.nullable().optional(),
  signatory_role: text.nullable().optional(),
  accent_colour: hex.nullable().optional(),
  logo_file_id: bodyId.nullable().optional(),
});
export const CertificateBranding = z.object({
  title: z.string(),
  signatory_name: z.string().nullable(),
  signatory_role: z.string().nullable(),
  accent_colour: z.string(),
  logo_file_id: z.number().nullable(),
  /** /api/files/{uuid} of the logo (a public image), null without one. */
  logo_url: z.string().nullable(),
});
export type CertificateBranding = z.infer<typeof CertificateBranding>;
export const DEFAULT_CERTIFICATE_TITLE = 'Certificate of Completion';
export const DEFAULT_CERTIFICATE_ACCENT = '#1f2937';

/**
 * One item of the organisation the learner is shown (issue 10 item 1, multi-SCO packages), depth first, as
 * server/src/packages/manifest.ts reads it. An item with a resource is launchable (a SCO, or an asset that never talks
 * to the runtime); one without is a heading.
 */
export interface ScormItem {
  identifier: string;
  title: string;
  /** 0 for the organisation's own items, 1 for their children, … */
  depth: number;
  parent: string | null;
  /** The launch file (with its query), relative to the package root; null for a heading. */
  launch_path: string | null;
  scorm_type: 'sco' | 'asset' | null;
  /** isvisible="false": left out of the table of contents (and so of what the learner must complete). */
  visible: boolean;
  /** SCORM 1.2 adlcp:masteryscore (cmi.student_data.mastery_score), in score.raw units. */
  mastery_score: number | null;
  /**
   * SCORM 2004 cmi.scaled_passing_score: the primary objective's imsss:minNormalizedMeasure (default 1.0) when it is
   * satisfied by measure (satisfiedByMeasure="true"); otherwise the SCO's own success_status decides.
   */
  scaled_passing_score: number | null;
  /** SCORM 2004 objective ids (primary first), initialised as cmi.objectives.n.id. */
  objective_ids: string[];
  /** adlcp:datafromlms / adlcp:dataFromLMS, given to the SCO as cmi.launch_data. */
  data_from_lms: string | null;
  /** SCORM 2004 imsss:deliveryControls completionSetByContent: when false the LMS completes the SCO at Terminate. */
  completion_set_by_content: boolean;
}
