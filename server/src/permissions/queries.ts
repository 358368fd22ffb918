import type { Db } from '../db/connect';

/** Permission ids an entity allows its users (entity_permissions). */
export async function entityPermissionIds(db: Db, entityId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('entity_permissions')
    .select('permission_id')
    .where('entity_id', '=', entityId)
    .execute();
  return rows.map((r) => r.permission_id);
}

export async function grantEntityPermissions(db: Db, entityId: number, ids: number[]): Promise<void> {
  await db
    .insertInto('entity_permissions')
    .values(ids.map((permission_id) => ({ entity_id: entityId, permission_id })))
    .onConflict((oc) => oc.columns(['entity_id', 'permission_id']).doNothing())
    .execute();
}

export async function revokeEntityPermissions(db: Db, entityId: number, ids: number[]): Promise<void> {
  await db
    .deleteFrom('entity_permissions')
    .where('entity_id', '=', entityId)
    .where('permission_id', 'in', ids)
    .execute();
}

export async function findType(db: Db, typeId: number) {
  return db
    .selectFrom('entity_types')
    .select(['id', 'entity_id', 'name'])
    .where('id', '=', typeId)
    .executeTakeFirst();
}

export async function typePermissionIds(db: Db, typeId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('type_permissions')
    .select('permission_id')
    .where('type_id', '=', typeId)
    .execute();
  return rows.map((r) => r.permission_id);
}

export async function grantTypePermissions(db: Db, typeId: number, ids: number[]): Promise<void> {
  await db
    .insertInto('type_permissions')
    .values(ids.map((permission_id) => ({ type_id: typeId, permission_id })))
    .onConflict((oc) => oc.columns(['type_id', 'permission_id']).doNothing())
    .execute();
}

export async function revokeTypePermissions(db: Db, typeId: number, ids: number[]): Promise<void> {
  await db
    .deleteFrom('type_permissions')
    .where('type_id', '=', typeId)
    .where('permission_id', 'in', ids)
    .execute();
}

export async function findUserForGrant(db: Db, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'primary_entity_id', 'super_admin', 'type_id'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

const grantColumns = [
  'g.id',
  'g.user_id',
  'g.permission_id',
  'g.created_at',
  'g.updated_at',
  'u.primary_entity_id',
  'u.type_id',
  'u.super_admin',
] as const;

/** Per-user grants (user_permissions) of one user, by permission id. */
export async function listUserGrants(db: Db, userId: number) {
  return db
    .selectFrom('user_permissions as g')
    .innerJoin('users as u', 'u.id', 'g.user_id')
    .select(grantColumns)
    .where('g.user_id', '=', userId)
    .orderBy('g.permission_id')
    .execute();
}

/** One grant with its user's primary entity, for the scope check. */
export async function findUserGrant(db: Db, id: number) {
  return db
    .selectFrom('user_permissions as g')
    .innerJoin('users as u', 'u.id', 'g.user_id')
    .select(grantColumns)
    .where('g.id', '=', id)
    .executeTakeFirst();
}
export type GrantRow = NonNullable<Awaited<ReturnType<typeof findUserGrant>>>;

export async function userHasGrant(db: Db, userId: number, permissionId: number, exceptId?: number) {
  let q = db
    .selectFrom('user_permissions')
    .select('id')
    .where('user_id', '=', userId)
    .where('permission_id', '=', permissionId);
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function insertUserGrant(db: Db, userId: number, permissionId: number): Promise<number> {
  const row = await db
    .insertInto('user_permissions')
    .values({ user_id: userId, permission_id: permissionId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUserGrant(db: Db, id: number, permissionId: number, now: Date): Promise<void> {
  await db
    .updateTable('user_permissions')
    .set({ permission_id: permissionId, updated_at: now })
    .where('id', '=', id)
    .execute();
}

export async function deleteUserGrant(db: Db, id: number): Promise<void> {
  await db.deleteFrom('user_permissions').where('id', '=', id).execute();
}
