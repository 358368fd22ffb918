import {
  BookingsPerm,
  type Content,
  type ContentBody,
  type ContentListQuery,
  ContentPerm,
  type FeedbackBody,
  type UpdateContentBody,
} from '@cc/contracts';
import type { z } from 'zod';
import { visibleIds } from '../courses/assignment-queries';
import { findCourse } from '../courses/queries';
import {
  assertCanChange,
  ownerForNew,
  visibility,
  visibleContentClause,
  visibleCourseClause,
} from '../courses/visibility';
import { actorOf, authorize, type Ctx, can } from '../http/context';
import { type FieldErrors, invalid, notFound } from '../http/errors';
import { removePackageFiles } from '../packages/files';
import { visibleBlockOr422 } from './blocks';
import { type Action, applyLinkAction, linkedItems } from './links';
import {
  type ContentRow,
  contentTopics,
  deleteContentRow,
  findContent,
  findImageFile,
  insertContent,
  insertFeedback,
  listContents as listContentRows,
  updateContentRow,
} from './queries';
import { sanitizeOptional } from './sanitize';

/**
 * Content of every type (spec 2 §3, §7 "Content"): 63 opens the content creator, 29 adds, 30 edits and deletes,
 * 122 sets admin_only (spec 2 §6). Aims and outcomes are author HTML, sanitised on write.
 */
const P = ContentPerm;
const VIEW = [P.contentCreator];

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export function presentContent(row: ContentRow, extra: Partial<Content> = {}): Content {
  return {
    id: row.id,
    uuid: row.uuid,
    type: row.type,
    title: row.title,
    course_id: row.course_id,
    course: { id: row.course_id, title: row.course_title },
    entity_id: row.entity_id,
    platform: row.entity_id === null,
    published: row.published,
    cpd_accredited: row.cpd_accredited,
    admin_only: row.admin_only,
    image:
      row.image_file_id && row.image_uuid
        ? { id: row.image_file_id, url: `/api/files/${row.image_uuid}` }
        : null,
    estimated_duration: row.estimated_duration,
    aims: row.aims,
    outcomes: row.outcomes,
    prerequisites: row.prerequisites ?? [],
    ...extra,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/**
 * Who may list content: the content creator (63); face-to-face content also for those who schedule sessions of it
 * (9 create bookings, 11 edit booking), whose session form picks it.
 */
const listers = (type: string | undefined) =>
  type === 'face2face' ? [...VIEW, BookingsPerm.createBookings, BookingsPerm.editBooking] : VIEW;

export async function listContents(ctx: Ctx, query: z.infer<typeof ContentListQuery>) {
  authorize(ctx, listers(query.type), 'any');
  const { rows, total } = await listContentRows(ctx.db, await visibleContentClause(ctx), {
    type: query.type,
    courseId: query.course_id,
    published: query.published,
    search: query.search,
    page: query.page,
    perPage: query.per_page,
  });
  return { data: rows.map((r) => presentContent(r)), total };
}

/** The content if the caller may see it (404 otherwise); `forLearner` for callers outside the content creator. */
export async function visibleContent(ctx: Ctx, id: number, o: { forLearner?: boolean } = {}) {
  const row = await findContent(ctx.db, id, await visibleContentClause(ctx, o));
  if (!row) throw notFound();
  return row;
}

export async function getContent(ctx: Ctx, id: number): Promise<Content> {
  const row = await visibleContent(ctx, id);
  authorize(ctx, VIEW);
  const [lessons, quizzes, topics] = await Promise.all([
    linkedItems(ctx.db, 'content_lessons', id),
    linkedItems(ctx.db, 'content_quizzes', id),
    contentTopics(ctx.db, id),
  ]);
  return presentContent(row, { lessons, quizzes, topics });
}

type Input = z.infer<typeof UpdateContentBody>;

/** References in the body (course, image, prerequisites) must be visible to the caller: 422 per field otherwise. */
async function checkReferences(ctx: Ctx, body: Input, selfId?: number) {
  const errors: FieldErrors = {};
  if (body.course_id !== undefined) {
    const course = await findCourse(ctx.db, body.course_id, await visibleCourseClause(ctx));
    if (!course) errors.course_id = ['The selected course id is invalid.'];
    // A course backing a document or a pathway is read or followed, never played (issue 17).
    else if (course.kind !== 'course')
      errors.course_id = ['Choose a course: this one backs a document or a pathway.'];
    else await assertCanChange(ctx, course.entity_id);
  }
  if (body.image_id) {
    const v = await visibility(ctx);
    if (!(await findImageFile(ctx.db, body.image_id, v.entityIds)))
      errors.image_id = ['The selected image id is invalid.'];
  }
  if (body.prerequisites?.length) {
    const ids = [...new Set(body.prerequisites.flat())];
    const found = await visibleIds(ctx.db, 'content', ids, await visibleContentClause(ctx));
    for (const [i, option] of body.prerequisites.entries())
      for (const [j, id] of option.entries())
        if (!found.has(id) || id === selfId)
          errors[`prerequisites.${i}.${j}`] = ['The selected prerequisite is invalid.'];
  }
  if (Object.keys(errors).length) throw invalid(errors);
}

export async function createContent(ctx: Ctx, body: z.infer<typeof ContentBody>): Promise<Content> {
  authorize(ctx, [...VIEW, P.addContent]);
  if (body.admin_only) authorize(ctx, [P.restrictContent]);
  const entityId = await ownerForNew(ctx, body.platform);
  await checkReferences(ctx, body);
  const id = await insertContent(ctx.db, {
    entity_id: entityId,
    course_id: body.course_id,
    type: body.type,
    title: body.title,
    aims: sanitizeOptional(body.aims) ?? null,
    outcomes: sanitizeOptional(body.outcomes) ?? null,
    image_file_id: body.image_id ?? null,
    estimated_duration: body.estimated_duration ?? null,
    cpd_accredited: body.cpd_accredited,
    admin_only: body.admin_only,
    published: body.published,
    prerequisites: body.prerequisites,
  });
  return getContent(ctx, id);
}

export async function updateContent(ctx: Ctx, id: number, body: Input): Promise<Content> {
  const row = await visibleContent(ctx, id);
  authorize(ctx, [...VIEW, P.editContent]);
  if (body.admin_only !== undefined && body.admin_only !== row.admin_only)
    authorize(ctx, [P.restrictContent]);
  await assertCanChange(ctx, row.entity_id);
  await checkReferences(ctx, body, id);
  const { image_id, aims, outcomes, ...rest } = body;
  await updateContentRow(
    ctx.db,
    id,
    {
      ...rest,
      ...(aims === undefined ? {} : { aims: sanitizeOptional(aims) }),
      ...(outcomes === undefined ? {} : { outcomes: sanitizeOptional(outcomes) }),
      ...(image_id === undefined ? {} : { image_file_id: image_id }),
    },
    ctx.clock(),
  );
  return getContent(ctx, id);
}

export async function deleteContent(ctx: Ctx, id: number): Promise<void> {
  const row = await visibleContent(ctx, id);
  authorize(ctx, [...VIEW, P.editContent]);
  await assertCanChange(ctx, row.entity_id);
  // Issue 12 §4: the package's files leave the store with it (after the commit: slow I/O stays out of it).
  await removePackageFiles(ctx, await deleteContentRow(ctx.db, id));
}

/** POST /content/{id}/lessons|quizzes (spec 2 §4): add, remove or order. Returns the message key's action. */
export async function changeContentLinks(
  ctx: Ctx,
  contentId: number,
  kind: 'content_lessons' | 'content_quizzes',
  body: Action & { lesson_id?: number; quiz_id?: number },
) {
  const row = await visibleContent(ctx, contentId);
  authorize(ctx, [...VIEW, P.editContent]);
  await assertCanChange(ctx, row.entity_id);
  const [table, field] =
    kind === 'content_lessons' ? (['lessons', 'lesson_id'] as const) : (['quizzes', 'quiz_id'] as const);
  const childId = body[field];
  // Removing needs no visibility of the child (it is attached here); adding does.
  if (body.action === 'add' && childId !== undefined) await visibleBlockOr422(ctx, table, childId, field);
  await applyLinkAction(ctx.db, kind, contentId, body, childId);
  return linkedItems(ctx.db, kind, contentId);
}

/** POST /feedback/{id}: any user who may see the content (learners: published and not hidden from them). */
export async function sendFeedback(ctx: Ctx, contentId: number, body: z.infer<typeof FeedbackBody>) {
  const actor = actorOf(ctx);
  await visibleContent(ctx, contentId, { forLearner: !can(actor, VIEW) });
  const row = await insertFeedback(ctx.db, {
    content_id: contentId,
    user_id: actor.userId,
    rating: body.rating,
    message: body.message ?? null,
  });
  return { ...row, created_at: iso(row.created_at) };
}
