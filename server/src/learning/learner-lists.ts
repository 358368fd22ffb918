import { type AvailableCourse, LearningPerm, type PageQuery, type TrainingSessionView } from '@cc/contracts';
import { aEntitiesOf, canViewExternal } from '../bookings/delegate-queries';
import { loadSessionViews } from '../bookings/presenters';
import { subtreeIds } from '../entities/tree';
import { authorize, type Ctx } from '../http/context';
import { learnerClauses, loadLearner } from './learner';
import { type CourseFilter, listAvailableTraining, listLearnerCourses } from './list-queries';

const iso = (d: Date | string) => new Date(d).toISOString();

/** Self always; someone else needs 80 (available courses) with the user in scope (404 outside). */
async function learnerFor(ctx: Ctx, ref: string) {
  const { user, self } = await loadLearner(ctx, ref);
  if (!self) authorize(ctx, [LearningPerm.availableCourses]);
  return { user, clauses: await learnerClauses(ctx, user) };
}

async function courses(ctx: Ctx, ref: string, query: PageQuery, filter: (now: Date) => CourseFilter) {
  const { user, clauses } = await learnerFor(ctx, ref);
  const { rows, total, contents, latest } = await listLearnerCourses(
    ctx.db,
    user.id,
    clauses,
    filter(ctx.clock()),
    {
      page: query.page,
      perPage: query.per_page,
      search: query.search || undefined,
    },
  );
  const data: AvailableCourse[] = rows.map((c) => {
    const lr = latest.find((l) => l.course_id === c.id);
    return {
      id: c.id,
      uuid: c.uuid,
      title: c.title,
      short_title: c.short_title,
      contents: contents
        .filter((ct) => ct.course_id === c.id)
        .map((ct) => ({
          id: ct.id,
          title: ct.title,
          type: ct.type,
          estimated_duration: ct.estimated_duration,
          cpd_accredited: ct.cpd_accredited,
        })),
      latest_result: lr
        ? {
            result_id: lr.result_id,
            passed: lr.passed,
            completed_at: iso(lr.completed_at),
            expires_at: lr.expires_at ? iso(lr.expires_at) : null,
            type: lr.type,
          }
        : null,
    };
  });
  return { data, total };
}

/** GET /users/{id}/available-courses: courses with published content the user may take. */
export const availableCourses = (ctx: Ctx, ref: string, query: PageQuery) =>
  courses(ctx, ref, query, () => ({ kind: 'available' }));

/** GET /users/{id}/compliant-courses: courses whose latest result is a pass that has not expired. */
export const compliantCourses = (ctx: Ctx, ref: string, query: PageQuery) =>
  courses(ctx, ref, query, (now) => ({ kind: 'compliant', now }));

/**
 * GET /users/{id}/personal-development-courses: available courses that are not compliance courses (none of the
 * user's role-course rules, inherited ones included, requires them) and that the user has no in-date pass for.
 */
export const personalDevelopmentCourses = (ctx: Ctx, ref: string, query: PageQuery) =>
  courses(ctx, ref, query, (now) => ({ kind: 'personal_development', now }));

/**
 * GET /users/{id}/available-training: the training sessions the user may book (issue 15), as TrainingSessionView
 * (list-queries.ts listAvailableTraining says which).
 */
export async function availableTraining(ctx: Ctx, ref: string, query: PageQuery) {
  const { user } = await learnerFor(ctx, ref);
  const aEntityId = (await aEntitiesOf(ctx.db, [user.primary_entity_id])).get(user.primary_entity_id);
  const top = aEntityId ?? user.primary_entity_id;
  const now = ctx.clock();
  const { ids, total } = await listAvailableTraining(
    ctx.db,
    { userId: user.id, treeIds: await subtreeIds(ctx.db, top), external: await canViewExternal(ctx.db, top) },
    { page: query.page, perPage: query.per_page, search: query.search || undefined, now },
  );
  const data: TrainingSessionView[] = await loadSessionViews(ctx, ids);
  return { data, total };
}
