import {
  CreateEntityBody,
  EntityListQuery,
  EntityRefParams,
  Messages,
  PageQuery,
  UpdateEntityBody,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { ok } from '../http/envelope';
import {
  createEntity,
  getEntity,
  listChildren,
  listEntities,
  organisationTree,
  sendWelcomeEmails,
  updateEntity,
} from './service';
import { trainingCompanyRoutes } from './training-company-routes';

/** The request's path without its query: the paginator adds page and filters back (spec 2 §3 data, meta, links). */
const pathOf = (url: string) => url.split('?')[0] ?? url;

/** spec 1 §7 "Entities". HTTP only: rules, permissions and scope live in service.ts. */
export async function entityRoutes(app: App) {
  await trainingCompanyRoutes(app);
  app.get(
    '/entities',
    { config: { readCache: true }, schema: { tags: ['entities'], querystring: EntityListQuery } },
    async (request) => listEntities(request.ctx, request.query, pathOf(request.url)),
  );

  app.post(
    '/entities',
    { schema: { tags: ['entities'], body: CreateEntityBody } },
    async (request, reply) => {
      const entity = await createEntity(request.ctx, request.body);
      return reply.status(201).send(ok(entity, Messages.entityCreated));
    },
  );

  // A static path: Fastify matches it before the parametric /entities/:id below.
  app.get('/entities/organisation', { schema: { tags: ['entities'] } }, async (request) =>
    ok(await organisationTree(request.ctx)),
  );

  app.get('/entities/:id', { schema: { tags: ['entities'], params: EntityRefParams } }, async (request) =>
    ok(await getEntity(request.ctx, request.params.id)),
  );

  app.patch(
    '/entities/:id',
    { schema: { tags: ['entities'], params: EntityRefParams, body: UpdateEntityBody } },
    async (request) =>
      ok(await updateEntity(request.ctx, request.params.id, request.body), Messages.entityUpdated),
  );

  app.post(
    '/entities/:id/send-welcome-email',
    { schema: { tags: ['entities'], params: EntityRefParams } },
    async (request) => ok(await sendWelcomeEmails(request.ctx, request.params.id), Messages.welcomeEmailSent),
  );

  app.get(
    '/entities/:id/children',
    { schema: { tags: ['entities'], params: EntityRefParams, querystring: PageQuery } },
    async (request) => listChildren(request.ctx, request.params.id, request.query, pathOf(request.url)),
  );
}
