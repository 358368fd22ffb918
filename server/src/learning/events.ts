import { CompliancePerm, type LearnerEvent, type LearnerEvents } from '@cc/contracts';
import { type SqlBool, sql } from 'kysely';
import { userComplianceCourses } from '../compliance/rule-queries';
import { statusOfRow } from '../compliance/user-courses';
import { authorize, type Ctx } from '../http/context';
import { learnerClauses, loadLearner } from './learner';

/**
 * GET /users/{id}/events and the GraphQL `events` query: the learner's to-do (contracts events.ts), "what must I do,
 * in what order, by when". Required courses come from the compliance engine as it is (the effective rules of the
 * user's role in their primary entity, each with cellStatusSql over latest_results: the matrix, reports and scores
 * read the same) and the one status of each (contracts courseStatus via statusOfRow), started courses from open
 * attempts. A course never done is overdue once its due date (a new starter's end of their new-starter period) has
 * passed or when there is none, as on the manager dashboard and in the inspection pack.
 *
 * Who may read: the user themself; someone else needs 24 (search training records) or 43 (their compliance courses)
 * and the user in scope (404 outside, like a missing user).
 */

const DAY_MS = 86_400_000;
const ONLINE = ['elearning', 'scorm'] as const;
const iso = (d: Date | string) => new Date(d).toISOString();

/** The order of the to-do (lower first). */
function rank(e: LearnerEvent): number {
  if (e.state === 'done') return 7;
  if (e.kind === 'optional') return 6;
  if (e.state === 'overdue') return e.kind === 'mandatory' ? 1 : 2;
  if (e.state === 'expiring') return 3;
  if (e.state === 'due') return 4;
  return 5; // in progress, awaiting approval
}

/** Earlier dates first, no date last. */
const byDate = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a.localeCompare(b);

export function orderEvents(events: LearnerEvent[]): LearnerEvent[] {
  const kindOrder = { mandatory: 0, required: 1, optional: 2 } as const;
  return [...events].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      // Expiring (and overdue) soonest first; then mandatory before required; then by title.
      byDate(a.due_date, b.due_date) ||
      kindOrder[a.kind] - kindOrder[b.kind] ||
      a.course.title.localeCompare(b.course.title, 'en', { sensitivity: 'base' }) ||
      a.course.id - b.course.id,
  );
}

export function countEvents(events: LearnerEvent[]) {
  return {
    current: events.filter(
      (e) =>
        e.state === 'expiring' || e.state === 'due' || e.state === 'in_progress' || e.state === 'pending',
    ).length,
    overdue: events.filter((e) => e.state === 'overdue').length,
    completed: events.filter((e) => e.state === 'done').length,
  };
}

export async function learnerEvents(ctx: Ctx, ref: string): Promise<LearnerEvents> {
  const { user, self } = await loadLearner(ctx, ref);
  if (!self)
    authorize(ctx, [CompliancePerm.searchTrainingRecords, CompliancePerm.updateUserComplianceCourses], 'any');
  const now = ctx.clock();
  const db = ctx.db;

  const [required, open] = await Promise.all([
    userComplianceCourses(db, user, now, { page: 1, perPage: 10_000 }),
    // The open attempt of each course (the most recently touched).
    db
      .selectFrom('attempts as a')
      .innerJoin('courses as co', 'co.id', 'a.course_id')
      .select(['a.id', 'a.course_id', 'co.title as course_title'])
      .where('a.user_id', '=', user.id)
      .where('a.status', '=', 'in_progress')
      .where('a.deleted_at', 'is', null)
      .orderBy('a.updated_at', 'desc')
      .orderBy('a.id', 'desc')
      .execute(),
  ]);
  const requiredIds = new Set(required.rows.map((r) => r.course_id));
  const openByCourse = new Map<number, number>();
  for (const a of open) if (!openByCourse.has(a.course_id)) openByCourse.set(a.course_id, a.id);

  // Optional courses: started (an open attempt) or passed and in date, and not required.
  const optionalPassed = await db
    .selectFrom('latest_results as lr')
    .innerJoin('courses as co', 'co.id', 'lr.course_id')
    .select([
      'lr.course_id',
      'co.title as course_title',
      'lr.result_id',
      'lr.type',
      'lr.passed',
      'lr.completed_at',
      'lr.expires_at',
    ])
    .where('lr.user_id', '=', user.id)
    .where('lr.passed', '=', true)
    .where(sql<SqlBool>`(lr.expires_at IS NULL OR lr.expires_at > ${now})`)
    .execute();

  const events: LearnerEvent[] = [];
  const daysTo = (d: Date | string | null) =>
    d === null ? null : Math.ceil((new Date(d).getTime() - now.getTime()) / DAY_MS);

  for (const r of required.rows) {
    const s = statusOfRow(r, now);
    const attemptId = openByCourse.get(r.course_id) ?? null;
    const state: LearnerEvent['state'] = s.outOfDate
      ? 'overdue'
      : s.status === 'expiring'
        ? 'expiring'
        : s.status === 'pending'
          ? 'pending'
          : s.status === 'due'
            ? attemptId
              ? 'in_progress'
              : 'due'
            : 'done';
    events.push({
      course: { id: r.course_id, title: r.course_title },
      kind: r.type === 'primary' ? 'mandatory' : 'required',
      state,
      status: s.cell,
      course_status: s.status,
      due_date: s.date,
      days_left: daysTo(s.date),
      attempt_id: attemptId,
      content_id: null,
      content_type: null,
      latest_result:
        r.result_id !== null && r.completed_at !== null
          ? {
              result_id: r.result_id,
              type: r.result_type ?? 'elearning',
              passed: r.passed === true,
              completed_at: iso(r.completed_at),
              expires_at: r.expires_at ? iso(r.expires_at) : null,
            }
          : null,
    });
  }
  const optionalSeen = new Set<number>();
  for (const a of open) {
    if (requiredIds.has(a.course_id) || optionalSeen.has(a.course_id)) continue;
    optionalSeen.add(a.course_id);
    events.push({
      course: { id: a.course_id, title: a.course_title },
      kind: 'optional',
      state: 'in_progress',
      status: null,
      course_status: null,
      due_date: null,
      days_left: null,
      attempt_id: a.id,
      content_id: null,
      content_type: null,
      latest_result: null,
    });
  }
  for (const p of optionalPassed) {
    if (requiredIds.has(p.course_id) || optionalSeen.has(p.course_id)) continue;
    optionalSeen.add(p.course_id);
    events.push({
      course: { id: p.course_id, title: p.course_title },
      kind: 'optional',
      state: 'done',
      status: p.type === 'exempt' ? 'exempt' : 'in_date',
      course_status: 'not_required',
      due_date: p.expires_at ? iso(p.expires_at) : null,
      days_left: daysTo(p.expires_at),
      attempt_id: null,
      content_id: null,
      content_type: null,
      latest_result: {
        result_id: p.result_id,
        type: p.type,
        passed: p.passed,
        completed_at: iso(p.completed_at),
        expires_at: p.expires_at ? iso(p.expires_at) : null,
      },
    });
  }

  // The online content to start or retake: the first (by title) the learner may take now.
  const courseIds = [...new Set(events.map((e) => e.course.id))];
  if (courseIds.length) {
    const { takeable } = await learnerClauses(ctx, user);
    const contents = await db
      .selectFrom('contents as c')
      .innerJoin('courses as co', 'co.id', 'c.course_id')
      .select(['c.id', 'c.course_id', 'c.type'])
      .where('c.course_id', 'in', courseIds)
      .where('c.type', 'in', [...ONLINE])
      .where(takeable)
      .orderBy(sql`lower(c.title)`)
      .orderBy('c.id')
      .execute();
    const first = new Map<number, { id: number; type: string }>();
    for (const c of contents) if (!first.has(c.course_id)) first.set(c.course_id, c);
    for (const e of events) {
      const c = first.get(e.course.id);
      e.content_id = c?.id ?? null;
      e.content_type = c?.type ?? null;
    }
    // A course backing a document is read, not taken: the to-do links to the document (issue 17).
    const documents = await db
      .selectFrom('documents')
      .select(['id', 'course_id'])
      .where('course_id', 'in', courseIds)
      .where('deleted_at', 'is', null)
      .execute();
    const documentOf = new Map(documents.map((d) => [d.course_id, d.id]));
    for (const e of events) e.document_id = documentOf.get(e.course.id) ?? null;
  }

  const ordered = orderEvents(events);
  return { counts: countEvents(ordered), data: ordered };
}
