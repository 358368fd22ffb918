import {
  type CreatedTokenView,
  CreateTokenBody,
  TokenMessages as M,
  PAT_EXPIRES_SOON_DAYS,
  PAT_MAX_LIVE,
  PERMISSIONS,
  TokenListQuery,
  type TokenOptionsView,
  TokenPerm,
  type TokenView,
} from '@cc/contracts';
import type { z } from 'zod';
import { entityScope, inScope, listEntityIds } from '../entities/scope';
import { type Actor, actorOf, type Ctx, can } from '../http/context';
import { conflict, forbidden, invalidField, notFound, parseInput } from '../http/errors';
import { mintToken } from './format';
import { presentToken } from './presenters';
import {
  countLiveTokens,
  findToken,
  insertToken,
  listTokens as listTokenRows,
  lockOwner,
  markRevoked,
  patMaxDays,
} from './queries';

/**
 * Personal access tokens (contracts tokens.ts): create (101), list (own: 101, 102 or 103; the organisation's: 103),
 * revoke (102: own, or any user's in scope). Every door (REST, GraphQL) calls these.
 */

/** A leaked personal access token must not be able to mint a longer-lived one, list its siblings or hide itself. */
function manager(ctx: Ctx, ids: readonly number[], mode: 'all' | 'any' = 'all'): Actor {
  const actor = actorOf(ctx);
  if (actor.tokenKind === 'personal') throw forbidden(M.viaToken);
  if (!can(actor, ids, mode)) throw forbidden();
  return actor;
}

/** The permissions the caller may give a token: what they hold now (a super admin: the whole catalogue). */
function givable(actor: Actor) {
  return PERMISSIONS.filter((p) => actor.superAdmin || actor.permissions.has(p.id));
}

const DAY = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export async function tokenOptions(ctx: Ctx): Promise<TokenOptionsView> {
  const actor = manager(ctx, [TokenPerm.add]);
  const now = ctx.clock();
  const [maxDays, live] = await Promise.all([
    patMaxDays(ctx.db, actor.aEntityId),
    countLiveTokens(ctx.db, actor.userId, now),
  ]);
  return {
    abilities: givable(actor).map((p) => ({
      id: p.id,
      name: p.name,
      description: p.description,
      category: p.category,
    })),
    max_days: maxDays,
    max_date: isoDay(new Date(now.getTime() + maxDays * DAY)),
    live,
    max_live: PAT_MAX_LIVE,
  };
}

export async function createToken(ctx: Ctx, body: unknown): Promise<CreatedTokenView> {
  const actor = manager(ctx, [TokenPerm.add]);
  const input = parseInput(CreateTokenBody, body);
  const now = ctx.clock();

  const held = new Set(givable(actor).map((p) => p.id));
  if (input.abilities.some((id) => !held.has(id))) throw invalidField('abilities', M.notHeld);

  // The token works until the end of the chosen day (UTC); the day must come after today and within the maximum.
  const maxDays = await patMaxDays(ctx.db, actor.aEntityId);
  const expiresAt = new Date(`${input.expires_at}T23:59:59.999Z`);
  if (Number.isNaN(expiresAt.getTime())) throw invalidField('expires_at', M.expiryRequired);
  if (input.expires_at <= isoDay(now)) throw invalidField('expires_at', M.expiryPast);
  if (input.expires_at > isoDay(new Date(now.getTime() + maxDays * DAY)))
    throw invalidField('expires_at', M.expiryTooFar(maxDays));

  const minted = mintToken();
  const id = await ctx.db.transaction().execute(async (trx) => {
    // Serialised per owner (row lock), so concurrent creates cannot pass the live-token limit together.
    await lockOwner(trx, actor.userId);
    if ((await countLiveTokens(trx, actor.userId, now)) >= PAT_MAX_LIVE) throw conflict(M.tooMany);
    return insertToken(trx, {
      userId: actor.userId,
      name: input.name,
      hash: minted.hash,
      prefix: minted.prefix,
      abilities: [...new Set(input.abilities)].sort((a, b) => a - b),
      expiresAt,
    });
  });
  const row = await findToken(ctx.db, id);
  if (!row) throw notFound();
  return { ...presentToken(row, actor, now, true), plain_text_token: minted.plainText };
}

export async function listTokens(
  ctx: Ctx,
  query: z.input<typeof TokenListQuery> | z.output<typeof TokenListQuery>,
): Promise<{ data: TokenView[]; total: number; page: { page: number; per_page: number } }> {
  const q = parseInput(TokenListQuery, query);
  const organisation = q.scope === 'organisation';
  const actor = organisation
    ? manager(ctx, [TokenPerm.view])
    : manager(ctx, [TokenPerm.add, TokenPerm.revoke, TokenPerm.view], 'any');
  const now = ctx.clock();
  const entityIds = organisation ? await listEntityIds(ctx, true) : undefined;
  const { rows, total } = await listTokenRows(
    ctx.db,
    {
      ...(organisation ? { entityIds } : { userId: actor.userId }),
      ...(q.search ? { search: q.search } : {}),
      ...(q.status ? { status: q.status } : {}),
      now,
      soonDays: PAT_EXPIRES_SOON_DAYS,
    },
    q,
  );
  const mayRevokeOthers = can(actor, [TokenPerm.revoke]);
  return {
    data: rows.map((r) => presentToken(r, actor, now, mayRevokeOthers)),
    total,
    page: { page: q.page, per_page: q.per_page },
  };
}

/**
 * Revoke: the owner with 102, or anyone with 102 whose scope holds the owner's organisation. Someone else's token
 * out of scope (or a missing id): 404. Revoking twice is harmless (the first time stays recorded).
 */
export async function revokeToken(ctx: Ctx, id: number): Promise<{ view: TokenView; already: boolean }> {
  const actor = manager(ctx, [TokenPerm.revoke]);
  const now = ctx.clock();
  const scope = await entityScope(ctx);
  const already = await ctx.db.transaction().execute(async (trx) => {
    const row = await findToken(trx, id, { forUpdate: true });
    if (!row || (row.user_id !== actor.userId && !inScope(scope, row.owner_entity_id))) throw notFound();
    return !(await markRevoked(trx, id, now));
  });
  const row = await findToken(ctx.db, id);
  if (!row) throw notFound();
  return { view: presentToken(row, actor, now, true), already };
}
