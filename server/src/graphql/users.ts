import {
  CreateUserBody,
  UpdateUserBody,
  type UserDetail,
  UserListQuery,
  UserRefParams,
  type UserSummary,
} from '@cc/contracts';
import { actorOf } from '../http/context';
import { createUser, getUser, listUsers, updateUser } from '../users/service';
import { EntityRefRef, NamedRef } from './auth';
import { builder } from './builder';
import { defined, parseInput } from './input';
import { pageArgs, paginatorOf, restPage, toPaginator } from './paging';

/** A user in a list (summary) or alone (detail: the extra fields are set). */
type UserShape = UserSummary & Partial<Omit<UserDetail, keyof UserSummary>>;

export const UserRef = builder.objectRef<UserShape>('User').implement({
  description: 'A user: the list fields of GET /api/users; the single-user query adds the detail fields.',
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    name: t.exposeString('name'),
    email: t.exposeString('email', {
      nullable: true,
      description: 'Null unless the caller may see contact details (permission 23) or is the user.',
    }),
    is_trainer: t.exposeBoolean('is_trainer'),
    start_date: t.exposeString('start_date', { nullable: true }),
    primary_entity: t.field({ type: EntityRefRef, resolve: (u) => u.primary_entity }),
    role: t.field({ type: NamedRef, nullable: true, resolve: (u) => u.role }),
    type: t.field({ type: NamedRef, nullable: true, resolve: (u) => u.type }),
    super_admin: t.boolean({ nullable: true, resolve: (u) => u.super_admin ?? null }),
    a_entity: t.field({ type: EntityRefRef, nullable: true, resolve: (u) => u.a_entity ?? null }),
    email_verified: t.boolean({ nullable: true, resolve: (u) => u.email_verified ?? null }),
    emailVerified: t.boolean({
      nullable: true,
      description: 'The same as email_verified, by the name the signed-in user (`me`) carries (spec 1 §3).',
      resolve: (u) => u.email_verified ?? null,
    }),
    pending_email: t.string({
      nullable: true,
      description:
        'A new address waiting for the link mailed to it (detail only; contact detail, like email).',
      resolve: (u) => u.pending_email ?? null,
    }),
    last_login_at: t.string({ nullable: true, resolve: (u) => u.last_login_at ?? null }),
    created_at: t.string({ nullable: true, resolve: (u) => u.created_at ?? null }),
    user_preferences: t.field({
      type: 'JSON',
      nullable: true,
      description: 'Only for the user themselves.',
      resolve: (u) => u.user_preferences ?? null,
    }),
  }),
});

const UserPaginator = paginatorOf(UserRef, 'User');

builder.queryFields((t) => ({
  users: t.field({
    type: UserPaginator,
    description: 'GET /api/users: users of the caller’s entity (permission 21); deep adds its descendants.',
    args: {
      ...pageArgs(t.arg),
      search: t.arg.string(),
      is_trainer: t.arg.boolean(),
      type_id: t.arg.int(),
      role_id: t.arg.int(),
      entity_id: t.arg.int(),
      deep: t.arg.boolean(),
    },
    resolve: async (_root, { first, page, ...filters }, ctx) => {
      actorOf(ctx); // as the REST route: 401 before 422
      const query = parseInput(UserListQuery, defined({ ...restPage({ first, page }), ...filters }));
      const { data, total } = await listUsers(ctx, query);
      return toPaginator(data, total, query.page, query.per_page);
    },
  }),
  user: t.field({
    type: UserRef,
    description: 'One user by id or uuid (NOT_FOUND outside the caller’s organisation).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      return getUser(ctx, parseInput(UserRefParams, { id: String(args.id) }).id);
    },
  }),
}));

const UserInput = builder.inputType('UserInput', {
  description: 'Without id: create (POST /api/users). With id (or uuid): update the given fields (PATCH).',
  fields: (t) => ({
    id: t.id(),
    name: t.string(),
    email: t.string(),
    primary_entity_id: t.int(),
    role_id: t.int(),
    type_id: t.int(),
    is_trainer: t.boolean(),
    start_date: t.string({ description: 'YYYY-MM-DD' }),
    password: t.string({
      description: 'On create only; without it the user is e-mailed a link to choose one.',
    }),
    send_welcome_email: t.boolean({ description: 'On create only.' }),
    user_preferences: t.field({ type: 'JSON', description: 'On update only.' }),
  }),
});

builder.mutationField('upsertUser', (t) =>
  t.field({
    type: UserRef,
    description: 'Creates a user (no id) or updates one: the same rules as POST and PATCH /api/users.',
    args: { input: t.arg({ type: UserInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      actorOf(ctx); // as the REST route: 401 before 422
      const { id, ...fields } = defined(input as Record<string, unknown>);
      if (id === undefined || id === null) return createUser(ctx, parseInput(CreateUserBody, fields));
      const ref = parseInput(UserRefParams, { id: String(id) }).id;
      return updateUser(ctx, ref, parseInput(UpdateUserBody, fields));
    },
  }),
);
