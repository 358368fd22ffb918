import {
  BookingGapQuery,
  type BookingGapView,
  COURSE_STATUSES,
  CourseIdParams,
  GAP_BOOKING_OUTCOMES,
  GapBookingBody,
  type GapBookingPerson,
  type GapBookingResult,
  type GapPerson,
  IdParams,
} from '@cc/contracts';
import { bookGap, bookingGap } from '../bookings/gap-booking';
import { actorOf } from '../http/context';
import { EntityRefRef } from './auth';
import { PersonObject, TrainingSessionObject } from './bookings-sessions';
import { builder } from './builder';
import { nullless, parseInput } from './input';

/**
 * Booking the gaps over GraphQL (issue 33 §2): query `bookingGap`, mutation `bookGap`. Both call the REST routes'
 * service (bookings/gap-booking.ts): the same order, scope and answers.
 */
const GapCourseObject = builder
  .objectRef<BookingGapView['course']>('BookingGapCourse')
  .implement({ fields: (t) => ({ id: t.exposeInt('id'), title: t.exposeString('title') }) });

const GapPersonObject = builder.objectRef<GapPerson>('BookingGapPerson').implement({
  description: 'A person to book: their status of the course (most overdue first).',
  fields: (t) => ({
    user: t.field({ type: PersonObject, resolve: (p) => p.user }),
    entity: t.field({ type: EntityRefRef, resolve: (p) => p.entity }),
    status: t.exposeString('status', { description: COURSE_STATUSES.join(', ') }),
    date: t.exposeString('date', { nullable: true }),
    attempted: t.exposeBoolean('attempted'),
  }),
});

const BookingGapObject = builder.objectRef<BookingGapView>('BookingGap').implement({
  description: 'GET /api/booking-gaps/{courseId}: the people to book and the sessions to book them on.',
  fields: (t) => ({
    course: t.field({ type: GapCourseObject, resolve: (g) => g.course }),
    people: t.field({ type: [GapPersonObject], resolve: (g) => g.people }),
    sessions: t.field({ type: [TrainingSessionObject], resolve: (g) => g.sessions }),
  }),
});

const GapBookingPersonObject = builder.objectRef<GapBookingPerson>('GapBookingPerson').implement({
  fields: (t) => ({
    user: t.field({ type: PersonObject, resolve: (p) => p.user }),
    outcome: t.exposeString('outcome', { description: GAP_BOOKING_OUTCOMES.join(', ') }),
    delegate_id: t.exposeInt('delegate_id', { nullable: true }),
    waitlist_position: t.exposeInt('waitlist_position', { nullable: true }),
  }),
});

const GapBookingResultObject = builder.objectRef<GapBookingResult>('GapBookingResult').implement({
  description: 'POST /api/training-sessions/{id}/gap-bookings: how many were booked, waitlisted, and who.',
  fields: (t) => ({
    session_id: t.exposeInt('session_id'),
    booked: t.exposeInt('booked'),
    waitlisted: t.exposeInt('waitlisted'),
    already_booked: t.exposeInt('already_booked'),
    people: t.field({ type: [GapBookingPersonObject], resolve: (r) => r.people }),
  }),
});

builder.queryField('bookingGap', (t) =>
  t.field({
    type: BookingGapObject,
    description:
      'GET /api/booking-gaps/{courseId}: the people to book on a face-to-face course, most overdue first.',
    args: { course: t.arg.id({ required: true }), deep: t.arg.boolean() },
    resolve: async (_root, { course, deep }, ctx) => {
      actorOf(ctx);
      const { courseId } = parseInput(CourseIdParams, { courseId: course });
      return bookingGap(ctx, courseId, parseInput(BookingGapQuery, nullless({ deep })));
    },
  }),
);

builder.mutationField('bookGap', (t) =>
  t.field({
    type: GapBookingResultObject,
    description:
      'POST /api/training-sessions/{id}/gap-bookings: book these people, places most overdue first, the rest waitlisted.',
    args: {
      session: t.arg.id({ required: true }),
      users: t.arg.intList({ required: true }),
      context: t.arg.string({ description: 'download, online' }),
    },
    resolve: async (_root, { session, users, context }, ctx) => {
      actorOf(ctx);
      const { id } = parseInput(IdParams, { id: session });
      return bookGap(ctx, id, parseInput(GapBookingBody, nullless({ users, context })));
    },
  }),
);
