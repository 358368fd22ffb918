import { type SqlBool, sql } from 'kysely';
import { escapeLike } from '../courses/queries';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';
import type { Trx } from '../results/queries';

/**
 * SQL of tags (STYLE.md "SQL in one place"). Every read that counts or lists linked users takes `userEntityIds`: the
 * entities whose users (by primary entity) may show, already bounded by the caller's scope in the service.
 */
type Executor = Db | Trx;

export interface TagRow {
  id: number;
  entity_id: number;
  entity_slug: string;
  entity_name: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

const tagColumns = [
  't.id',
  't.entity_id',
  'e.slug as entity_slug',
  'e.name as entity_name',
  't.name',
  't.created_at',
  't.updated_at',
] as const;

/** Linked users of tag `t` whose primary entity is one of `entityIds`: a correlated count, not N+1. */
const linkedCount = (entityIds: number[]) =>
  entityIds.length
    ? sql<number>`(SELECT count(*)::int FROM tag_users tu JOIN users u ON u.id = tu.user_id
        WHERE tu.tag_id = t.id AND u.primary_entity_id IN (${sql.join(entityIds)}))`
    : sql<number>`0`;

/** The tags of one entity, by name, with their linked users inside `userEntityIds`; one page and the total. */
export async function listTags(
  db: Executor,
  o: { entityId: number; userEntityIds: number[]; search?: string; page: number; perPage: number },
): Promise<{ rows: (TagRow & { users_count: number })[]; total: number }> {
  let base = db
    .selectFrom('tags as t')
    .innerJoin('entities as e', 'e.id', 't.entity_id')
    .where('t.entity_id', '=', o.entityId);
  if (o.search) base = base.where('t.name', 'ilike', `%${escapeLike(o.search)}%`);
  const { rows, total } = await pageWithTotal(
    base,
    (filtered) =>
      filtered
        .select([...tagColumns, linkedCount(o.userEntityIds).as('users_count')])
        .orderBy(sql`lower(t.name)`)
        .orderBy('t.id'),
    { page: o.page, perPage: o.perPage },
  );
  return { rows: rows.map((r) => ({ ...r, users_count: Number(r.users_count) })), total };
}

/** The tags owned by any of these entities (the drill-down by tags), by name, with their linked users inside them. */
export async function tagsOfEntities(db: Executor, entityIds: number[]) {
  if (!entityIds.length) return [];
  return db
    .selectFrom('tags as t')
    .innerJoin('entities as e', 'e.id', 't.entity_id')
    .where('t.entity_id', 'in', entityIds)
    .select([
      't.id',
      't.name',
      't.entity_id',
      'e.name as entity_name',
      linkedCount(entityIds).as('users_count'),
    ])
    .orderBy(sql`lower(t.name)`)
    .orderBy('e.name')
    .orderBy('t.id')
    .execute();
}

/** One tag with its entity; `ownerEntityIds` bounds where it may belong (null: anywhere, for a super admin). */
export async function findTag(
  db: Executor,
  id: number,
  ownerEntityIds: number[] | null = null,
): Promise<TagRow | undefined> {
  if (ownerEntityIds && !ownerEntityIds.length) return undefined;
  let q = db
    .selectFrom('tags as t')
    .innerJoin('entities as e', 'e.id', 't.entity_id')
    .select(tagColumns)
    .where('t.id', '=', id);
  if (ownerEntityIds) q = q.where('t.entity_id', 'in', ownerEntityIds);
  return q.executeTakeFirst();
}

export async function countLinkedUsers(
  db: Executor,
  tagId: number,
  userEntityIds: number[],
): Promise<number> {
  if (!userEntityIds.length) return 0;
  const row = await db
    .selectFrom('tag_users as tu')
    .innerJoin('users as u', 'u.id', 'tu.user_id')
    .where('tu.tag_id', '=', tagId)
    .where('u.primary_entity_id', 'in', userEntityIds)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Names are unique per entity, case-insensitively (tags_name_uq). */
export async function tagNameTaken(db: Executor, entityId: number, name: string, exceptId?: number) {
  let q = db
    .selectFrom('tags')
    .select('id')
    .where('entity_id', '=', entityId)
    .where(sql<SqlBool>`lower(name) = lower(${name})`);
  if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function insertTag(db: Executor, values: { entity_id: number; name: string }): Promise<number> {
  const row = await db.insertInto('tags').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function renameTag(db: Executor, id: number, name: string, now: Date): Promise<void> {
  await db.updateTable('tags').set({ name, updated_at: now }).where('id', '=', id).execute();
}

/** Deletes the tag; its links go with it (ON DELETE CASCADE). */
export async function deleteTag(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('tags').where('id', '=', id).execute();
}

/** Linked users of a tag inside `userEntityIds`, by name: one page and the total. */
export async function tagUsersPage(
  db: Executor,
  o: { tagId: number; userEntityIds: number[]; search?: string; page: number; perPage: number },
) {
  if (!o.userEntityIds.length) return { rows: [], total: 0 };
  let base = db
    .selectFrom('tag_users as tu')
    .innerJoin('users as u', 'u.id', 'tu.user_id')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .where('tu.tag_id', '=', o.tagId)
    .where('u.primary_entity_id', 'in', o.userEntityIds);
  if (o.search) {
    const like = `%${escapeLike(o.search)}%`;
    base = base.where((eb) => eb.or([eb('u.name', 'ilike', like), eb('u.email', 'ilike', like)]));
  }
  const { rows, total } = await pageWithTotal(
    base,
    (filtered) =>
      filtered
        .select([
          'u.id',
          'u.uuid',
          'u.name',
          'u.email',
          'e.id as entity_id',
          'e.slug as entity_slug',
          'e.name as entity_name',
          'tu.created_at as linked_at',
        ])
        .orderBy(sql`lower(u.name)`)
        .orderBy('u.id'),
    { page: o.page, perPage: o.perPage },
  );
  return { rows, total };
}

/** The subset of `userIds` whose primary entity is one of `entityIds` (a bulk check returning the allowed set). */
export async function usersWithin(
  db: Executor,
  userIds: number[],
  entityIds: number[],
): Promise<Set<number>> {
  if (!userIds.length || !entityIds.length) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', userIds)
    .where('primary_entity_id', 'in', entityIds)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Links the users; links that already exist are kept as they are (their linked_at too). */
export async function linkUsers(trx: Trx, tagId: number, userIds: number[]): Promise<number> {
  if (!userIds.length) return 0;
  const inserted = await trx
    .insertInto('tag_users')
    .values(userIds.map((user_id) => ({ tag_id: tagId, user_id })))
    .onConflict((oc) => oc.columns(['tag_id', 'user_id']).doNothing())
    .returning('user_id')
    .execute();
  return inserted.length;
}

export async function unlinkUser(db: Executor, tagId: number, userId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('tag_users')
    .where('tag_id', '=', tagId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** (tag, user) links of these tags whose user's primary entity is one of `entityIds` (the drill-down's sums). */
export async function tagLinks(db: Executor, tagIds: number[], entityIds: number[]) {
  if (!tagIds.length || !entityIds.length) return [];
  return db
    .selectFrom('tag_users as tu')
    .innerJoin('users as u', 'u.id', 'tu.user_id')
    .where('tu.tag_id', 'in', tagIds)
    .where('u.primary_entity_id', 'in', entityIds)
    .select(['tu.tag_id', 'tu.user_id'])
    .execute();
}
