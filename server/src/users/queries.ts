import { type SqlBool, sql } from 'kysely';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';
import type { NewUser, UserUpdate } from '../db/schema';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const MAX_INT = 2147483647;

/** Columns of a user as lists and the profile show them: one join each for entity, role and type. */
function userSelect(db: Db) {
  return db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .leftJoin('entity_roles as r', 'r.id', 'u.role_id')
    .leftJoin('entity_types as t', 't.id', 'u.type_id')
    .select([
      'u.id',
      'u.uuid',
      'u.name',
      'u.email',
      'u.is_trainer',
      'u.start_date',
      'u.super_admin',
      'u.primary_entity_id',
      'e.slug as entity_slug',
      'e.name as entity_name',
      'e.level as entity_level',
      'u.role_id',
      'r.name as role_name',
      'u.type_id',
      't.name as type_name',
    ]);
}
export type UserListRow = Awaited<ReturnType<ReturnType<typeof userSelect>['execute']>>[number];

export interface UserFilter {
  /** Primary entities to cover; null = no bound (super admin, deep). */
  entityIds: number[] | null;
  search?: string;
  /** Whether the search may match e-mail addresses (only for callers who may see them). */
  searchEmail: boolean;
  isTrainer?: boolean;
  typeId?: number;
  roleId?: number;
}

/** A page of users sorted by name, and the total: two queries, whatever the page size. */
export async function listUsers(db: Db, f: UserFilter, page: { page: number; perPage: number }) {
  if (f.entityIds && !f.entityIds.length) return { rows: [], total: 0 };
  let q = userSelect(db);
  if (f.entityIds) q = q.where('u.primary_entity_id', 'in', f.entityIds);
  if (f.isTrainer !== undefined) q = q.where('u.is_trainer', '=', f.isTrainer);
  if (f.typeId !== undefined) q = q.where('u.type_id', '=', f.typeId);
  if (f.roleId !== undefined) q = q.where('u.role_id', '=', f.roleId);
  if (f.search) {
    const pattern = `%${escapeLike(f.search)}%`;
    q = q.where((eb) =>
      f.searchEmail
        ? eb.or([eb('u.name', 'ilike', pattern), eb('u.email', 'ilike', pattern)])
        : eb('u.name', 'ilike', pattern),
    );
  }
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) => filtered.orderBy(sql`lower(u.name)`).orderBy('u.id'),
    { page: page.page, perPage: page.perPage },
  );
  return { rows, total };
}

/** A user by numeric id or uuid (web routes use /users/{uuid}); undefined for anything else. */
export async function findUserByRef(db: Db, ref: string) {
  let q = userSelect(db).select([
    'u.email_verified_at',
    'u.pending_email',
    'u.last_login_at',
    'u.created_at',
    'u.user_preferences',
  ]);
  if (/^\d{1,10}$/.test(ref) && Number(ref) <= MAX_INT) q = q.where('u.id', '=', Number(ref));
  else if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref))
    q = q.where('u.uuid', '=', ref.toLowerCase());
  else return undefined;
  return q.executeTakeFirst();
}
export type UserDetailRow = NonNullable<Awaited<ReturnType<typeof findUserByRef>>>;

export async function findEntityRefs(db: Db, ids: number[]) {
  if (!ids.length) return [];
  return db.selectFrom('entities').select(['id', 'slug', 'name', 'level']).where('id', 'in', ids).execute();
}

/** Case-insensitive (the unique index is on lower(email)). */
export async function emailTaken(db: Db, email: string, exceptUserId?: number): Promise<boolean> {
  let q = db.selectFrom('users').select('id').where(sql<SqlBool>`lower(email) = lower(${email})`);
  if (exceptUserId !== undefined) q = q.where('id', '<>', exceptUserId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function insertUser(db: Db, values: NewUser) {
  return db.insertInto('users').values(values).returning(['id', 'uuid']).executeTakeFirstOrThrow();
}

export async function updateUserRow(db: Db, id: number, values: UserUpdate): Promise<void> {
  await db.updateTable('users').set(values).where('id', '=', id).execute();
}

/**
 * Effective permissions of a user with where each comes from: the entity-allowed ones that the type or a per-user
 * grant gives (the same rule as permissions/catalogue.ts effectivePermissionIds). One query.
 */
export async function permissionSources(
  db: Db,
  user: { id: number; type_id: number | null; primary_entity_id: number },
) {
  const { rows } = await sql<{ permission_id: number; from_type: boolean; from_user: boolean }>`
    SELECT s.permission_id, s.from_type, s.from_user FROM (
      SELECT ep.permission_id,
        EXISTS (SELECT 1 FROM type_permissions tp WHERE tp.type_id = ${user.type_id ?? -1} AND tp.permission_id = ep.permission_id) AS from_type,
        EXISTS (SELECT 1 FROM user_permissions up WHERE up.user_id = ${user.id} AND up.permission_id = ep.permission_id) AS from_user
      FROM entity_permissions ep
      WHERE ep.entity_id = ${user.primary_entity_id}
    ) s
    WHERE s.from_type OR s.from_user
    ORDER BY s.permission_id`.execute(db);
  return rows;
}
