/**
 * Issue 11 findings 2 and 3 as they were reproduced, on the demo organisation: the home manager (manager@demo.test)
 * created an account with the Administrator type (201, 45 permissions the manager lacks), and, acting as the group,
 * changed a group-level administrator's e-mail (200). Both are refused now; a learner is still theirs to add.
 * Issue 29 §4: the same with a group-level user of the manager's own type (the privilege rule let that through).
 */
import { ACTING_AS_HEADER } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { seedDemo } from '../demo/seed';
import { ORGANISATION_OUT_OF_REACH, TYPE_ABOVE_YOU, USER_ABOVE_YOU } from './privilege';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await seedDemo(h.db);
}, 300_000);
afterAll(async () => h?.close());

const idOf = async (email: string) =>
  (await h.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
const groupType = async (name: string) =>
  (
    await h.db
      .selectFrom('entity_types as t')
      .innerJoin('entities as e', 'e.id', 't.entity_id')
      .select('t.id')
      .where('e.slug', '=', 'meadowbrook')
      .where('t.name', '=', name)
      .executeTakeFirstOrThrow()
  ).id;

/**
 * A user at the group (Meadowbrook) made by the super admin, and the home manager's headers acting as the group: the
 * group's users are visible to them that way.
 */
async function groupUserSeenByHomeManager(user: {
  name: string;
  email: string;
  type: string;
  password: string;
}) {
  const superAdmin = await clientFor(h.app, h.db, await idOf('admin@demo.test'));
  const group = await h.db
    .selectFrom('entities')
    .select('id')
    .where('slug', '=', 'meadowbrook')
    .executeTakeFirstOrThrow();
  const created = await superAdmin('POST', '/api/users', {
    name: user.name,
    email: user.email,
    primary_entity_id: group.id,
    type_id: await groupType(user.type),
    password: user.password,
  });
  expect(created.statusCode, created.body).toBe(201);
  const headers = {
    ...(await bearer(h.db, await idOf('manager@demo.test'))),
    [ACTING_AS_HEADER]: 'meadowbrook',
  };
  return { id: created.json().data.id as number, headers };
}

describe('the demo home manager', () => {
  it('cannot create an Administrator, and can still add a Learner', async () => {
    const as = await clientFor(h.app, h.db, await idOf('manager@demo.test'));
    const admin = await as('POST', '/api/users', {
      name: 'Mallory',
      email: 'mallory@demo.test',
      type_id: await groupType('Administrator'),
    });
    expect(admin.statusCode).toBe(422);
    expect(admin.json().errors.type_id).toEqual([TYPE_ABOVE_YOU]);
    const learner = await as('POST', '/api/users', {
      name: 'Lee Newstarter',
      email: 'lee.newstarter@demo.test',
      type_id: await groupType('Learner'),
    });
    expect(learner.statusCode, learner.body).toBe(201);
  });

  it('acting as the group, cannot change a group-level administrator’s e-mail', async () => {
    const { id, headers } = await groupUserSeenByHomeManager({
      name: 'Gwen Group',
      email: 'gwen.group@demo.test',
      type: 'Administrator',
      password: 'Group-Admin-Password-9',
    });
    const res = await h.app.inject({
      method: 'PATCH',
      url: `/api/users/${id}`,
      headers,
      payload: { email: 'attacker@example.test' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(USER_ABOVE_YOU);
    const row = await h.db
      .selectFrom('users')
      .select(['email', 'pending_email'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ email: 'gwen.group@demo.test', pending_email: null });
  });

  it('acting as the group, cannot take over a group-level user of their own type (issue 29 §4)', async () => {
    const { id, headers } = await groupUserSeenByHomeManager({
      name: 'Morgan Group',
      email: 'morgan.group@demo.test',
      type: 'Manager',
      password: 'Group-Manager-Password-9',
    });
    const patch = await h.app.inject({
      method: 'PATCH',
      url: `/api/users/${id}`,
      headers,
      payload: { email: 'attacker@example.test' },
    });
    expect(patch.statusCode).toBe(403);
    expect(patch.json().message).toBe(ORGANISATION_OUT_OF_REACH);
    const welcome = await h.app.inject({
      method: 'POST',
      url: `/api/users/${id}/send-welcome-email`,
      headers,
    });
    expect(welcome.statusCode).toBe(403);
    const row = await h.db
      .selectFrom('users')
      .select(['email', 'pending_email'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ email: 'morgan.group@demo.test', pending_email: null });
  });
});
