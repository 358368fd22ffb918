import { PERMISSIONS } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildType, buildUser, clientFor, snapshot } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const as = async (userId: number) => clientFor(h.app, h.db, userId);
const anon = (method: Method, url: string, payload?: object) => h.app.inject({ method, url, payload });
/** What the admin holds: it lacks 1 (add entity), so granting 1 is an escalation. */
const ADMIN = [21, 22, 45, 46, 70, 78];

/** The caller's effective permission ids, as the web app loads them (GET /auth/permissions). */
const effective = async (userId: number) =>
  ((await (await as(userId))('GET', '/api/auth/permissions')).json().data as { id: number }[]).map(
    (p) => p.id,
  );

/** An organisation with a site that allows only 21; a site user whose type holds 21 and 22. */
async function organisation() {
  const org = await buildEntity(h.db);
  const site = await buildEntity(h.db, { parentId: org.id, allowed: [21] });
  const admin = await buildUser(h.db, { entityId: org.id, permissions: ADMIN });
  const member = await buildUser(h.db, { entityId: site.id, permissions: [21, 22] });
  return { org, site, admin, member };
}

describe('GET /entity-permissions/{slug}/permissions', () => {
  it('answers 401, 422, 403 without 78, 404 to another organisation, then the catalogue with granted', async () => {
    const { org, site, admin } = await organisation();
    const url = `/api/entity-permissions/${site.slug}/permissions`;
    expect((await anon('GET', url)).statusCode).toBe(401);
    // The slug is the only input; an unknown one is 404 (an over-long one never reaches the route: 414).
    expect(
      (await (await as(admin.id))('GET', '/api/entity-permissions/no-such-entity/permissions')).statusCode,
    ).toBe(404);
    const clerk = await buildUser(h.db, { entityId: org.id, permissions: [70] });
    expect((await (await as(clerk.id))('GET', url)).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: ADMIN });
    expect((await (await as(outsider.id))('GET', url)).statusCode).toBe(404);
    const res = await (await as(admin.id))('GET', url);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toHaveLength(PERMISSIONS.length);
    expect(
      res
        .json()
        .data.filter((p: { granted: boolean }) => p.granted)
        .map((p: { id: number }) => p.id),
    ).toEqual([21]);
    expect(res.json().data[0]).toEqual({ ...PERMISSIONS[0], granted: false });
  });
});

describe('POST /entity-permissions and /entity-permissions/{slug}/delete', () => {
  it('guards: 401, 422, 403 without 70, 403 own entity, 403 escalation, 404 to another organisation', async () => {
    const { org, site, admin } = await organisation();
    expect(
      (await anon('POST', '/api/entity-permissions', { entity: site.slug, permission_ids: [22] })).statusCode,
    ).toBe(401);
    expect(
      (await anon('POST', `/api/entity-permissions/${site.slug}/delete`, { permission_ids: [21] }))
        .statusCode,
    ).toBe(401);
    const post = await as(admin.id);
    expect(
      (await post('POST', '/api/entity-permissions', { entity: site.slug, permission_ids: [] })).statusCode,
    ).toBe(422);
    const unknown = await post('POST', '/api/entity-permissions', {
      entity: site.slug,
      permission_ids: [22, 9999],
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.permission_ids).toEqual(['Unknown permission ids: 9999.']);
    expect(
      (await post('POST', `/api/entity-permissions/${site.slug}/delete`, { permission_ids: ['x'] }))
        .statusCode,
    ).toBe(422);

    const viewer = await buildUser(h.db, { entityId: org.id, permissions: [78] });
    expect(
      (
        await (
          await as(viewer.id)
        )('POST', '/api/entity-permissions', { entity: site.slug, permission_ids: [22] })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await (
          await as(viewer.id)
        )('POST', `/api/entity-permissions/${site.slug}/delete`, { permission_ids: [21] })
      ).statusCode,
    ).toBe(403);

    const outsider = await buildUser(h.db, { permissions: ADMIN });
    const before = await snapshot(h.db, 'entity_permissions');
    const own = await post('POST', '/api/entity-permissions', { entity: org.slug, permission_ids: [22] });
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe('You cannot change the permissions that apply to yourself.');
    expect(
      (await post('POST', `/api/entity-permissions/${org.slug}/delete`, { permission_ids: [22] })).statusCode,
    ).toBe(403);
    const escalate = await post('POST', '/api/entity-permissions', {
      entity: site.slug,
      permission_ids: [22, 1],
    });
    expect(escalate.statusCode).toBe(403);
    expect(escalate.json().message).toBe('You can only grant permissions you hold yourself.');
    expect(
      (
        await (
          await as(outsider.id)
        )('POST', '/api/entity-permissions', { entity: site.slug, permission_ids: [22] })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await (
          await as(outsider.id)
        )('POST', `/api/entity-permissions/${site.slug}/delete`, { permission_ids: [21] })
      ).statusCode,
    ).toBe(404);
    expect(await snapshot(h.db, 'entity_permissions')).toBe(before);
  });

  it('grants and revokes, and the site user’s effective permissions follow', async () => {
    const { site, admin, member } = await organisation();
    expect(await effective(member.id)).toEqual([21]);
    const granted = await (await as(admin.id))('POST', '/api/entity-permissions', {
      entity: site.slug,
      permission_ids: [22, 22, 21],
    });
    expect(granted.statusCode).toBe(200);
    expect(granted.json().message).toBe('Permission granted');
    expect(
      granted
        .json()
        .data.filter((p: { granted: boolean }) => p.granted)
        .map((p: { id: number }) => p.id),
    ).toEqual([21, 22]);
    expect(await effective(member.id)).toEqual([21, 22]);
    const revoked = await (await as(admin.id))('POST', `/api/entity-permissions/${site.slug}/delete`, {
      permission_ids: [21],
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().message).toBe('Permission revoked');
    expect(await effective(member.id)).toEqual([22]);
  });

  it('lets a super admin grant anything, even to their own entity', async () => {
    const { site } = await organisation();
    const root = await buildUser(h.db, { superAdmin: true, entityId: site.id });
    const res = await (await as(root.id))('POST', '/api/entity-permissions', {
      entity: site.slug,
      permission_ids: [1],
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('type permissions', () => {
  it('GET /type-permissions/type/{typeId}: 401, 422, 403 without 45/78, 404, then granted flags', async () => {
    const { org, admin, member } = await organisation();
    const url = `/api/type-permissions/type/${member.type.id}`;
    expect((await anon('GET', url)).statusCode).toBe(401);
    expect((await (await as(admin.id))('GET', '/api/type-permissions/type/abc')).statusCode).toBe(422);
    const clerk = await buildUser(h.db, { entityId: org.id, permissions: [46] });
    expect((await (await as(clerk.id))('GET', url)).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: ADMIN });
    expect((await (await as(outsider.id))('GET', url)).statusCode).toBe(404);
    const res = await (await as(admin.id))('GET', url);
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .data.filter((p: { granted: boolean }) => p.granted)
        .map((p: { id: number }) => p.id),
    ).toEqual([21, 22]);
    const seeEntity = await buildUser(h.db, { entityId: org.id, permissions: [78] });
    expect((await (await as(seeEntity.id))('GET', url)).statusCode).toBe(200);
  });

  it('POST grant and delete: 401, 422, 403 without 46, 403 own type, 403 escalation, 404 (nothing written)', async () => {
    const { org, admin, member } = await organisation();
    const grant = `/api/type-permissions/${member.type.id}`;
    const revoke = `${grant}/delete`;
    expect((await anon('POST', grant, { permission_ids: [45] })).statusCode).toBe(401);
    expect((await anon('POST', revoke, { permission_ids: [21] })).statusCode).toBe(401);
    const post = await as(admin.id);
    expect((await post('POST', grant, {})).statusCode).toBe(422);
    expect((await post('POST', grant, { permission_ids: [8] })).statusCode).toBe(422);
    expect((await post('POST', revoke, { permission_ids: [] })).statusCode).toBe(422);
    const viewer = await buildUser(h.db, { entityId: org.id, permissions: [45, 78] });
    expect((await (await as(viewer.id))('POST', grant, { permission_ids: [21] })).statusCode).toBe(403);
    expect((await (await as(viewer.id))('POST', revoke, { permission_ids: [21] })).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: ADMIN });
    const before = await snapshot(h.db, 'type_permissions');
    const ownType = await post('POST', `/api/type-permissions/${admin.type.id}`, { permission_ids: [21] });
    expect(ownType.statusCode).toBe(403);
    expect(
      (await post('POST', `/api/type-permissions/${admin.type.id}/delete`, { permission_ids: [21] }))
        .statusCode,
    ).toBe(403);
    expect((await post('POST', grant, { permission_ids: [1] })).statusCode).toBe(403);
    expect((await (await as(outsider.id))('POST', grant, { permission_ids: [45] })).statusCode).toBe(404);
    expect((await (await as(outsider.id))('POST', revoke, { permission_ids: [21] })).statusCode).toBe(404);
    expect(await snapshot(h.db, 'type_permissions')).toBe(before);
  });

  it('grants and revokes on a type, and its holders’ effective permissions follow', async () => {
    const org = await buildEntity(h.db);
    const admin = await buildUser(h.db, { entityId: org.id, permissions: ADMIN });
    const member = await buildUser(h.db, { entityId: org.id, permissions: [21] });
    const granted = await (await as(admin.id))('POST', `/api/type-permissions/${member.type.id}`, {
      permission_ids: [45, 78],
    });
    expect(granted.statusCode).toBe(200);
    expect(granted.json().message).toBe('Permission granted');
    expect(await effective(member.id)).toEqual([21, 45, 78]);
    const revoked = await (await as(admin.id))('POST', `/api/type-permissions/${member.type.id}/delete`, {
      permission_ids: [21, 78],
    });
    expect(revoked.json().message).toBe('Permission revoked');
    expect(
      revoked
        .json()
        .data.filter((p: { granted: boolean }) => p.granted)
        .map((p: { id: number }) => p.id),
    ).toEqual([45]);
    expect(await effective(member.id)).toEqual([45]);
  });

  it('reaches a type of another site only through acting-as with 19', async () => {
    const org = await buildEntity(h.db);
    const siteA = await buildEntity(h.db, { parentId: org.id });
    const siteB = await buildEntity(h.db, { parentId: org.id });
    const type = await buildType(h.db, siteB.id);
    const manager = await buildUser(h.db, { entityId: siteA.id, permissions: [45, 19] });
    const get = await as(manager.id);
    expect((await get('GET', `/api/type-permissions/type/${type.id}`)).statusCode).toBe(404);
    expect(
      (await get('GET', `/api/type-permissions/type/${type.id}?actingAs=${siteB.slug}`)).statusCode,
    ).toBe(200);
  });
});

describe('/permissions (per-user grants)', () => {
  it('GET without user_id is the catalogue for anyone signed in, optionally one category', async () => {
    expect((await anon('GET', '/api/permissions')).statusCode).toBe(401);
    const user = await buildUser(h.db, { permissions: [] });
    const all = await (await as(user.id))('GET', '/api/permissions');
    expect(all.statusCode).toBe(200);
    expect(all.json().data).toHaveLength(PERMISSIONS.length);
    const roles = await (await as(user.id))('GET', '/api/permissions?category=roles');
    expect(roles.json().data.map((p: { id: number }) => p.id)).toEqual([33, 34, 49, 54, 98]);
    expect((await (await as(user.id))('GET', '/api/permissions?category=nope')).statusCode).toBe(422);
  });

  it('GET ?user_id lists grants: 403 without 45, 404 to another organisation', async () => {
    const { org, admin, member } = await organisation();
    await h.db.insertInto('user_permissions').values({ user_id: member.id, permission_id: 22 }).execute();
    const clerk = await buildUser(h.db, { entityId: org.id, permissions: [21] });
    expect((await (await as(clerk.id))('GET', `/api/permissions?user_id=${member.id}`)).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: ADMIN });
    expect((await (await as(outsider.id))('GET', `/api/permissions?user_id=${member.id}`)).statusCode).toBe(
      404,
    );
    expect((await (await as(admin.id))('GET', '/api/permissions?user_id=abc')).statusCode).toBe(422);
    const res = await (await as(admin.id))('GET', `/api/permissions?user_id=${member.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      expect.objectContaining({
        user_id: member.id,
        permission_id: 22,
        permission: expect.objectContaining({ name: 'search entities' }),
      }),
    ]);
  });

  it('POST creates a grant: 401, 422, 403 without 46, 403 for oneself, 403 escalation, 404 (nothing written)', async () => {
    const { org, admin, member } = await organisation();
    expect(
      (await anon('POST', '/api/permissions', { user_id: member.id, permission_id: 21 })).statusCode,
    ).toBe(401);
    const post = await as(admin.id);
    expect((await post('POST', '/api/permissions', { user_id: member.id })).statusCode).toBe(422);
    const unknown = await post('POST', '/api/permissions', { user_id: member.id, permission_id: 8 });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.permission_id).toBeDefined();
    const viewer = await buildUser(h.db, { entityId: org.id, permissions: [45] });
    const before = await snapshot(h.db, 'user_permissions');
    expect(
      (await (await as(viewer.id))('POST', '/api/permissions', { user_id: member.id, permission_id: 21 }))
        .statusCode,
    ).toBe(403);
    const self = await post('POST', '/api/permissions', { user_id: admin.id, permission_id: 21 });
    expect(self.statusCode).toBe(403);
    const escalate = await post('POST', '/api/permissions', { user_id: member.id, permission_id: 1 });
    expect(escalate.statusCode).toBe(403);
    expect(escalate.json().message).toBe('You can only grant permissions you hold yourself.');
    const outsider = await buildUser(h.db, { permissions: ADMIN });
    expect(
      (await (await as(outsider.id))('POST', '/api/permissions', { user_id: member.id, permission_id: 21 }))
        .statusCode,
    ).toBe(404);
    expect(await snapshot(h.db, 'user_permissions')).toBe(before);
  });

  it('creates, reads, changes and deletes a grant; effective permissions follow', async () => {
    const org = await buildEntity(h.db);
    const admin = await buildUser(h.db, { entityId: org.id, permissions: ADMIN });
    const member = await buildUser(h.db, { entityId: org.id, permissions: [] });
    const call = await as(admin.id);
    const created = await call('POST', '/api/permissions', { user_id: member.id, permission_id: 21 });
    expect(created.statusCode).toBe(201);
    expect(created.json().message).toBe('User Permission has been created.');
    const id = created.json().data.id as number;
    expect(created.json().data).toMatchObject({ user_id: member.id, permission_id: 21 });
    expect(await effective(member.id)).toEqual([21]);
    const dup = await call('POST', '/api/permissions', { user_id: member.id, permission_id: 21 });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors.permission_id).toEqual(['The user already has this permission.']);

    expect((await call('GET', `/api/permissions/${id}`)).json().data).toMatchObject({
      id,
      permission_id: 21,
    });
    const updated = await call('PATCH', `/api/permissions/${id}`, { permission_id: 22 });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().message).toBe('User Permission has been updated.');
    expect(await effective(member.id)).toEqual([22]);
    const deleted = await call('DELETE', `/api/permissions/${id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().message).toBe('User Permission has been deleted.');
    expect(await effective(member.id)).toEqual([]);
    expect((await call('GET', `/api/permissions/${id}`)).statusCode).toBe(404);
  });

  it('GET, PATCH, DELETE /permissions/{id}: 401, 422, 403, 404 (nothing written)', async () => {
    const { org, admin, member } = await organisation();
    const grant = await h.db
      .insertInto('user_permissions')
      .values({ user_id: member.id, permission_id: 21 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const url = `/api/permissions/${grant.id}`;
    expect((await anon('GET', url)).statusCode).toBe(401);
    expect((await anon('PATCH', url, { permission_id: 22 })).statusCode).toBe(401);
    expect((await anon('DELETE', url)).statusCode).toBe(401);
    const call = await as(admin.id);
    expect((await call('GET', '/api/permissions/99999999999')).statusCode).toBe(422);
    expect((await call('PATCH', url, { permission_id: 'x' })).statusCode).toBe(422);
    expect((await call('DELETE', '/api/permissions/abc')).statusCode).toBe(422);
    const clerk = await buildUser(h.db, { entityId: org.id, permissions: [21] });
    expect((await (await as(clerk.id))('GET', url)).statusCode).toBe(403);
    const viewer = await buildUser(h.db, { entityId: org.id, permissions: [45] });
    expect((await (await as(viewer.id))('GET', url)).statusCode).toBe(200);
    const before = await snapshot(h.db, 'user_permissions');
    expect((await (await as(viewer.id))('PATCH', url, { permission_id: 22 })).statusCode).toBe(403);
    expect((await (await as(viewer.id))('DELETE', url)).statusCode).toBe(403);
    expect((await call('PATCH', url, { permission_id: 1 })).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: ADMIN });
    const foreign = await as(outsider.id);
    expect((await foreign('GET', url)).statusCode).toBe(404);
    expect((await foreign('PATCH', url, { permission_id: 22 })).statusCode).toBe(404);
    expect((await foreign('DELETE', url)).statusCode).toBe(404);
    expect(await snapshot(h.db, 'user_permissions')).toBe(before);
  });

  it('does not let a user change their own grants unless super admin', async () => {
    const org = await buildEntity(h.db);
    const admin = await buildUser(h.db, { entityId: org.id, permissions: ADMIN });
    const grant = await h.db
      .insertInto('user_permissions')
      .values({ user_id: admin.id, permission_id: 21 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const call = await as(admin.id);
    expect((await call('GET', `/api/permissions/${grant.id}`)).statusCode).toBe(200);
    expect((await call('PATCH', `/api/permissions/${grant.id}`, { permission_id: 22 })).statusCode).toBe(403);
    expect((await call('DELETE', `/api/permissions/${grant.id}`)).statusCode).toBe(403);
    const root = await buildUser(h.db, { superAdmin: true, entityId: org.id });
    const rootSelf = await (await as(root.id))('POST', '/api/permissions', {
      user_id: root.id,
      permission_id: 1,
    });
    expect(rootSelf.statusCode).toBe(201);
  });
});
