import {
  CreateUserPermissionBody,
  GrantEntityPermissionBody,
  Messages,
  RevokeEntityPermissionBody,
  SlugParams,
  TypeIdParams,
  TypePermissionBody,
  UpdateUserPermissionBody,
  UserPermissionIdParams,
  UserPermissionListQuery,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok } from '../http/envelope';
import {
  createUserGrant,
  deleteUserGrant,
  entityPermissions,
  getUserGrant,
  grantEntityPermissions,
  grantTypePermissions,
  listPermissions,
  revokeEntityPermissions,
  revokeTypePermissions,
  typePermissions,
  updateUserGrant,
} from './service';

/** spec 2 §7 "Permissions" (GET /users/{id}/permissions is in users/routes.ts). */
export async function permissionRoutes(app: App) {
  const tags = ['permissions'];

  app.get('/entity-permissions/:slug/permissions', { schema: { tags, params: SlugParams } }, async (r) =>
    ok(await entityPermissions(r.ctx, r.params.slug)),
  );
  app.post('/entity-permissions', { schema: { tags, body: GrantEntityPermissionBody } }, async (r) =>
    ok(await grantEntityPermissions(r.ctx, r.body), Messages.permissionGranted),
  );
  app.post(
    '/entity-permissions/:slug/delete',
    { schema: { tags, params: SlugParams, body: RevokeEntityPermissionBody } },
    async (r) =>
      ok(
        await revokeEntityPermissions(r.ctx, r.params.slug, r.body.permission_ids),
        Messages.permissionRevoked,
      ),
  );

  app.get('/type-permissions/type/:typeId', { schema: { tags, params: TypeIdParams } }, async (r) =>
    ok(await typePermissions(r.ctx, r.params.typeId)),
  );
  app.post(
    '/type-permissions/:typeId',
    { schema: { tags, params: TypeIdParams, body: TypePermissionBody } },
    async (r) =>
      ok(
        await grantTypePermissions(r.ctx, r.params.typeId, r.body.permission_ids),
        Messages.permissionGranted,
      ),
  );
  app.post(
    '/type-permissions/:typeId/delete',
    { schema: { tags, params: TypeIdParams, body: TypePermissionBody } },
    async (r) =>
      ok(
        await revokeTypePermissions(r.ctx, r.params.typeId, r.body.permission_ids),
        Messages.permissionRevoked,
      ),
  );

  app.get('/permissions', { schema: { tags, querystring: UserPermissionListQuery } }, async (r) =>
    ok(await listPermissions(r.ctx, r.query)),
  );
  app.post('/permissions', { schema: { tags, body: CreateUserPermissionBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createUserGrant(r.ctx, r.body), Messages.userPermissionCreated)),
  );
  app.get('/permissions/:id', { schema: { tags, params: UserPermissionIdParams } }, async (r) =>
    ok(await getUserGrant(r.ctx, r.params.id)),
  );
  app.patch(
    '/permissions/:id',
    { schema: { tags, params: UserPermissionIdParams, body: UpdateUserPermissionBody } },
    async (r) => ok(await updateUserGrant(r.ctx, r.params.id, r.body), Messages.userPermissionUpdated),
  );
  app.delete('/permissions/:id', { schema: { tags, params: UserPermissionIdParams } }, async (r) => {
    await deleteUserGrant(r.ctx, r.params.id);
    return done(Messages.userPermissionDeleted);
  });
}
