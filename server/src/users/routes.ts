import {
  CreateUserBody,
  Messages,
  UpdateUserBody,
  UserListQuery,
  UserRefParams,
  VerificationSendParams,
  VerificationStatus,
} from '@cc/contracts';
import { z } from 'zod';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import { createUser, getUser, listUsers, sendWelcomeEmail, updateUser, userPermissions } from './service';
import { sendVerification, verificationStatus } from './verification';

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

  // spec 1 §7's /auth/{uuid}/verification-send, here because who may mail whom is a users rule (verification.ts).
  // The spec lists a GET. A GET that sends mail can be fired by any page the caller
  // visits (an image tag needs no XSRF token), so the GET only reads the state and the POST sends (issue 29 §13).
  app.get(
    '/auth/:uuid/verification-send',
    {
      schema: {
        tags: ['auth'],
        params: VerificationSendParams,
        response: { 200: z.object({ data: VerificationStatus }) },
      },
    },
    async (request) => ok(await verificationStatus(request.ctx, request.params.uuid)),
  );

  app.post(
    '/auth/:uuid/verification-send',
    { schema: { tags: ['auth'], params: VerificationSendParams } },
    async (request) => done(await sendVerification(request.ctx, request.params.uuid)),
  );
}
