import type { Db } from '../db/connect';
import { hashToken, randomToken } from '../http/tokens';

/**
 * Sign-up links' rows in server/test/tenancy.test.ts (issue 18): a link of the target's home and a new starter's
 * sign-up through it, pending approval; the cases calling every manager route with them (outsider: 404 and nothing
 * changes; insider without permission 3: 403), the lists, the GraphQL operations, and the public routes' exemption.
 */
export interface SignupLinkFixture {
  linkId: number;
  signupId: number;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
interface F {
  signupLinks: SignupLinkFixture;
  site: { id: number };
  role: { id: number };
}

export async function signupLinkFixture(
  db: Db,
  o: { siteId: number; roleId: number; canary: string },
): Promise<SignupLinkFixture> {
  const link = await db
    .insertInto('signup_links')
    .values({
      entity_id: o.siteId,
      role_id: o.roleId,
      start_date: '2030-01-06',
      token_hash: hashToken(randomToken(32)),
      expires_at: new Date(Date.now() + 14 * 86_400_000),
      uses: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const starter = await db
    .insertInto('users')
    .values({
      name: `${o.canary} Starter`,
      email: `${o.canary.toLowerCase()}-starter@example.test`,
      primary_entity_id: o.siteId,
      role_id: o.roleId,
      user_preferences: '{}',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const signup = await db
    .insertInto('signup_link_signups')
    .values({
      link_id: link.id,
      user_id: starter.id,
      name: `${o.canary} Starter`,
      email: `${o.canary.toLowerCase()}-starter@example.test`,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { linkId: link.id, signupId: signup.id };
}

export function signupLinkCases() {
  const scoped = (method: Method, route: string, url: (f: F) => string, body?: (f: F) => unknown) => ({
    method,
    route,
    url,
    ...(body ? { body } : {}),
    kind: 'scoped' as const,
  });
  const link = (f: F) => `/api/signup-links/${f.signupLinks.linkId}`;
  const signup = (f: F) => `/api/signup-links/signups/${f.signupLinks.signupId}`;
  return [
    scoped(
      'POST',
      '/api/signup-links',
      () => '/api/signup-links',
      (f) => ({ entity_id: f.site.id, role_id: f.role.id, start_date: '2030-01-06' }),
    ),
    scoped('GET', '/api/signup-links/:id', link),
    scoped('POST', '/api/signup-links/:id/revoke', (f) => `${link(f)}/revoke`),
    scoped('POST', '/api/signup-links/signups/:id/approve', (f) => `${signup(f)}/approve`),
    scoped('POST', '/api/signup-links/signups/:id/reject', (f) => `${signup(f)}/reject`),
  ];
}

/** The lists never show another organisation the target's links or new starters (the canary is in their names). */
export const signupLinkLists = (canary: string) => [
  {
    method: 'GET' as const,
    route: '/api/signup-links',
    url: () => '/api/signup-links?per_page=100&show=all',
    secrets: () => [canary],
    insider: 403 as const,
  },
  {
    method: 'GET' as const,
    route: '/api/signup-links/signups',
    url: () => '/api/signup-links/signups?per_page=100',
    secrets: () => [canary],
    insider: 403 as const,
  },
];

export const SIGNUP_LINK_TABLES = ['signup_links', 'signup_link_signups'] as const;

export const SIGNUP_LINK_EXEMPT: Record<string, string> = {
  'GET /api/signup-links/mine': 'the caller’s own sign-up only',
  'POST /api/signup-links/open': 'public (no login): the token is the only key; tested in src/signup-links/',
  'POST /api/signup-links/sign-up':
    'public (no login): the token is the only key; tested in src/signup-links/',
  'POST /api/signup-links/confirm':
    'public (no login): the confirm token mailed to the new starter is the only key; tested in src/signup-links/',
};

/** The manager's GraphQL operations with the target's ids answer as for missing ids. */
export const signupLinkGraphql = () => [
  {
    name: 'createSignUpLink',
    query:
      'mutation($e: Int!, $r: Int!) { createSignUpLink(input: { entity_id: $e, role_id: $r, start_date: "2030-01-06" }) { id } }',
    variables: (f: F) => ({ e: f.site.id, r: f.role.id }),
    missing: { e: 99999999, r: 99999999 },
  },
  {
    name: 'revokeSignUpLink',
    query: 'mutation($id: ID!) { revokeSignUpLink(id: $id) { id } }',
    variables: (f: F) => ({ id: String(f.signupLinks.linkId) }),
    missing: { id: '99999999' },
  },
  {
    name: 'approveSignUp',
    query: 'mutation($id: ID!) { approveSignUp(id: $id) { id } }',
    variables: (f: F) => ({ id: String(f.signupLinks.signupId) }),
    missing: { id: '99999999' },
  },
  {
    name: 'rejectSignUp',
    query: 'mutation($id: ID!) { rejectSignUp(id: $id) { id } }',
    variables: (f: F) => ({ id: String(f.signupLinks.signupId) }),
    missing: { id: '99999999' },
  },
];
