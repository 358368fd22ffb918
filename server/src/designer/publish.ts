import {
  ContentPerm,
  DesignerMessages,
  DesignerPerm,
  type DesignPage,
  type DesignView,
  type PublishDesignBody,
} from '@cc/contracts';
import type { z } from 'zod';
import { addLink, linkedIds, removeLink } from '../content/links';
import { insertContent } from '../content/queries';
import { insertCourse, type Trx } from '../courses/queries';
import { assertCanChange, visibleCourseClause } from '../courses/visibility';
import { authorize, type Ctx } from '../http/context';
import { conflict, invalidField } from '../http/errors';
import { quizQuestions, syncQuestions } from '../quizzes/queries';
import { markPublished } from './queries';
import { designQuestions, pageH5pId, pageHtml, type QuizQuestion } from './render';
import { designFor, requireDesigner } from './scope';
import { checkPages, getDesign } from './service';

/**
 * POST /designs/{id}/publish (contracts designer.ts): the design becomes (first publish) or updates (later
 * publishes) ONE e-learning content item, in one transaction, through the tables the player already plays:
 *
 * - content (type elearning, owned by the design's organisation, published) in the chosen course or a new one;
 * - its first lesson (titled as the design) with one topic per page in page order: body_html is the page rendered
 *   and sanitised (render.ts), h5p_id the page's H5P item;
 * - its first quiz: the question blocks as single-choice questions, with the pass mark.
 *
 * Re-publishing keeps attempts in progress valid: topics are updated in place by position (a learner's completed
 * topic ids still name topics of the lesson), topics beyond the new page count are hidden (topics have no soft
 * delete; the player never shows nor requires hidden topics), questions and answers keep their ids by position.
 * A quiz left without questions is detached from the content (its past attempts stay).
 *
 * Checks run before the transaction (the embedded engine has one connection); inside it the design's row is
 * locked and must still be the revision and content that were checked, else 409 (changed elsewhere).
 */

type Body = z.infer<typeof PublishDesignBody>;
type Target = { kind: 'update'; contentId: number } | { kind: 'course'; courseId: number } | { kind: 'new' };

export async function publishDesign(ctx: Ctx, id: number, body: Body): Promise<DesignView> {
  const design = await designFor(ctx, id);
  requireDesigner(ctx);
  const pages = await checkPages(ctx, design.pages as DesignPage[]);
  if (!pages.some((p) => p.blocks.length)) throw invalidField('pages', DesignerMessages.nothingToPublish);
  const target = await targetOf(ctx, design.content_id, body);

  await ctx.db.transaction().execute(async (trx) => {
    const locked = await designFor(ctx, id, { db: trx, forUpdate: true });
    if (locked.revision !== design.revision || locked.content_id !== design.content_id)
      throw conflict(DesignerMessages.staleRevision);
    const now = ctx.clock();
    const contentId =
      target.kind === 'update'
        ? await refreshContent(trx, target.contentId, design.title, now)
        : await newContent(trx, design, target, body.new_course_title);
    await writeLesson(trx, contentId, design.entity_id, design.title, pages, now);
    await writeQuiz(trx, contentId, design, designQuestions(pages), body.pass_mark, now);
    await markPublished(trx, id, { content_id: contentId, published_revision: locked.revision, now });
  });
  return getDesign(ctx, id);
}

/**
 * Where the content goes. Updating published content needs edit content (30) and the content's owner in scope;
 * a first publish names a visible course the author may change, or a new course's title (add courses, 27).
 */
async function targetOf(ctx: Ctx, contentId: number | null, body: Body): Promise<Target> {
  if (contentId !== null) {
    authorize(ctx, [DesignerPerm.updatePublished]);
    const content = await ctx.db
      .selectFrom('contents')
      .select('entity_id')
      .where('id', '=', contentId)
      .executeTakeFirstOrThrow();
    await assertCanChange(ctx, content.entity_id);
    return { kind: 'update', contentId };
  }
  if (body.course_id !== undefined && body.new_course_title !== undefined)
    throw invalidField('course_id', 'Choose a course or a new course title, not both.');
  if (body.course_id !== undefined) {
    const visible = await visibleCourseClause(ctx);
    const course = await ctx.db
      .selectFrom('courses as c')
      .select(['c.id', 'c.entity_id', 'c.kind'])
      .where('c.id', '=', body.course_id)
      .where(visible)
      .executeTakeFirst();
    if (course?.kind !== 'course') throw invalidField('course_id', 'The selected course id is invalid.');
    await assertCanChange(ctx, course.entity_id);
    return { kind: 'course', courseId: course.id };
  }
  if (body.new_course_title !== undefined) {
    authorize(ctx, [ContentPerm.addCourses]);
    return { kind: 'new' };
  }
  throw invalidField('course_id', 'Choose the course the content belongs to, or give a new course a title.');
}

async function newContent(
  trx: Trx,
  design: { entity_id: number; title: string },
  target: Exclude<Target, { kind: 'update' }>,
  newCourseTitle: string | undefined,
) {
  const courseId =
    target.kind === 'course'
      ? target.courseId
      : await insertCourse(trx, {
          entity_id: design.entity_id,
          title: newCourseTitle ?? design.title,
          short_title: null,
          category_id: null,
          published: true,
        });
  return insertContent(trx, {
    entity_id: design.entity_id,
    course_id: courseId,
    type: 'elearning',
    title: design.title,
    aims: null,
    outcomes: null,
    image_file_id: null,
    estimated_duration: null,
    cpd_accredited: false,
    admin_only: false,
    published: true,
    prerequisites: [],
  });
}

async function refreshContent(trx: Trx, contentId: number, title: string, now: Date) {
  await trx
    .updateTable('contents')
    .set({ title, published: true, updated_at: now })
    .where('id', '=', contentId)
    .execute();
  return contentId;
}

/** The content's first lesson (made and attached when missing) holds one topic per page, in order. */
async function writeLesson(
  trx: Trx,
  contentId: number,
  entityId: number,
  title: string,
  pages: DesignPage[],
  now: Date,
) {
  let [lessonId] = await linkedIds(trx, 'content_lessons', contentId);
  if (lessonId === undefined) {
    const row = await trx
      .insertInto('lessons')
      .values({ entity_id: entityId, title, question_qty: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    lessonId = row.id;
    await addLink(trx, 'content_lessons', contentId, lessonId);
  } else {
    await trx.updateTable('lessons').set({ title, updated_at: now }).where('id', '=', lessonId).execute();
  }
  const existing = await linkedIds(trx, 'lesson_topics', lessonId);
  for (const [i, page] of pages.entries()) {
    const values = { title: page.title, body_html: pageHtml(page), h5p_id: pageH5pId(page), hidden: false };
    const topicId = existing[i];
    if (topicId !== undefined) {
      await trx
        .updateTable('topics')
        .set({ ...values, updated_at: now })
        .where('id', '=', topicId)
        .execute();
      continue;
    }
    const row = await trx
      .insertInto('topics')
      .values({ ...values, entity_id: entityId, resources: JSON.stringify([]) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await addLink(trx, 'lesson_topics', lessonId, row.id);
  }
  const surplus = existing.slice(pages.length);
  if (surplus.length)
    await trx
      .updateTable('topics')
      .set({ hidden: true, updated_at: now })
      .where('id', 'in', surplus)
      .execute();
}

/** The content's first quiz becomes the question blocks (ids kept by position), or is detached when there are none. */
async function writeQuiz(
  trx: Trx,
  contentId: number,
  design: { entity_id: number; title: string },
  questions: QuizQuestion[],
  passMark: number,
  now: Date,
) {
  let [quizId] = await linkedIds(trx, 'content_quizzes', contentId);
  if (!questions.length) {
    if (quizId !== undefined) await removeLink(trx, 'content_quizzes', contentId, quizId);
    return;
  }
  const quizTitle = `${design.title}: check your understanding`;
  if (quizId === undefined) {
    const row = await trx
      .insertInto('quizzes')
      .values({
        entity_id: design.entity_id,
        title: quizTitle,
        published: true,
        is_randomized: false,
        pass_mark: passMark,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    quizId = row.id;
    await addLink(trx, 'content_quizzes', contentId, quizId);
  } else {
    await trx
      .updateTable('quizzes')
      .set({ title: quizTitle, published: true, pass_mark: passMark, updated_at: now })
      .where('id', '=', quizId)
      .execute();
  }
  const current = await quizQuestions(trx, quizId);
  await syncQuestions(
    trx,
    quizId,
    questions.map((q, i) => ({
      id: current[i]?.id,
      text: q.text,
      answers: q.answers.map((a, j) => ({ ...a, id: current[i]?.answers[j]?.id })),
    })),
  );
}
