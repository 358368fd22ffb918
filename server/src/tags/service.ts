import {
  type LinkTagUsersBody,
  type TagBody,
  type TagListQuery,
  TagsMessages,
  TagsPerm,
  type TagUsersQuery,
  type UpdateTagBody,
} from '@cc/contracts';
import { entityScope, inScope } from '../entities/scope';
import { subtreeIds } from '../entities/tree';
import { actorOf, authorize, type Ctx } from '../http/context';
import { invalidField, notFound } from '../http/errors';
import { entityInScope } from '../roles/service';
import { presentTag, presentTagUser } from './presenters';
import {
  countLinkedUsers,
  deleteTag as deleteTagRow,
  findTag,
  insertTag,
  linkUsers,
  listTags as listTagRows,
  renameTag,
  tagNameTaken,
  tagUsersPage,
  unlinkUser,
  usersWithin,
} from './queries';

/**
 * Tags (contracts tags.ts): named groups of users inside an entity, used to report by tag. A tag is seen, changed
 * and filled only inside its entity's subtree, which lies inside the caller's scope: a tag of another organisation
 * answers 404 exactly like a missing one, and the 404 comes before any 403 (ARCHITECTURE "How a request flows").
 */

/** The tag, if its entity is inside the caller's scope (404 otherwise), with the entities its users may come from. */
async function tagInScope(ctx: Ctx, id: number) {
  actorOf(ctx); // 401 before anything is looked up
  const tag = await findTag(ctx.db, id);
  if (!tag || !inScope(await entityScope(ctx), tag.entity_id)) throw notFound();
  return { tag, userEntityIds: await subtreeIds(ctx.db, tag.entity_id) };
}

async function presentWithCount(ctx: Ctx, id: number, userEntityIds: number[]) {
  const tag = await findTag(ctx.db, id);
  if (!tag) throw notFound();
  return presentTag(tag, await countLinkedUsers(ctx.db, id, userEntityIds));
}

/** A tag (or user) deleted since it was checked: the foreign key refuses the link, which is a 404, not a 500. */
function goneToNotFound(error: unknown): never {
  if ((error as { code?: string })?.code === '23503') throw notFound();
  throw error;
}

function uniqueToNameTaken(error: unknown): never {
  if ((error as { code?: string })?.code === '23505') throw invalidField('name', TagsMessages.nameTaken);
  throw error;
}

/** GET /entities/{slug}/tags (94): the entity's own tags, each with its linked users in the entity's subtree. */
export async function listTags(ctx: Ctx, slug: string, query: TagListQuery) {
  const entity = await entityInScope(ctx, slug);
  authorize(ctx, [TagsPerm.view]);
  const { rows, total } = await listTagRows(ctx.db, {
    entityId: entity.id,
    userEntityIds: await subtreeIds(ctx.db, entity.id),
    search: query.search,
    page: query.page,
    perPage: query.per_page,
  });
  return { data: rows.map((r) => presentTag(r, r.users_count)), total };
}

/** POST /entities/{slug}/tags (95). */
export async function createTag(ctx: Ctx, slug: string, body: TagBody) {
  const entity = await entityInScope(ctx, slug);
  authorize(ctx, [TagsPerm.manage]);
  if (await tagNameTaken(ctx.db, entity.id, body.name)) throw invalidField('name', TagsMessages.nameTaken);
  const id = await insertTag(ctx.db, { entity_id: entity.id, name: body.name }).catch(uniqueToNameTaken);
  return presentWithCount(ctx, id, []);
}

/** PATCH /tags/{id} (95): rename. */
export async function updateTag(ctx: Ctx, id: number, body: UpdateTagBody) {
  const { tag, userEntityIds } = await tagInScope(ctx, id);
  authorize(ctx, [TagsPerm.manage]);
  if (await tagNameTaken(ctx.db, tag.entity_id, body.name, id))
    throw invalidField('name', TagsMessages.nameTaken);
  await renameTag(ctx.db, id, body.name, ctx.clock()).catch(uniqueToNameTaken);
  return presentWithCount(ctx, id, userEntityIds);
}

/** DELETE /tags/{id} (95): the tag and its links; the users themselves are untouched. */
export async function deleteTag(ctx: Ctx, id: number): Promise<void> {
  await tagInScope(ctx, id);
  authorize(ctx, [TagsPerm.manage]);
  await deleteTagRow(ctx.db, id);
}

/** GET /tags/{id}/users (94): linked users inside the tag's entity subtree, by name. */
export async function listTagUsers(ctx: Ctx, id: number, query: TagUsersQuery) {
  const { userEntityIds } = await tagInScope(ctx, id);
  authorize(ctx, [TagsPerm.view]);
  const { rows, total } = await tagUsersPage(ctx.db, {
    tagId: id,
    userEntityIds,
    search: query.search,
    page: query.page,
    perPage: query.per_page,
  });
  return { data: rows.map(presentTagUser), total };
}

/**
 * POST /tags/{id}/users (96): links every chosen user or none. A user outside the tag's entity subtree (another
 * organisation, a sibling site) or a missing id is a 422 on `users`, worded the same for both so it reveals nothing.
 */
export async function linkTagUsers(ctx: Ctx, id: number, body: LinkTagUsersBody) {
  const { userEntityIds } = await tagInScope(ctx, id);
  authorize(ctx, [TagsPerm.link]);
  // Sorted: every call inserts (tag, user) rows in one order, so two calls with the same users never deadlock.
  const wanted = [...new Set(body.users)].sort((a, b) => a - b);
  const linked = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const allowed = await usersWithin(trx, wanted, userEntityIds);
      if (allowed.size !== wanted.length) throw invalidField('users', TagsMessages.usersOutOfScope);
      return linkUsers(trx, id, wanted);
    })
    .catch(goneToNotFound);
  return { linked, tag: await presentWithCount(ctx, id, userEntityIds) };
}

/** DELETE /tags/{id}/users/{userId} (96): 404 unless that user is linked and visible in the tag's list. */
export async function unlinkTagUser(ctx: Ctx, id: number, userId: number) {
  const { userEntityIds } = await tagInScope(ctx, id);
  authorize(ctx, [TagsPerm.link]);
  if ((await usersWithin(ctx.db, [userId], userEntityIds)).size === 0) throw notFound();
  if (!(await unlinkUser(ctx.db, id, userId))) throw notFound();
  return presentWithCount(ctx, id, userEntityIds);
}
