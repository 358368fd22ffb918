import type { AuthUser } from '@cc/contracts';
import { currentAuthUser } from '../auth/service';
import { builder } from './builder';

/** Small references shared by several types. */
export const EntityRefRef = builder
  .objectRef<{ id: number; slug: string; name: string; level?: 'A' | 'B' }>('EntityRef')
  .implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      slug: t.exposeString('slug'),
      name: t.exposeString('name'),
      level: t.exposeString('level', { nullable: true }),
    }),
  });

export const NamedRef = builder.objectRef<{ id: number; name: string }>('NamedRef').implement({
  fields: (t) => ({ id: t.exposeID('id'), name: t.exposeString('name') }),
});

const AEntityRef = builder.objectRef<AuthUser['a_entity']>('AEntity').implement({
  description:
    "The level A organisation at the top of the user's branch, with its product flags (spec 1 §3).",
  fields: (t) => ({
    id: t.exposeID('id'),
    slug: t.exposeString('slug'),
    name: t.exposeString('name'),
    can_view_internal_bookings: t.exposeBoolean('can_view_internal_bookings'),
    can_view_external_bookings: t.exposeBoolean('can_view_external_bookings'),
    can_manage_bookings: t.exposeBoolean('can_manage_bookings'),
    can_see_new_dashboards: t.exposeBoolean('can_see_new_dashboards'),
  }),
});

const PermissionRef = builder.objectRef<AuthUser['permissions'][number]>('GrantedPermission').implement({
  fields: (t) => ({ id: t.exposeInt('id'), slug: t.exposeString('slug') }),
});

const AuthUserRef = builder.objectRef<AuthUser>('AuthUser').implement({
  description: 'The signed-in user (spec 1 §3 Auth user), the same as GET /api/auth/user.',
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    name: t.exposeString('name'),
    email: t.exposeString('email'),
    emailVerified: t.exposeBoolean('emailVerified'),
    super_admin: t.exposeBoolean('super_admin'),
    is_trainer: t.exposeBoolean('is_trainer'),
    primary_entity: t.field({ type: EntityRefRef, resolve: (u) => u.primary_entity }),
    a_entity: t.field({ type: AEntityRef, resolve: (u) => u.a_entity }),
    user_preferences: t.field({ type: 'JSON', resolve: (u) => u.user_preferences }),
    role: t.field({ type: NamedRef, nullable: true, resolve: (u) => u.role }),
    type: t.field({ type: NamedRef, nullable: true, resolve: (u) => u.type }),
    permissions: t.field({ type: [PermissionRef], resolve: (u) => u.permissions }),
    password_change_required: t.exposeBoolean('password_change_required'),
  }),
});

builder.queryField('me', (t) =>
  t.field({
    type: AuthUserRef,
    description: 'The signed-in user; UNAUTHENTICATED without a session or token.',
    resolve: (_root, _args, ctx) => currentAuthUser(ctx),
  }),
);
