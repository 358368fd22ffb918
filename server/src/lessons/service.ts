import { ContentPerm, type LessonBody, type PageQuery, type UpdateLessonBody } from '@cc/contracts';
import type { z } from 'zod';
import { visibleBlockOr404, visibleBlockOr422 } from '../content/blocks';
import { type Action, applyLinkAction, linkedItems } from '../content/links';
import { assertCanChange, ownerForNew, visibleOwnedClause } from '../courses/visibility';
import { authorize, type Ctx } from '../http/context';
import {
  deleteLessonRow,
  findLesson,
  insertLesson,
  listLessons as listLessonRows,
  updateLessonRow,
} from './queries';

/** Lessons (spec 2 §3, §7): 63 opens the content creator, 29 adds, 30 edits, deletes and changes their topics. */
const P = ContentPerm;
const VIEW = [P.contentCreator];

export async function listLessons(ctx: Ctx, query: z.infer<typeof PageQuery>) {
  authorize(ctx, VIEW);
  const { rows, total } = await listLessonRows(ctx.db, await visibleOwnedClause(ctx, 'l'), {
    search: query.search,
    page: query.page,
    perPage: query.per_page,
  });
  return { data: rows, total };
}

export async function getLesson(ctx: Ctx, id: number) {
  await visibleBlockOr404(ctx, 'lessons', id);
  authorize(ctx, VIEW);
  const [lesson, topics] = await Promise.all([
    findLesson(ctx.db, id),
    linkedItems(ctx.db, 'lesson_topics', id),
  ]);
  return { ...lesson, topics };
}

export async function createLesson(ctx: Ctx, body: z.infer<typeof LessonBody>) {
  authorize(ctx, [...VIEW, P.addContent]);
  const entityId = await ownerForNew(ctx, body.platform);
  const id = await insertLesson(ctx.db, {
    entity_id: entityId,
    title: body.title,
    question_qty: body.question_qty ?? null,
  });
  return getLesson(ctx, id);
}

async function changeable(ctx: Ctx, id: number) {
  const lesson = await visibleBlockOr404(ctx, 'lessons', id);
  authorize(ctx, [...VIEW, P.editContent]);
  await assertCanChange(ctx, lesson.entity_id);
  return lesson;
}

export async function updateLesson(ctx: Ctx, id: number, body: z.infer<typeof UpdateLessonBody>) {
  await changeable(ctx, id);
  await updateLessonRow(ctx.db, id, body, ctx.clock());
  return getLesson(ctx, id);
}

export async function deleteLesson(ctx: Ctx, id: number) {
  await changeable(ctx, id);
  await deleteLessonRow(ctx.db, id);
}

/** POST /lessons/{lessonId}/topics (spec 2 §4): add, remove or order. */
export async function changeLessonTopics(ctx: Ctx, lessonId: number, body: Action & { topic_id?: number }) {
  await changeable(ctx, lessonId);
  if (body.action === 'add' && body.topic_id !== undefined)
    await visibleBlockOr422(ctx, 'topics', body.topic_id, 'topic_id');
  await applyLinkAction(ctx.db, 'lesson_topics', lessonId, body, body.topic_id);
  return linkedItems(ctx.db, 'lesson_topics', lessonId);
}
