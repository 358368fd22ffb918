import { type SqlBool, sql } from 'kysely';
import { dueBySql, pendingSql, requirementDueAtSql, requirementStatusSql } from '../compliance/queries';
import type { Db } from '../db/connect';
import type { Trx } from '../results/queries';

/** SQL of booking the gaps (issue 33 §2; gap-booking.ts): the only place that service builds queries. */
type DbOrTrx = Db | Trx;

const HELD_OR_WAITING = ['pending', 'accepted', 'offered', 'waitlisted'] as const;

/** A person's facts for one course: the user_requirements row as the compliance core reads it. */
export interface GapFacts {
  user_id: number;
  uuid: string;
  name: string;
  entity_id: number;
  entity_slug: string;
  entity_name: string;
  /** Mandatory/Required of the person (a user_requirements row of type primary or secondary). */
  required: boolean;
  passed: boolean | null;
  exempt: boolean;
  expires_at: Date | null;
  then_passed: boolean | null;
  then_expires_at: Date | null;
  then_exempt: boolean | null;
  expiry_warning: number;
  due_by: Date | null;
  pending: boolean | null;
  /** Start date, else account creation: how long a never-done requirement has been owed. */
  started_at: Date;
  /** Holds a place or a waitlist spot on an upcoming open session of the course. */
  booked: boolean;
}

/**
 * The facts of (person, course) for the people given (`userIds`) or for everyone in `entityIds` (null: every
 * entity) whose cell is out of date (expired or missing: the same expression and the same people as the dashboard's
 * gap, GET /dashboards/bookings) and who hold no booking of the course. Both sets through one statement, so the list
 * and the placing order read the same facts.
 */
export async function gapFacts(
  db: DbOrTrx,
  courseId: number,
  now: Date,
  who: { entityIds: number[] | null } | { userIds: number[] },
): Promise<GapFacts[]> {
  if ('userIds' in who && who.userIds.length === 0) return [];
  if ('entityIds' in who && who.entityIds !== null && who.entityIds.length === 0) return [];
  const status = requirementStatusSql(now, 'ur', 'e');
  const booked = sql<boolean>`EXISTS (
    SELECT 1 FROM session_delegates d JOIN training_sessions s ON s.id = d.session_id
     WHERE d.user_id = u.id AND s.course_id = ${courseId}
       AND d.status IN (${sql.join(HELD_OR_WAITING.map((x) => sql.lit(x)))})
       AND s.status IN ('scheduled', 'confirmed') AND s.ends_at > ${now})`;
  const where =
    'userIds' in who
      ? sql<SqlBool>`u.id IN (${sql.join(who.userIds)})`
      : sql<SqlBool>`${who.entityIds === null ? sql`true` : sql`ur.entity_id IN (${sql.join(who.entityIds)})`}
          AND ${status} IN ('expired', 'missing') AND NOT ${booked}`;
  const { rows } = await sql<GapFacts>`
    SELECT u.id AS user_id, u.uuid, u.name, pe.id AS entity_id, pe.slug AS entity_slug, pe.name AS entity_name,
           (ur.user_id IS NOT NULL) AS required, ur.passed, coalesce(ur.exempt, false) AS exempt, ur.expires_at,
           ur.then_passed, ur.then_expires_at, ur.then_exempt, pe.expiry_warning, ${dueBySql(now, requirementDueAtSql('ur'), 'u', 'pe')} AS due_by,
           ${pendingSql(sql.ref('u.id'), sql`${courseId}`)} AS pending,
           coalesce(u.start_date::timestamptz, u.created_at) AS started_at,
           ${booked} AS booked
      FROM users u
      JOIN entities pe ON pe.id = u.primary_entity_id
      LEFT JOIN user_requirements ur ON ur.user_id = u.id AND ur.course_id = ${courseId}
                                    AND ur.type IN ('primary', 'secondary')
      LEFT JOIN entities e ON e.id = ur.entity_id
     WHERE ${where} ${'userIds' in who ? sql`` : sql`AND ur.user_id IS NOT NULL`}`.execute(db);
  return rows.map((r) => ({
    ...r,
    expires_at: r.expires_at === null ? null : new Date(r.expires_at),
    due_by: r.due_by === null ? null : new Date(r.due_by),
    started_at: new Date(r.started_at),
  }));
}

/** The course (with face-to-face content) and whether anyone in scope must take it; undefined when neither. */
export async function findGapCourse(db: DbOrTrx, courseId: number, entityIds: number[] | null) {
  if (entityIds !== null && entityIds.length === 0) return undefined;
  return db
    .selectFrom('courses as co')
    .select(['co.id', 'co.title'])
    .where('co.id', '=', courseId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('contents as c')
          .select('c.id')
          .whereRef('c.course_id', '=', 'co.id')
          .where('c.type', '=', 'face2face'),
      ),
    )
    .where((eb) => {
      let q = eb
        .selectFrom('user_requirements as ur')
        .select('ur.user_id')
        .whereRef('ur.course_id', '=', 'co.id')
        .where('ur.type', 'in', ['primary', 'secondary']);
      if (entityIds !== null) q = q.where('ur.entity_id', 'in', entityIds);
      return eb.exists(q);
    })
    .executeTakeFirst();
}

/**
 * Upcoming open sessions of the course owned by `staffEntityIds` (null: any): the sessions the caller may add people
 * to. Soonest first, at most 20.
 */
export async function bookableSessionIds(
  db: DbOrTrx,
  courseId: number,
  staffEntityIds: number[] | null,
  now: Date,
): Promise<number[]> {
  if (staffEntityIds !== null && staffEntityIds.length === 0) return [];
  let q = db
    .selectFrom('training_sessions as s')
    .select('s.id')
    .where('s.course_id', '=', courseId)
    .where('s.status', 'in', ['scheduled', 'confirmed'])
    .where('s.starts_at', '>', now);
  if (staffEntityIds !== null) q = q.where('s.entity_id', 'in', staffEntityIds);
  const rows = await q.orderBy('s.starts_at').orderBy('s.id').limit(20).execute();
  return rows.map((r) => r.id);
}

/** The session's course and its owner's waitlist cut-off (hours before the start with no waitlist offers). */
export async function sessionCourseAndCutoff(db: DbOrTrx, sessionId: number) {
  return db
    .selectFrom('training_sessions as s')
    .leftJoin('training_provider_settings as tps', 'tps.entity_id', 's.entity_id')
    .select(['s.course_id', 'tps.waitlist_cutoff_hours'])
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
}
