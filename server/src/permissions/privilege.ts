import type { Db } from '../db/connect';
import { ancestorIds } from '../entities/tree';
import type { Actor, Ctx } from '../http/context';
import { forbidden } from '../http/errors';
import { effectivePermissionIds } from './catalogue';

/**
 * The privilege rule (issue 11 §2, §3; ASVS 4.1.3 least privilege): nobody gives someone a permission they do not
 * hold themselves, and nobody changes an account that holds a permission they do not hold. A super admin is above
 * both. Every door that assigns a user type, grants a permission or edits a user goes through here, REST and
 * GraphQL alike (they call the same services); `privilege.test.ts` drives each of them.
 *
 * Job roles carry no permissions (they decide required courses only), so assigning one is checked only by the
 * "account above you" rule.
 */
export const USER_ABOVE_YOU = 'This user has access you do not have, so you cannot change their account.';
export const TYPE_ABOVE_YOU = 'You can only give a user type whose permissions you hold yourself.';
export const ORGANISATION_ABOVE_YOU =
  'In that organisation this user would have access you do not have yourself.';
export const TYPE_EDIT_ABOVE_YOU =
  'This user type gives access you do not have, so you cannot change its permissions.';
export const ORGANISATION_OUT_OF_REACH =
  'This user belongs to an organisation above your own, so you cannot change their e-mail address or password.';

/** The ids in `ids` the actor does not hold (none for a super admin). */
export function notHeld(actor: Pick<Actor, 'superAdmin' | 'permissions'>, ids: Iterable<number>): number[] {
  if (actor.superAdmin) return [];
  return [...ids].filter((id) => !actor.permissions.has(id));
}

export const holdsAll = (actor: Pick<Actor, 'superAdmin' | 'permissions'>, ids: Iterable<number>) =>
  notHeld(actor, ids).length === 0;

/** A user as the rule needs them: who they are, their type and organisation (what their permissions come from). */
export interface Holder {
  id: number;
  type_id: number | null;
  primary_entity_id: number;
  super_admin: boolean;
}

/**
 * 403 unless the actor holds every permission `user` holds (the answer for an item one sees but may not change;
 * the caller has already checked scope, so an out-of-scope user stays 404). A super admin is changed only by a
 * super admin. Oneself passes: one holds one's own permissions by definition.
 */
export async function assertMayManageUser(ctx: Ctx, actor: Actor, user: Holder): Promise<void> {
  if (actor.superAdmin || user.id === actor.userId) return;
  if (user.super_admin) throw forbidden(USER_ABOVE_YOU);
  if (!holdsAll(actor, await effectivePermissionIds(ctx.db, user))) throw forbidden(USER_ABOVE_YOU);
}

/**
 * Whether a user with this type in this organisation (plus their own grants, when they exist already) would hold
 * only permissions the actor holds: what a type assignment or a move "would give" (effective permissions are the
 * type's and the user's grants that the organisation allows).
 */
export async function wouldHoldOnlyWhatActorHolds(
  db: Db,
  actor: Actor,
  subject: { userId: number | null; typeId: number | null; entityId: number },
): Promise<boolean> {
  if (actor.superAdmin) return true;
  const ids = await effectivePermissionIds(db, {
    id: subject.userId ?? -1,
    type_id: subject.typeId,
    primary_entity_id: subject.entityId,
  });
  return holdsAll(actor, ids);
}

/**
 * The reach rule (issue 29 §4): the organisations whose users' sign-in one may touch are one's OWN organisation and
 * those below it, whatever one is acting as. Acting as a parent organisation (permission 19) lets a home manager see
 * and manage the group's users, and a group-level user can hold exactly what the home manager holds (the same user
 * type), so the privilege rule above lets them through; taking over such an account (its e-mail address, hence its
 * password) is still refused. A super admin reaches everywhere.
 */
export async function withinOwnReach(
  db: Db,
  actor: Pick<Actor, 'superAdmin' | 'primaryEntity'>,
  entityId: number,
): Promise<boolean> {
  if (actor.superAdmin) return true;
  return (await ancestorIds(db, entityId)).includes(actor.primaryEntity.id);
}

/**
 * 403 when a change of another user's e-mail address or password (a set-your-password link) reaches above the
 * actor's own organisation. The caller has checked scope first, so a user outside it stays the same 404 as a missing
 * one; here the user is visible (through acting-as) but above reach. Oneself passes.
 */
export async function assertWithinOwnReach(ctx: Ctx, actor: Actor, user: Holder): Promise<void> {
  if (actor.superAdmin || user.id === actor.userId) return;
  if (!(await withinOwnReach(ctx.db, actor, user.primary_entity_id)))
    throw forbidden(ORGANISATION_OUT_OF_REACH);
}
