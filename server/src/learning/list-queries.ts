import { type SqlBool, sql } from 'kysely';
import { openSessionsPage } from '../bookings/marketplace-queries';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';
import type { LearnerClauses } from './learner';

export type CourseFilter =
  /** Courses with published content the learner may take. */
  | { kind: 'available' }
  /** Courses whose latest result is passed and not expired at `now`. */
  | { kind: 'compliant'; now: Date }
  /** Available courses the learner's role does not require (user_requirements) and they have no in-date pass for. */
  | { kind: 'personal_development'; now: Date };

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A page of courses for the learner (by title) and the total, then their visible contents and latest results. */
export async function listLearnerCourses(
  db: Db,
  userId: number,
  clauses: LearnerClauses,
  filter: CourseFilter,
  page: { page: number; perPage: number; search?: string },
) {
  const visible = clauses.takeable;
  const hasContent = sql<SqlBool>`EXISTS (SELECT 1 FROM contents c WHERE c.course_id = co.id AND ${visible})`;
  // The engine's "counts as in date" (compliance/rules.ts cellStatus: in date or expiring; an exemption is in date until its end date).
  const inDate = (now: Date) => sql<SqlBool>`EXISTS (
    SELECT 1 FROM latest_results lr WHERE lr.user_id = ${userId} AND lr.course_id = co.id AND lr.passed
      AND (lr.expires_at IS NULL OR lr.expires_at > ${now}
           -- An exemption whose end has come counts for nothing: what counts then is the person's other results.
           OR (lr.type = 'exempt' AND lr.then_passed AND (lr.then_expires_at IS NULL OR lr.then_expires_at > ${now}))))`;
  // Courses backing a document or a pathway are not training to start: they have their own pages (issue 17).
  let q = db
    .selectFrom('courses as co')
    .select(['co.id', 'co.uuid', 'co.title', 'co.short_title'])
    .where('co.kind', '=', 'course');
  if (filter.kind === 'available') q = q.where(hasContent);
  else if (filter.kind === 'compliant') q = q.where(inDate(filter.now));
  else {
    const required = sql<SqlBool>`EXISTS (
      SELECT 1 FROM user_requirements ur WHERE ur.user_id = ${userId} AND ur.course_id = co.id)`;
    q = q
      .where(hasContent)
      .where(sql<SqlBool>`NOT ${inDate(filter.now)}`)
      .where(sql<SqlBool>`NOT ${required}`);
  }
  if (page.search) q = q.where('co.title', 'ilike', `%${escapeLike(page.search)}%`);
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) => filtered.orderBy(sql`lower(co.title)`).orderBy('co.id'),
    { page: page.page, perPage: page.perPage },
  );
  const ids = rows.map((r) => r.id);
  const [contents, latest] = ids.length
    ? await Promise.all([
        db
          .selectFrom('contents as c')
          .innerJoin('courses as co', 'co.id', 'c.course_id')
          .select(['c.id', 'c.course_id', 'c.title', 'c.type', 'c.estimated_duration', 'c.cpd_accredited'])
          .where('c.course_id', 'in', ids)
          .where(visible)
          .orderBy(sql`lower(c.title)`)
          .orderBy('c.id')
          .execute(),
        db
          .selectFrom('latest_results')
          .select(['course_id', 'result_id', 'passed', 'completed_at', 'expires_at', 'type'])
          .where('user_id', '=', userId)
          .where('course_id', 'in', ids)
          .execute(),
      ])
    : [[], []];
  return { rows, total, contents, latest };
}

/**
 * A page of the training sessions a learner may book (spec 1 §7 available-training; issue 15): open and in the
 * future, internal sessions (availableTo internal/all) owned inside the learner's organisation tree, and external
 * ones (external/all) of training companies when the learner's a_entity can view external bookings; sessions they
 * already hold a live booking on are left out. A full session stays listed: booking it joins its waitlist.
 * The SQL is the bookings capability's (marketplace-queries.ts), shared with the marketplace.
 */
export function listAvailableTraining(
  db: Db,
  learner: { userId: number; treeIds: readonly number[]; external: boolean },
  page: { page: number; perPage: number; search?: string; now: Date },
) {
  return openSessionsPage(db, {
    internalOwners: learner.treeIds,
    external: learner.external,
    notBookedBy: learner.userId,
    now: page.now,
    search: page.search,
    page: page.page,
    perPage: page.perPage,
  });
}
