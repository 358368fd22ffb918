import { z } from 'zod';
import { PageQuery } from './common';

/**
 * Tags (spec 1 §2 /entities/{slug}/tags, spec 2 §6 permissions 94-97, spec 2 §7 GET /reports/drill-down/tags).
 * The spec names the page, the permissions and the drill-down; the shapes below are ours, modelled on job roles:
 *
 * - A tag belongs to one entity; its name is unique in that entity, case-insensitively.
 * - Users are linked to a tag (many to many). Only users whose primary entity is in the tag's entity subtree (which
 *   is always inside the caller's scope) may be linked; anyone else is a 422 on `users`, and nothing is written.
 * - `users_count` and the users list only count linked users inside the tag's entity subtree, so a user who moved
 *   to another organisation after being tagged never shows there.
 * - Messaging a tag (spec 2 §7 POST tags/{id}/message) belongs to the messaging capability, not built here.
 */

/** Permission ids of tags (spec 2 §6). */
export const TagsPerm = {
  /** tags view: list tags and their users. */
  view: 94,
  /** tags manage: create, rename and delete tags. */
  manage: 95,
  /** tags link: link users to tags and unlink them. */
  link: 96,
  /** tags use: report by tag (drill-down by tags). */
  use: 97,
} as const;

/** Success notices, in the style of spec 2 §8 ('Job Role has been created.'). */
export const TagsMessages = {
  created: 'Tag has been created.',
  updated: 'Tag has been updated.',
  deleted: 'Tag has been deleted.',
  usersLinked: 'Users have been added to the tag.',
  userUnlinked: 'User has been removed from the tag.',
  failedToFetch: 'Failed to fetch tags.',
  nameTaken: 'The name has already been taken.',
  usersOutOfScope: 'Some of the chosen users cannot be added to this tag.',
} as const;

/** At most this many users linked in one call (a pasted team, not a whole organisation). */
export const MAX_TAG_USERS_PER_CALL = 500;

const tagName = z
  .string()
  .trim()
  .min(1, 'The name field is required.')
  .max(100, 'The name may not be longer than 100 characters.');
const dbId = z.coerce.number().int().positive().max(2147483647);

export const TagBody = z.object({ name: tagName });
export type TagBody = z.infer<typeof TagBody>;
export const UpdateTagBody = z.object({ name: tagName });
export type UpdateTagBody = z.infer<typeof UpdateTagBody>;
export const TagIdParams = z.object({ id: dbId });
export const TagUserParams = z.object({ id: dbId, userId: dbId });
export const TagListQuery = PageQuery;
export type TagListQuery = z.infer<typeof TagListQuery>;
export const TagUsersQuery = PageQuery;
export type TagUsersQuery = z.infer<typeof TagUsersQuery>;

/** POST /tags/{id}/users: link these users (already linked ones are left as they are). */
export const LinkTagUsersBody = z.object({
  users: z
    .array(z.number().int().positive().max(2147483647))
    .min(1, 'Choose at least one user.')
    .max(MAX_TAG_USERS_PER_CALL, `At most ${MAX_TAG_USERS_PER_CALL} users at once.`),
});
export type LinkTagUsersBody = z.infer<typeof LinkTagUsersBody>;

const EntityRef = z.object({ id: z.number(), slug: z.string(), name: z.string() });

export const Tag = z.object({
  id: z.number(),
  entity_id: z.number(),
  entity: EntityRef,
  name: z.string(),
  users_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Tag = z.infer<typeof Tag>;

/** POST /tags/{id}/users answers how many links are new and the tag with its new count. */
export interface LinkTagUsersResult {
  linked: number;
  tag: Tag;
}

/** A user linked to a tag, as GET /tags/{id}/users lists them. */
export const TagUser = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  email: z.string(),
  primary_entity: EntityRef,
  linked_at: z.string(),
});
export type TagUser = z.infer<typeof TagUser>;
