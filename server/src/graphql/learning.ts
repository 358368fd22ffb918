import {
  type Attempt,
  type Content,
  ContentListQuery,
  type Course,
  CourseListQuery,
  type LearnerEvent,
  type LearnerEventCounts,
  type LearnerEvents,
  RESULT_TYPES,
  ResultListQuery,
  type ResultView,
  UserResultsQuery,
} from '@cc/contracts';
import { z } from 'zod';
import { getContent, listContents } from '../content/service';
import { getCourse, listCourses } from '../courses/service';
import { actorOf } from '../http/context';
import { createAttempt, getAttempt } from '../learning/attempts-service';
import { learnerEvents } from '../learning/events';
import { approvePending, deletePending, listPending, listUserResults } from '../results/records-service';
import { builder } from './builder';
import { defined, parseInput } from './input';
import { pageArgs, paginatorOf, restPage, toPaginator } from './paging';

/**
 * spec 2 §7 GraphQL: courses, contents, results, pending results; creating attempts and approving or deleting
 * pending results. Every resolver calls the REST route's service, so the answers and the rules are the same.
 */

const CourseRef = builder.objectRef<Course>('Course').implement({
  description: 'A course (GET /api/courses/{id}).',
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    title: t.exposeString('title'),
    short_title: t.exposeString('short_title', { nullable: true }),
    published: t.exposeBoolean('published'),
    kind: t.exposeString('kind', {
      description: 'course, or document / pathway: backs a document or a pathway',
    }),
    entity_id: t.exposeInt('entity_id', { nullable: true }),
    platform: t.exposeBoolean('platform'),
    contents_count: t.int({ nullable: true, resolve: (c) => c.contents_count ?? null }),
  }),
});

const ContentRef = builder.objectRef<Content>('Content').implement({
  description:
    'Content of a course: elearning, scorm, historical, face2face or exempt (GET /api/content/{id}).',
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    type: t.exposeString('type'),
    title: t.exposeString('title'),
    course_id: t.exposeInt('course_id'),
    published: t.exposeBoolean('published'),
    cpd_accredited: t.exposeBoolean('cpd_accredited'),
    admin_only: t.exposeBoolean('admin_only'),
    estimated_duration: t.exposeInt('estimated_duration', { nullable: true }),
    aims: t.exposeString('aims', { nullable: true }),
    outcomes: t.exposeString('outcomes', { nullable: true }),
  }),
});

const ResultRef = builder.objectRef<ResultView>('Result').implement({
  description: 'A training result (GET /api/results/{id}).',
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    type: t.exposeString('type'),
    status: t.exposeString('status'),
    passed: t.exposeBoolean('passed'),
    score: t.exposeFloat('score', { nullable: true }),
    completed_at: t.exposeString('completed_at'),
    expires_at: t.exposeString('expires_at', { nullable: true }),
    certificate_suppressed: t.exposeBoolean('certificate_suppressed'),
    user_id: t.int({ resolve: (r) => r.user.id }),
    user_name: t.string({ resolve: (r) => r.user.name }),
    course_id: t.int({ resolve: (r) => r.course.id }),
    course_title: t.string({ resolve: (r) => r.course.title }),
  }),
});

const AttemptRef = builder.objectRef<Attempt>('Attempt').implement({
  description: 'An attempt at content (GET /api/attempts/{id}).',
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    user_id: t.exposeInt('user_id'),
    content_id: t.exposeInt('content_id'),
    course_id: t.exposeInt('course_id'),
    status: t.exposeString('status'),
    score: t.exposeFloat('score', { nullable: true }),
    version: t.exposeInt('version'),
    started_at: t.exposeString('started_at'),
    completed_at: t.exposeString('completed_at', { nullable: true }),
  }),
});

const LearnerEventRef = builder.objectRef<LearnerEvent>('LearnerEvent').implement({
  description:
    "One course of a learner's to-do (GET /api/users/{id}/events): kind mandatory/required/optional, state overdue/expiring/due/in_progress/done/pending, course_status the one status of the person x course.",
  fields: (t) => ({
    course_id: t.int({ resolve: (e) => e.course.id }),
    course_title: t.string({ resolve: (e) => e.course.title }),
    kind: t.exposeString('kind'),
    state: t.exposeString('state'),
    status: t.exposeString('status', { nullable: true }),
    course_status: t.exposeString('course_status', { nullable: true }),
    due_date: t.exposeString('due_date', { nullable: true }),
    days_left: t.exposeInt('days_left', { nullable: true }),
    attempt_id: t.exposeInt('attempt_id', { nullable: true }),
    content_id: t.exposeInt('content_id', { nullable: true }),
    content_type: t.exposeString('content_type', { nullable: true }),
    document_id: t.int({ nullable: true, resolve: (e) => e.document_id ?? null }),
    result_id: t.int({ nullable: true, resolve: (e) => e.latest_result?.result_id ?? null }),
    completed_at: t.string({ nullable: true, resolve: (e) => e.latest_result?.completed_at ?? null }),
  }),
});

const LearnerEventCountsRef = builder.objectRef<LearnerEventCounts>('LearnerEventCounts').implement({
  description: 'Event counts of the learner events screen: current (to do, not overdue), overdue, completed.',
  fields: (t) => ({
    current: t.exposeInt('current'),
    overdue: t.exposeInt('overdue'),
    completed: t.exposeInt('completed'),
  }),
});

const LearnerEventsRef = builder.objectRef<LearnerEvents>('LearnerEvents').implement({
  fields: (t) => ({
    counts: t.field({ type: LearnerEventCountsRef, resolve: (e) => e.counts }),
    data: t.field({ type: [LearnerEventRef], resolve: (e) => e.data }),
  }),
});

const IdArg = z.object({ id: z.coerce.number().int().positive() });

builder.queryFields((t) => ({
  courses: t.field({
    type: paginatorOf(CourseRef, 'Course'),
    description: 'GET /api/courses (content creator, 63).',
    args: { ...pageArgs(t.arg), search: t.arg.string(), published: t.arg.boolean() },
    resolve: async (_root, args, ctx) => {
      actorOf(ctx);
      const query = parseInput(
        CourseListQuery,
        defined({
          ...restPage(args),
          search: args.search ?? undefined,
          published:
            args.published === null || args.published === undefined ? undefined : String(args.published),
        }),
      );
      const { data, total, perPage } = await listCourses(ctx, query);
      return toPaginator(data, total, query.page, perPage);
    },
  }),
  course: t.field({
    type: CourseRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => getCourse(ctx, parseInput(IdArg, args).id),
  }),
  contents: t.field({
    type: paginatorOf(ContentRef, 'Content'),
    description: 'GET /api/content (content creator, 63).',
    args: {
      ...pageArgs(t.arg),
      search: t.arg.string(),
      type: t.arg.string(),
      course_id: t.arg.int(),
    },
    resolve: async (_root, args, ctx) => {
      actorOf(ctx);
      const query = parseInput(
        ContentListQuery,
        defined({
          ...restPage(args),
          search: args.search ?? undefined,
          type: args.type ?? undefined,
          course_id: args.course_id ?? undefined,
        }),
      );
      const { data, total } = await listContents(ctx, query);
      return toPaginator(data, total, query.page, query.per_page);
    },
  }),
  content: t.field({
    type: ContentRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => getContent(ctx, parseInput(IdArg, args).id),
  }),
  results: t.field({
    type: paginatorOf(ResultRef, 'Result'),
    description: "GET /api/users/{id}/results: a user's results (oneself, or 24 with the user in scope).",
    args: { user: t.arg.string({ required: true, description: 'User id or uuid.' }), ...pageArgs(t.arg) },
    resolve: async (_root, args, ctx) => {
      actorOf(ctx);
      const query = parseInput(UserResultsQuery, defined(restPage(args)));
      const { data, total } = await listUserResults(ctx, args.user, query);
      return toPaginator(data, total, query.page, query.per_page);
    },
  }),
  pendingResults: t.field({
    type: paginatorOf(ResultRef, 'PendingResult'),
    description: 'GET /api/results/pending/{type}: results waiting for approval (24 or 25).',
    args: { type: t.arg.string({ required: true }), ...pageArgs(t.arg) },
    resolve: async (_root, args, ctx) => {
      actorOf(ctx);
      const type = parseInput(z.object({ type: z.enum(RESULT_TYPES) }), { type: args.type }).type;
      const query = parseInput(ResultListQuery, defined(restPage(args)));
      const { data, total } = await listPending(ctx, type, query);
      return toPaginator(data, total, query.page, query.per_page);
    },
  }),
  events: t.field({
    type: LearnerEventsRef,
    description:
      "GET /api/users/{id}/events: a learner's to-do in order with counts (oneself by default; 24 or 43 with the user in scope).",
    args: { user: t.arg.string({ description: 'User id or uuid; the caller when absent.' }) },
    resolve: async (_root, args, ctx) => learnerEvents(ctx, args.user ?? String(actorOf(ctx).userId)),
  }),
  attempt: t.field({
    type: AttemptRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => getAttempt(ctx, parseInput(IdArg, args).id),
  }),
}));

builder.mutationFields((t) => ({
  createAttempt: t.field({
    type: AttemptRef,
    description: 'POST /api/users/{id}/attempts: starts (or resumes) an attempt at content.',
    args: { user: t.arg.string({ required: true }), content_id: t.arg.int({ required: true }) },
    resolve: async (_root, args, ctx) => {
      actorOf(ctx);
      const { content_id } = parseInput(z.object({ content_id: z.number().int().positive() }), args);
      return (await createAttempt(ctx, args.user, content_id)).attempt;
    },
  }),
  approvePendingResult: t.field({
    type: ResultRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => approvePending(ctx, parseInput(IdArg, args).id),
  }),
  deletePendingResult: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await deletePending(ctx, parseInput(IdArg, args).id);
      return true;
    },
  }),
}));
