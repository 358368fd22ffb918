import { BookingsPerm as P, type TrainingSessionBody } from '@cc/contracts';
import { buildContent } from '../../test/content-factories';
import { buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import type { Harness } from '../../test/harness';
import { londonDate, newCheckInCode } from './session-service';

/**
 * Test world of the sessions' tests (sessions, attendance, the decision job): an organisation with the bookings
 * area on, a site under it, a manager (9, 11, 123, 128), a creator (9 only), someone with no bookings permission,
 * a trainer, two learners (108, own certificates), face2face and elearning content; and another organisation with
 * everything, holding its own session (the outsider's 404s).
 */
export async function sessionsWorld(h: Harness) {
  const org = await buildEntity(h.db, { level: 'A', settings: { can_view_internal_bookings: true } });
  const site = await buildEntity(h.db, { level: 'B', parentId: org.id, name: 'Oak Home' });
  const carer = await buildRole(h.db, org.id, { name: 'Carer' });
  const manager = await buildUser(h.db, {
    entityId: org.id,
    permissions: [P.createBookings, P.editBooking, P.removeDelegates, P.markDelegates],
    name: 'Mia Manager',
  });
  const creator = await buildUser(h.db, { entityId: org.id, permissions: [P.createBookings] });
  const nobody = await buildUser(h.db, { entityId: org.id, permissions: [] });
  const trainer = await buildUser(h.db, { entityId: site.id, isTrainer: true, name: 'Tia Trainer' });
  const notTrainer = await buildUser(h.db, { entityId: site.id });
  const learner = await buildUser(h.db, {
    entityId: site.id,
    roleId: carer.id,
    permissions: [P.ownBookings, 6],
    name: 'Lee Learner',
  });
  const learner2 = await buildUser(h.db, {
    entityId: site.id,
    roleId: carer.id,
    permissions: [P.ownBookings],
  });
  const f2f = await buildContent(h.db, { entityId: org.id, type: 'face2face', published: true });
  const elearning = await buildContent(h.db, { entityId: org.id, type: 'elearning', published: true });
  await h.db
    .insertInto('compliance_rules')
    .values({
      entity_id: org.id,
      role_id: carer.id,
      course_id: f2f.course_id,
      type: 'primary',
      validity_months: 12,
    })
    .execute();

  const otherOrg = await buildEntity(h.db, { level: 'A', settings: { can_view_internal_bookings: true } });
  const outsider = await buildUser(h.db, {
    entityId: otherOrg.id,
    superAdmin: false,
    permissions: allBookingPerms,
  });
  const otherContent = await buildContent(h.db, {
    entityId: otherOrg.id,
    type: 'face2face',
    published: true,
  });
  const otherSession = await insertSession(h, {
    entityId: otherOrg.id,
    contentId: otherContent.id,
    courseId: otherContent.course_id,
  });

  const as = (userId: number) => clientFor(h.app, h.db, userId);
  return {
    org,
    site,
    carer,
    manager,
    creator,
    nobody,
    trainer,
    notTrainer,
    learner,
    learner2,
    f2f,
    elearning,
    otherOrg,
    outsider,
    otherContent,
    otherSession,
    as,
  };
}
export type SessionsWorld = Awaited<ReturnType<typeof sessionsWorld>>;

export const allBookingPerms = Object.values(P);

/** 'YYYY-MM-DD' in Europe/London, `days` from today. */
export const dayFromToday = (days: number) => londonDate(new Date(Date.now() + days * 86_400_000));

export function sessionBody(w: SessionsWorld, o: Partial<TrainingSessionBody> = {}) {
  return {
    contentId: w.f2f.id,
    date: dayFromToday(10),
    startTime: '09:30',
    endTime: '16:00',
    trainerId: w.trainer.id,
    venue: 'Oak Home',
    room: 'Training room',
    minDelegates: 2,
    maxDelegates: 6,
    ...o,
  };
}

/** A session straight into the tables (for another organisation, or a state the API would not make). */
export async function insertSession(
  h: Harness,
  o: {
    entityId: number;
    contentId: number;
    courseId: number;
    startsAt?: Date;
    trainerId?: number | null;
    minDelegates?: number;
    maxDelegates?: number;
    placesTaken?: number;
  },
) {
  const startsAt = o.startsAt ?? new Date(Date.now() + 10 * 86_400_000);
  const endsAt = new Date(startsAt.getTime() + 6 * 3_600_000);
  const s = await h.db
    .insertInto('training_sessions')
    .values({
      entity_id: o.entityId,
      content_id: o.contentId,
      course_id: o.courseId,
      trainer_id: o.trainerId ?? null,
      venue: null,
      room: null,
      virtual_url: null,
      area: null,
      aim: null,
      content_covered: null,
      learning_outcomes: null,
      pass_mark: null,
      cancellation_reason_id: null,
      cancellation_notes: null,
      cancelled_at: null,
      decided_at: null,
      created_by: null,
      min_delegates: o.minDelegates ?? 0,
      max_delegates: o.maxDelegates ?? 10,
      places_taken: o.placesTaken ?? 0,
      check_in_code: newCheckInCode(),
      starts_at: startsAt,
      ends_at: endsAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await h.db
    .insertInto('training_session_dates')
    .values({
      session_id: s.id,
      position: 0,
      date: londonDate(startsAt),
      start_time: '09:00:00',
      end_time: '15:00:00',
      starts_at: startsAt,
      ends_at: endsAt,
    })
    .execute();
  return s;
}

/** A delegate row holding a place (what the delegates' booking service makes), with the place counted. */
export async function placeDelegate(
  h: Harness,
  sessionId: number,
  user: { id: number; primary_entity_id: number },
  status: 'accepted' | 'pending' | 'waitlisted' = 'accepted',
) {
  const d = await h.db
    .insertInto('session_delegates')
    .values({
      session_id: sessionId,
      user_id: user.id,
      entity_id: user.primary_entity_id,
      order_id: null,
      status,
      waitlisted_at: status === 'waitlisted' ? new Date() : null,
      offer_expires_at: null,
      attendance: null,
      passed: null,
      notes: null,
      checked_in_at: null,
      marked_by: null,
      marked_at: null,
      result_id: null,
      booked_by: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (status !== 'waitlisted')
    await h.db
      .updateTable('training_sessions')
      .set((eb) => ({ places_taken: eb('places_taken', '+', 1) }))
      .where('id', '=', sessionId)
      .execute();
  return d;
}
