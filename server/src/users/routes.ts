import { CreateUserBody, Messages, UpdateUserBody, UserListQuery, UserRefParams } from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import { createUser, getUser, listUsers, sendWelcomeEmail, updateUser, userPermissions } from './service';

/** spec 1 §7 "Users", and GET /users/{id}/permissions of spec 2 §7. {id} is a numeric id or a uuid. */
export async function userRoutes(app: App) {
  const tags = ['users'];
  app.get(
    '/users',
    { config: { readCache: true }, schema: { tags, querystring: UserListQuery } },
    async (r) => {
      const { data, total } = await listUsers(r.ctx, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.post('/users', { schema: { tags, body: CreateUserBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createUser(r.ctx, r.body), Messages.userCreated)),
  );
  app.get('/users/:id', { schema: { tags, params: UserRefParams } }, async (r) =>
    ok(await getUser(r.ctx, r.params.id)),
  );
  app.patch('/users/:id', { schema: { tags, params: UserRefParams, body: UpdateUserBody } }, async (r) =>
    ok(await updateUser(r.ctx, r.params.id, r.body), Messages.userUpdated),
  );
  app.post('/users/:id/send-welcome-email', { schema: { tags, params: UserRefParams } }, async (r) => {
    await sendWelcomeEmail(r.ctx, r.params.id);
    return done(Messages.welcomeEmailSent);
  });
  app.get('/users/:id/permissions', { schema: { tags, params: UserRefParams } }, async (r) =>
    ok(await userPermissions(r.ctx, r.params.id)),
  );
}
