import { ContentIdParams, Messages, OwnedListQuery, TopicBody, UpdateTopicBody } from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import { createTopic, deleteTopic, getTopic, listTopics, updateTopic } from './service';

/** spec 2 §7 "H5P, lessons, quizzes, topics": topics (update sends h5p_id). HTTP only. */
export async function topicRoutes(app: App) {
  const tags = ['topics'];
  app.get('/topics', { schema: { tags, querystring: OwnedListQuery } }, async (r) => {
    const { data, total } = await listTopics(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.post('/topics', { schema: { tags, body: TopicBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createTopic(r.ctx, r.body), Messages.topicCreated)),
  );
  app.get('/topics/:id', { schema: { tags, params: ContentIdParams } }, async (r) =>
    ok(await getTopic(r.ctx, r.params.id)),
  );
  app.patch('/topics/:id', { schema: { tags, params: ContentIdParams, body: UpdateTopicBody } }, async (r) =>
    ok(await updateTopic(r.ctx, r.params.id, r.body), Messages.topicUpdated),
  );
  app.delete('/topics/:id', { schema: { tags, params: ContentIdParams } }, async (r) => {
    await deleteTopic(r.ctx, r.params.id);
    return done(Messages.topicDeleted);
  });
}
