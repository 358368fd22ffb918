import { z } from 'zod';
import { PERMISSION_CATEGORIES } from './permissions';

/** POST /entity-permissions and /entity-permissions/{slug}/delete (spec 2 §7). */
export const GrantEntityPermissionBody = z.object({
  entity: z.string().min(1, 'The entity field is required.').max(120),
  permission_ids: z.array(z.number().int().positive()).min(1, 'Give at least one permission id.').max(200),
});
export const RevokeEntityPermissionBody = z.object({
  permission_ids: z.array(z.number().int().positive()).min(1, 'Give at least one permission id.').max(200),
});
export const TypePermissionBody = RevokeEntityPermissionBody;
/** Ids fit PostgreSQL's integer, so a huge number is a 422, not a database error. */
const dbId = z.coerce.number().int().positive().max(2147483647);
export const TypeIdParams = z.object({ typeId: dbId });
export const UserPermissionIdParams = z.object({ id: dbId });

/** /permissions is the resource of per-user grants ('User Permission has been created.'). */
export const CreateUserPermissionBody = z.object({
  user_id: z.number().int().positive().max(2147483647),
  permission_id: z.number().int().positive(),
});
export const UpdateUserPermissionBody = z.object({ permission_id: z.number().int().positive() });
/**
 * GET /permissions: without user_id the catalogue (optionally one category); with user_id that user's per-user grants.
 */
export const UserPermissionListQuery = z.object({
  user_id: dbId.optional(),
  category: z.enum(PERMISSION_CATEGORIES).optional(),
});

export const Permission = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
});

/** A catalogue entry with whether the entity (or type) holds it. */
export const GrantedPermission = Permission.extend({ granted: z.boolean() });

/** A per-user grant: a row of user_permissions; its id is the {id} of /permissions/{id}. */
export const UserPermissionGrant = z.object({
  id: z.number(),
  user_id: z.number(),
  permission_id: z.number(),
  permission: Permission,
  created_at: z.string(),
  updated_at: z.string(),
});
export type UserPermissionGrant = z.infer<typeof UserPermissionGrant>;
