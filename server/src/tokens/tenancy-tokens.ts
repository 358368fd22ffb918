import type { Db } from '../db/connect';
import { mintToken } from './format';

/**
 * Personal access tokens' rows in server/test/tenancy.test.ts (issue 18): the victim's token (an outsider holding
 * every permission cannot revoke it: 404; an insider without 102: 403; the organisation list shows it to no
 * outsider), and `personalTokenHeaders`, with which tenancy.test.ts calls every route as an insider who holds every
 * permission through a token without abilities: it must get exactly what the permission-less insider gets.
 */
export interface TokensFixture {
  id: number;
  prefix: string;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
interface F {
  tokens: TokensFixture;
}

/** Bearer headers of a new personal access token of the user with these abilities (permission ids). */
export async function personalTokenHeaders(
  db: Db,
  userId: number,
  abilities: number[],
): Promise<Record<string, string>> {
  const minted = mintToken();
  await db
    .insertInto('personal_access_tokens')
    .values({
      user_id: userId,
      name: 'tenancy',
      token_hash: minted.hash,
      token_prefix: minted.prefix,
      kind: 'personal',
      abilities: JSON.stringify(abilities.map(String)),
      expires_at: new Date(Date.now() + 30 * 86_400_000),
    })
    .execute();
  return { authorization: `Bearer ${minted.plainText}` };
}

export async function tokensFixture(db: Db, o: { victimId: number }): Promise<TokensFixture> {
  const minted = mintToken();
  const row = await db
    .insertInto('personal_access_tokens')
    .values({
      user_id: o.victimId,
      name: 'Victim integration',
      token_hash: minted.hash,
      token_prefix: minted.prefix,
      kind: 'personal',
      abilities: '["21"]',
      expires_at: new Date(Date.now() + 30 * 86_400_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, prefix: minted.prefix };
}

export function tokenCases(): { method: Method; route: string; url: (f: F) => string; kind: 'scoped' }[] {
  return [
    {
      method: 'DELETE',
      route: '/api/personal-access-tokens/:id',
      url: (f) => `/api/personal-access-tokens/${f.tokens.id}`,
      kind: 'scoped',
    },
  ];
}

export const tokenLists = () => [
  {
    method: 'GET' as const,
    route: '/api/personal-access-tokens',
    url: () => '/api/personal-access-tokens?scope=organisation&per_page=100',
    secrets: (f: F) => [f.tokens.prefix, `"id":${f.tokens.id},`],
    insider: 403 as const,
  },
];

export const TOKEN_EXEMPT: Record<string, string> = {
  'POST /api/personal-access-tokens': "the caller's own token, with abilities only from what they hold",
  'GET /api/personal-access-tokens/options': "the caller's own permissions and organisation's maximum",
};
