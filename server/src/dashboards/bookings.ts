import {
  type BookingGap,
  type BookingsDashboard,
  type BookingsDashboardQuery,
  BookingsPerm,
} from '@cc/contracts';
import { type SqlBool, sql } from 'kysely';
import { loadSessionViews } from '../bookings/presenters';
import { type SessionScope, sessionScope, sessionVisibleWhere } from '../bookings/scope';
import { requirementStatusSql } from '../compliance/queries';
import type { Db } from '../db/connect';
import { listEntityIds } from '../entities/scope';
import { authorize, type Ctx } from '../http/context';
import { forbidden } from '../http/errors';

/**
 * GET /dashboards/bookings (issue 15 "Dashboards gain ... sessions this week, places free, gaps that a session would
 * close"; contracts bookings.ts BookingsDashboard). Permission 9, 11 or 109 with the organisation's
 * can_manage_bookings flag (a super admin passes both); the people covered are the dashboard's scope (the acting-as
 * or primary entity, its subtree when `deep`).
 * - sessions_this_week: the sessions the caller sees (bookings/scope.ts) with a day in this week (Monday to Sunday,
 *   UK dates), run by an organisation in scope or with someone in scope booked or waiting on them; cancelled ones
 *   left out. places_free_this_week adds up the free places of those still open (scheduled or confirmed) and ahead.
 * - gaps: the compliance core's cells (user_requirements, the same status expression as the manager dashboard's "out
 *   of date": expired or missing) of Mandatory/Required courses that have face-to-face content, per course: how many
 *   people are not in date, how many of them already hold a place or a waitlist spot on an upcoming session of the
 *   course, and the next open session with a free place they could be booked on (one the caller sees, or one on the
 *   marketplace when the organisation books external training). The most people first; at most 50 courses.
 */
export const BOOKING_GAPS_LIMIT = 50;
const DAY_MS = 86_400_000;

/** Monday and Sunday (YYYY-MM-DD) of the UK week holding `now`. */
export function ukWeek(now: Date): { from: string; to: string } {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(now);
  const noon = new Date(`${today}T12:00:00Z`);
  const monday = new Date(noon.getTime() - ((noon.getUTCDay() + 6) % 7) * DAY_MS);
  const sunday = new Date(monday.getTime() + 6 * DAY_MS);
  return { from: monday.toISOString().slice(0, 10), to: sunday.toISOString().slice(0, 10) };
}

const HELD_OR_WAITING = ['pending', 'accepted', 'offered', 'waitlisted'] as const;
const OPEN = ['scheduled', 'confirmed'] as const;

async function sessionsThisWeek(db: Db, scope: SessionScope, entityIds: number[] | null, now: Date) {
  const week = ukWeek(now);
  let q = db
    .selectFrom('training_sessions as s')
    .where(sessionVisibleWhere(scope))
    .where('s.status', '<>', 'cancelled')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('training_session_dates as d')
          .select('d.id')
          .whereRef('d.session_id', '=', 's.id')
          .where('d.date', '>=', week.from)
          .where('d.date', '<=', week.to),
      ),
    );
  if (entityIds !== null)
    q = q.where((eb) =>
      eb.or([
        eb('s.entity_id', 'in', entityIds),
        eb.exists(
          eb
            .selectFrom('session_delegates as sd')
            .select('sd.id')
            .whereRef('sd.session_id', '=', 's.id')
            .where('sd.entity_id', 'in', entityIds)
            .where('sd.status', 'in', HELD_OR_WAITING),
        ),
      ]),
    );
  return q
    .select(['s.id', 's.status', 's.starts_at', 's.max_delegates', 's.places_taken'])
    .orderBy('s.starts_at')
    .orderBy('s.id')
    .limit(200)
    .execute();
}

async function gapCourses(db: Db, entityIds: number[] | null, now: Date) {
  if (entityIds !== null && entityIds.length === 0) return [];
  const status = requirementStatusSql(now, 'ur', 'e');
  const inScope =
    entityIds === null ? sql<SqlBool>`true` : sql<SqlBool>`ur.entity_id IN (${sql.join(entityIds)})`;
  const { rows } = await sql<{
    course_id: number;
    title: string;
    people_not_in_date: number;
    people_booked: number;
  }>`
    WITH gap AS (
      SELECT DISTINCT ur.user_id, ur.course_id
        FROM user_requirements ur JOIN entities e ON e.id = ur.entity_id
       WHERE ${inScope} AND ur.type IN ('primary', 'secondary') AND ${status} IN ('expired', 'missing')
         AND EXISTS (SELECT 1 FROM contents c WHERE c.course_id = ur.course_id AND c.type = 'face2face')
    )
    SELECT g.course_id, co.title,
           count(*)::int AS people_not_in_date,
           count(*) FILTER (WHERE EXISTS (
             SELECT 1 FROM session_delegates d JOIN training_sessions s ON s.id = d.session_id
              WHERE d.user_id = g.user_id AND s.course_id = g.course_id
                AND d.status IN ('pending', 'accepted', 'offered', 'waitlisted')
                AND s.status IN ('scheduled', 'confirmed') AND s.ends_at > ${now}))::int AS people_booked
      FROM gap g JOIN courses co ON co.id = g.course_id
     GROUP BY g.course_id, co.title
     ORDER BY people_not_in_date DESC, co.title, g.course_id
     LIMIT ${BOOKING_GAPS_LIMIT}`.execute(db);
  return rows;
}

/** The next open session with a free place of each course, among those the caller could book people on. */
async function nextOpenSessions(db: Db, scope: SessionScope, courseIds: number[], now: Date) {
  if (courseIds.length === 0) return new Map<number, number>();
  const rows = await db
    .selectFrom('training_sessions as s')
    .innerJoin('entities as o', 'o.id', 's.entity_id')
    .where('s.course_id', 'in', courseIds)
    .where('s.status', 'in', OPEN)
    .where('s.starts_at', '>', now)
    .whereRef('s.places_taken', '<', 's.max_delegates')
    .where((eb) => {
      const ors = [sessionVisibleWhere(scope)(eb)];
      if (scope.aEntity.can_view_external_bookings)
        ors.push(
          eb.and([
            eb('s.available_to', 'in', ['external', 'all']),
            eb('o.is_training_company', '=', true),
            eb('o.training_company_status', '=', 'approved'), // issue 29 §7
          ]),
        );
      return eb.or(ors);
    })
    .distinctOn('s.course_id')
    .select(['s.course_id', 's.id'])
    .orderBy('s.course_id')
    .orderBy('s.starts_at')
    .orderBy('s.id')
    .execute();
  return new Map(rows.map((r) => [r.course_id, r.id]));
}

export async function bookingsDashboard(ctx: Ctx, q: BookingsDashboardQuery): Promise<BookingsDashboard> {
  const actor = authorize(
    ctx,
    [BookingsPerm.createBookings, BookingsPerm.editBooking, BookingsPerm.trainingProviderBookings],
    'any',
  );
  const scope = await sessionScope(ctx);
  if (!actor.superAdmin && !scope.aEntity.can_manage_bookings) throw forbidden();
  const now = ctx.clock();
  const entityIds = await listEntityIds(ctx, q.deep);
  const [week, gaps] = await Promise.all([
    sessionsThisWeek(ctx.db, scope, entityIds, now),
    gapCourses(ctx.db, entityIds, now),
  ]);
  const next = await nextOpenSessions(
    ctx.db,
    scope,
    gaps.map((g) => g.course_id),
    now,
  );
  const views = await loadSessionViews(ctx, [...week.map((s) => s.id), ...next.values()]);
  const viewOf = new Map(views.map((v) => [v.id, v]));
  const placesFree = week
    .filter((s) => (OPEN as readonly string[]).includes(s.status) && new Date(s.starts_at) > now)
    .reduce((n, s) => n + Math.max(0, s.max_delegates - s.places_taken), 0);
  return {
    sessions_this_week: week.flatMap((s) => viewOf.get(s.id) ?? []),
    places_free_this_week: placesFree,
    gaps: gaps.map(
      (g): BookingGap => ({
        course: { id: g.course_id, title: g.title },
        people_not_in_date: g.people_not_in_date,
        people_booked: g.people_booked,
        next_session: viewOf.get(next.get(g.course_id) ?? 0) ?? null,
      }),
    ),
  };
}
