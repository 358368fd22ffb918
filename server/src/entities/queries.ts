import { type Expression, type ExpressionBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import type { Db } from '../db/connect';
import { pageAndCount } from '../db/paged';
import type { Database, EntityRow, EntityUpdate, NewEntity } from '../db/schema';

/** The only place entities SQL is built (STYLE "SQL in one place"). Callers pass the scope bound in. */

export type EntityWithParent = EntityRow & {
  parent_slug: string | null;
  parent_name: string | null;
};

type Executor = Db | Transaction<Database>;

const withParent = (db: Executor) =>
  db
    .selectFrom('entities as e')
    .leftJoin('entities as p', 'p.id', 'e.parent_id')
    .selectAll('e')
    .select(['p.slug as parent_slug', 'p.name as parent_name']);

/** An entity by numeric id or slug (spec: /entities/{id} and /entities/{slug}/... address the same thing). */
export async function findEntityByRef(db: Executor, ref: string): Promise<EntityWithParent | undefined> {
  const query = withParent(db);
  return /^\d+$/.test(ref)
    ? query.where('e.id', '=', Number(ref)).executeTakeFirst()
    : query.where('e.slug', '=', ref.toLowerCase()).executeTakeFirst();
}

export async function findEntityById(db: Executor, id: number) {
  return withParent(db).where('e.id', '=', id).executeTakeFirst();
}

/**
 * Which rows a list covers. `ids` is the scope bound (null = no bound: super admin);
 * `baseAndChildrenOf` narrows to that entity and its direct children; `topLevelOnly` to organisations (parent null).
 */
export interface EntityListFilter {
  ids: number[] | null;
  baseAndChildrenOf?: number;
  topLevelOnly?: boolean;
  parentId?: number;
  level?: 'A' | 'B';
  isTrainingCompany?: boolean;
  search?: string;
}

/** Escapes LIKE wildcards so a search for "50%" means the text, not a pattern. */
export const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function listWhere(f: EntityListFilter) {
  return (eb: ExpressionBuilder<Database & { e: Database['entities'] }, 'e'>): Expression<SqlBool> => {
    const and: Expression<SqlBool>[] = [];
    if (f.ids !== null) and.push(f.ids.length ? eb('e.id', 'in', f.ids) : sql<boolean>`false`);
    if (f.baseAndChildrenOf !== undefined)
      and.push(eb.or([eb('e.id', '=', f.baseAndChildrenOf), eb('e.parent_id', '=', f.baseAndChildrenOf)]));
    if (f.topLevelOnly) and.push(eb('e.parent_id', 'is', null));
    if (f.parentId !== undefined) and.push(eb('e.parent_id', '=', f.parentId));
    if (f.level) and.push(eb('e.level', '=', f.level));
    if (f.isTrainingCompany !== undefined) and.push(eb('e.is_training_company', '=', f.isTrainingCompany));
    if (f.search) {
      const pattern = likePattern(f.search);
      and.push(
        eb.or([
          eb('e.name', 'ilike', pattern),
          eb('e.slug', 'ilike', pattern),
          eb('e.code', 'ilike', pattern),
        ]),
      );
    }
    return eb.and(and);
  };
}

export async function listEntities(
  db: Db,
  filter: EntityListFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: EntityWithParent[]; total: number }> {
  const where = listWhere(filter);
  return pageAndCount(
    withParent(db).where(where).orderBy(sql`lower(e.name)`).orderBy('e.id'),
    db
      .selectFrom('entities as e')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .where(where),
    page,
  );
}

export async function childrenOf(db: Db, parentId: number) {
  return db
    .selectFrom('entities')
    .select(['id', 'uuid', 'slug', 'name', 'level', 'parent_id', 'is_training_company'])
    .where('parent_id', '=', parentId)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}

/** The direct children of several entities in one query (a list page's `children`). */
export async function childrenOfMany(db: Db, parentIds: number[]) {
  if (parentIds.length === 0) return [];
  return db
    .selectFrom('entities')
    .select(['id', 'uuid', 'slug', 'name', 'level', 'parent_id', 'is_training_company'])
    .where('parent_id', 'in', parentIds)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}

export async function pagedChildrenOf(
  db: Db,
  parentId: number,
  search: string | undefined,
  page: { limit: number; offset: number },
) {
  return listEntities(db, { ids: null, parentId, search }, page);
}

/** The entity and all its descendants with the fields of an organisation tree node (one recursive query). */
export async function subtreeNodes(db: Db, rootId: number) {
  const { rows } = await sql<{
    id: number;
    uuid: string;
    slug: string;
    name: string;
    level: 'A' | 'B';
    parent_id: number | null;
    is_training_company: boolean;
  }>`
    WITH RECURSIVE tree AS (
      SELECT id FROM entities WHERE id = ${rootId}
      UNION ALL
      SELECT e.id FROM entities e JOIN tree t ON e.parent_id = t.id
    )
    SELECT e.id, e.uuid, e.slug, e.name, e.level, e.parent_id, e.is_training_company
    FROM entities e JOIN tree t ON t.id = e.id
    ORDER BY lower(e.name), e.id`.execute(db);
  return rows;
}

/** Of `ids`, those that exist: one query. */
export async function existingEntityIds(db: Executor, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('entities').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

export async function slugExists(db: Executor, slug: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('entities').select('id').where('slug', '=', slug);
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** Slugs starting with `base` (to pick the next free "base-N" in one query). */
export async function slugsLike(db: Executor, base: string): Promise<string[]> {
  const rows = await db
    .selectFrom('entities')
    .select('slug')
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute();
  return rows.map((r) => r.slug);
}

export async function subdomainExists(db: Executor, subdomain: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('entities').select('id').where('subdomain', '=', subdomain);
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function insertEntity(trx: Transaction<Database>, values: NewEntity) {
  return trx.insertInto('entities').values(values).returning('id').executeTakeFirstOrThrow();
}

export async function updateEntityRow(trx: Transaction<Database>, id: number, values: EntityUpdate) {
  await trx.updateTable('entities').set(values).where('id', '=', id).execute();
}

/** A new level B entity is allowed what its parent is allowed (set-based copy, one statement). */
export async function copyEntityPermissions(trx: Transaction<Database>, fromId: number, toId: number) {
  await sql`
    INSERT INTO entity_permissions (entity_id, permission_id)
    SELECT ${toId}, permission_id FROM entity_permissions WHERE entity_id = ${fromId}
    ON CONFLICT DO NOTHING`.execute(trx);
}

export async function grantEntityPermissions(
  trx: Transaction<Database>,
  entityId: number,
  permissionIds: readonly number[],
) {
  if (!permissionIds.length) return;
  await trx
    .insertInto('entity_permissions')
    .values(permissionIds.map((permission_id) => ({ entity_id: entityId, permission_id })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Users of the entity who have never signed in (the welcome e-mail's audience). */
export async function usersNeverLoggedIn(db: Db, entityId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'email'])
    .where('primary_entity_id', '=', entityId)
    .where('last_login_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** True for PostgreSQL's unique_violation (a concurrent insert won the race the pre-check lost). */
export function isUniqueViolation(error: unknown, constraintPart?: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string } | null;
  if (e?.code !== '23505') return false;
  if (!constraintPart) return true;
  return `${e.constraint ?? ''} ${e.message ?? ''}`.includes(constraintPart);
}
