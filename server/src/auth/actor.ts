import { type AuthUser, PERMISSIONS } from '@cc/contracts';
import type { Db } from '../db/connect';
import type { Actor } from '../http/context';
import { actorLookups } from './actor-lookups';

export async function loadActor(
  db: Db,
  userId: number,
  via:
    | { via: 'session'; sessionId: string }
    | { via: 'token'; tokenId: number; abilities: string[]; kind?: 'device' | 'personal' },
): Promise<Actor | null> {
  const row = await db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .select([
      'u.id',
      'u.uuid',
      'u.name',
      'u.email',
      'u.super_admin',
      'u.role_id',
      'u.type_id',
      'u.primary_entity_id',
      'e.slug as entity_slug',
      'e.name as entity_name',
      'e.level as entity_level',
      'e.parent_id as entity_parent_id',
      'e.password_expire_period_in_months',
      'u.password_change_required',
      'u.password_changed_at',
      'u.created_at',
    ])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  const { effectivePermissionIds, aEntityIdOf } = actorLookups();
  const [permissions, aEntityId] = await Promise.all([
    effectivePermissionIds(db, {
      id: row.id,
      type_id: row.type_id,
      primary_entity_id: row.primary_entity_id,
    }),
    row.entity_parent_id === null && row.entity_level === 'A'
      ? row.primary_entity_id
      : aEntityIdOf(db, row.primary_entity_id),
  ]);
  const personal = via.via === 'token' && via.kind === 'personal';
  return {
    userId: row.id,
    uuid: row.uuid,
    name: row.name,
    email: row.email,
    // A personal access token never carries "passes every check": a super admin's token holds its abilities only.
    superAdmin: row.super_admin && !personal,
    permissions: new Set(
      personal ? tokenPermissions(row.super_admin, permissions, via.abilities) : permissions,
    ),
    primaryEntity: {
      id: row.primary_entity_id,
      slug: row.entity_slug,
      name: row.entity_name,
      level: row.entity_level,
      parent_id: row.entity_parent_id,
    },
    aEntityId,
    actingAs: null,
    roleId: row.role_id,
    typeId: row.type_id,
    passwordChangeRequired: passwordChangeRequired(
      {
        password_change_required: row.password_change_required,
        password_changed_at: row.password_changed_at,
        created_at: new Date(row.created_at),
      },
      row.password_expire_period_in_months,
      new Date(),
    ),
    ...(via.via === 'session'
      ? { via: 'session' as const, sessionId: via.sessionId, abilities: ['*'] }
      : {
          via: 'token' as const,
          tokenId: via.tokenId,
          tokenKind: via.kind ?? ('device' as const),
          abilities: via.abilities,
        }),
  };
}

/**
 * What a personal access token's caller holds: the owner's permissions NOW (a super admin's: the whole catalogue)
 * that the token's abilities name. Computed on every load, so a permission the owner loses leaves the token at once.
 */
export function tokenPermissions(
  ownerSuperAdmin: boolean,
  ownerPermissions: readonly number[],
  abilities: readonly string[],
): number[] {
  const held = new Set(ownerSuperAdmin ? PERMISSIONS.map((p) => p.id) : ownerPermissions);
  return [...new Set(abilities.map(Number))].filter((id) => Number.isInteger(id) && held.has(id));
}

const permissionSlug = new Map(
  PERMISSIONS.map((p) => [
    p.id,
    p.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, ''),
  ]),
);

/** Password must change when the entity's expiry period has passed or an admin/compromise check flagged it (spec 2 §3). */
export function passwordChangeRequired(
  user: { password_change_required: boolean; password_changed_at: Date | null; created_at: Date },
  expireMonths: number | null,
  now: Date,
): boolean {
  if (user.password_change_required) return true;
  if (!expireMonths) return false;
  const changed = user.password_changed_at ?? user.created_at;
  const due = new Date(changed);
  due.setMonth(due.getMonth() + expireMonths);
  return due <= now;
}

/** The Auth user of spec 1 §3. */
export async function presentAuthUser(db: Db, actor: Actor, now: Date): Promise<AuthUser> {
  const user = await db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .leftJoin('entity_roles as r', 'r.id', 'u.role_id')
    .leftJoin('entity_types as t', 't.id', 'u.type_id')
    .select([
      'u.email_verified_at',
      'u.is_trainer',
      'u.user_preferences',
      'u.password_change_required',
      'u.password_changed_at',
      'u.created_at',
      'e.password_expire_period_in_months',
      'r.id as role_id',
      'r.name as role_name',
      't.id as type_id',
      't.name as type_name',
    ])
    .where('u.id', '=', actor.userId)
    .executeTakeFirstOrThrow();
  const a = await db
    .selectFrom('entities')
    .select([
      'id',
      'slug',
      'name',
      'can_view_internal_bookings',
      'can_view_external_bookings',
      'can_manage_bookings',
      'can_see_new_dashboards',
    ])
    .where('id', '=', actor.aEntityId)
    .executeTakeFirstOrThrow();
  const ids = actor.superAdmin ? PERMISSIONS.map((p) => p.id) : [...actor.permissions];
  return {
    id: actor.userId,
    uuid: actor.uuid,
    name: actor.name,
    email: actor.email,
    emailVerified: user.email_verified_at !== null,
    super_admin: actor.superAdmin,
    is_trainer: user.is_trainer,
    primary_entity: {
      id: actor.primaryEntity.id,
      slug: actor.primaryEntity.slug,
      name: actor.primaryEntity.name,
      level: actor.primaryEntity.level,
    },
    a_entity: a,
    user_preferences: user.user_preferences ?? {},
    role: user.role_id !== null ? { id: user.role_id, name: user.role_name ?? '' } : null,
    type: user.type_id !== null ? { id: user.type_id, name: user.type_name ?? '' } : null,
    permissions: ids.map((id) => ({ id, slug: permissionSlug.get(id) ?? String(id) })),
    password_change_required: passwordChangeRequired(
      {
        password_change_required: user.password_change_required,
        password_changed_at: user.password_changed_at,
        created_at: new Date(user.created_at),
      },
      user.password_expire_period_in_months,
      now,
    ),
  };
}
