import { z } from 'zod';
import { PageQuery, queryBool, updateSchemaOf } from './common';

const name = z.string().trim().min(1, 'The name field is required.').max(255);
const email = z.string().trim().toLowerCase().email('The email must be a valid email address.').max(255);
/** A user's address as POST /users stores it (trimmed, lower-case, checked): the importer reads its rows with it. */
export const UserEmail = email;
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'The date must be in the format YYYY-MM-DD.');

export const CreateUserBody = z.object({
  name,
  email,
  primary_entity_id: z.number().int().positive().max(2147483647).optional(),
  role_id: z.number().int().positive().max(2147483647).nullable().optional(),
  type_id: z.number().int().positive().max(2147483647).nullable().optional(),
  is_trainer: z.boolean().optional(),
  start_date: date.nullable().optional(),
  password: z.string().min(1).max(200).optional(),
  send_welcome_email: z.boolean().optional(),
});
export const UpdateUserBody = updateSchemaOf(
  CreateUserBody.omit({ password: true, send_welcome_email: true }),
).extend({ user_preferences: z.record(z.string(), z.unknown()).optional() });
export type CreateUserBody = z.infer<typeof CreateUserBody>;
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

/** spec 1 §7: GET /users with filters (actingAs, is_trainer as 0/1, type_id). */
export const UserListQuery = PageQuery.extend({
  is_trainer: queryBool.optional(),
  type_id: z.coerce.number().int().positive().max(2147483647).optional(),
  role_id: z.coerce.number().int().positive().max(2147483647).optional(),
  entity_id: z.coerce.number().int().positive().max(2147483647).optional(),
});

/** Users are addressed by numeric id or uuid (routes use /users/{uuid}). */
export const UserRefParams = z.object({ id: z.string().min(1).max(64) });

/** Email is null unless the caller may see contact details (permission 23), is a super admin, or is the user. */
export const UserSummary = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  is_trainer: z.boolean(),
  start_date: z.string().nullable(),
  primary_entity: z.object({ id: z.number(), slug: z.string(), name: z.string() }),
  role: z.object({ id: z.number(), name: z.string() }).nullable(),
  type: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type UserSummary = z.infer<typeof UserSummary>;

const EntityRef = z.object({ id: z.number(), slug: z.string(), name: z.string() });

/** GET /users/{id}: the summary plus what the profile page needs. user_preferences only for the user themselves. */
export const UserDetail = UserSummary.extend({
  super_admin: z.boolean(),
  primary_entity: EntityRef.extend({ level: z.enum(['A', 'B']) }),
  a_entity: EntityRef,
  email_verified: z.boolean(),
  /** A new address waiting for the link mailed to it; the account keeps `email` until then (null when none). */
  pending_email: z.string().nullable(),
  last_login_at: z.string().nullable(),
  created_at: z.string(),
  user_preferences: z.record(z.string(), z.unknown()).optional(),
});
export type UserDetail = z.infer<typeof UserDetail>;

/** GET /users/{id}/permissions: each effective permission and where it comes from. */
export const UserPermissionSource = z.enum(['type', 'user', 'super_admin']);
export const EffectiveUserPermission = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  category: z.string(),
  sources: z.array(UserPermissionSource),
});
export type EffectiveUserPermission = z.infer<typeof EffectiveUserPermission>;
