import type { Db } from '../src/db/connect';
import { buildContent } from './learning-factories';

/**
 * Training sessions and delegates written straight into the tables (migration 026), for the tests of calendar
 * invites, the feed and the bookings dashboard, which must not depend on the sessions service. places_taken is kept
 * equal to the delegates holding a place, as the services keep it.
 */
export interface SessionOptions {
  entityId: number;
  contentId?: number;
  courseId?: number;
  /** Each day's start (UTC instant) and length in hours; the first is the spec's date/startTime. */
  days?: { start: Date; hours?: number }[];
  max?: number;
  min?: number;
  status?: 'scheduled' | 'confirmed' | 'completed' | 'incomplete' | 'cancelled';
  availableTo?: 'internal' | 'external' | 'all';
  venue?: string | null;
  trainerId?: number | null;
}

const pad = (n: number) => String(n).padStart(2, '0');
const ymd = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
const hm = (d: Date) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;

/**
 * A session day ends on the day it starts (migration 026 checks end_time > start_time): a session built late in the
 * evening ends at 23:59 rather than after midnight, so tests that build one "an hour from now" pass at any time of day.
 */
function withinItsDay(start: Date, hours: number) {
  const lastMinute = new Date(`${ymd(start)}T23:59:00Z`);
  const end = new Date(Math.min(start.getTime() + hours * 3_600_000, lastMinute.getTime()));
  return end > start ? { start, end } : { start: new Date(end.getTime() - 60_000), end };
}

export async function buildFace2face(db: Db, entityId: number, courseTitle?: string) {
  return buildContent(db, entityId, { type: 'face2face', courseTitle });
}

export async function buildSession(db: Db, o: SessionOptions) {
  const content = o.contentId
    ? await db
        .selectFrom('contents')
        .select(['id', 'course_id'])
        .where('id', '=', o.contentId)
        .executeTakeFirstOrThrow()
    : await buildFace2face(db, o.entityId);
  const days = (o.days ?? [{ start: new Date(Date.now() + 7 * 86_400_000) }]).map((d) =>
    withinItsDay(d.start, d.hours ?? 3),
  );
  const first = days[0];
  const last = days[days.length - 1];
  if (!first || !last) throw new Error('buildSession: no days');
  const session = await db
    .insertInto('training_sessions')
    .values({
      entity_id: o.entityId,
      content_id: content.id,
      course_id: o.courseId ?? content.course_id,
      trainer_id: o.trainerId ?? null,
      venue: o.venue === undefined ? 'Training Room, 1 High Street' : o.venue,
      max_delegates: o.max ?? 10,
      min_delegates: o.min ?? 0,
      status: o.status ?? 'scheduled',
      available_to: o.availableTo ?? 'internal',
      check_in_code: 'ABC123',
      starts_at: first.start,
      ends_at: last.end,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await db
    .insertInto('training_session_dates')
    .values(
      days.map((d, position) => ({
        session_id: session.id,
        position,
        date: ymd(d.start),
        start_time: hm(d.start),
        end_time: hm(d.end),
        starts_at: d.start,
        ends_at: d.end,
      })),
    )
    .execute();
  return session;
}

const HOLDS = new Set(['pending', 'accepted', 'offered']);

export async function buildDelegate(
  db: Db,
  o: {
    sessionId: number;
    userId: number;
    entityId: number;
    status: 'requested' | 'pending' | 'accepted' | 'waitlisted' | 'offered' | 'declined' | 'deleted';
    offerExpiresAt?: Date;
  },
) {
  const now = new Date();
  const delegate = await db
    .insertInto('session_delegates')
    .values({
      session_id: o.sessionId,
      user_id: o.userId,
      entity_id: o.entityId,
      status: o.status,
      waitlisted_at: o.status === 'waitlisted' ? now : null,
      offer_expires_at:
        o.status === 'offered' ? (o.offerExpiresAt ?? new Date(now.getTime() + 86_400_000)) : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (HOLDS.has(o.status))
    await db
      .updateTable('training_sessions')
      .set((eb) => ({ places_taken: eb('places_taken', '+', 1) }))
      .where('id', '=', o.sessionId)
      .execute();
  return delegate;
}

/** Moves a delegate to a new state, keeping places_taken right. */
export async function setDelegateStatus(
  db: Db,
  delegateId: number,
  status: 'requested' | 'pending' | 'accepted' | 'waitlisted' | 'offered' | 'declined' | 'deleted',
) {
  const before = await db
    .selectFrom('session_delegates')
    .select(['status', 'session_id'])
    .where('id', '=', delegateId)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('session_delegates')
    .set({
      status,
      waitlisted_at: status === 'waitlisted' ? new Date() : null,
      offer_expires_at: status === 'offered' ? new Date(Date.now() + 86_400_000) : null,
    })
    .where('id', '=', delegateId)
    .execute();
  const delta = Number(HOLDS.has(status)) - Number(HOLDS.has(before.status));
  if (delta !== 0)
    await db
      .updateTable('training_sessions')
      .set((eb) => ({ places_taken: eb('places_taken', '+', delta) }))
      .where('id', '=', before.session_id)
      .execute();
}
