import { ACTING_AS_HEADER, Messages, PERMISSIONS } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildEntity,
  buildRole,
  buildType,
  buildUser,
  clientFor,
  snapshot,
} from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { consumeUserToken } from '../auth/user-tokens';
import {
  ORGANISATION_ABOVE_YOU,
  ORGANISATION_OUT_OF_REACH,
  TYPE_ABOVE_YOU,
  USER_ABOVE_YOU,
} from '../permissions/privilege';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const as = async (userId: number) => clientFor(h.app, h.db, userId);
const anon = (method: Method, url: string, payload?: object) => h.app.inject({ method, url, payload });

/** An organisation (level A) with two sites (level B), a manager at the top and people in each site. */
async function organisation(managerPermissions = [3, 4, 5, 18, 19, 21, 23, 45, 99, 127]) {
  const org = await buildEntity(h.db);
  const siteA = await buildEntity(h.db, { parentId: org.id });
  const siteB = await buildEntity(h.db, { parentId: org.id });
  const manager = await buildUser(h.db, {
    entityId: org.id,
    permissions: managerPermissions,
    name: 'Aaron Manager',
  });
  const alice = await buildUser(h.db, { entityId: siteA.id, name: 'Alice Carer', isTrainer: true });
  const bob = await buildUser(h.db, { entityId: siteB.id, name: 'Bob Nurse' });
  return { org, siteA, siteB, manager, alice, bob };
}

const outbox = (to: string) =>
  h.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).orderBy('id').execute();
const emailOf = async (id: number) =>
  (await h.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email;
/** The token of the /verify-email/ link in a mail's text, as a person clicking it would follow it. */
const verifyTokenIn = (text: string | null | undefined) =>
  decodeURIComponent(/\/verify-email\/([^\s?]+)/.exec(text ?? '')?.[1] ?? '');

describe('GET /users (spec 1 §7)', () => {
  it('answers 401 anonymous, 422 bad input, 403 without permission 21', async () => {
    expect((await anon('GET', '/api/users')).statusCode).toBe(401);
    const { manager, alice } = await organisation();
    const bad = await (await as(manager.id))('GET', '/api/users?per_page=1000&is_trainer=maybe');
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(expect.arrayContaining(['per_page', 'is_trainer']));
    expect((await (await as(alice.id))('GET', '/api/users')).statusCode).toBe(403);
  });

  it('answers 404 for an entity_id of another organisation, and never lists its users', async () => {
    const { siteA, alice } = await organisation();
    const outsider = await buildUser(h.db, { permissions: [21, 23] });
    const get = await as(outsider.id);
    expect((await get('GET', `/api/users?entity_id=${siteA.id}`)).statusCode).toBe(404);
    const deep = await get('GET', '/api/users?deep=1&per_page=100');
    expect(deep.statusCode).toBe(200);
    expect(deep.json().data.map((u: { id: number }) => u.id)).not.toContain(alice.id);
  });

  it('lists the base entity by default and the subtree when deep, sorted by name, paged', async () => {
    const { org, manager, alice, bob } = await organisation();
    const get = await as(manager.id);
    const shallow = await get('GET', '/api/users');
    expect(shallow.json().data.map((u: { id: number }) => u.id)).toEqual([manager.id]);
    const deep = await get('GET', '/api/users?deep=1');
    expect(deep.json().data.map((u: { name: string }) => u.name)).toEqual([
      'Aaron Manager',
      'Alice Carer',
      'Bob Nurse',
    ]);
    const page2 = await get('GET', '/api/users?deep=true&per_page=2&page=2');
    expect(page2.json().data.map((u: { id: number }) => u.id)).toEqual([bob.id]);
    expect(page2.json().meta).toMatchObject({
      current_page: 2,
      last_page: 2,
      per_page: 2,
      total: 3,
      from: 3,
      to: 3,
    });
    expect(page2.json().links.prev).toContain('page=1');
    const row = deep.json().data.find((u: { id: number }) => u.id === alice.id);
    expect(row).toMatchObject({ email: alice.email, is_trainer: true, type: { id: alice.type.id } });
    expect(row.primary_entity.id).not.toBe(org.id);
  });

  it('filters by search, is_trainer 0/1, type_id, role_id and entity_id', async () => {
    const { siteA, manager, alice, bob } = await organisation();
    const role = await buildRole(h.db, siteA.id);
    await h.db.updateTable('users').set({ role_id: role.id }).where('id', '=', alice.id).execute();
    const get = await as(manager.id);
    const ids = async (q: string) =>
      (await get('GET', `/api/users?deep=1&${q}`)).json().data.map((u: { id: number }) => u.id);
    expect(await ids('search=alice')).toEqual([alice.id]);
    expect(await ids(`search=${bob.email.slice(0, 13)}`)).toEqual([bob.id]);
    expect(await ids('search=%25')).toEqual([]);
    expect(await ids('is_trainer=1')).toEqual([alice.id]);
    expect(await ids('is_trainer=0')).toEqual([manager.id, bob.id]);
    expect(await ids(`type_id=${bob.type.id}`)).toEqual([bob.id]);
    expect(await ids(`role_id=${role.id}`)).toEqual([alice.id]);
    expect(await ids(`entity_id=${siteA.id}`)).toEqual([alice.id]);
  });

  it('shows e-mail addresses only with permission 23 (and does not search them without it)', async () => {
    const { org, alice } = await organisation();
    const viewer = await buildUser(h.db, { entityId: org.id, permissions: [21] });
    const res = await (await as(viewer.id))('GET', '/api/users?deep=1&per_page=100');
    const row = res.json().data.find((u: { id: number }) => u.id === alice.id);
    expect(row.email).toBeNull();
    const own = res.json().data.find((u: { id: number }) => u.id === viewer.id);
    expect(own.email).toBe(viewer.email);
    const search = await (await as(viewer.id))('GET', `/api/users?deep=1&search=${alice.email}`);
    expect(search.json().data).toEqual([]);
  });

  it('acts as another site with permission 19; 403 without it; 404 outside the organisation', async () => {
    const { siteA, siteB, alice, bob } = await organisation();
    const siteManager = await buildUser(h.db, { entityId: siteA.id, permissions: [21, 19] });
    const res = await (await as(siteManager.id))('GET', `/api/users?actingAs=${siteB.slug}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((u: { id: number }) => u.id)).toEqual([bob.id]);
    const without = await buildUser(h.db, { entityId: siteA.id, permissions: [21] });
    expect((await (await as(without.id))('GET', `/api/users?actingAs=${siteB.slug}`)).statusCode).toBe(403);
    // Narrowing to one's own subtree needs no 19.
    const narrow = await (await as(without.id))('GET', `/api/users?actingAs=${siteA.slug}`);
    expect(narrow.json().data.map((u: { id: number }) => u.id)).toEqual(
      expect.arrayContaining([alice.id, without.id]),
    );
    const other = await buildEntity(h.db);
    expect((await (await as(siteManager.id))('GET', `/api/users?actingAs=${other.slug}`)).statusCode).toBe(
      404,
    );
  });

  it('lets a super admin list everyone deep', async () => {
    const { alice } = await organisation();
    const admin = await buildUser(h.db, { superAdmin: true });
    const res = await (await as(admin.id))(
      'GET',
      `/api/users?deep=1&search=${encodeURIComponent(alice.email)}`,
    );
    expect(res.json().data.map((u: { id: number }) => u.id)).toEqual([alice.id]);
  });
});

describe('GET /users/{id}', () => {
  it('answers 401, 422, 403, 404 and the profile by id and by uuid', async () => {
    const { org, manager, alice } = await organisation();
    expect((await anon('GET', `/api/users/${alice.id}`)).statusCode).toBe(401);
    const get = await as(manager.id);
    expect((await get('GET', `/api/users/${'x'.repeat(65)}`)).statusCode).toBe(422);
    expect((await get('GET', '/api/users/not-a-ref')).statusCode).toBe(404);
    expect((await get('GET', '/api/users/99999999999999')).statusCode).toBe(404);
    const peer = await buildUser(h.db, { entityId: org.id, permissions: [127] });
    expect((await (await as(peer.id))('GET', `/api/users/${alice.id}`)).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: [21, 23] });
    expect((await (await as(outsider.id))('GET', `/api/users/${alice.uuid}`)).statusCode).toBe(404);

    const byUuid = await get('GET', `/api/users/${alice.uuid}`);
    expect(byUuid.statusCode).toBe(200);
    expect(byUuid.json().data).toMatchObject({
      id: alice.id,
      uuid: alice.uuid,
      email: alice.email,
      is_trainer: true,
      email_verified: true,
      last_login_at: null,
      a_entity: { id: org.id, slug: org.slug },
      type: { id: alice.type.id, name: alice.type.name },
      role: null,
    });
    expect(byUuid.json().data).not.toHaveProperty('user_preferences');
    expect((await get('GET', `/api/users/${alice.id}`)).json().data.uuid).toBe(alice.uuid);
  });

  it('always shows a user themselves, with their preferences', async () => {
    const loner = await buildUser(h.db, { permissions: [] });
    const res = await (await as(loner.id))('GET', `/api/users/${loner.uuid}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user_preferences).toEqual({});
    expect(res.json().data.email).toBe(loner.email);
  });
});

describe('POST /users', () => {
  it('answers 401, 422 on bad input, 403 without 3 and 404 for an entity of another organisation', async () => {
    const { org, manager, alice } = await organisation();
    expect((await anon('POST', '/api/users', { name: 'X', email: 'x@example.test' })).statusCode).toBe(401);
    const post = await as(manager.id);
    const bad = await post('POST', '/api/users', { name: '', email: 'nope' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(expect.arrayContaining(['name', 'email']));
    const taken = await post('POST', '/api/users', { name: 'Dup', email: alice.email.toUpperCase() });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.email).toEqual(['The email has already been taken.']);
    const weak = await post('POST', '/api/users', {
      name: 'Weak',
      email: 'weak@example.test',
      password: 'abc',
    });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors.password).toEqual(['The password must be at least 12 characters.']);
    const foreignRole = await buildRole(h.db, (await buildEntity(h.db)).id);
    const badRole = await post('POST', '/api/users', {
      name: 'R',
      email: 'r@example.test',
      role_id: foreignRole.id,
    });
    expect(badRole.statusCode).toBe(422);
    expect(badRole.json().errors.role_id).toBeDefined();

    const clerk = await buildUser(h.db, { entityId: org.id, permissions: [21] });
    expect(
      (await (await as(clerk.id))('POST', '/api/users', { name: 'N', email: 'n1@example.test' })).statusCode,
    ).toBe(403);
    const noTrainer = await buildUser(h.db, { entityId: org.id, permissions: [3] });
    const trainer = await (await as(noTrainer.id))('POST', '/api/users', {
      name: 'T',
      email: 't1@example.test',
      is_trainer: true,
    });
    expect(trainer.statusCode).toBe(403);

    const outsider = await buildUser(h.db, { permissions: [3, 99] });
    const before = await snapshot(h.db, 'users');
    const res = await (await as(outsider.id))('POST', '/api/users', {
      name: 'Sneaky',
      email: 'sneaky@example.test',
      primary_entity_id: org.id,
    });
    expect(res.statusCode).toBe(404);
    expect(await snapshot(h.db, 'users')).toBe(before);
  });

  it("answers another organisation's address like any taken one, within a budget per caller (issue 11 §8)", async () => {
    const mine = await organisation();
    const theirs = await organisation();
    const post = await as(mine.manager.id);
    const create = (email: string) => post('POST', '/api/users', { name: 'Probe', email });
    // Their address and one of ours: the same answer, naming no organisation.
    const ownDuplicate = await create(mine.alice.email);
    const elsewhere = await create(theirs.bob.email);
    expect(elsewhere.statusCode).toBe(422);
    expect(elsewhere.json()).toEqual(ownDuplicate.json());
    // Ten taken-address answers an hour; then every POST /users of this caller waits, a new address included,
    // so probing addresses in bulk is not possible and the refusal itself tells nothing.
    for (let i = 0; i < 8; i++) expect((await create(theirs.alice.email)).statusCode).toBe(422);
    const held = await create(`brand-new-${Date.now()}@example.test`);
    expect(held.statusCode).toBe(429);
    expect(held.json().message).toMatch(/^Too many attempts\. Please try again in \d+ seconds\.$/);
    expect((await create(theirs.manager.email)).statusCode).toBe(429);
    // Another administrator is not held back by this one's budget.
    const colleague = await buildUser(h.db, { entityId: mine.org.id, permissions: [3] });
    const fresh = await (await as(colleague.id))('POST', '/api/users', {
      name: 'Fresh',
      email: `fresh-${Date.now()}@example.test`,
      send_welcome_email: false,
    });
    expect(fresh.statusCode).toBe(201);
  });

  it('creates a user in the base entity with an inherited role, and e-mails a working set-password link', async () => {
    const { org, siteA, manager } = await organisation();
    const role = await buildRole(h.db, org.id);
    const type = await buildType(h.db, siteA.id);
    const res = await (await as(manager.id))('POST', '/api/users', {
      name: 'New Starter',
      email: 'New.Starter@Example.test',
      primary_entity_id: siteA.id,
      role_id: role.id,
      type_id: type.id,
      is_trainer: true,
      start_date: '2024-05-01',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('User has been created.');
    const data = res.json().data;
    expect(data).toMatchObject({
      name: 'New Starter',
      email: 'new.starter@example.test',
      role: { id: role.id },
      type: { id: type.id },
      is_trainer: true,
      start_date: '2024-05-01',
      primary_entity: { id: siteA.id },
      a_entity: { id: org.id },
      email_verified: false,
    });
    const stored = await h.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', data.id)
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toBeNull();
    const mails = await outbox('new.starter@example.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.template).toBe('welcome');
    const link = /http:\/\/localhost:3000\/reset-password\/([A-Za-z0-9_-]+)\?email=([^\s"]+)/.exec(
      mails[0]?.text_body ?? '',
    );
    expect(link).not.toBeNull();
    expect(decodeURIComponent(link?.[2] ?? '')).toBe('new.starter@example.test');
    const consumed = await consumeUserToken(h.db, link?.[1] ?? '', 'password_reset', new Date());
    expect(consumed).toEqual({ user_id: data.id, email: 'new.starter@example.test' });
  });

  it('defaults to the acting-as entity; with a password sends no e-mail and the user can log in', async () => {
    const { siteB, manager } = await organisation();
    const res = await (await as(manager.id))('POST', `/api/users?actingAs=${siteB.slug}`, {
      name: 'With Password',
      email: 'with.password@example.test',
      password: 'Str0ng-Enough-9',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.primary_entity.id).toBe(siteB.id);
    expect(await outbox('with.password@example.test')).toHaveLength(0);
    const login = await h.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'with.password@example.test', password: 'Str0ng-Enough-9', device_name: 'test' },
    });
    expect(login.statusCode).toBe(200);
    const quiet = await (await as(manager.id))('POST', '/api/users', {
      name: 'Quiet',
      email: 'quiet@example.test',
      send_welcome_email: false,
    });
    expect(quiet.statusCode).toBe(201);
    expect(await outbox('quiet@example.test')).toHaveLength(0);
  });
});

describe('PATCH /users/{id}', () => {
  it('answers 401, 422, 403 without 18, and 404 for another organisation', async () => {
    const { org, manager, alice, bob } = await organisation();
    expect((await anon('PATCH', `/api/users/${alice.id}`, { name: 'X' })).statusCode).toBe(401);
    const patch = await as(manager.id);
    expect((await patch('PATCH', `/api/users/${alice.id}`, { email: 'bad' })).statusCode).toBe(422);
    const dup = await patch('PATCH', `/api/users/${alice.id}`, { email: bob.email });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors.email).toEqual(['The email has already been taken.']);
    const roleOnly = await buildUser(h.db, { entityId: org.id, permissions: [4] });
    expect(
      (await (await as(roleOnly.id))('PATCH', `/api/users/${alice.id}`, { name: 'Renamed' })).statusCode,
    ).toBe(403);
    const outsider = await buildUser(h.db, { permissions: [4, 5, 18, 99] });
    const before = await snapshot(h.db, 'users');
    expect(
      (await (await as(outsider.id))('PATCH', `/api/users/${alice.uuid}`, { name: 'Hacked' })).statusCode,
    ).toBe(404);
    expect(await snapshot(h.db, 'users')).toBe(before);
  });

  it('updates another user; role needs 4, type needs 5, trainer needs 99; role must fit the entity', async () => {
    const { org, siteA, siteB, manager, alice } = await organisation();
    const role = await buildRole(h.db, siteA.id);
    const type = await buildType(h.db, org.id);
    const res = await (await as(manager.id))('PATCH', `/api/users/${alice.uuid}`, {
      name: 'Alice Senior',
      email: 'alice.senior@example.test',
      role_id: role.id,
      type_id: type.id,
      is_trainer: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('User has been updated.');
    expect(res.json().data).toMatchObject({
      name: 'Alice Senior',
      // The address waits for the link mailed to it (issue 11 §3).
      email: alice.email,
      pending_email: 'alice.senior@example.test',
      email_verified: true,
      role: { id: role.id },
      type: { id: type.id },
      is_trainer: false,
    });
    // Moving to another site keeps a role of the old site: 422 until a fitting role is given.
    const move = await (await as(manager.id))('PATCH', `/api/users/${alice.id}`, {
      primary_entity_id: siteB.id,
    });
    expect(move.statusCode).toBe(422);
    expect(move.json().errors.role_id).toBeDefined();
    const moved = await (await as(manager.id))('PATCH', `/api/users/${alice.id}`, {
      primary_entity_id: siteB.id,
      role_id: null,
    });
    expect(moved.json().data.primary_entity.id).toBe(siteB.id);

    const editor = await buildUser(h.db, { entityId: org.id, permissions: [18] });
    const patch = await as(editor.id);
    expect((await patch('PATCH', `/api/users/${alice.id}`, { role_id: role.id })).statusCode).toBe(403);
    expect((await patch('PATCH', `/api/users/${alice.id}`, { type_id: alice.type.id })).statusCode).toBe(403);
    expect((await patch('PATCH', `/api/users/${alice.id}`, { is_trainer: true })).statusCode).toBe(403);
    // Sending unchanged values back needs no extra permission.
    const same = await patch('PATCH', `/api/users/${alice.id}`, {
      type_id: type.id,
      is_trainer: false,
      name: 'A',
    });
    expect(same.statusCode).toBe(200);
    const away = await buildEntity(h.db);
    expect((await patch('PATCH', `/api/users/${alice.id}`, { primary_entity_id: away.id })).statusCode).toBe(
      404,
    );
  });

  it('lets a user change their own name with 127 but never their own role or type (no self-escalation)', async () => {
    const { org, manager } = await organisation();
    const role = await buildRole(h.db, org.id);
    const own = await as(manager.id);
    expect((await own('PATCH', `/api/users/${manager.id}`, { role_id: role.id })).statusCode).toBe(403);
    const adminType = await buildType(h.db, org.id, { permissions: [1, 2, 70] });
    const escalate = await own('PATCH', `/api/users/${manager.id}`, { type_id: adminType.id });
    expect(escalate.statusCode).toBe(403);
    expect(escalate.json().message).toBe('You cannot change your own job role, user type or organisation.');
    expect((await own('PATCH', `/api/users/${manager.id}`, { email: 'me@example.test' })).statusCode).toBe(
      403,
    );
    const self = await own('PATCH', `/api/users/${manager.id}`, {
      name: 'Aaron M.',
      user_preferences: { theme: 'dark' },
    });
    expect(self.statusCode).toBe(200);
    expect(self.json().data).toMatchObject({ name: 'Aaron M.', user_preferences: { theme: 'dark' } });
    const learner = await buildUser(h.db, { entityId: org.id, permissions: [] });
    expect(
      (await (await as(learner.id))('PATCH', `/api/users/${learner.id}`, { name: 'Me' })).statusCode,
    ).toBe(403);
    const admin = await buildUser(h.db, { superAdmin: true, entityId: org.id });
    const adminSelf = await (await as(admin.id))('PATCH', `/api/users/${admin.id}`, { role_id: role.id });
    expect(adminSelf.statusCode).toBe(200);
  });

  it('does not let a non-super-admin change a super admin', async () => {
    const { org, manager } = await organisation();
    const admin = await buildUser(h.db, { superAdmin: true, entityId: org.id });
    expect((await (await as(manager.id))('PATCH', `/api/users/${admin.id}`, { name: 'X' })).statusCode).toBe(
      403,
    );
  });
});

describe('POST /users/{id}/send-welcome-email', () => {
  it('answers 401, 422, 403, 404 and sends a new link', async () => {
    const { org, manager, alice } = await organisation();
    expect((await anon('POST', `/api/users/${alice.id}/send-welcome-email`)).statusCode).toBe(401);
    const post = await as(manager.id);
    expect((await post('POST', `/api/users/${'9'.repeat(70)}/send-welcome-email`)).statusCode).toBe(422);
    const clerk = await buildUser(h.db, { entityId: org.id, permissions: [21] });
    expect((await (await as(clerk.id))('POST', `/api/users/${alice.id}/send-welcome-email`)).statusCode).toBe(
      403,
    );
    const outsider = await buildUser(h.db, { permissions: [3, 18] });
    expect(
      (await (await as(outsider.id))('POST', `/api/users/${alice.id}/send-welcome-email`)).statusCode,
    ).toBe(404);
    expect(await outbox(alice.email)).toHaveLength(0);
    const res = await post('POST', `/api/users/${alice.uuid}/send-welcome-email`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Welcome e-mail has been sent.');
    const mails = await outbox(alice.email);
    expect(mails).toHaveLength(1);
    const token = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mails[0]?.text_body ?? '')?.[1] ?? '';
    expect(await consumeUserToken(h.db, token, 'password_reset', new Date())).toMatchObject({
      user_id: alice.id,
    });
  });
});

describe('GET /users/{id}/permissions', () => {
  it('answers 401, 422, 403, 404 and the effective permissions with their sources', async () => {
    const org = await buildEntity(h.db, { allowed: [3, 21, 45, 46, 70] });
    const manager = await buildUser(h.db, { entityId: org.id, permissions: [45] });
    const alice = await buildUser(h.db, { entityId: org.id, permissions: [3, 21, 99] });
    await h.db
      .insertInto('user_permissions')
      .values([
        { user_id: alice.id, permission_id: 21 },
        { user_id: alice.id, permission_id: 70 },
      ])
      .execute();
    expect((await anon('GET', `/api/users/${alice.id}/permissions`)).statusCode).toBe(401);
    expect((await (await as(manager.id))('GET', `/api/users/${'x'.repeat(65)}/permissions`)).statusCode).toBe(
      422,
    );
    const peer = await buildUser(h.db, { entityId: org.id, permissions: [21] });
    expect((await (await as(peer.id))('GET', `/api/users/${alice.id}/permissions`)).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: [45] });
    expect((await (await as(outsider.id))('GET', `/api/users/${alice.id}/permissions`)).statusCode).toBe(404);

    const res = await (await as(manager.id))('GET', `/api/users/${alice.uuid}/permissions`);
    expect(res.statusCode).toBe(200);
    // 99 is the type's but the entity does not allow it.
    expect(res.json().data.map((p: { id: number; sources: string[] }) => [p.id, p.sources])).toEqual([
      [3, ['type']],
      [21, ['type', 'user']],
      [70, ['user']],
    ]);
    expect(res.json().data[0]).toMatchObject({ name: 'add user', category: 'users' });
    const self = await (await as(alice.id))('GET', `/api/users/${alice.id}/permissions`);
    expect(self.statusCode).toBe(200);
    const admin = await buildUser(h.db, { superAdmin: true, entityId: org.id });
    const all = await (await as(manager.id))('GET', `/api/users/${admin.id}/permissions`);
    expect(all.json().data.length).toBe(PERMISSIONS.length);
    expect(all.json().data[0].sources).toEqual(['super_admin']);
  });
});

/**
 * Issue 11 finding 2: a manager could create (POST) or make (PATCH type_id) accounts holding permissions the manager
 * lacks, the type checked only for belonging to the organisation.
 */
describe('issue 11: nobody gives more than they hold', () => {
  it('POST /users refuses a type that gives permissions the caller lacks (422 on type_id, nothing written)', async () => {
    const { org, manager } = await organisation();
    const admin = await buildType(h.db, org.id, { permissions: PERMISSIONS.map((p) => p.id) });
    const before = await snapshot(h.db, 'users');
    const res = await (await as(manager.id))('POST', '/api/users', {
      name: 'Mallory',
      email: 'mallory@example.test',
      type_id: admin.id,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.type_id).toEqual([TYPE_ABOVE_YOU]);
    expect(await snapshot(h.db, 'users')).toBe(before);
    // A type within what the manager holds is fine.
    const learner = await buildType(h.db, org.id, { permissions: [127] });
    const ok = await (await as(manager.id))('POST', '/api/users', {
      name: 'Lena',
      email: 'lena@example.test',
      type_id: learner.id,
    });
    expect(ok.statusCode).toBe(201);
  });

  it('PATCH /users/{id} refuses such a type, and a move to an organisation where the type gives more', async () => {
    const { org, siteA, manager, alice } = await organisation();
    const admin = await buildType(h.db, org.id, { permissions: PERMISSIONS.map((p) => p.id) });
    const before = await snapshot(h.db, 'users');
    const res = await (await as(manager.id))('PATCH', `/api/users/${alice.id}`, { type_id: admin.id });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.type_id).toEqual([TYPE_ABOVE_YOU]);
    expect(await snapshot(h.db, 'users')).toBe(before);
    // Alice's type gives 1 (add entity), which her site does not allow; another site does.
    const restricted = await buildEntity(h.db, { parentId: org.id, allowed: [127] });
    const wide = await buildType(h.db, org.id, { permissions: [1, 127] });
    const carl = await buildUser(h.db, { entityId: restricted.id });
    await h.db.updateTable('users').set({ type_id: wide.id }).where('id', '=', carl.id).execute();
    const move = await (await as(manager.id))('PATCH', `/api/users/${carl.id}`, {
      primary_entity_id: siteA.id,
    });
    expect(move.statusCode).toBe(422);
    expect(move.json().errors.primary_entity_id).toEqual([ORGANISATION_ABOVE_YOU]);
  });
});

/**
 * Issue 11 finding 3: with acting-as, a manager changed the e-mail of a group-level administrator (200); a reset link
 * then went to the new address, the victim's sessions lived on and the old address was never told.
 */
describe('issue 11: nobody takes over an account above them', () => {
  it('refuses every change to a user who holds more than the caller (403, nothing written)', async () => {
    const { org, manager } = await organisation();
    const groupAdmin = await buildUser(h.db, {
      entityId: org.id,
      permissions: PERMISSIONS.map((p) => p.id),
      name: 'Gwen Admin',
    });
    const before = await snapshot(h.db, 'users');
    const patch = await as(manager.id);
    for (const body of [{ email: 'attacker@example.test' }, { name: 'X' }, { is_trainer: true }]) {
      const res = await patch('PATCH', `/api/users/${groupAdmin.id}`, body);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(USER_ABOVE_YOU);
    }
    expect((await patch('POST', `/api/users/${groupAdmin.id}/send-welcome-email`)).statusCode).toBe(403);
    expect(await snapshot(h.db, 'users')).toBe(before);
    expect(await outbox('attacker@example.test')).toHaveLength(0);
  });

  it('an e-mail change waits for the new address AND the old one (issue 29 §4), then ends the other sessions', async () => {
    const { manager, alice } = await organisation();
    const aliceHeaders = await bearer(h.db, alice.id);
    const res = await (await as(manager.id))('PATCH', `/api/users/${alice.id}`, {
      email: 'alice.new@example.test',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ email: alice.email, pending_email: 'alice.new@example.test' });
    // Still signed in, the address unchanged, and a reset asked for now would go to the old address.
    expect(await emailOf(alice.id)).toBe(alice.email);
    expect(
      (await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: aliceHeaders })).statusCode,
    ).toBe(200);
    const [confirm] = await outbox('alice.new@example.test');
    expect(confirm?.template).toBe('confirm_email_change');
    // The old address is asked to agree, not only told.
    const approve = (await outbox(alice.email)).find((m) => m.template === 'approve_email_change');
    expect(approve?.text_body).toContain('alice.new@example.test');

    // The new address alone (what an administrator who typed their own mailbox holds) changes nothing.
    const fromNew = await anon('POST', '/api/auth/verify-email', {
      token: verifyTokenIn(confirm?.text_body),
    });
    expect(fromNew.statusCode).toBe(200);
    expect(fromNew.json().message).toBe(Messages.emailChangeAwaitsOldAddress);
    expect(await emailOf(alice.id)).toBe(alice.email);
    expect(
      (await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: aliceHeaders })).statusCode,
    ).toBe(200);
    // A link works once.
    expect(
      (await anon('POST', '/api/auth/verify-email', { token: verifyTokenIn(confirm?.text_body) })).statusCode,
    ).toBe(422);

    const fromOld = await anon('POST', '/api/auth/verify-email', {
      token: verifyTokenIn(approve?.text_body),
    });
    expect(fromOld.statusCode).toBe(200);
    expect(fromOld.json().message).toBe(Messages.emailChangeApplied);
    const after = await h.db
      .selectFrom('users')
      .select(['email', 'pending_email', 'email_verified_at'])
      .where('id', '=', alice.id)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({ email: 'alice.new@example.test', pending_email: null });
    expect(after.email_verified_at).not.toBeNull();
    expect(
      (await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: aliceHeaders })).statusCode,
    ).toBe(401);
    expect((await outbox(alice.email)).map((m) => m.template)).toContain('email_changed');
  });
});

/**
 * Issue 29 §4: a home manager, acting as the group (permission 19), reached a group-level manager of their own user
 * type. Holding the same permissions, the privilege rule let them: they changed the address to their own mailbox,
 * confirmed it from there and reset the password. The address (and a set-your-password link) of a user above one's
 * own organisation is out of reach now, and a change by anyone else needs the old address to agree.
 */
describe('issue 29 §4: nobody takes over an account above their own organisation', () => {
  /** A group with a home; a group manager, and a home manager of the same type who may act as the group. */
  async function groupAndHome() {
    const { org, siteA } = await organisation();
    const groupManager = await buildUser(h.db, {
      entityId: org.id,
      permissions: [3, 18, 19, 21, 23, 127],
      name: 'Greta Group',
    });
    const homeManager = await buildUser(h.db, { entityId: siteA.id, name: 'Mallory Home' });
    await h.db
      .updateTable('users')
      .set({ type_id: groupManager.type_id })
      .where('id', '=', homeManager.id)
      .execute();
    return { org, siteA, groupManager, homeManager };
  }

  it("refuses the issue's sequence: the group user's e-mail and set-password link, acting as the group", async () => {
    const { org, siteA, groupManager, homeManager } = await groupAndHome();
    const mailbox = 'mallory.takeover@example.test';
    const headers = { ...(await bearer(h.db, homeManager.id)), [ACTING_AS_HEADER]: org.slug };
    const call = (method: Method, url: string, payload?: object) =>
      h.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    // Acting as the group, the home manager sees the group's manager, who holds nothing they lack.
    expect((await call('GET', `/api/users/${groupManager.id}`)).statusCode).toBe(200);

    const before = await snapshot(h.db, 'users');
    const patch = await call('PATCH', `/api/users/${groupManager.id}`, { email: mailbox });
    expect(patch.statusCode).toBe(403);
    expect(patch.json().message).toBe(ORGANISATION_OUT_OF_REACH);
    const welcome = await call('POST', `/api/users/${groupManager.id}/send-welcome-email`);
    expect(welcome.statusCode).toBe(403);
    expect(welcome.json().message).toBe(ORGANISATION_OUT_OF_REACH);
    // GraphQL's updateUser is the same service.
    const gql = await call('POST', '/api/graphql', {
      query: 'mutation ($input: UserInput!) { upsertUser(input: $input) { id } }',
      variables: { input: { id: String(groupManager.id), email: mailbox } },
    });
    expect(gql.json().errors?.[0]?.message).toBe(ORGANISATION_OUT_OF_REACH);
    // Not acting as the group, the user is out of scope: the same 404 as a missing one.
    const plain = await clientFor(h.app, h.db, homeManager.id);
    expect((await plain('PATCH', `/api/users/${groupManager.id}`, { email: mailbox })).statusCode).toBe(404);

    expect(await snapshot(h.db, 'users')).toBe(before);
    expect(await outbox(mailbox)).toHaveLength(0);
    const links = await h.db
      .selectFrom('user_tokens')
      .select('purpose')
      .where('user_id', '=', groupManager.id)
      .execute();
    expect(links).toEqual([]);

    // Their own home's people are still theirs to change (with the person's agreement, below).
    const carer = await buildUser(h.db, { entityId: siteA.id });
    const own = await call('PATCH', `/api/users/${carer.id}`, {
      email: `carer-new-${carer.id}@example.test`,
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().data.pending_email).toBe(`carer-new-${carer.id}@example.test`);
  });

  it("a group manager still changes a home user's e-mail, confirmed from the old address and then the new", async () => {
    const { siteA, groupManager } = await groupAndHome();
    const carer = await buildUser(h.db, { entityId: siteA.id, name: 'Carl Carer' });
    const newEmail = `carl-${carer.id}@new.example.test`;
    const res = await (await as(groupManager.id))('PATCH', `/api/users/${carer.uuid}`, { email: newEmail });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.pending_email).toBe(newEmail);

    const approve = (await outbox(carer.email)).find((m) => m.template === 'approve_email_change');
    const fromOld = await anon('POST', '/api/auth/verify-email', {
      token: verifyTokenIn(approve?.text_body),
    });
    expect(fromOld.statusCode).toBe(200);
    expect(fromOld.json().message).toBe(Messages.emailChangeAwaitsNewAddress);
    expect(await emailOf(carer.id)).toBe(carer.email);

    const [confirm] = await outbox(newEmail);
    const fromNew = await anon('POST', '/api/auth/verify-email', {
      token: verifyTokenIn(confirm?.text_body),
    });
    expect(fromNew.statusCode).toBe(200);
    expect(fromNew.json().message).toBe(Messages.emailChangeConfirmed);
    expect(await emailOf(carer.id)).toBe(newEmail);
  });

  it('both links followed at the same moment apply the change once', async () => {
    const { siteA, groupManager } = await groupAndHome();
    const carer = await buildUser(h.db, { entityId: siteA.id });
    const newEmail = `both-${carer.id}@example.test`;
    expect(
      (await (await as(groupManager.id))('PATCH', `/api/users/${carer.id}`, { email: newEmail })).statusCode,
    ).toBe(200);
    const approve = (await outbox(carer.email)).find((m) => m.template === 'approve_email_change');
    const [confirm] = await outbox(newEmail);
    const answers = await Promise.all(
      [approve, confirm].map((mail) =>
        anon('POST', '/api/auth/verify-email', { token: verifyTokenIn(mail?.text_body) }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    // One of them waited for the other, which then applied the change.
    const waiting: string[] = [Messages.emailChangeAwaitsOldAddress, Messages.emailChangeAwaitsNewAddress];
    expect(answers.filter((a) => waiting.includes(a.json().message))).toHaveLength(1);
    expect(await emailOf(carer.id)).toBe(newEmail);
    expect(
      await outbox(carer.email).then((mails) => mails.filter((m) => m.template === 'email_changed')),
    ).toHaveLength(1);
  });

  it('a newer change kills the links of the earlier one, on both sides', async () => {
    const { siteA, groupManager } = await groupAndHome();
    const carer = await buildUser(h.db, { entityId: siteA.id });
    const patch = await as(groupManager.id);
    const first = `first-${carer.id}@example.test`;
    expect((await patch('PATCH', `/api/users/${carer.id}`, { email: first })).statusCode).toBe(200);
    const oldApprove = (await outbox(carer.email)).find((m) => m.template === 'approve_email_change');
    const [oldConfirm] = await outbox(first);
    expect(
      (await patch('PATCH', `/api/users/${carer.id}`, { email: `second-${carer.id}@example.test` }))
        .statusCode,
    ).toBe(200);
    for (const mail of [oldConfirm, oldApprove])
      expect(
        (await anon('POST', '/api/auth/verify-email', { token: verifyTokenIn(mail?.text_body) })).statusCode,
      ).toBe(422);
    expect(await emailOf(carer.id)).toBe(carer.email);
  });
});
