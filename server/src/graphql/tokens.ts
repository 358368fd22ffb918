import {
  IdParams,
  TOKEN_STATUSES,
  TokenListQuery,
  type TokenOptionsView,
  type TokenView,
} from '@cc/contracts';
import { actorOf } from '../http/context';
import { createToken, listTokens, revokeToken, tokenOptions } from '../tokens/service';
import { builder } from './builder';
import { parseInput } from './input';
import { pageArgs, pageOf, paginatorOf } from './paging';

/**
 * Personal access tokens (issue 18; contracts tokens.ts) over GraphQL: query `personalAccessTokens` (and
 * `personalAccessTokenOptions`), mutations `createPersonalAccessToken` and `revokePersonalAccessToken`. The same
 * service as REST (tokens/service.ts): no rule lives here.
 */

const AbilityObject = builder
  .objectRef<{ id: number; name: string }>('PersonalAccessTokenAbility')
  .implement({
    description: 'A permission a token may use: its id and name.',
    fields: (t) => ({ id: t.exposeInt('id'), name: t.exposeString('name') }),
  });

const OwnerObject = builder.objectRef<TokenView['owner']>('PersonalAccessTokenOwner').implement({
  fields: (t) => ({
    id: t.exposeInt('id'),
    uuid: t.exposeString('uuid'),
    name: t.exposeString('name'),
    email: t.exposeString('email'),
  }),
});

/** A token as listed; `plain_text_token` only in the create answer (shown that once), null everywhere else. */
type TokenShape = TokenView & { plain_text_token?: string };

const TokenObject = builder.objectRef<TokenShape>('PersonalAccessToken').implement({
  description: 'A personal access token as listed (GET /api/personal-access-tokens).',
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    token_prefix: t.exposeString('token_prefix', {
      description: 'The first characters of the token (never the secret).',
    }),
    abilities: t.field({ type: [AbilityObject], resolve: (v) => v.abilities }),
    created_at: t.exposeString('created_at'),
    expires_at: t.exposeString('expires_at'),
    last_used_at: t.exposeString('last_used_at', { nullable: true }),
    last_used_ip: t.exposeString('last_used_ip', { nullable: true }),
    revoked_at: t.exposeString('revoked_at', { nullable: true }),
    status: t.exposeString('status', { description: TOKEN_STATUSES.join(', ') }),
    owner: t.field({ type: OwnerObject, resolve: (v) => v.owner }),
    can_revoke: t.exposeBoolean('can_revoke'),
    plain_text_token: t.string({
      nullable: true,
      description: 'The secret: in the createPersonalAccessToken answer only.',
      resolve: (v) => v.plain_text_token ?? null,
    }),
  }),
});

const TokenPaginator = paginatorOf(TokenObject, 'PersonalAccessToken');

const OptionAbility = builder
  .objectRef<TokenOptionsView['abilities'][number]>('PersonalAccessTokenAbilityOption')
  .implement({
    fields: (t) => ({
      id: t.exposeInt('id'),
      name: t.exposeString('name'),
      description: t.exposeString('description'),
      category: t.exposeString('category'),
    }),
  });

const OptionsObject = builder.objectRef<TokenOptionsView>('PersonalAccessTokenOptions').implement({
  description: 'What the create form offers: the permissions the caller holds and the longest expiry.',
  fields: (t) => ({
    abilities: t.field({ type: [OptionAbility], resolve: (o) => o.abilities }),
    max_days: t.exposeInt('max_days'),
    max_date: t.exposeString('max_date'),
    live: t.exposeInt('live'),
    max_live: t.exposeInt('max_live'),
  }),
});

builder.queryField('personalAccessTokens', (t) =>
  t.field({
    type: TokenPaginator,
    description:
      "GET /api/personal-access-tokens: the caller's tokens; scope 'organisation' (103): tokens of users in scope.",
    args: {
      ...pageArgs(t.arg),
      scope: t.arg.string({ description: 'own (default) or organisation' }),
      status: t.arg.string({ description: TOKEN_STATUSES.join(', ') }),
      search: t.arg.string(),
    },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      return pageOf(TokenListQuery, args, (q) => listTokens(ctx, q));
    },
  }),
);

builder.queryField('personalAccessTokenOptions', (t) =>
  t.field({
    type: OptionsObject,
    description: 'GET /api/personal-access-tokens/options (101).',
    resolve: (_root, _args, ctx) => tokenOptions(ctx),
  }),
);

builder.mutationField('createPersonalAccessToken', (t) =>
  t.field({
    type: TokenObject,
    description: 'POST /api/personal-access-tokens (101): the secret is in this answer only.',
    args: {
      name: t.arg.string({ required: true }),
      abilities: t.arg.intList({ required: true }),
      expires_at: t.arg.string({ required: true, description: 'The last day it works, YYYY-MM-DD.' }),
    },
    resolve: (_root, args, ctx) => createToken(ctx, args),
  }),
);

builder.mutationField('revokePersonalAccessToken', (t) =>
  t.field({
    type: TokenObject,
    description: 'DELETE /api/personal-access-tokens/{id} (102).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => (await revokeToken(ctx, parseInput(IdParams, { id }).id)).view,
  }),
);
