import {
  LinkTagUsersBody,
  SlugParams,
  TagBody,
  TagIdParams,
  TagListQuery,
  TagsMessages,
  TagUserParams,
  TagUsersQuery,
  UpdateTagBody,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import {
  createTag,
  deleteTag,
  linkTagUsers,
  listTags,
  listTagUsers,
  unlinkTagUser,
  updateTag,
} from './service';

/** Tags (spec 1 §2 /entities/{slug}/tags; shapes in contracts tags.ts). HTTP only: rules live in the service. */
export async function tagRoutes(app: App) {
  const tags = ['tags'];
  app.get(
    '/entities/:slug/tags',
    { schema: { tags, params: SlugParams, querystring: TagListQuery } },
    async (r) => {
      const { data, total } = await listTags(r.ctx, r.params.slug, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.post(
    '/entities/:slug/tags',
    { schema: { tags, params: SlugParams, body: TagBody } },
    async (r, reply) =>
      reply.status(201).send(ok(await createTag(r.ctx, r.params.slug, r.body), TagsMessages.created)),
  );
  app.patch('/tags/:id', { schema: { tags, params: TagIdParams, body: UpdateTagBody } }, async (r) =>
    ok(await updateTag(r.ctx, r.params.id, r.body), TagsMessages.updated),
  );
  app.delete('/tags/:id', { schema: { tags, params: TagIdParams } }, async (r) => {
    await deleteTag(r.ctx, r.params.id);
    return done(TagsMessages.deleted);
  });
  app.get(
    '/tags/:id/users',
    { schema: { tags, params: TagIdParams, querystring: TagUsersQuery } },
    async (r) => {
      const { data, total } = await listTagUsers(r.ctx, r.params.id, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.post('/tags/:id/users', { schema: { tags, params: TagIdParams, body: LinkTagUsersBody } }, async (r) =>
    ok(await linkTagUsers(r.ctx, r.params.id, r.body), TagsMessages.usersLinked),
  );
  app.delete('/tags/:id/users/:userId', { schema: { tags, params: TagUserParams } }, async (r) =>
    ok(await unlinkTagUser(r.ctx, r.params.id, r.params.userId), TagsMessages.userUnlinked),
  );
}
