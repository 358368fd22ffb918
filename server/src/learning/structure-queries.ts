import type { RawBuilder, SqlBool } from 'kysely';
import type { Db } from '../db/connect';

/** A content's lessons with their topics in reading order, for the attempt player (one query each, no N+1). */
export async function lessonsWithTopics(db: Db, contentId: number) {
  const [lessons, topics] = await Promise.all([
    db
      .selectFrom('content_lessons as cl')
      .innerJoin('lessons as l', 'l.id', 'cl.lesson_id')
      .select(['l.id', 'l.title'])
      .where('cl.content_id', '=', contentId)
      .orderBy('cl.position')
      .orderBy('l.id')
      .execute(),
    db
      .selectFrom('content_lessons as cl')
      .innerJoin('lesson_topics as lt', 'lt.lesson_id', 'cl.lesson_id')
      .innerJoin('topics as t', 't.id', 'lt.topic_id')
      .leftJoin('h5ps as h', 'h.id', 't.h5p_id')
      .select([
        'lt.lesson_id',
        't.id',
        't.title',
        't.body_html',
        't.hidden',
        't.skippable',
        't.is_child',
        't.resources',
        'h.id as h5p_id',
        'h.title as h5p_title',
        'h.library as h5p_library',
      ])
      .where('cl.content_id', '=', contentId)
      .where('t.hidden', '=', false)
      .orderBy('cl.position')
      .orderBy('lt.position')
      .orderBy('t.id')
      .execute(),
  ]);
  return { lessons, topics };
}

export function contentQuizzes(db: Db, contentId: number) {
  return db
    .selectFrom('content_quizzes as cq')
    .innerJoin('quizzes as q', 'q.id', 'cq.quiz_id')
    .select(['q.id', 'q.title', 'q.pass_mark'])
    .where('cq.content_id', '=', contentId)
    .orderBy('cq.position')
    .orderBy('q.id')
    .execute();
}

/** The other published contents of the attempt's course that pass the learner's visibility clause. */
export function courseContents(db: Db, courseId: number, takeable: RawBuilder<SqlBool>) {
  return db
    .selectFrom('contents as c')
    .innerJoin('courses as co', 'co.id', 'c.course_id')
    .select(['c.id', 'c.title', 'c.type'])
    .where('c.course_id', '=', courseId)
    .where(takeable)
    .orderBy('c.title')
    .execute();
}
