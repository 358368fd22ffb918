import {
  type BulkAttemptsAnswer,
  BulkAttemptsBody,
  TASK_FILTERS,
  TASK_KINDS,
  TASK_STATUSES,
  TaskListQuery,
  TaskParams,
  type TaskResult,
  type TaskView,
} from '@cc/contracts';
import { actorOf } from '../http/context';
import { requestBulkAttempts } from '../tasks/bulk-attempts';
import { activeTaskCount, dismissTask, getTask, listTasks } from '../tasks/user-service';
import { builder } from './builder';
import { parseInput } from './input';
import { pageArgs, pageOf, paginatorOf } from './paging';

/**
 * Tasks in progress and bulk attempts (issue 18; contracts tasks.ts) over GraphQL: queries `tasks`, `task`,
 * `activeTaskCount`; mutations `dismissTask` (DELETE /tasks/{uuid}) and `createAttempts` (POST /attempts/bulk).
 * Every resolver parses its input with the REST route's schema and calls the same service: no rule lives here.
 */

const TaskFileObject = builder.objectRef<NonNullable<TaskResult['file']>>('TaskFile').implement({
  fields: (t) => ({
    filename: t.exposeString('filename'),
    content_type: t.exposeString('content_type'),
    size: t.exposeInt('size', { nullable: true }),
  }),
});

const TaskResultObject = builder.objectRef<TaskResult>('TaskResult').implement({
  description: "A finished task's outcome: a file to download (its owner only), a summary and/or a link.",
  fields: (t) => ({
    file: t.field({ type: TaskFileObject, nullable: true, resolve: (r) => r.file }),
    download_url: t.exposeString('download_url', { nullable: true }),
    summary: t.exposeString('summary', { nullable: true }),
    link: t.exposeString('link', { nullable: true }),
  }),
});

const TaskProgressObject = builder.objectRef<TaskView['progress']>('TaskProgress').implement({
  fields: (t) => ({ done: t.exposeInt('done'), total: t.exposeInt('total', { nullable: true }) }),
});

const TaskObject = builder.objectRef<TaskView>('Task').implement({
  description: 'A long job the caller started (an export, an e-mailed report, an import, bulk attempts...).',
  fields: (t) => ({
    uuid: t.exposeString('uuid'),
    kind: t.exposeString('kind', { description: TASK_KINDS.join(', ') }),
    title: t.exposeString('title'),
    status: t.exposeString('status', { description: TASK_STATUSES.join(', ') }),
    progress: t.field({ type: TaskProgressObject, resolve: (v) => v.progress }),
    result: t.field({ type: TaskResultObject, nullable: true, resolve: (v) => v.result }),
    error: t.exposeString('error', { nullable: true }),
    created_at: t.exposeString('created_at'),
    updated_at: t.exposeString('updated_at'),
    finished_at: t.exposeString('finished_at', { nullable: true }),
  }),
});

const TaskPaginator = paginatorOf(TaskObject, 'Task');

const uuidOf = (uuid: string) => parseInput(TaskParams, { uuid }).uuid;

builder.queryField('tasks', (t) =>
  t.field({
    type: TaskPaginator,
    description: "GET /api/tasks: the caller's own tasks, newest first.",
    args: { ...pageArgs(t.arg), status: t.arg.string({ description: TASK_FILTERS.join(', ') }) },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      return pageOf(TaskListQuery, args, (q) => listTasks(ctx, q));
    },
  }),
);

builder.queryField('task', (t) =>
  t.field({
    type: TaskObject,
    description: 'GET /api/tasks/{uuid}.',
    args: { uuid: t.arg.string({ required: true }) },
    resolve: (_root, { uuid }, ctx) => {
      actorOf(ctx);
      return getTask(ctx, uuidOf(uuid));
    },
  }),
);

builder.queryField('activeTaskCount', (t) =>
  t.int({
    description: "GET /api/tasks/active-count: the caller's queued and running tasks.",
    resolve: async (_root, _args, ctx) => (await activeTaskCount(ctx)).active,
  }),
);

const DismissObject = builder
  .objectRef<{ outcome: 'dismissed' | 'cancelled'; message: string; task: TaskView | null }>('TaskDismissal')
  .implement({
    fields: (t) => ({
      outcome: t.exposeString('outcome', {
        description: 'dismissed (removed) or cancelled (it had not started).',
      }),
      message: t.exposeString('message'),
      task: t.field({ type: TaskObject, nullable: true, resolve: (d) => d.task }),
    }),
  });

builder.mutationField('dismissTask', (t) =>
  t.field({
    type: DismissObject,
    description:
      'DELETE /api/tasks/{uuid}: dismiss a finished task, or cancel one whose job has not started.',
    args: { uuid: t.arg.string({ required: true }) },
    resolve: (_root, { uuid }, ctx) => {
      actorOf(ctx);
      return dismissTask(ctx, uuidOf(uuid));
    },
  }),
);

const BulkAttemptsObject = builder.objectRef<BulkAttemptsAnswer>('BulkAttempts').implement({
  fields: (t) => ({
    task: t.field({ type: TaskObject, resolve: (a) => a.task }),
    accepted: t.exposeInt('accepted'),
    skipped_user_ids: t.exposeIntList('skipped_user_ids', {
      description: 'Ids not found or outside your organisations (never told apart).',
    }),
  }),
});

builder.mutationField('createAttempts', (t) =>
  t.field({
    type: BulkAttemptsObject,
    description:
      'POST /api/attempts/bulk (111): start a course or content for many people, as a background task.',
    args: {
      user_ids: t.arg.intList({ required: true }),
      course_id: t.arg.int(),
      content_id: t.arg.int(),
    },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      return requestBulkAttempts(
        ctx,
        parseInput(BulkAttemptsBody, {
          user_ids: args.user_ids,
          course_id: args.course_id ?? undefined,
          content_id: args.content_id ?? undefined,
        }),
      );
    },
  }),
);
