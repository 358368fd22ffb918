import { type AuthUser, PERMISSIONS, plusMonths } from '@cc/contracts';
import { sql } from 'kysely';
import type { Db } from '../db/connect';
import type { Actor } from '../http/context';
import { actorLookups } from './actor-lookups';

/** How the caller came: a web session (or a job acting as its user) or a bearer token. */
export type ActorVia =
  | { via: 'session'; sessionId: string }
  | { via: 'token'; tokenId: number; abilities: string[]; kind?: 'device' | 'personal' };

/**
 * The columns an Actor is built from, over a query that joins the user as `u` and their primary entity as `e`: the
 * user, the entity, and (SQL the capabilities provide, auth/actor-lookups.ts) the permissions and the level A
 * organisation. Prefixed, so a credential's own columns (id, created_at…) can sit beside them in one statement.
 */
export function actorColumns() {
  const { effectivePermissionIdsSql, aEntityIdSql } = actorLookups();
  return [
    sql.ref<number>('u.id').as('actor_id'),
    sql.ref<string>('u.uuid').as('actor_uuid'),
    sql.ref<string>('u.name').as('actor_name'),
    sql.ref<string>('u.email').as('actor_email'),
    sql.ref<boolean>('u.super_admin').as('actor_super_admin'),
    sql.ref<number | null>('u.role_id').as('actor_role_id'),
    sql.ref<number | null>('u.type_id').as('actor_type_id'),
    sql.ref<number>('u.primary_entity_id').as('actor_primary_entity_id'),
    sql.ref<boolean>('u.password_change_required').as('actor_password_change_required'),
    sql.ref<Date | null>('u.password_changed_at').as('actor_password_changed_at'),
    sql.ref<Date>('u.created_at').as('actor_created_at'),
    sql.ref<string>('e.slug').as('actor_entity_slug'),
    sql.ref<string>('e.name').as('actor_entity_name'),
    sql.ref<'A' | 'B'>('e.level').as('actor_entity_level'),
    sql.ref<number | null>('e.parent_id').as('actor_entity_parent_id'),
    sql.ref<number | null>('e.password_expire_period_in_months').as('actor_password_expire_months'),
    effectivePermissionIdsSql({
      id: sql.ref('u.id'),
      typeId: sql.ref('u.type_id'),
      primaryEntityId: sql.ref('u.primary_entity_id'),
    }).as('actor_permission_ids'),
    aEntityIdSql(sql.ref('u.primary_entity_id')).as('actor_a_entity_id'),
  ] as const;
}

/** A row of actorColumns(). */
export interface ActorRow {
  actor_id: number;
  actor_uuid: string;
  actor_name: string;
  actor_email: string;
  actor_super_admin: boolean;
  actor_role_id: number | null;
  actor_type_id: number | null;
  actor_primary_entity_id: number;
  actor_password_change_required: boolean;
  actor_password_changed_at: Date | null;
  actor_created_at: Date;
  actor_entity_slug: string;
  actor_entity_name: string;
  actor_entity_level: 'A' | 'B';
  actor_entity_parent_id: number | null;
  actor_password_expire_months: number | null;
  actor_permission_ids: number[];
  actor_a_entity_id: number;
}

/** The user as a caller, in one statement. */
export async function loadActor(db: Db, userId: number, via: ActorVia): Promise<Actor | null> {
  const row = await db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .select(actorColumns())
    .where('u.id', '=', userId)
    .executeTakeFirst();
  return row ? actorFromRow(row, via) : null;
}

/** The Actor of a row of actorColumns(). */
export function actorFromRow(row: ActorRow, via: ActorVia): Actor {
  const personal = via.via === 'token' && via.kind === 'personal';
  return {
    userId: row.actor_id,
    uuid: row.actor_uuid,
    name: row.actor_name,
    email: row.actor_email,
    // A personal access token never carries "passes every check": a super admin's token holds its abilities only.
    superAdmin: row.actor_super_admin && !personal,
    permissions: new Set(
      personal
        ? tokenPermissions(row.actor_super_admin, row.actor_permission_ids, via.abilities)
        : row.actor_permission_ids,
    ),
    primaryEntity: {
      id: row.actor_primary_entity_id,
      slug: row.actor_entity_slug,
      name: row.actor_entity_name,
      level: row.actor_entity_level,
      parent_id: row.actor_entity_parent_id,
    },
    aEntityId: row.actor_a_entity_id,
    actingAs: null,
    roleId: row.actor_role_id,
    typeId: row.actor_type_id,
    passwordChangeRequired: passwordChangeRequired(
      {
        password_change_required: row.actor_password_change_required,
        password_changed_at: row.actor_password_changed_at,
        created_at: new Date(row.actor_created_at),
      },
      row.actor_password_expire_months,
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
  // Clamped at the month end: changed on 31 August, a 6-month expiry falls due on the last day of February (local
  // setMonth made it 3 March).
  return plusMonths(user.password_changed_at ?? user.created_at, expireMonths) <= now;
}

/** The Auth user of spec 1 §3 (one statement: the user's own fields and the level A organisation's). */
export async function presentAuthUser(db: Db, actor: Actor, now: Date): Promise<AuthUser> {
  const { a_id, a_slug, a_name, ...user } = await db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .innerJoin('entities as a', (join) => join.on('a.id', '=', actor.aEntityId))
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
      'a.id as a_id',
      'a.slug as a_slug',
      'a.name as a_name',
      'a.can_view_internal_bookings',
      'a.can_view_external_bookings',
      'a.can_manage_bookings',
      'a.can_see_new_dashboards',
    ])
    .where('u.id', '=', actor.userId)
    .executeTakeFirstOrThrow();
  const a = {
    id: a_id,
    slug: a_slug,
    name: a_name,
    can_view_internal_bookings: user.can_view_internal_bookings,
    can_view_external_bookings: user.can_view_external_bookings,
    can_manage_bookings: user.can_manage_bookings,
    can_see_new_dashboards: user.can_see_new_dashboards,
  };
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
