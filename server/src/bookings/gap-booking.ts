import {
  type BookingGapQuery,
  type BookingGapView,
  BookingsMessages,
  type GapBookingBody,
  type GapBookingPerson,
  type GapBookingResult,
  type GapPerson,
  BookingsPerm as P,
  TRAINING_PROVIDER_DEFAULTS,
} from '@cc/contracts';
import { requirementStatus } from '../compliance/status';
import { inScope, listEntityIds } from '../entities/scope';
import { authorize, type Ctx, can } from '../http/context';
import { forbidden, HttpError, notFound } from '../http/errors';
import { findUsers } from './delegate-queries';
import { addPeople, assertSessionSeen, isOpen, sessionAccess, transaction } from './delegate-service';
import {
  bookableSessionIds,
  findGapCourse,
  type GapFacts,
  gapFacts,
  sessionCourseAndCutoff,
} from './gap-queries';
import { loadDelegateViews, loadSessionViews } from './presenters';
import { sessionScope } from './scope';

/**
 * Booking the gaps (issue 33 §2): the people behind the manager dashboard's "N people to book" and "Book these
 * people" onto one upcoming session of the course in one action.
 *
 * Most overdue first, by the one status (contracts courseStatus over the compliance core's facts): never done
 * (missing; the longest-serving first, as their requirement has been owed longest), then expired (the oldest expiry
 * first), then awaiting approval, then due by a date (the soonest first); then by name. Places go in that order and
 * the rest join the waiting list in that order, through the same placing as POST /training-sessions/{id}/delegates
 * (delegate-service.ts addPeople): the rows are locked in id order (no deadlock with a parallel booking), each place
 * comes from capacity.ts's guarded UPDATE (two managers booking at once never overfill a session), and each person
 * is told through the booking notices, invites and webhooks recorded in the transaction and sent by the job queue.
 */

const HOUR_MS = 3_600_000;
const GROUP = { missing: 0, expired: 1, pending: 2, due: 3 } as Record<string, number>;

interface Ranked {
  facts: GapFacts;
  person: GapPerson;
}

function rankOf(f: GapFacts, now: Date): Ranked {
  const s = requirementStatus(f, now, f.required);
  return {
    facts: f,
    person: {
      user: { id: f.user_id, uuid: f.uuid, name: f.name },
      entity: { id: f.entity_id, slug: f.entity_slug, name: f.entity_name },
      status: s.status,
      date: s.date,
      attempted: s.attempted,
    },
  };
}

const time = (d: string | Date | null) => (d === null ? 0 : new Date(d).getTime());

/** Most overdue first (see above). Exported for the test of the order. */
export function mostOverdueFirst(a: Ranked, b: Ranked): number {
  const ga = GROUP[a.person.status] ?? 9;
  const gb = GROUP[b.person.status] ?? 9;
  if (ga !== gb) return ga - gb;
  const ka = a.person.status === 'missing' ? time(a.facts.started_at) : time(a.person.date);
  const kb = b.person.status === 'missing' ? time(b.facts.started_at) : time(b.person.date);
  if (ka !== kb) return ka - kb;
  return a.person.user.name.localeCompare(b.person.user.name) || a.person.user.id - b.person.user.id;
}

/**
 * GET /booking-gaps/{courseId}: GET /dashboards/bookings's rule (9, 11 or 109, and the organisation's
 * can_manage_bookings; a super admin passes both); 404 when the course has no face-to-face content or nobody in
 * scope must take it (checked before the organisation's flag, so another organisation's course is always a 404).
 */
export async function bookingGap(ctx: Ctx, courseId: number, q: BookingGapQuery): Promise<BookingGapView> {
  const actor = authorize(ctx, [P.createBookings, P.editBooking, P.trainingProviderBookings], 'any');
  const now = ctx.clock();
  const entityIds = await listEntityIds(ctx, q.deep);
  const course = await findGapCourse(ctx.db, courseId, entityIds);
  if (!course) throw notFound();
  const scope = await sessionScope(ctx);
  if (!actor.superAdmin && !scope.aEntity.can_manage_bookings) throw forbidden();
  const [facts, sessionIds] = await Promise.all([
    gapFacts(ctx.db, courseId, now, { entityIds }),
    // 9 adds people to its organisations' sessions, 109 to its training company's (addDelegates's rule).
    can(scope.actor, [P.createBookings, P.trainingProviderBookings], 'any')
      ? bookableSessionIds(ctx.db, courseId, scope.staffEntityIds, now)
      : Promise.resolve([]),
  ]);
  const people = facts.map((f) => rankOf(f, now)).sort(mostOverdueFirst);
  const views = await loadSessionViews(ctx, sessionIds);
  const byId = new Map(views.map((v) => [v.id, v]));
  return {
    course,
    people: people.map((p) => p.person),
    sessions: sessionIds.flatMap((id) => byId.get(id) ?? []),
  };
}

/**
 * POST /training-sessions/{id}/gap-bookings: the session must be one the caller may add people to (9 on their
 * organisations' sessions, 109 on their training company's: addDelegates's rule), every person in the caller's
 * scope (else the same 404 as a missing session: nobody learns who exists elsewhere), the session open and ahead
 * (422 sessionClosed), and not full with its waiting list closed (422 sessionFull: inside the owner's waitlist
 * cut-off no freed place is ever offered, so a waiting-list spot would be an empty promise).
 */
export async function bookGap(ctx: Ctx, sessionId: number, body: GapBookingBody): Promise<GapBookingResult> {
  const a = await sessionAccess(ctx, sessionId);
  const { actor, scope, s } = a;
  await assertSessionSeen(ctx, a);
  const allowed =
    a.owned &&
    (can(actor, [P.createBookings]) || (s.is_training_company && can(actor, [P.trainingProviderBookings])));
  if (!allowed) throw forbidden();
  const ids = [...new Set(body.users)];
  const people = await findUsers(ctx.db, ids);
  if (people.length !== ids.length || people.some((p) => !inScope(scope, p.primary_entity_id)))
    throw notFound();
  const now = ctx.clock();
  if (!isOpen(s, now)) throw new HttpError(422, BookingsMessages.sessionClosed);
  const extra = await sessionCourseAndCutoff(ctx.db, s.id);
  if (!extra) throw notFound();
  const cutoffHours = extra.waitlist_cutoff_hours ?? TRAINING_PROVIDER_DEFAULTS.waitlist_cutoff_hours;
  const waitlistClosed = s.starts_at.getTime() - now.getTime() <= cutoffHours * HOUR_MS;
  if (waitlistClosed && s.places_taken >= s.max_delegates)
    throw new HttpError(422, BookingsMessages.sessionFull);

  const facts = await gapFacts(ctx.db, extra.course_id, now, { userIds: ids });
  const order = facts.map((f) => rankOf(f, now)).sort(mostOverdueFirst);
  const priority = order.map((r) => r.facts.user_id);
  const placed = await transaction(ctx, (trx) =>
    addPeople(trx, s, people, {
      context: body.context,
      bookedBy: actor.userId,
      now,
      orderId: null,
      priority,
    }),
  );
  const views = await loadDelegateViews(ctx.db, placed);
  const viewOf = new Map(views.map((v) => [v.id, v]));
  const out: GapBookingPerson[] = placed.flatMap((id) => {
    const v = viewOf.get(id);
    if (!v) return [];
    return [
      {
        user: v.user,
        outcome: v.status === 'waitlisted' ? 'waitlisted' : 'booked',
        delegate_id: v.id,
        waitlist_position: v.waitlist_position,
      },
    ];
  });
  const placedUsers = new Set(out.map((p) => p.user.id));
  for (const r of order)
    if (!placedUsers.has(r.facts.user_id))
      out.push({
        user: r.person.user,
        outcome: 'already_booked',
        delegate_id: null,
        waitlist_position: null,
      });
  return {
    session_id: s.id,
    booked: out.filter((p) => p.outcome === 'booked').length,
    waitlisted: out.filter((p) => p.outcome === 'waitlisted').length,
    already_booked: out.filter((p) => p.outcome === 'already_booked').length,
    people: out,
  };
}
