import { z } from 'zod';

/**
 * Tasks in progress (issue 18; route /tasks-in-progress): every long job a user started, with its progress, its
 * result (a file to download, a summary, a link) or its error. The server writes them through tasks/service.ts.
 */
export const TASK_KINDS = [
  'import',
  'export',
  'emailed_report',
  'bulk_attempts',
  'bulk_events',
  'other',
] as const;
export const TaskKind = z.enum(TASK_KINDS);

/**
 * Who can have a task (issue 31 §6): the permissions of the calls that start one. The e-mailed compliance report and
 * the inspection pack (13 compliance report), the e-mailed matrix (12 matrix report), an import (99 importer logs)
 * and starting a course for many people (111 bulk create attempts). Without any of them a person never has a task,
 * so the menu's "Tasks in progress" and the header's clock are not shown to them (a learner's menu holds what a
 * learner does). Keep in step with the server's startTask callers.
 */
export const TASK_STARTER_PERMISSIONS = [13, 12, 99, 111] as const;
export type TaskKind = z.infer<typeof TaskKind>;

export const TASK_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export const TaskStatus = z.enum(TASK_STATUSES);
export type TaskStatus = z.infer<typeof TaskStatus>;

/** Which tasks a list shows: still running (queued or running), finished (done, failed, cancelled), or all. */
export const TASK_FILTERS = ['active', 'finished'] as const;

export const TaskListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
  status: z.enum(TASK_FILTERS, { error: 'Choose active or finished.' }).optional(),
});
export type TaskListQuery = z.infer<typeof TaskListQuery>;

export const TaskParams = z.object({ uuid: z.uuid({ error: 'The task id must be a valid uuid.' }) });

/** The outcome of a finished task: a file to download (download_url, only for its owner), a summary and/or a link. */
export const TaskResult = z.object({
  file: z.object({ filename: z.string(), content_type: z.string(), size: z.number().nullable() }).nullable(),
  download_url: z.string().nullable(),
  summary: z.string().nullable(),
  link: z.string().nullable(),
});
export type TaskResult = z.infer<typeof TaskResult>;

export const TaskView = z.object({
  uuid: z.string(),
  kind: TaskKind,
  title: z.string(),
  status: TaskStatus,
  /** done of total; total null while unknown (the page shows an indeterminate bar). */
  progress: z.object({ done: z.number(), total: z.number().nullable() }),
  result: TaskResult.nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
});
export type TaskView = z.infer<typeof TaskView>;

export const TaskActiveCount = z.object({ active: z.number() });
export type TaskActiveCount = z.infer<typeof TaskActiveCount>;

export const TaskMessages = {
  dismissed: 'Task dismissed.',
  cancelled: 'Task cancelled before it started.',
  stillRunning: 'This task is already running; you can dismiss it once it has finished.',
  bulkAttemptsQueued: 'Starting the course for the people chosen. Follow it in Tasks in progress.',
} as const;

const bodyId = z.number().int().positive().max(2147483647);

/** The most people one bulk request may name (issue 18: 5,000). */
export const BULK_ATTEMPTS_MAX = 5000;

/**
 * POST /attempts/bulk (permission 111 bulk create attempts): start a course (its online content) or a given content
 * for many people at once. Runs as a background task; people already in the middle of it are left as they are.
 */
export const BulkAttemptsBody = z
  .object({
    user_ids: z
      .array(bodyId, { error: 'Choose the people to start the course for.' })
      .min(1, 'Choose at least one person.')
      .max(BULK_ATTEMPTS_MAX, `Choose at most ${BULK_ATTEMPTS_MAX.toLocaleString('en-GB')} people at once.`),
    course_id: bodyId.optional(),
    content_id: bodyId.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.course_id === undefined && b.content_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['course_id'], message: 'Choose the course to start.' });
    if (b.course_id !== undefined && b.content_id !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['content_id'],
        message: 'Choose either a course or one of its contents, not both.',
      });
  });
export type BulkAttemptsBody = z.infer<typeof BulkAttemptsBody>;

export const BulkAttemptsAnswer = z.object({
  task: TaskView,
  /** People the job will start it for (in scope, not duplicates). */
  accepted: z.number(),
  /** Ids that were not found or are outside the caller's organisations (never told apart). */
  skipped_user_ids: z.array(z.number()),
});
export type BulkAttemptsAnswer = z.infer<typeof BulkAttemptsAnswer>;
