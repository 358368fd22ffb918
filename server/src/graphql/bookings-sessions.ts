import {
  AVAILABLE_TO,
  CancelSessionBody,
  GRADING_METHODS,
  IdParams,
  type PersonRef,
  SESSION_STATUSES,
  type SessionDate,
  TrainingSessionBody,
  TrainingSessionsQuery,
  TrainingSessionUpdate,
  type TrainingSessionView,
} from '@cc/contracts';
import {
  cancelSession,
  createSession,
  getSession,
  listSessions,
  patchSession,
} from '../bookings/session-service';
import { actorOf } from '../http/context';
import { EntityRefRef } from './auth';
import { builder } from './builder';
import { defined, parseInput } from './input';
import { pageArgs, pageOf, paginatorOf } from './paging';

/**
 * Training sessions over GraphQL (spec 2 §7; issue 15): query `trainingSessions` (the filters of GET
 * /api/training-sessions) and `trainingSession`, mutations `upsertTrainingSession` and `cancelTrainingSession`.
 * Every resolver calls the REST route's service (bookings/session-service.ts), so the answers and rules are the same.
 * The object types are exported for the other bookings modules (marketplace, bookings, dashboards).
 */

export const PersonObject = builder.objectRef<PersonRef>('Person').implement({
  description: 'A person named on a booking (trainer, delegate, booked by).',
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    name: t.exposeString('name'),
  }),
});

const TitledObject = builder.objectRef<{ id: number; title: string }>('TitledRef').implement({
  description: 'A course or content item by id and title.',
  fields: (t) => ({ id: t.exposeID('id'), title: t.exposeString('title') }),
});

const SessionDayObject = builder.objectRef<SessionDate>('TrainingSessionDay').implement({
  description: 'One day of a session, in local time (Europe/London).',
  fields: (t) => ({
    date: t.exposeString('date'),
    startTime: t.exposeString('startTime'),
    endTime: t.exposeString('endTime'),
  }),
});

const SessionCanObject = builder.objectRef<TrainingSessionView['can']>('TrainingSessionCan').implement({
  description: 'What the caller may do with the session.',
  fields: (t) => ({
    edit: t.exposeBoolean('edit'),
    manage_delegates: t.exposeBoolean('manage_delegates'),
    mark: t.exposeBoolean('mark'),
    book: t.exposeBoolean('book'),
  }),
});

const MyBookingObject = builder
  .objectRef<NonNullable<TrainingSessionView['my_booking']>>('MyBooking')
  .implement({
    description: "The caller's own booking on a session.",
    fields: (t) => ({ id: t.exposeID('id'), status: t.exposeString('status') }),
  });

export const TrainingSessionObject = builder.objectRef<TrainingSessionView>('TrainingSession').implement({
  description: 'A training session of face-to-face content (GET /api/training-sessions/{id}).',
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    entity: t.field({ type: EntityRefRef, resolve: (s) => s.entity }),
    contentId: t.exposeInt('contentId'),
    content: t.field({ type: TitledObject, resolve: (s) => s.content }),
    course: t.field({ type: TitledObject, resolve: (s) => s.course }),
    date: t.exposeString('date'),
    startTime: t.exposeString('startTime'),
    endTime: t.exposeString('endTime'),
    dates: t.field({ type: [SessionDayObject], resolve: (s) => s.dates }),
    starts_at: t.exposeString('starts_at'),
    ends_at: t.exposeString('ends_at'),
    trainerId: t.exposeInt('trainerId', { nullable: true }),
    trainer: t.field({ type: PersonObject, nullable: true, resolve: (s) => s.trainer }),
    venue: t.exposeString('venue', { nullable: true }),
    room: t.exposeString('room', { nullable: true }),
    virtual: t.exposeBoolean('virtual'),
    virtual_url: t.exposeString('virtual_url', { nullable: true }),
    area: t.exposeString('area', { nullable: true }),
    aim: t.exposeString('aim', { nullable: true }),
    contentCovered: t.exposeString('contentCovered', { nullable: true }),
    learningOutcomes: t.exposeString('learningOutcomes', { nullable: true }),
    availableTo: t.exposeString('availableTo', { description: AVAILABLE_TO.join(', ') }),
    minDelegates: t.exposeInt('minDelegates'),
    maxDelegates: t.exposeInt('maxDelegates'),
    grading_method: t.exposeString('grading_method', { description: GRADING_METHODS.join(', ') }),
    pass_mark: t.exposeInt('pass_mark', { nullable: true }),
    status: t.exposeString('status', { description: SESSION_STATUSES.join(', ') }),
    cancelled: t.exposeBoolean('cancelled'),
    cancellation_reason_id: t.exposeInt('cancellation_reason_id', { nullable: true }),
    cancellation_reason: t.exposeString('cancellation_reason', { nullable: true }),
    cancellation_notes: t.exposeString('cancellation_notes', { nullable: true }),
    places_taken: t.exposeInt('places_taken'),
    places_free: t.exposeInt('places_free'),
    waitlist_count: t.exposeInt('waitlist_count'),
    check_in_code: t.exposeString('check_in_code', { nullable: true }),
    can: t.field({ type: SessionCanObject, resolve: (s) => s.can }),
    my_booking: t.field({ type: MyBookingObject, nullable: true, resolve: (s) => s.my_booking }),
    created_at: t.exposeString('created_at'),
    updated_at: t.exposeString('updated_at'),
  }),
});

export const TrainingSessionPaginator = paginatorOf(TrainingSessionObject, 'TrainingSession');

builder.queryField('trainingSessions', (t) =>
  t.field({
    type: TrainingSessionPaginator,
    description: 'GET /api/training-sessions: sessions in scope, with the same filters.',
    args: {
      ...pageArgs(t.arg),
      search: t.arg.string(),
      from: t.arg.string({ description: 'YYYY-MM-DD: sessions with a day on or after.' }),
      to: t.arg.string({ description: 'YYYY-MM-DD: sessions with a day on or before.' }),
      content_id: t.arg.int(),
      trainer_id: t.arg.int(),
      status: t.arg.string({ description: SESSION_STATUSES.join(', ') }),
      mine: t.arg.boolean({ description: "Only the caller's sessions as trainer." }),
      has_places: t.arg.boolean(),
      deep: t.arg.boolean(),
    },
    resolve: async (_root, args, ctx) => {
      actorOf(ctx);
      return pageOf(TrainingSessionsQuery, args, (q) => listSessions(ctx, q));
    },
  }),
);

builder.queryField('trainingSession', (t) =>
  t.field({
    type: TrainingSessionObject,
    description: 'GET /api/training-sessions/{id}.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      actorOf(ctx);
      return getSession(ctx, parseInput(IdParams, { id }).id);
    },
  }),
);

const SessionDayInput = builder.inputType('TrainingSessionDayInput', {
  fields: (t) => ({
    date: t.string({ required: true }),
    startTime: t.string({ required: true }),
    endTime: t.string({ required: true }),
  }),
});

const TrainingSessionInput = builder.inputType('TrainingSessionInput', {
  description:
    'Without id: a new session (POST /api/training-sessions). With id: only the fields sent change (PATCH).',
  fields: (t) => ({
    id: t.id(),
    contentId: t.int(),
    entity_id: t.int(),
    date: t.string(),
    startTime: t.string(),
    endTime: t.string(),
    additionalDates: t.field({ type: [SessionDayInput] }),
    trainerId: t.int(),
    venue: t.string(),
    room: t.string(),
    virtual: t.boolean(),
    virtual_url: t.string(),
    area: t.string(),
    aim: t.string(),
    contentCovered: t.string(),
    learningOutcomes: t.string(),
    availableTo: t.string({ description: AVAILABLE_TO.join(', ') }),
    minDelegates: t.int(),
    maxDelegates: t.int(),
    grading_method: t.string({ description: GRADING_METHODS.join(', ') }),
    pass_mark: t.int(),
  }),
});

builder.mutationField('upsertTrainingSession', (t) =>
  t.field({
    type: TrainingSessionObject,
    description: 'POST or PATCH /api/training-sessions over GraphQL (9 to create, 11 to edit).',
    args: { input: t.arg({ type: TrainingSessionInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      actorOf(ctx);
      const { id, ...fields } = input;
      const sent = defined(fields);
      if (id === null || id === undefined) return createSession(ctx, parseInput(TrainingSessionBody, sent));
      const params = parseInput(IdParams, { id });
      return patchSession(ctx, params.id, parseInput(TrainingSessionUpdate, sent));
    },
  }),
);

builder.mutationField('cancelTrainingSession', (t) =>
  t.field({
    type: TrainingSessionObject,
    description: 'POST /api/training-sessions/{id}/cancel over GraphQL (11).',
    args: {
      id: t.arg.id({ required: true }),
      cancellation_reason_id: t.arg.int({ required: true }),
      cancellation_notes: t.arg.string(),
    },
    resolve: async (_root, { id, ...body }, ctx) => {
      actorOf(ctx);
      const params = parseInput(IdParams, { id });
      return cancelSession(ctx, params.id, parseInput(CancelSessionBody, defined(body)));
    },
  }),
);
