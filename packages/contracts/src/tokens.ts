import { z } from 'zod';
import { PageQuery } from './common';

/**
 * Personal access tokens (issue 18; permissions 101 add, 102 revoke, 103 view; route /personal-access-tokens).
 *
 * - A token belongs to its owner and carries **abilities**: permission ids the owner held when it was made. At
 *   request time its caller holds (owner's current permissions) ∩ (abilities), so a permission the owner loses leaves
 *   the token too; a super admin's token passes only the checks its abilities name (never "every check"). Which
 *   organisations it reaches is the owner's scope.
 * - Format `ccpat_` + 43 characters of random (32 bytes, base64url) + a 6-character checksum, so secret scanners can
 *   recognise one and check it is well formed without asking us. Stored only as a SHA-256 hash; the list shows the
 *   first characters (`token_prefix`). The secret is in the create answer only.
 * - Expiry is required: a date after today and at most the organisation's `pat_max_days` away (the level A
 *   organisation's value applies to its homes). The token ends at the end of that day (UTC).
 * - A request made with a personal access token can never create, list or revoke tokens (403): a leaked token cannot
 *   mint a longer-lived one nor hide itself.
 * - Revoked and expired tokens stay listed, marked.
 */
export const TokenPerm = { add: 101, revoke: 102, view: 103 } as const;

/** The recognisable start of every personal access token (what a secret scanner looks for). */
export const PAT_PREFIX = 'ccpat_';
/** How many characters of the token the list shows (the prefix and the start of the random part). */
export const PAT_VISIBLE_CHARS = 12;
/** At most this many live (not revoked, not expired) tokens per user. */
export const PAT_MAX_LIVE = 50;
/** A token whose expiry is this close is shown as "Expires soon". */
export const PAT_EXPIRES_SOON_DAYS = 7;

export const TokenMessages = {
  created: 'Token created. Copy it now: you will not see it again.',
  revoked: 'Token revoked.',
  notHeld: 'You can only give a token permissions you hold.',
  noAbilities: 'Choose at least one permission.',
  nameRequired: 'Enter a name for the token.',
  nameTooLong: 'The name must be 100 characters or fewer.',
  expiryRequired: 'Choose an expiry date.',
  expiryPast: 'Choose an expiry date after today.',
  expiryTooFar: (days: number) => `Choose an expiry date at most ${days} days from today.`,
  tooMany: `You have ${PAT_MAX_LIVE} active tokens, the most allowed. Revoke one you no longer use first.`,
  viaToken: 'Personal access tokens cannot be managed with a personal access token. Sign in to do this.',
  alreadyRevoked: 'This token was already revoked.',
} as const;

export const TOKEN_STATUSES = ['active', 'expires_soon', 'expired', 'revoked'] as const;
export type TokenStatus = (typeof TOKEN_STATUSES)[number];

const isoDate = z
  .string({ error: TokenMessages.expiryRequired })
  .regex(/^\d{4}-\d{2}-\d{2}$/, TokenMessages.expiryRequired);

export const CreateTokenBody = z.object({
  name: z
    .string({ error: TokenMessages.nameRequired })
    .trim()
    .min(1, TokenMessages.nameRequired)
    .max(100, TokenMessages.nameTooLong),
  abilities: z
    .array(z.number({ error: 'Permissions are given by their number.' }).int().positive().max(100000), {
      error: TokenMessages.noAbilities,
    })
    .min(1, TokenMessages.noAbilities)
    .max(500),
  /** The last day the token works (YYYY-MM-DD; it ends at the end of that day, UTC). */
  expires_at: isoDate,
});
export type CreateTokenBody = z.input<typeof CreateTokenBody>;

export const TokenListQuery = PageQuery.extend({
  /** 'organisation' (permission 103): also the tokens of users in the caller's scope. Default: own tokens. */
  scope: z.enum(['own', 'organisation']).default('own'),
  status: z.enum(TOKEN_STATUSES).optional(),
});
export type TokenListQuery = z.input<typeof TokenListQuery>;

export const TokenAbility = z.object({ id: z.number(), name: z.string() });

export const TokenView = z.object({
  id: z.number(),
  name: z.string(),
  token_prefix: z.string(),
  abilities: z.array(TokenAbility),
  created_at: z.string(),
  expires_at: z.string(),
  last_used_at: z.string().nullable(),
  last_used_ip: z.string().nullable(),
  revoked_at: z.string().nullable(),
  status: z.enum(TOKEN_STATUSES),
  owner: z.object({ id: z.number(), uuid: z.string(), name: z.string(), email: z.string() }),
  /** Whether the caller may revoke it (own with 102, or any in scope with 102), and it is not revoked yet. */
  can_revoke: z.boolean(),
});
export type TokenView = z.infer<typeof TokenView>;

/** The create answer: the token as listed, plus its secret, shown this once. */
export const CreatedTokenView = TokenView.extend({ plain_text_token: z.string() });
export type CreatedTokenView = z.infer<typeof CreatedTokenView>;

/** What the create dialog needs: the permissions the caller may give a token, and the longest expiry. */
export const TokenOptionsView = z.object({
  abilities: z.array(
    z.object({ id: z.number(), name: z.string(), description: z.string(), category: z.string() }),
  ),
  max_days: z.number(),
  max_date: z.string(),
  live: z.number(),
  max_live: z.number(),
});
export type TokenOptionsView = z.infer<typeof TokenOptionsView>;

export function tokenStatus(t: { revoked_at: string | null; expires_at: string }, now: Date): TokenStatus {
  if (t.revoked_at) return 'revoked';
  const end = new Date(t.expires_at).getTime();
  if (end <= now.getTime()) return 'expired';
  if (end - now.getTime() <= PAT_EXPIRES_SOON_DAYS * 86_400_000) return 'expires_soon';
  return 'active';
}
