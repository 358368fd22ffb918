import { PERMISSIONS } from '@cc/contracts';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import type { TestApp } from '../../test/harness';
import { buildContent } from '../../test/learning-factories';
import type { Db } from '../db/connect';

/** Test data of the delegates part (issue 15): sessions straight into the tables, organisations, people. */
export const ALL = PERMISSIONS.map((p) => p.id);
const HOUR_MS = 3_600_000;

export interface SessionOptions {
  max?: number;
  availableTo?: 'internal' | 'external' | 'all';
  /** Hours from now to the start (default a week). */
  startsInHours?: number;
  status?: 'scheduled' | 'confirmed' | 'completed' | 'incomplete' | 'cancelled';
  trainerId?: number | null;
  title?: string;
}

/** A face-to-face session owned by `entityId`, one day of two hours. */
export async function buildSession(db: Db, entityId: number, o: SessionOptions = {}) {
  const content = await buildContent(db, entityId, {
    type: 'face2face',
    title: o.title ?? 'First Aid Workshop',
  });
  const startsAt = new Date(Date.now() + (o.startsInHours ?? 24 * 7) * HOUR_MS);
  startsAt.setUTCSeconds(0, 0);
  const endsAt = new Date(startsAt.getTime() + 2 * HOUR_MS);
  const session = await db
    .insertInto('training_sessions')
    .values({
      entity_id: entityId,
      content_id: content.id,
      course_id: content.course_id,
      trainer_id: o.trainerId ?? null,
      available_to: o.availableTo ?? 'internal',
      max_delegates: o.max ?? 10,
      status: o.status ?? 'scheduled',
      check_in_code: 'ABC123',
      starts_at: startsAt,
      ends_at: endsAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const hhmm = (d: Date) => d.toISOString().slice(11, 16);
  await db
    .insertInto('training_session_dates')
    .values({
      session_id: session.id,
      position: 0,
      date: startsAt.toISOString().slice(0, 10),
      start_time: hhmm(startsAt),
      end_time: hhmm(endsAt) > hhmm(startsAt) ? hhmm(endsAt) : '23:59',
      starts_at: startsAt,
      ends_at: endsAt,
    })
    .execute();
  return session;
}

export const placesTaken = async (db: Db, sessionId: number) =>
  (
    await db
      .selectFrom('training_sessions')
      .select('places_taken')
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow()
  ).places_taken;

export const statusesOf = async (db: Db, sessionId: number) =>
  (
    await db
      .selectFrom('session_delegates')
      .select(['user_id', 'status'])
      .where('session_id', '=', sessionId)
      .orderBy('id')
      .execute()
  ).map((r) => r.status);

/** Counts of each status on a session. */
export async function statusCounts(db: Db, sessionId: number): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const s of await statusesOf(db, sessionId)) out[s] = (out[s] ?? 0) + 1;
  return out;
}

/**
 * A care group (level A, external bookings on) with a home, a manager (9, 11, 118, 123), staff; a training company
 * (another organisation) with provider staff (109, 11); an outsider organisation whose user holds everything.
 */
export async function bookingWorld(db: Db, app: TestApp) {
  const group = await buildEntity(db, {
    level: 'A',
    settings: {
      can_view_external_bookings: true,
      can_view_internal_bookings: true,
      can_manage_bookings: true,
    },
  });
  const home = await buildEntity(db, { parentId: group.id, name: 'Oak Home' });
  const manager = await buildUser(db, {
    entityId: group.id,
    permissions: [9, 11, 118, 123],
    name: 'Sam Manager',
  });
  const learner = await buildUser(db, { entityId: home.id, permissions: [108], name: 'Casey Learner' });
  const colleague = await buildUser(db, { entityId: home.id, permissions: [108], name: 'Dee Colleague' });
  const idle = await buildUser(db, { entityId: home.id, permissions: [], name: 'Ida Idle' });
  const company = await buildEntity(db, { level: 'A', isTrainingCompany: true, name: 'Train Co' });
  const provider = await buildUser(db, {
    entityId: company.id,
    permissions: [109, 11, 123],
    name: 'Pat Provider',
  });
  const outsiderOrg = await buildEntity(db, { level: 'A', settings: { can_view_external_bookings: true } });
  const outsider = await buildUser(db, { entityId: outsiderOrg.id, permissions: ALL, name: 'Olly Outsider' });
  const as = (userId: number) => clientFor(app, db, userId);
  return {
    group,
    home,
    manager,
    learner,
    colleague,
    idle,
    company,
    provider,
    outsiderOrg,
    outsider,
    as,
    m: await as(manager.id),
    l: await as(learner.id),
    p: await as(provider.id),
    o: await as(outsider.id),
  };
}
export type BookingWorld = Awaited<ReturnType<typeof bookingWorld>>;
