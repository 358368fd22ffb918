import { z } from 'zod';
import { PageQuery, updateSchemaOf } from './common';

export const RoleBody = z.object({
  name: z.string().trim().min(1, 'The name field is required.').max(255),
  inspectable: z.boolean().default(false),
});
export const UpdateRoleBody = updateSchemaOf(RoleBody);
export const TypeBody = z.object({ name: z.string().trim().min(1, 'The name field is required.').max(255) });
export const UpdateTypeBody = updateSchemaOf(TypeBody);
/** Ids fit PostgreSQL's integer, so a huge number is a 422, not a database error. */
const dbId = z.coerce.number().int().positive().max(2147483647);
export const SlugIdParams = z.object({ slug: z.string().min(1).max(120), id: dbId });
export const RoleIdParams = z.object({ id: dbId });
export const RoleListQuery = PageQuery.extend({ inspectable: z.enum(['all', '0', '1']).optional() });

export const TypeListQuery = PageQuery;
export const RoleStatsQuery = PageQuery;

const EntityRef = z.object({ id: z.number(), slug: z.string(), name: z.string() });

/**
 * A job role as listed under an entity. `inherited` is true for a role of an ancestor (a level B entity uses its
 * level A parent's roles, read-only from the child). `users_count` counts holders within the listed entity's
 * subtree (or the caller's scope for stats), so it never reveals other organisations' numbers.
 */
export const Role = z.object({
  id: z.number(),
  entity_id: z.number(),
  entity: EntityRef.optional(),
  name: z.string(),
  inspectable: z.boolean(),
  inherited: z.boolean().optional(),
  users_count: z.number().optional(),
});
export type Role = z.infer<typeof Role>;
export const UserType = z.object({
  id: z.number(),
  entity_id: z.number(),
  entity: EntityRef.optional(),
  name: z.string(),
  inherited: z.boolean().optional(),
  users_count: z.number().optional(),
});
export type UserType = z.infer<typeof UserType>;

/** GET /roles/{id}/details and /types/{id}/details: the first holders, within the caller's scope. */
export const HolderSummary = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  primary_entity: EntityRef,
});
export const ROLE_DETAILS_USERS = 20;
