import { type SqlBool, sql } from 'kysely';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';

/**
 * Job roles (entity_roles) and user types (entity_types) have the same shape apart from `inspectable`, so one set of
 * queries serves both. The table and the users' column are picked from the kind; the casts below only tell Kysely
 * which columns exist (entity_types' columns are a subset of entity_roles').
 */
export type RoleKind = 'role' | 'type';

const tableOf = (kind: RoleKind) => (kind === 'role' ? 'entity_roles' : 'entity_types') as 'entity_types';
const userColumnOf = (kind: RoleKind) => (kind === 'role' ? 'role_id' : 'type_id') as 'role_id';
const inspectableOf = (kind: RoleKind) =>
  kind === 'role' ? sql<boolean>`r.inspectable` : sql<boolean>`false`;

export interface RoleRow {
  id: number;
  entity_id: number;
  entity_slug: string;
  entity_name: string;
  name: string;
  inspectable: boolean;
  users_count: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function findEntityBySlug(db: Db, slug: string) {
  return db
    .selectFrom('entities')
    .select(['id', 'slug', 'name', 'level', 'parent_id'])
    .where('slug', '=', slug)
    .executeTakeFirst();
}

/**
 * Roles of the given entities, each with the number of its holders whose primary entity is in `countEntityIds`
 * (null: every holder). One query for the page, one for the total: the count is a correlated sub-select, not N+1.
 */
export async function listRoles(
  db: Db,
  kind: RoleKind,
  o: {
    ownerEntityIds: number[] | null;
    countEntityIds: number[] | null;
    search?: string;
    inspectable?: boolean;
    page: number;
    perPage: number;
    order: 'name' | 'users_count';
  },
): Promise<{ rows: RoleRow[]; total: number }> {
  const column = userColumnOf(kind);
  let base = db.selectFrom(`${tableOf(kind)} as r`).innerJoin('entities as e', 'e.id', 'r.entity_id');
  if (o.ownerEntityIds) {
    if (!o.ownerEntityIds.length) return { rows: [], total: 0 };
    base = base.where('r.entity_id', 'in', o.ownerEntityIds);
  }
  if (o.search) base = base.where('r.name', 'ilike', `%${escapeLike(o.search)}%`);
  if (kind === 'role' && o.inspectable !== undefined)
    base = base.where(sql<SqlBool>`r.inspectable = ${o.inspectable}`);

  const countFilter = !o.countEntityIds
    ? sql``
    : o.countEntityIds.length
      ? sql`AND u.primary_entity_id IN (${sql.join(o.countEntityIds)})`
      : sql`AND false`;
  const usersCount = sql<number>`(SELECT count(*) FROM users u WHERE u.${sql.ref(column)} = r.id ${countFilter})`;

  const { rows, total } = await pageWithTotal(
    base,
    (filtered) =>
      filtered
        .select([
          'r.id',
          'r.entity_id',
          'e.slug as entity_slug',
          'e.name as entity_name',
          'r.name',
          inspectableOf(kind).as('inspectable'),
          usersCount.as('users_count'),
        ])
        .$call((q) =>
          o.order === 'users_count'
            ? q.orderBy('users_count', 'desc').orderBy(sql`lower(r.name)`).orderBy('r.id')
            : q.orderBy(sql`lower(r.name)`).orderBy('r.id'),
        ),
    { page: o.page, perPage: o.perPage },
  );
  return {
    rows: rows.map((r) => ({ ...r, users_count: Number(r.users_count) })),
    total,
  };
}

/** One role, if it belongs to one of `ownerEntityIds` (null: any entity). */
export async function findRole(
  db: Db,
  kind: RoleKind,
  id: number,
  ownerEntityIds: number[] | null,
): Promise<Omit<RoleRow, 'users_count'> | undefined> {
  if (ownerEntityIds && !ownerEntityIds.length) return undefined;
  let q = db
    .selectFrom(`${tableOf(kind)} as r`)
    .innerJoin('entities as e', 'e.id', 'r.entity_id')
    .select([
      'r.id',
      'r.entity_id',
      'e.slug as entity_slug',
      'e.name as entity_name',
      'r.name',
      inspectableOf(kind).as('inspectable'),
    ])
    .where('r.id', '=', id);
  if (ownerEntityIds) q = q.where('r.entity_id', 'in', ownerEntityIds);
  return q.executeTakeFirst();
}

/** Holders of a role whose primary entity is in `entityIds` (null: all): the count and the first `limit` by name. */
export async function roleHolders(
  db: Db,
  kind: RoleKind,
  id: number,
  entityIds: number[] | null,
  limit: number,
) {
  if (entityIds && !entityIds.length) return { total: 0, users: [] };
  let base = db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .where(`u.${userColumnOf(kind)}`, '=', id);
  if (entityIds) base = base.where('u.primary_entity_id', 'in', entityIds);
  const [users, total] = await Promise.all([
    base
      .select([
        'u.id',
        'u.uuid',
        'u.name',
        'e.id as entity_id',
        'e.slug as entity_slug',
        'e.name as entity_name',
      ])
      .orderBy(sql`lower(u.name)`)
      .orderBy('u.id')
      .limit(limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { total: Number(total.n), users };
}

/** Every holder, in any organisation: a role in use cannot be deleted. */
export async function countAllHolders(db: Db, kind: RoleKind, id: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(userColumnOf(kind), '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Names are unique per entity, case-insensitively (the unique index entity_*_name_uq). */
export async function nameTaken(
  db: Db,
  kind: RoleKind,
  entityId: number,
  name: string,
  exceptId?: number,
): Promise<boolean> {
  let q = db
    .selectFrom(tableOf(kind))
    .select('id')
    .where('entity_id', '=', entityId)
    .where(sql<SqlBool>`lower(name) = lower(${name})`);
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function insertRole(
  db: Db,
  kind: RoleKind,
  values: { entity_id: number; name: string; inspectable?: boolean },
): Promise<number> {
  const row =
    kind === 'role'
      ? await db
          .insertInto('entity_roles')
          .values({
            entity_id: values.entity_id,
            name: values.name,
            inspectable: values.inspectable ?? false,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      : await db
          .insertInto('entity_types')
          .values({ entity_id: values.entity_id, name: values.name })
          .returning('id')
          .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateRole(
  db: Db,
  kind: RoleKind,
  id: number,
  values: { name?: string; inspectable?: boolean },
  now: Date,
): Promise<void> {
  if (kind === 'role') {
    await db
      .updateTable('entity_roles')
      .set({ ...values, updated_at: now })
      .where('id', '=', id)
      .execute();
  } else {
    await db
      .updateTable('entity_types')
      .set({ ...(values.name !== undefined ? { name: values.name } : {}), updated_at: now })
      .where('id', '=', id)
      .execute();
  }
}

/** Deletes only while nobody holds it (checked again here, in the same statement, against a concurrent assignment). */
export async function deleteUnusedRole(db: Db, kind: RoleKind, id: number): Promise<boolean> {
  const column = userColumnOf(kind);
  const result = await db
    .deleteFrom(tableOf(kind))
    .where('id', '=', id)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('users').select('id').where(column, '=', id))))
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** True when the role belongs to one of the entities (a user's role must be of their entity or an ancestor). */
export async function roleBelongsTo(
  db: Db,
  kind: RoleKind,
  id: number,
  entityIds: number[],
): Promise<boolean> {
  if (!entityIds.length) return false;
  const row = await db
    .selectFrom(tableOf(kind))
    .select('id')
    .where('id', '=', id)
    .where('entity_id', 'in', entityIds)
    .executeTakeFirst();
  return row !== undefined;
}
