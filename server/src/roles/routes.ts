import {
  Messages,
  RoleBody,
  RoleIdParams,
  RoleListQuery,
  RoleStatsQuery,
  SlugIdParams,
  SlugParams,
  TypeBody,
  TypeListQuery,
  UpdateRoleBody,
  UpdateTypeBody,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import {
  createRole,
  createType,
  deleteRole,
  deleteType,
  getRole,
  getType,
  listRoles,
  listTypes,
  roleDetails,
  roleStats,
  typeDetails,
  typeStats,
  updateRole,
  updateType,
} from './service';

/** spec 2 §7 "Roles and types": /entities/{slug}/roles, roles/stats, roles/{id}/details; the same for types. */
export async function roleRoutes(app: App) {
  const roles = { tags: ['roles'] };
  app.get(
    '/entities/:slug/roles',
    { schema: { ...roles, params: SlugParams, querystring: RoleListQuery } },
    async (r) => {
      const { data, total } = await listRoles(r.ctx, r.params.slug, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.post(
    '/entities/:slug/roles',
    { schema: { ...roles, params: SlugParams, body: RoleBody } },
    async (r, reply) =>
      reply.status(201).send(ok(await createRole(r.ctx, r.params.slug, r.body), Messages.jobRoleCreated)),
  );
  app.get('/entities/:slug/roles/:id', { schema: { ...roles, params: SlugIdParams } }, async (r) =>
    ok(await getRole(r.ctx, r.params.slug, r.params.id)),
  );
  app.patch(
    '/entities/:slug/roles/:id',
    { schema: { ...roles, params: SlugIdParams, body: UpdateRoleBody } },
    async (r) => ok(await updateRole(r.ctx, r.params.slug, r.params.id, r.body), Messages.jobRoleUpdated),
  );
  app.delete('/entities/:slug/roles/:id', { schema: { ...roles, params: SlugIdParams } }, async (r) => {
    await deleteRole(r.ctx, r.params.slug, r.params.id);
    return done(Messages.jobRoleDeleted);
  });
  app.get('/roles/stats', { schema: { ...roles, querystring: RoleStatsQuery } }, async (r) => {
    const { data, total } = await roleStats(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.get('/roles/:id/details', { schema: { ...roles, params: RoleIdParams } }, async (r) =>
    ok(await roleDetails(r.ctx, r.params.id)),
  );
  // spec 2 §7 "GET roles/stats; GET roles/{id}/details … Same for /entities/{slug}/…": seen from that entity.
  app.get(
    '/entities/:slug/roles/stats',
    { schema: { ...roles, params: SlugParams, querystring: RoleStatsQuery } },
    async (r) => {
      const { data, total } = await roleStats(r.ctx, r.query, r.params.slug);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.get('/entities/:slug/roles/:id/details', { schema: { ...roles, params: SlugIdParams } }, async (r) =>
    ok(await roleDetails(r.ctx, r.params.id, r.params.slug)),
  );

  const types = { tags: ['types'] };
  app.get(
    '/entities/:slug/types',
    { schema: { ...types, params: SlugParams, querystring: TypeListQuery } },
    async (r) => {
      const { data, total } = await listTypes(r.ctx, r.params.slug, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.post(
    '/entities/:slug/types',
    { schema: { ...types, params: SlugParams, body: TypeBody } },
    async (r, reply) =>
      reply.status(201).send(ok(await createType(r.ctx, r.params.slug, r.body), Messages.userTypeCreated)),
  );
  app.get('/entities/:slug/types/:id', { schema: { ...types, params: SlugIdParams } }, async (r) =>
    ok(await getType(r.ctx, r.params.slug, r.params.id)),
  );
  app.patch(
    '/entities/:slug/types/:id',
    { schema: { ...types, params: SlugIdParams, body: UpdateTypeBody } },
    async (r) => ok(await updateType(r.ctx, r.params.slug, r.params.id, r.body), Messages.userTypeUpdated),
  );
  app.delete('/entities/:slug/types/:id', { schema: { ...types, params: SlugIdParams } }, async (r) => {
    await deleteType(r.ctx, r.params.slug, r.params.id);
    return done(Messages.userTypeDeleted);
  });
  app.get('/types/stats', { schema: { ...types, querystring: RoleStatsQuery } }, async (r) => {
    const { data, total } = await typeStats(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.get('/types/:id/details', { schema: { ...types, params: RoleIdParams } }, async (r) =>
    ok(await typeDetails(r.ctx, r.params.id)),
  );
  // spec 2 §7 "GET types/stats; GET types/{id}/details … Same for /entities/{slug}/…": seen from that entity.
  app.get(
    '/entities/:slug/types/stats',
    { schema: { ...types, params: SlugParams, querystring: RoleStatsQuery } },
    async (r) => {
      const { data, total } = await typeStats(r.ctx, r.query, r.params.slug);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.get('/entities/:slug/types/:id/details', { schema: { ...types, params: SlugIdParams } }, async (r) =>
    ok(await typeDetails(r.ctx, r.params.id, r.params.slug)),
  );
}
