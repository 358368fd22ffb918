import {
  type CreateUserPermissionBody,
  type GrantEntityPermissionBody,
  PERMISSION_IDS,
  Perm,
  type UpdateUserPermissionBody,
  type UserPermissionListQuery,
} from '@cc/contracts';
import type { z } from 'zod';
import { assertEntityInScope } from '../entities/scope';
import { type Actor, actorOf, authorize, type Ctx } from '../http/context';
import { forbidden, invalidField, notFound } from '../http/errors';
import { entityInScope } from '../roles/service';
import { auditPermissionSet, auditUserGrant } from './audit';
import { presentCatalogue, presentGrant, presentGranted } from './presenters';
import { assertMayManageUser, holdsAll, TYPE_EDIT_ABOVE_YOU } from './privilege';
import {
  revokeEntityPermissions as deleteEntityPermissions,
  revokeTypePermissions as deleteTypePermissions,
  entityPermissionIds,
  findType,
  findUserForGrant,
  findUserGrant,
  type GrantRow,
  grantEntityPermissions as insertEntityPermissions,
  grantTypePermissions as insertTypePermissions,
  insertUserGrant,
  listUserGrants as listGrantRows,
  deleteUserGrant as removeUserGrant,
  typePermissionIds,
  updateUserGrant as updateGrantRow,
  userHasGrant,
} from './queries';

/**
 * Permissions (spec 2 §6, §7). Three places hold them: entity_permissions (what an entity allows its users),
 * type_permissions (what a user type gives) and user_permissions (per-user grants). Effective permissions are
 * (type ∪ user grants) ∩ entity (catalogue.ts).
 *
 * Escalation guard (privilege.ts), for every change: a non-super-admin may only grant or revoke ids they hold
 * themselves, may not change the permissions that make up their own access (their primary entity's, their type's,
 * their own grants), may not edit a type that gives more than they hold, and may not touch the grants of a user who
 * holds more than they do.
 */
export const GRANT_ONLY_HELD = 'You can only grant permissions you hold yourself.';
export const NOT_YOUR_OWN = 'You cannot change the permissions that apply to yourself.';
export const ALREADY_GRANTED = 'The user already has this permission.';

const unique = (ids: number[]) => [...new Set(ids)];

function assertKnown(field: string, ids: number[]): void {
  const unknown = ids.filter((id) => !PERMISSION_IDS.has(id));
  if (unknown.length) throw invalidField(field, `Unknown permission ids: ${unknown.join(', ')}.`);
}

function assertHeld(actor: Actor, ids: number[]): void {
  if (!holdsAll(actor, ids)) throw forbidden(GRANT_ONLY_HELD);
}

function assertNotOwn(actor: Actor, own: boolean): void {
  if (own && !actor.superAdmin) throw forbidden(NOT_YOUR_OWN);
}

// ---- Entity permissions ------------------------------------------------------------------------------------------

/** GET /entity-permissions/{slug}/permissions (78): the catalogue with `granted` for that entity. */
export async function entityPermissions(ctx: Ctx, slug: string) {
  const entity = await entityInScope(ctx, slug);
  authorize(ctx, [Perm.seeEntityPermissions]);
  return presentGranted(await entityPermissionIds(ctx.db, entity.id));
}

async function changeEntityPermissions(ctx: Ctx, slug: string, ids: number[], grant: boolean) {
  const entity = await entityInScope(ctx, slug);
  const actor = authorize(ctx, [Perm.entityPermissions]);
  const permissionIds = unique(ids);
  assertKnown('permission_ids', permissionIds);
  assertNotOwn(actor, entity.id === actor.primaryEntity.id);
  // Revoking is held to the same bound as granting: what one does not hold is not one's to take away either.
  assertHeld(actor, permissionIds);
  await ctx.db.transaction().execute(async (trx) => {
    const before = await entityPermissionIds(trx, entity.id);
    if (grant) await insertEntityPermissions(trx, entity.id, permissionIds);
    else await deleteEntityPermissions(trx, entity.id, permissionIds);
    const subject = { id: entity.id, entity_id: entity.id, name: entity.name };
    await auditPermissionSet(
      trx,
      ctx,
      'entity_permissions',
      subject,
      before,
      await entityPermissionIds(trx, entity.id),
    );
  });
  return presentGranted(await entityPermissionIds(ctx.db, entity.id));
}

/** POST /entity-permissions {entity, permission_ids} (70). */
export const grantEntityPermissions = (ctx: Ctx, body: z.infer<typeof GrantEntityPermissionBody>) =>
  changeEntityPermissions(ctx, body.entity, body.permission_ids, true);

/** POST /entity-permissions/{slug}/delete {permission_ids} (70). */
export const revokeEntityPermissions = (ctx: Ctx, slug: string, ids: number[]) =>
  changeEntityPermissions(ctx, slug, ids, false);

// ---- Type permissions --------------------------------------------------------------------------------------------

/** The type, when its entity is in the caller's scope (404 otherwise). */
async function typeInScope(ctx: Ctx, typeId: number) {
  actorOf(ctx);
  const type = await findType(ctx.db, typeId);
  if (!type) throw notFound();
  await assertEntityInScope(ctx, type.entity_id);
  return type;
}

/** GET /type-permissions/type/{typeId} (45 or 78). */
export async function typePermissions(ctx: Ctx, typeId: number) {
  const type = await typeInScope(ctx, typeId);
  authorize(ctx, [Perm.seeUserPermissions, Perm.seeEntityPermissions], 'any');
  return presentGranted(await typePermissionIds(ctx.db, type.id));
}

async function changeTypePermissions(ctx: Ctx, typeId: number, ids: number[], grant: boolean) {
  const type = await typeInScope(ctx, typeId);
  const actor = authorize(ctx, [Perm.updateUserPermissions]);
  const permissionIds = unique(ids);
  assertKnown('permission_ids', permissionIds);
  assertNotOwn(actor, type.id === actor.typeId);
  assertHeld(actor, permissionIds);
  // A type that gives more than the caller holds (an administrator type) is above them: theirs neither to extend
  // nor to cut down.
  if (!holdsAll(actor, await typePermissionIds(ctx.db, type.id))) throw forbidden(TYPE_EDIT_ABOVE_YOU);
  await ctx.db.transaction().execute(async (trx) => {
    const before = await typePermissionIds(trx, type.id);
    if (grant) await insertTypePermissions(trx, type.id, permissionIds);
    else await deleteTypePermissions(trx, type.id, permissionIds);
    await auditPermissionSet(
      trx,
      ctx,
      'type_permissions',
      type,
      before,
      await typePermissionIds(trx, type.id),
    );
  });
  return presentGranted(await typePermissionIds(ctx.db, type.id));
}

/** POST /type-permissions/{typeId} (46). */
export const grantTypePermissions = (ctx: Ctx, typeId: number, ids: number[]) =>
  changeTypePermissions(ctx, typeId, ids, true);
/** POST /type-permissions/{typeId}/delete (46). */
export const revokeTypePermissions = (ctx: Ctx, typeId: number, ids: number[]) =>
  changeTypePermissions(ctx, typeId, ids, false);

// ---- /permissions ------------------------------------------------------------------------------------------------
//
// Our reading of spec 2 §7 "GET, POST /permissions; GET, PATCH, DELETE /permissions/{id}" together with the notices
// 'User Permission has been created/updated/deleted.': /permissions is the resource of per-user grants (rows of
// user_permissions, whose id is the {id}). GET /permissions without user_id is the catalogue itself (id, name,
// description, category; optional category filter), which any signed-in user may read, as the web app needs it to
// label permission ids.

/** GET /permissions: the catalogue, or with user_id that user's grants (45, user in scope). */
export async function listPermissions(ctx: Ctx, query: z.infer<typeof UserPermissionListQuery>) {
  actorOf(ctx);
  if (query.user_id === undefined) return presentCatalogue(query.category);
  await userInScope(ctx, query.user_id);
  authorize(ctx, [Perm.seeUserPermissions]);
  const rows = await listGrantRows(ctx.db, query.user_id);
  return rows.map(presentGrant).filter((g) => !query.category || g.permission.category === query.category);
}

/** The user, when their primary entity is in scope (themselves too: one's own grants are in one's scope). */
async function userInScope(ctx: Ctx, userId: number) {
  const actor = actorOf(ctx);
  const user = await findUserForGrant(ctx.db, userId);
  if (!user) throw notFound();
  if (user.id !== actor.userId) await assertEntityInScope(ctx, user.primary_entity_id);
  return user;
}

async function grantInScope(ctx: Ctx, id: number) {
  const actor = actorOf(ctx);
  const grant = await findUserGrant(ctx.db, id);
  if (!grant) throw notFound();
  if (grant.user_id !== actor.userId) await assertEntityInScope(ctx, grant.primary_entity_id);
  return grant;
}

/** GET /permissions/{id} (45). */
export async function getUserGrant(ctx: Ctx, id: number) {
  const grant = await grantInScope(ctx, id);
  authorize(ctx, [Perm.seeUserPermissions]);
  return presentGrant(grant);
}

/** POST /permissions {user_id, permission_id} (46): not for oneself, only what one holds. */
export async function createUserGrant(ctx: Ctx, body: z.infer<typeof CreateUserPermissionBody>) {
  const user = await userInScope(ctx, body.user_id);
  const actor = authorize(ctx, [Perm.updateUserPermissions]);
  assertKnown('permission_id', [body.permission_id]);
  assertNotOwn(actor, user.id === actor.userId);
  assertHeld(actor, [body.permission_id]);
  await assertMayManageUser(ctx, actor, user);
  if (await userHasGrant(ctx.db, user.id, body.permission_id))
    throw invalidField('permission_id', ALREADY_GRANTED);
  const id = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const id = await insertUserGrant(trx, user.id, body.permission_id);
      const grant = { id, user_id: user.id, primary_entity_id: user.primary_entity_id };
      await auditUserGrant(trx, ctx, 'created', grant, null, body.permission_id);
      return id;
    })
    .catch(alreadyGranted);
  return getGrantRow(ctx, id);
}

/** PATCH /permissions/{id} {permission_id} (46). */
export async function updateUserGrant(ctx: Ctx, id: number, body: z.infer<typeof UpdateUserPermissionBody>) {
  const grant = await grantInScope(ctx, id);
  const actor = authorize(ctx, [Perm.updateUserPermissions]);
  assertKnown('permission_id', [body.permission_id]);
  assertNotOwn(actor, grant.user_id === actor.userId);
  assertHeld(actor, [body.permission_id, grant.permission_id]);
  await assertMayManageUser(ctx, actor, grantHolder(grant));
  if (body.permission_id !== grant.permission_id) {
    if (await userHasGrant(ctx.db, grant.user_id, body.permission_id, id))
      throw invalidField('permission_id', ALREADY_GRANTED);
    await ctx.db
      .transaction()
      .execute(async (trx) => {
        await updateGrantRow(trx, id, body.permission_id, ctx.clock());
        await auditUserGrant(trx, ctx, 'updated', grant, grant.permission_id, body.permission_id);
      })
      .catch(alreadyGranted);
  }
  return getGrantRow(ctx, id);
}

/** DELETE /permissions/{id} (46). */
export async function deleteUserGrant(ctx: Ctx, id: number): Promise<void> {
  const grant = await grantInScope(ctx, id);
  const actor = authorize(ctx, [Perm.updateUserPermissions]);
  assertNotOwn(actor, grant.user_id === actor.userId);
  assertHeld(actor, [grant.permission_id]);
  await assertMayManageUser(ctx, actor, grantHolder(grant));
  await ctx.db.transaction().execute(async (trx) => {
    await removeUserGrant(trx, id);
    await auditUserGrant(trx, ctx, 'deleted', grant, grant.permission_id, null);
  });
}

/** The user a grant belongs to, as the privilege rule reads them. */
const grantHolder = (grant: GrantRow) => ({
  id: grant.user_id,
  type_id: grant.type_id,
  primary_entity_id: grant.primary_entity_id,
  super_admin: grant.super_admin,
});

async function getGrantRow(ctx: Ctx, id: number) {
  const row = await findUserGrant(ctx.db, id);
  if (!row) throw notFound();
  return presentGrant(row);
}

function alreadyGranted(error: unknown): never {
  if ((error as { code?: string })?.code === '23505') throw invalidField('permission_id', ALREADY_GRANTED);
  throw error;
}
