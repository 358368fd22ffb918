import { Perm, type UserDetail, type UserSummary } from '@cc/contracts';
import type { Actor } from '../http/context';
import type { UserDetailRow, UserListRow } from './queries';

/** E-mail is contact detail (permission 23); a super admin and the user themselves always see it. */
export const seesEmailOf = (actor: Actor, userId: number) =>
  actor.superAdmin || actor.userId === userId || actor.permissions.has(Perm.contactDetails);

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
export function presentUser(row: UserListRow, actor: Actor): UserSummary {
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    email: seesEmailOf(actor, row.id) ? row.email : null,
    is_trainer: row.is_trainer,
    start_date: row.start_date,
    primary_entity: { id: row.primary_entity_id, slug: row.entity_slug, name: row.entity_name },
    role: row.role_id !== null ? { id: row.role_id, name: row.role_name ?? '' } : null,
    type: row.type_id !== null ? { id: row.type_id, name: row.type_name ?? '' } : null,
  };
}

export function presentUserDetail(
  row: UserDetailRow,
  aEntity: { id: number; slug: string; name: string },
  actor: Actor,
): UserDetail {
  const self = actor.userId === row.id;
  return {
    ...presentUser(row, actor),
    super_admin: row.super_admin,
    primary_entity: {
      id: row.primary_entity_id,
      slug: row.entity_slug,
      name: row.entity_name,
      level: row.entity_level,
    },
    a_entity: { id: aEntity.id, slug: aEntity.slug, name: aEntity.name },
    email_verified: row.email_verified_at !== null,
    // An address change waiting for its confirmation link (issue 11 §3); contact detail, like the address itself.
    pending_email: seesEmailOf(actor, row.id) ? row.pending_email : null,
    last_login_at: iso(row.last_login_at),
    created_at: iso(row.created_at) ?? '',
    // Preferences are the user's own (spec 1 §3 Auth user); nobody else reads them.
    ...(self ? { user_preferences: row.user_preferences ?? {} } : {}),
  };
}
