import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { makeLink, signUp, signupWorld } from './fixtures';

/** The manager's operations over GraphQL call the same services as REST (graphql/signup-links.ts). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const gql = async (headers: Record<string, string>, query: string, variables: Record<string, unknown> = {}) =>
  (await h.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } })).json();

it('creates, lists and revokes links, lists and approves sign-ups; 403 without permission 3; 422 for bad input', async () => {
  const w = await signupWorld(h);
  const headers = await bearer(h.db, w.manager.id);
  const created = await gql(
    headers,
    `mutation($e: Int!, $r: Int!) { createSignUpLink(input: { entity_id: $e, role_id: $r, start_date: "2030-01-06", max_uses: 2 }) { id url status max_uses } }`,
    { e: w.home.id, r: w.role.id },
  );
  expect(created.errors).toBeUndefined();
  expect(created.data.createSignUpLink).toMatchObject({ status: 'active', max_uses: 2 });
  expect(created.data.createSignUpLink.url).toMatch(/\/signUpOnMonday\?token=/);
  const bad = await gql(
    headers,
    `mutation($e: Int!, $r: Int!) { createSignUpLink(input: { entity_id: $e, role_id: $r, start_date: "soon" }) { id } }`,
    { e: w.home.id, r: w.role.id },
  );
  expect(bad.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  const list = await gql(
    headers,
    '{ signUpLinks(first: 10) { data { id uses pending } paginatorInfo { total } } }',
  );
  expect(list.data.signUpLinks.paginatorInfo.total).toBe(1);

  const other = await makeLink(w);
  await signUp(h, other.token);
  const pending = await gql(headers, '{ signUps { data { id status name } } }');
  expect(pending.data.signUps.data).toHaveLength(1);
  const approved = await gql(headers, 'mutation($id: ID!) { approveSignUp(id: $id) { status } }', {
    id: pending.data.signUps.data[0].id,
  });
  expect(approved.data.approveSignUp.status).toBe('approved');
  const revoked = await gql(headers, 'mutation($id: ID!) { revokeSignUpLink(id: $id) { status } }', {
    id: created.data.createSignUpLink.id,
  });
  expect(revoked.data.revokeSignUpLink.status).toBe('revoked');

  const learner = await bearer(h.db, (await buildUser(h.db, { entityId: w.home.id })).id);
  const refused = await gql(learner, '{ signUpLinks { data { id } } }');
  expect(refused.errors[0].extensions.code).toBe('FORBIDDEN');
});
