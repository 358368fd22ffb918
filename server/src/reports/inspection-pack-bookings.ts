import { sql } from 'kysely';
import type { Db } from '../db/connect';

/**
 * The next booked session of each (person, course) for the inspection pack's gaps (issue 15 "the inspection pack
 * shows the next booked session for each gap"): a place held (pending, accepted or offered) on a session of the
 * course that is still open (scheduled or confirmed) and starts after `now`. Keyed `<user id>:<course id>`.
 */
export async function nextBookedSessions(db: Db, userIds: number[], now: Date): Promise<Map<string, Date>> {
  if (userIds.length === 0) return new Map();
  const { rows } = await sql<{ user_id: number; course_id: number; starts_at: Date }>`
    SELECT DISTINCT ON (d.user_id, s.course_id) d.user_id, s.course_id, s.starts_at
      FROM session_delegates d JOIN training_sessions s ON s.id = d.session_id
     WHERE d.user_id = ANY(${sql.val(userIds)}::int[])
       AND d.status IN ('pending', 'accepted', 'offered')
       AND s.status IN ('scheduled', 'confirmed') AND s.starts_at > ${now}
     ORDER BY d.user_id, s.course_id, s.starts_at`.execute(db);
  return new Map(rows.map((r) => [`${r.user_id}:${r.course_id}`, new Date(r.starts_at)]));
}
