import {
  ContentPerm,
  type Course,
  type CourseBody,
  type CourseCategory,
  type CourseCategoryBody,
  type CourseListQuery,
  type PageQuery,
  type UpdateCourseBody,
} from '@cc/contracts';
import type { z } from 'zod';
import { authorize, type Ctx } from '../http/context';
import { invalidField, notFound } from '../http/errors';
import { presentCourse } from './presenters';
import {
  categoryNameTaken,
  courseParts,
  deleteCategoryRow,
  deleteCourseRow,
  findCategory,
  findCourse,
  insertCategory,
  insertCourse,
  listCategories as listCategoryRows,
  listCourses as listCourseRows,
  renameCategory,
  updateCourseRow,
} from './queries';
import {
  assertCanChange,
  ownerForNew,
  visibility,
  visibleContentClause,
  visibleCourseClause,
} from './visibility';

/**
 * Courses and course categories of the content creator (spec 2 §7 "Courses"). Permission 63 opens the area;
 * 27 adds courses, 28 edits and deletes them (spec 2 §6). Items outside the caller's visibility are 404.
 */
const P = ContentPerm;
export const VIEW = [P.contentCreator];

export async function listCourses(ctx: Ctx, query: z.infer<typeof CourseListQuery>) {
  authorize(ctx, VIEW);
  const { rows, total } = await listCourseRows(ctx.db, await visibleCourseClause(ctx), {
    search: query.search,
    categoryId: query.category_id,
    published: query.published,
    page: query.page,
    perPage: query.first ?? query.per_page,
  });
  return { data: rows.map((r) => presentCourse(r)), total, perPage: query.first ?? query.per_page };
}

/** The course if the caller may see it (404 otherwise). Used by content and entity courses too. */
export async function visibleCourse(ctx: Ctx, id: number) {
  const course = await findCourse(ctx.db, id, await visibleCourseClause(ctx));
  if (!course) throw notFound();
  return course;
}

export async function getCourse(ctx: Ctx, id: number): Promise<Course> {
  const course = await visibleCourse(ctx, id);
  authorize(ctx, VIEW);
  const parts = await courseParts(ctx.db, id, await visibleContentClause(ctx));
  return presentCourse(course, parts);
}

async function checkCategory(ctx: Ctx, categoryId: number | null | undefined) {
  if (!categoryId) return;
  const v = await visibility(ctx);
  if (!(await findCategory(ctx.db, categoryId, v.entityIds)))
    throw invalidField('category_id', 'The selected category id is invalid.');
}

export async function createCourse(ctx: Ctx, body: z.infer<typeof CourseBody>): Promise<Course> {
  authorize(ctx, [...VIEW, P.addCourses]);
  const entityId = await ownerForNew(ctx, body.platform);
  await checkCategory(ctx, body.category_id);
  const id = await insertCourse(ctx.db, {
    entity_id: entityId,
    title: body.title,
    short_title: body.short_title ?? null,
    category_id: body.category_id ?? null,
    published: body.published,
  });
  return getCourse(ctx, id);
}

export async function updateCourse(
  ctx: Ctx,
  id: number,
  body: z.infer<typeof UpdateCourseBody>,
): Promise<Course> {
  const course = await visibleCourse(ctx, id);
  authorize(ctx, [...VIEW, P.editCourses]);
  await assertCanChange(ctx, course.entity_id);
  await checkCategory(ctx, body.category_id);
  await updateCourseRow(ctx.db, id, body, ctx.clock());
  return getCourse(ctx, id);
}

/** Deleting a course deletes its contents (and their lesson/quiz links) in the same statement (FK cascade). */
export async function deleteCourse(ctx: Ctx, id: number): Promise<void> {
  const course = await visibleCourse(ctx, id);
  authorize(ctx, [...VIEW, P.editCourses]);
  await assertCanChange(ctx, course.entity_id);
  await deleteCourseRow(ctx.db, id);
}

// --- Categories (ours: the spec names the /course-categories page, not its calls) ------------------------------

export async function listCategories(ctx: Ctx, query: z.infer<typeof PageQuery>) {
  authorize(ctx, VIEW);
  const v = await visibility(ctx);
  const { rows, total } = await listCategoryRows(ctx.db, v.entityIds, {
    search: query.search,
    page: query.page,
    perPage: query.per_page,
  });
  return { data: rows as CourseCategory[], total };
}

async function visibleCategory(ctx: Ctx, id: number) {
  const v = await visibility(ctx);
  const category = await findCategory(ctx.db, id, v.entityIds);
  if (!category) throw notFound();
  return category;
}

const NAME_TAKEN = 'The name has already been taken.';

export async function createCategory(ctx: Ctx, body: z.infer<typeof CourseCategoryBody>) {
  authorize(ctx, [...VIEW, P.addCourses]);
  const entityId = await ownerForNew(ctx, body.platform);
  if (await categoryNameTaken(ctx.db, entityId, body.name)) throw invalidField('name', NAME_TAKEN);
  return insertCategory(ctx.db, { entity_id: entityId, name: body.name }).catch(uniqueToNameTaken);
}

export async function updateCategory(ctx: Ctx, id: number, body: { name: string }) {
  const category = await visibleCategory(ctx, id);
  authorize(ctx, [...VIEW, P.editCourses]);
  await assertCanChange(ctx, category.entity_id);
  if (await categoryNameTaken(ctx.db, category.entity_id, body.name, id))
    throw invalidField('name', NAME_TAKEN);
  return renameCategory(ctx.db, id, body.name, ctx.clock()).catch(uniqueToNameTaken);
}

export async function deleteCategory(ctx: Ctx, id: number): Promise<void> {
  const category = await visibleCategory(ctx, id);
  authorize(ctx, [...VIEW, P.editCourses]);
  await assertCanChange(ctx, category.entity_id);
  await deleteCategoryRow(ctx.db, id);
}

function uniqueToNameTaken(error: unknown): never {
  if ((error as { code?: string })?.code === '23505') throw invalidField('name', NAME_TAKEN);
  throw error;
}
