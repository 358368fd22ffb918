import type { Ctx } from '../http/context';
import { getAttempt } from './attempts-service';
import { learnerClauses } from './learner';
import { passedQuizIds } from './queries';
import { contentQuizzes, courseContents, lessonsWithTopics } from './structure-queries';
import { h5pMustBePassed } from './verdict';

/**
 * GET /attempts/{id}/structure: what the attempt player shows (spec 1 §2 /attempt/{id}, /cattempt/{id}). The learner
 * reads lessons and topics through their attempt, not through the content creator (permission 63). Same access as
 * GET /attempts/{id}; hidden topics are left out (issue 4: never shown, never required).
 */
export async function attemptStructure(ctx: Ctx, id: number) {
  const attempt = await getAttempt(ctx, id);
  const owner = await ctx.db
    .selectFrom('users')
    .select(['id', 'primary_entity_id'])
    .where('id', '=', attempt.user_id)
    .executeTakeFirstOrThrow();
  const [{ lessons, topics }, quizzes, passed, clauses] = await Promise.all([
    lessonsWithTopics(ctx.db, attempt.content_id),
    contentQuizzes(ctx.db, attempt.content_id),
    passedQuizIds(ctx.db, attempt.id),
    learnerClauses(ctx, owner),
  ]);
  const contents = await courseContents(ctx.db, attempt.course_id, clauses.takeable);
  return {
    lessons: lessonsOf({ lessons, topics }, (t) => ({
      ...learnerTopic(t),
      hidden: t.hidden,
      resources: t.resources ?? [],
    })),
    quizzes: quizzes.map((q) => ({
      id: q.id,
      title: q.title,
      pass_mark: q.pass_mark,
      passed: passed.has(q.id),
    })),
    course: { id: attempt.course_id, title: attempt.course.title, contents },
  };
}

type Structure = Awaited<ReturnType<typeof lessonsWithTopics>>;
type StructureTopicRow = Structure['topics'][number];

/** A topic as the learner reads it: in the attempt player and in an offline download. */
export function learnerTopic(t: StructureTopicRow) {
  return {
    id: t.id,
    title: t.title,
    body_html: t.body_html ?? '',
    skippable: t.skippable,
    is_child: t.is_child,
    // must_pass: a graded task completes its topic only by a pass (verdict.ts), so no "Mark complete".
    h5p:
      t.h5p_id === null
        ? null
        : { id: t.h5p_id, title: t.h5p_title ?? '', must_pass: h5pMustBePassed(t.h5p_library) },
  };
}

/** The lessons in reading order, each with its own topics as `present` shows them. */
export function lessonsOf<T>({ lessons, topics }: Structure, present: (t: StructureTopicRow) => T) {
  return lessons.map((lesson) => ({
    id: lesson.id,
    title: lesson.title,
    topics: topics.filter((t) => t.lesson_id === lesson.id).map(present),
  }));
}
