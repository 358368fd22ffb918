import { z } from 'zod';

/**
 * Offline learning (issue 19). The learner downloads an assigned course's content while online (POST
 * /offline/downloads), takes it without a network, and the device sends each finished attempt back (POST
 * /offline/attempts). The server grades it (quiz answers) or reads the package's own data (SCORM CMI, H5P xAPI),
 * keeps it beside any attempt made online meanwhile, and decides by server/src/offline/rules.ts which one counts.
 */

export const OfflineMessages = {
  downloaded: 'Saved for offline use.',
  synced: 'Your offline attempt has been saved.',
  alreadySynced: 'This offline attempt was already saved.',
  notOffline: 'This content cannot be taken offline.',
  notForIntegrations: "Offline learning is for the learner's own app, not for personal access tokens.",
  downloadNotFound: 'This download is not yours or no longer exists.',
  downloadOtherContent: 'The attempt is not for the content that was downloaded.',
  // Web app (plain words for the learner).
  downloadFailed: 'Unable to save this course for offline use. Please try again when you are online.',
  saveForOffline: 'Download for offline',
  savedForOffline: 'Available offline',
  // Issue 31 §1: the learner's required training, overdue first, saved on the phone in one go.
  saveRequired: 'Download my required training',
  requiredSaved: 'Your required training is saved on this phone. You can take it without a signal.',
  requiredPartly:
    ':failed of :total courses could not be saved. Please try again when you have a good signal.',
  requiredStopped:
    'The signal went: :saved of :total courses were saved. The rest will download when you try again online.',
  // Issue 31 §3: the start page opened without a connection.
  offlineStartMobile: 'You are offline: showing the training saved on this phone.',
  offlineStartWeb: 'You are offline',
  waitingToSync: ':count attempts waiting to sync',
  waitingToSyncOne: '1 attempt waiting to sync',
  syncFailed: 'Could not sync yet. Your answers are kept on this device and will be sent later.',
  allSynced: 'Synced',
  offlineNow: 'You are offline. Downloaded courses can still be taken.',
  noDownloads:
    'No courses saved for offline use yet. Open a course while online and choose "Download for offline".',
  queuedAttempt: 'Saved on this device. It will be sent when you are back online.',
  removeTitle: 'Remove ":title" from this device?',
  removeConfirm:
    'Its saved lessons and files are deleted from this device. Your attempts waiting to sync are never deleted: they stay on this device and are still sent when you are back online, including one you started and did not finish. You can download the course again at any time.',
  removed: 'Removed from this device.',
  removeFailed: 'Unable to remove this course from the device. Please try again.',
} as const;

/** The content types that can be taken offline: lessons, topics, quizzes and H5P items, or a SCORM package. */
export const OFFLINE_CONTENT_TYPES = ['elearning', 'scorm'] as const;

export const CreateOfflineDownloadBody = z.object({
  content_id: z.coerce.number({ error: 'Choose the content to download.' }).int().positive(),
});
export type CreateOfflineDownloadBody = z.infer<typeof CreateOfflineDownloadBody>;

/** A package file the device fetches once while online: its path inside the package and its signed URL. */
export const OfflineFile = z.object({ path: z.string(), url: z.string() });
export type OfflineFile = z.infer<typeof OfflineFile>;

export const OfflineQuestion = z.object({
  id: z.number(),
  text: z.string(),
  /** "Select all that apply" (more than one right answer); which ones stays on the server. */
  multiple: z.boolean(),
  answers: z.array(z.object({ id: z.number(), text: z.string() })),
});

export const OfflineQuiz = z.object({
  id: z.number(),
  title: z.string(),
  pass_mark: z.number(),
  /** Never carries is_correct: the server grades the answers when the attempt syncs. */
  questions: z.array(OfflineQuestion),
});
export type OfflineQuiz = z.infer<typeof OfflineQuiz>;

export const OfflineTopic = z.object({
  id: z.number(),
  title: z.string(),
  body_html: z.string(),
  skippable: z.boolean(),
  is_child: z.boolean(),
  h5p: z
    .object({
      id: z.number(),
      title: z.string(),
      /**
       * The item is a graded task: only passing it completes the topic (server/src/learning/verdict.ts
       * h5pMustBePassed), so the device offers no "I have read" for it. Absent in copies saved before it was sent.
       */
      must_pass: z.boolean().optional(),
    })
    .nullable(),
});
export type OfflineTopic = z.infer<typeof OfflineTopic>;

export const OfflinePackage = z.object({
  kind: z.enum(['scorm', 'h5p']),
  uuid: z.string(),
  /** The H5P item (h5ps.id) for kind h5p, else null. */
  h5p_id: z.number().nullable(),
  title: z.string(),
  /** SCORM: '1.2' | '2004'; H5P: its main library. */
  version: z.string(),
  launch_path: z.string().nullable(),
  mastery_score: z.number().nullable(),
  /** The manifest's items (SCORM) as the online player gets them, with their launch paths. */
  items: z.array(z.record(z.string(), z.unknown())),
  /** The URL prefix every file URL starts with (signed, valid for expires_at only). */
  base_url: z.string(),
  files: z.array(OfflineFile),
  total_bytes: z.number(),
});
export type OfflinePackage = z.infer<typeof OfflinePackage>;

export const OfflineDownload = z.object({
  /** Quoted back by every attempt taken from this copy: the server's own download time bounds device clocks. */
  download_id: z.string(),
  downloaded_at: z.string(),
  /** When the signed file URLs stop working; the files must be fetched before (they are, right after download). */
  files_expire_at: z.string(),
  user_id: z.number(),
  content: z.object({ id: z.number(), title: z.string(), type: z.enum(OFFLINE_CONTENT_TYPES) }),
  course: z.object({ id: z.number(), title: z.string() }),
  lessons: z.array(z.object({ id: z.number(), title: z.string(), topics: z.array(OfflineTopic) })),
  quizzes: z.array(OfflineQuiz),
  packages: z.array(OfflinePackage),
  /** The trusted player runtime the sandbox loads (SCORM bridge, H5P player): also stored for offline use. */
  runtime_files: z.array(z.string()),
  learner: z.object({ id: z.string(), name: z.string() }),
});
export type OfflineDownload = z.infer<typeof OfflineDownload>;

const isoDate = z.iso.datetime({ offset: true, error: 'Give the time as an ISO 8601 date and time.' });

/** An H5P item's outcome from its xAPI statement (players/h5p-xapi.ts), recorded offline. */
export const OfflineH5pOutcome = z.object({
  topic_id: z.number().int().positive(),
  h5p_id: z.number().int().positive(),
  score_scaled: z.number().min(0).max(1).nullable().optional(),
  success: z.boolean().nullable().optional(),
  completion: z.boolean().nullable().optional(),
  /** The raw xAPI statement, kept as the learner's evidence. */
  statement: z.record(z.string(), z.unknown()).optional(),
});

export const SyncOfflineAttemptBody = z.object({
  /** Made by the device when the attempt started: a resend with the same id is the same attempt (idempotent). */
  client_uuid: z.uuid({ error: 'The attempt id must be a valid uuid.' }),
  download_id: z.uuid({ error: 'The download id must be a valid uuid.' }),
  content_id: z.number().int().positive(),
  /** The device's clock; bounded by the server's download and sync times (rules.ts). */
  started_at: isoDate,
  completed_at: isoDate.nullable(),
  completed_topic_ids: z.array(z.number().int().positive()).max(1000).default([]),
  skipped_topic_ids: z.array(z.number().int().positive()).max(1000).default([]),
  /** quiz id -> question id -> chosen answer ids. */
  quiz_responses: z
    .record(z.string().regex(/^\d+$/), z.record(z.string().regex(/^\d+$/), z.array(z.number().int())))
    .default({}),
  h5p: z.array(OfflineH5pOutcome).max(1000).default([]),
  /** SCORM: SCO identifier -> its CMI data as the runtime committed it. */
  cmi: z.record(z.string().max(200), z.record(z.string(), z.unknown())).default({}),
});
export type SyncOfflineAttemptBody = z.input<typeof SyncOfflineAttemptBody>;

/** Which rule of rules.ts decided whether the offline attempt counts for the learner's result. */
export const OFFLINE_RULES = [
  'offline_incomplete',
  'offline_failed',
  'failed_result',
  'only_pass',
  'later_pass_counts',
  'earlier_pass_kept',
] as const;
export type OfflineRule = (typeof OFFLINE_RULES)[number];

/**
 * A step of a synced attempt the rules refused (server/src/learning/progress.ts applyStep, the check the online
 * routes make): it was not applied, the rest of the attempt was. The device shows the message to the learner.
 */
export const OfflineRefusal = z.object({
  /** What was refused: a topic marked read, a topic skipped, an H5P result, or a quiz's answers. */
  item: z.enum(['completed_topic', 'skipped_topic', 'h5p', 'quiz']),
  /** The topic id the device sent (for a quiz, the quiz id). */
  id: z.number(),
  /** Why, in the learner's words. */
  message: z.string(),
});
export type OfflineRefusal = z.infer<typeof OfflineRefusal>;

export const OfflineSyncOutcome = z.object({
  client_uuid: z.string(),
  /** The attempt row it became (null while it was not finished: kept only as offline data). */
  attempt_id: z.number().nullable(),
  status: z.enum(['passed', 'failed', 'completed', 'incomplete']),
  score: z.number().nullable(),
  /** Whether it counts for the learner's result (a result was recorded from it). */
  counted: z.boolean(),
  rule: z.enum(OFFLINE_RULES),
  /** The completion time recorded: the device's, bounded by the download and sync times. */
  completed_at: z.string().nullable(),
  synced_at: z.string(),
  /** The steps refused, each with its reason (empty when everything was applied). */
  refused: z.array(OfflineRefusal),
});
export type OfflineSyncOutcome = z.infer<typeof OfflineSyncOutcome>;
