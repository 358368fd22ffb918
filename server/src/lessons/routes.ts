import {
  ContentIdParams,
  LessonBody,
  LessonRefParams,
  Messages,
  OwnedListQuery,
  TopicActionBody,
  UpdateLessonBody,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import {
  changeLessonTopics,
  createLesson,
  deleteLesson,
  getLesson,
  listLessons,
  updateLesson,
} from './service';

const TOPIC_ACTION = {
  add: Messages.topicAdded,
  remove: Messages.topicRemoved,
  order: Messages.topicReordered,
} as const;

/** spec 2 §7 "H5P, lessons, quizzes, topics": lessons. HTTP only. */
export async function lessonRoutes(app: App) {
  const tags = ['lessons'];
  app.get('/lessons', { schema: { tags, querystring: OwnedListQuery } }, async (r) => {
    const { data, total } = await listLessons(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.post('/lessons', { schema: { tags, body: LessonBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createLesson(r.ctx, r.body), Messages.lessonCreated)),
  );
  app.get('/lessons/:id', { schema: { tags, params: ContentIdParams } }, async (r) =>
    ok(await getLesson(r.ctx, r.params.id)),
  );
  app.patch(
    '/lessons/:id',
    { schema: { tags, params: ContentIdParams, body: UpdateLessonBody } },
    async (r) => ok(await updateLesson(r.ctx, r.params.id, r.body), Messages.lessonUpdated),
  );
  app.delete('/lessons/:id', { schema: { tags, params: ContentIdParams } }, async (r) => {
    await deleteLesson(r.ctx, r.params.id);
    return done(Messages.lessonDeleted);
  });
  app.post(
    '/lessons/:lessonId/topics',
    { schema: { tags, params: LessonRefParams, body: TopicActionBody } },
    async (r) => ok(await changeLessonTopics(r.ctx, r.params.lessonId, r.body), TOPIC_ACTION[r.body.action]),
  );
}
