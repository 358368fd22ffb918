import {
  AssignContentBody,
  ContentIdParams,
  CourseBody,
  CourseCategoryBody,
  CourseListQuery,
  EntityAssignmentQuery,
  EntityContentBody,
  EntityContentMultipleBody,
  EntityCourseBody,
  EntityCourseMultipleBody,
  EntityCoursesQuery,
  Messages,
  PageQuery,
  SlugContentParams,
  SlugCourseParams,
  SlugParams,
  UpdateCourseBody,
  UpdateCourseCategoryBody,
  UpdateEntityContentBody,
  UpdateEntityCourseBody,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import {
  addEntityAssignment,
  assignContent,
  listEntityAssignments,
  listEntityCourses,
  removeEntityAssignment,
  updateEntityAssignment,
  updateEntityAssignments,
} from './assignments';
import {
  createCategory,
  createCourse,
  deleteCategory,
  deleteCourse,
  getCourse,
  listCategories,
  listCourses,
  updateCategory,
  updateCourse,
} from './service';

const pathOf = (url: string) => url.split('?')[0] ?? url;

/** spec 2 §7 "Courses", "Entity content and courses", and the /course-categories page. HTTP only. */
export async function courseRoutes(app: App) {
  const tags = ['courses'];
  app.get('/courses', { schema: { tags, querystring: CourseListQuery } }, async (r) => {
    const { data, total, perPage } = await listCourses(r.ctx, r.query);
    return {
      ...paginate(data, total, { page: r.query.page, per_page: perPage }, r.url),
      message: Messages.coursesFetched,
    };
  });
  app.post('/courses', { schema: { tags, body: CourseBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createCourse(r.ctx, r.body), Messages.courseCreated)),
  );
  app.get('/courses/:id', { schema: { tags, params: ContentIdParams } }, async (r) =>
    ok(await getCourse(r.ctx, r.params.id)),
  );
  app.patch(
    '/courses/:id',
    { schema: { tags, params: ContentIdParams, body: UpdateCourseBody } },
    async (r) => ok(await updateCourse(r.ctx, r.params.id, r.body), Messages.courseUpdated),
  );
  app.delete('/courses/:id', { schema: { tags, params: ContentIdParams } }, async (r) => {
    await deleteCourse(r.ctx, r.params.id);
    return done(Messages.courseDeleted);
  });

  app.get('/course-categories', { schema: { tags, querystring: PageQuery } }, async (r) => {
    const { data, total } = await listCategories(r.ctx, r.query);
    return paginate(data, total, r.query, pathOf(r.url));
  });
  app.post('/course-categories', { schema: { tags, body: CourseCategoryBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createCategory(r.ctx, r.body), Messages.categoryCreated)),
  );
  app.patch(
    '/course-categories/:id',
    { schema: { tags, params: ContentIdParams, body: UpdateCourseCategoryBody } },
    async (r) => ok(await updateCategory(r.ctx, r.params.id, r.body), Messages.categoryUpdated),
  );
  app.delete('/course-categories/:id', { schema: { tags, params: ContentIdParams } }, async (r) => {
    await deleteCategory(r.ctx, r.params.id);
    return done(Messages.categoryDeleted);
  });

  // Entity content and entity courses. updateMultiple is a static segment: matched before :contentId.
  const etags = ['entity content'];
  app.get(
    '/entities/:slug/content',
    { schema: { tags: etags, params: SlugParams, querystring: EntityAssignmentQuery } },
    async (r) => {
      const { data, total } = await listEntityAssignments(r.ctx, 'content', r.params.slug, r.query);
      return paginate(data, total, r.query, pathOf(r.url));
    },
  );
  app.post(
    '/entities/:slug/content',
    { schema: { tags: etags, params: SlugParams, body: EntityContentBody } },
    async (r, reply) => {
      const { content_id, ...rest } = r.body;
      const data = await addEntityAssignment(r.ctx, 'content', r.params.slug, {
        item_id: content_id,
        ...rest,
      });
      return reply.status(201).send(ok(data, Messages.successfullyUpdated));
    },
  );
  app.patch(
    '/entities/:slug/content/updateMultiple',
    { schema: { tags: etags, params: SlugParams, body: EntityContentMultipleBody } },
    async (r) => {
      const items = r.body.items.map((i) => ({ item_id: i.content_id, enabled: i.enabled }));
      const { data } = await updateEntityAssignments(r.ctx, 'content', r.params.slug, items);
      return ok(data, Messages.successfullyUpdated);
    },
  );
  app.patch(
    '/entities/:slug/content/:contentId',
    { schema: { tags: etags, params: SlugContentParams, body: UpdateEntityContentBody } },
    async (r) =>
      ok(
        await updateEntityAssignment(r.ctx, 'content', r.params.slug, r.params.contentId, r.body),
        Messages.successfullyUpdated,
      ),
  );
  app.delete(
    '/entities/:slug/content/:contentId',
    { schema: { tags: etags, params: SlugContentParams } },
    async (r) => {
      await removeEntityAssignment(r.ctx, 'content', r.params.slug, r.params.contentId);
      return done(Messages.assignmentRemoved);
    },
  );
  app.post('/entity-content', { schema: { tags: etags, body: AssignContentBody } }, async (r) => {
    const { data } = await assignContent(r.ctx, r.body);
    return ok(data, Messages.successfullyUpdated);
  });

  // spec 1 §7 "GET /entity-courses with entityIds": the courses available at each of these entities.
  app.get('/entity-courses', { schema: { tags: etags, querystring: EntityCoursesQuery } }, async (r) => {
    const ids = [...(r.query.entityIds ?? []), ...(r.query['entityIds[]'] ?? [])];
    const { data, total } = await listEntityCourses(r.ctx, ids, r.query);
    const links = `${pathOf(r.url)}?entityIds=${[...new Set(ids)].join(',')}&per_page=${r.query.per_page}`;
    return paginate(data, total, r.query, links);
  });
  app.get(
    '/entities/:slug/courses',
    { schema: { tags: etags, params: SlugParams, querystring: EntityAssignmentQuery } },
    async (r) => {
      const { data, total } = await listEntityAssignments(r.ctx, 'course', r.params.slug, r.query);
      return paginate(data, total, r.query, pathOf(r.url));
    },
  );
  app.post(
    '/entities/:slug/courses',
    { schema: { tags: etags, params: SlugParams, body: EntityCourseBody } },
    async (r, reply) => {
      const data = await addEntityAssignment(r.ctx, 'course', r.params.slug, {
        item_id: r.body.course_id,
        enabled: r.body.enabled,
      });
      return reply.status(201).send(ok(data, Messages.successfullyUpdated));
    },
  );
  app.patch(
    '/entities/:slug/courses/updateMultiple',
    { schema: { tags: etags, params: SlugParams, body: EntityCourseMultipleBody } },
    async (r) => {
      const items = r.body.items.map((i) => ({ item_id: i.course_id, enabled: i.enabled }));
      const { data } = await updateEntityAssignments(r.ctx, 'course', r.params.slug, items);
      return ok(data, Messages.successfullyUpdated);
    },
  );
  app.patch(
    '/entities/:slug/courses/:courseId',
    { schema: { tags: etags, params: SlugCourseParams, body: UpdateEntityCourseBody } },
    async (r) =>
      ok(
        await updateEntityAssignment(r.ctx, 'course', r.params.slug, r.params.courseId, r.body),
        Messages.successfullyUpdated,
      ),
  );
  app.delete(
    '/entities/:slug/courses/:courseId',
    { schema: { tags: etags, params: SlugCourseParams } },
    async (r) => {
      await removeEntityAssignment(r.ctx, 'course', r.params.slug, r.params.courseId);
      return done(Messages.assignmentRemoved);
    },
  );
}
