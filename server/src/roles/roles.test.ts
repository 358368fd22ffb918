import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildRole, buildUser, clientFor, snapshot } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const as = async (userId: number) => clientFor(h.app, h.db, userId);
const anon = (method: Method, url: string, payload?: object) => h.app.inject({ method, url, payload });
const ROLE_ADMIN = [33, 34, 49, 54, 19];

/** A level A organisation with a role, a level B site with its own role, and an admin at the top. */
async function organisation() {
  const org = await buildEntity(h.db);
  const site = await buildEntity(h.db, { parentId: org.id });
  const orgRole = await buildRole(h.db, org.id, { name: 'Care Assistant', inspectable: true });
  const siteRole = await buildRole(h.db, site.id, { name: 'Cook', inspectable: false });
  const admin = await buildUser(h.db, { entityId: org.id, permissions: ROLE_ADMIN });
  const carers = [
    await buildUser(h.db, { entityId: site.id, roleId: orgRole.id, name: 'Carer One' }),
    await buildUser(h.db, { entityId: org.id, roleId: orgRole.id, name: 'Carer Two' }),
  ];
  return { org, site, orgRole, siteRole, admin, carers };
}

describe('GET /entities/{slug}/roles', () => {
  it('answers 401, 422, 403 without 49/98 and 404 to another organisation', async () => {
    const { org, admin } = await organisation();
    expect((await anon('GET', `/api/entities/${org.slug}/roles`)).statusCode).toBe(401);
    expect(
      (await (await as(admin.id))('GET', `/api/entities/${org.slug}/roles?inspectable=2`)).statusCode,
    ).toBe(422);
    const clerk = await buildUser(h.db, { entityId: org.id, permissions: [21, 33] });
    expect((await (await as(clerk.id))('GET', `/api/entities/${org.slug}/roles`)).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: ROLE_ADMIN });
    expect((await (await as(outsider.id))('GET', `/api/entities/${org.slug}/roles`)).statusCode).toBe(404);
    expect((await (await as(outsider.id))('GET', '/api/entities/no-such-entity/roles')).statusCode).toBe(404);
  });

  it('lists own and inherited roles with users_count, filtered by inspectable and search, paged', async () => {
    const { org, site, orgRole, siteRole, admin } = await organisation();
    const get = await as(admin.id);
    const res = await get('GET', `/api/entities/${site.slug}/roles`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      {
        id: orgRole.id,
        entity_id: org.id,
        entity: { id: org.id, slug: org.slug, name: org.name },
        name: 'Care Assistant',
        inspectable: true,
        inherited: true,
        // counted within the listed site only
        users_count: 1,
      },
      {
        id: siteRole.id,
        entity_id: site.id,
        entity: { id: site.id, slug: site.slug, name: site.name },
        name: 'Cook',
        inspectable: false,
        inherited: false,
        users_count: 0,
      },
    ]);
    const top = await get('GET', `/api/entities/${org.slug}/roles`);
    expect(top.json().data).toEqual([
      expect.objectContaining({ id: orgRole.id, inherited: false, users_count: 2 }),
    ]);
    const names = async (q: string) =>
      (await get('GET', `/api/entities/${site.slug}/roles?${q}`))
        .json()
        .data.map((r: { name: string }) => r.name);
    expect(await names('inspectable=1')).toEqual(['Care Assistant']);
    expect(await names('inspectable=0')).toEqual(['Cook']);
    expect(await names('inspectable=all')).toEqual(['Care Assistant', 'Cook']);
    expect(await names('search=coo')).toEqual(['Cook']);
    const paged = await get('GET', `/api/entities/${site.slug}/roles?per_page=1&page=2`);
    expect(paged.json().data.map((r: { name: string }) => r.name)).toEqual(['Cook']);
    expect(paged.json().meta).toMatchObject({ total: 2, last_page: 2 });
  });

  it('lets 98 (read-only roles) list, and acting-as reach a sibling site only with 19', async () => {
    const { org, site } = await organisation();
    const sibling = await buildEntity(h.db, { parentId: org.id });
    await buildRole(h.db, sibling.id, { name: 'Sibling Role' });
    const viewer = await buildUser(h.db, { entityId: site.id, permissions: [98, 19] });
    const get = await as(viewer.id);
    expect((await get('GET', `/api/entities/${site.slug}/roles`)).statusCode).toBe(200);
    expect((await get('GET', `/api/entities/${sibling.slug}/roles`)).statusCode).toBe(404);
    const acting = await get('GET', `/api/entities/${sibling.slug}/roles?actingAs=${sibling.slug}`);
    expect(acting.statusCode).toBe(200);
    expect(acting.json().data.map((r: { name: string }) => r.name)).toContain('Sibling Role');
    const no19 = await buildUser(h.db, { entityId: site.id, permissions: [98] });
    expect(
      (await (await as(no19.id))('GET', `/api/entities/${sibling.slug}/roles?actingAs=${sibling.slug}`))
        .statusCode,
    ).toBe(403);
  });
});

describe('POST /entities/{slug}/roles', () => {
  it('answers 401, 422, 403 without 33 and 404 to another organisation (nothing written)', async () => {
    const { org, admin } = await organisation();
    const url = `/api/entities/${org.slug}/roles`;
    expect((await anon('POST', url, { name: 'Nurse' })).statusCode).toBe(401);
    const post = await as(admin.id);
    const empty = await post('POST', url, { name: ' ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.name).toEqual(['The name field is required.']);
    const dup = await post('POST', url, { name: 'care ASSISTANT' });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors.name).toEqual(['The name has already been taken.']);
    const viewer = await buildUser(h.db, { entityId: org.id, permissions: [49] });
    expect((await (await as(viewer.id))('POST', url, { name: 'Nurse' })).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: ROLE_ADMIN });
    const before = await snapshot(h.db, 'entity_roles');
    expect((await (await as(outsider.id))('POST', url, { name: 'Nurse' })).statusCode).toBe(404);
    expect(await snapshot(h.db, 'entity_roles')).toBe(before);
  });

  it('creates a role', async () => {
    const { site, admin } = await organisation();
    // The parent's name is free in the child: names are unique per entity.
    const res = await (await as(admin.id))('POST', `/api/entities/${site.slug}/roles`, {
      name: 'Care Assistant',
      inspectable: true,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('Job Role has been created.');
    expect(res.json().data).toMatchObject({
      entity_id: site.id,
      name: 'Care Assistant',
      inspectable: true,
      inherited: false,
      users_count: 0,
    });
    const row = await h.db
      .selectFrom('entity_roles')
      .selectAll()
      .where('id', '=', res.json().data.id)
      .executeTakeFirst();
    expect(row).toMatchObject({ entity_id: site.id, name: 'Care Assistant', inspectable: true });
  });
});

describe('GET /entities/{slug}/roles/{id}', () => {
  it('answers 401, 422, 403, 404 and the role (inherited from the parent)', async () => {
    const { org, site, orgRole, admin } = await organisation();
    const url = `/api/entities/${site.slug}/roles/${orgRole.id}`;
    expect((await anon('GET', url)).statusCode).toBe(401);
    expect((await (await as(admin.id))('GET', `/api/entities/${site.slug}/roles/abc`)).statusCode).toBe(422);
    const clerk = await buildUser(h.db, { entityId: org.id, permissions: [21] });
    expect((await (await as(clerk.id))('GET', url)).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: ROLE_ADMIN });
    expect((await (await as(outsider.id))('GET', url)).statusCode).toBe(404);
    // A role of another organisation is not reachable through one's own entity either.
    const foreign = await buildRole(h.db, (await buildEntity(h.db)).id);
    expect(
      (await (await as(admin.id))('GET', `/api/entities/${org.slug}/roles/${foreign.id}`)).statusCode,
    ).toBe(404);
    const res = await (await as(admin.id))('GET', url);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: orgRole.id, inherited: true, users_count: 1 });
  });
});

describe('PATCH /entities/{slug}/roles/{id}', () => {
  it('answers 401, 422, 403 without 34, 403 from a child, 404 to another organisation', async () => {
    const { org, site, orgRole, siteRole, admin } = await organisation();
    const url = `/api/entities/${org.slug}/roles/${orgRole.id}`;
    expect((await anon('PATCH', url, { name: 'X' })).statusCode).toBe(401);
    const patch = await as(admin.id);
    expect((await patch('PATCH', url, { name: '' })).statusCode).toBe(422);
    await buildRole(h.db, org.id, { name: 'Nurse' });
    const dup = await patch('PATCH', url, { name: 'NURSE' });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors.name).toEqual(['The name has already been taken.']);
    const viewer = await buildUser(h.db, { entityId: org.id, permissions: [49] });
    expect((await (await as(viewer.id))('PATCH', url, { name: 'X' })).statusCode).toBe(403);
    const inherited = await patch('PATCH', `/api/entities/${site.slug}/roles/${orgRole.id}`, { name: 'X' });
    expect(inherited.statusCode).toBe(403);
    expect(inherited.json().message).toMatch(/parent organisation/);
    const outsider = await buildUser(h.db, { permissions: ROLE_ADMIN });
    const before = await snapshot(h.db, 'entity_roles');
    expect(
      (
        await (
          await as(outsider.id)
        )('PATCH', `/api/entities/${site.slug}/roles/${siteRole.id}`, { name: 'X' })
      ).statusCode,
    ).toBe(404);
    expect(await snapshot(h.db, 'entity_roles')).toBe(before);
  });

  it('renames a role (case change of its own name allowed) and flips inspectable', async () => {
    const { org, orgRole, admin } = await organisation();
    const res = await (await as(admin.id))('PATCH', `/api/entities/${org.slug}/roles/${orgRole.id}`, {
      name: 'CARE ASSISTANT',
      inspectable: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Job Role has been updated.');
    expect(res.json().data).toMatchObject({ name: 'CARE ASSISTANT', inspectable: false, users_count: 2 });
  });
});

describe('DELETE /entities/{slug}/roles/{id}', () => {
  it('answers 401, 422, 403 without 54, 404 to another organisation, 409 while held', async () => {
    const { org, site, orgRole, siteRole, admin } = await organisation();
    const url = `/api/entities/${site.slug}/roles/${siteRole.id}`;
    expect((await anon('DELETE', url)).statusCode).toBe(401);
    expect((await (await as(admin.id))('DELETE', `/api/entities/${site.slug}/roles/0`)).statusCode).toBe(422);
    const editor = await buildUser(h.db, { entityId: org.id, permissions: [33, 34, 49] });
    expect((await (await as(editor.id))('DELETE', url)).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: ROLE_ADMIN });
    const before = await snapshot(h.db, 'entity_roles');
    expect((await (await as(outsider.id))('DELETE', url)).statusCode).toBe(404);
    expect(await snapshot(h.db, 'entity_roles')).toBe(before);
    const held = await (await as(admin.id))('DELETE', `/api/entities/${org.slug}/roles/${orgRole.id}`);
    expect(held.statusCode).toBe(409);
    expect(held.json().message).toBe(
      'This job role cannot be deleted: 2 users still hold it. Move them to another job role first.',
    );
    expect(held.json().data).toEqual({ users_count: 2 });
    expect(await snapshot(h.db, 'entity_roles')).toBe(before);
  });

  it('deletes an unused role', async () => {
    const { site, siteRole, admin } = await organisation();
    const res = await (await as(admin.id))('DELETE', `/api/entities/${site.slug}/roles/${siteRole.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Job Role has been deleted.');
    expect(
      await h.db.selectFrom('entity_roles').select('id').where('id', '=', siteRole.id).executeTakeFirst(),
    ).toBeUndefined();
  });
});

describe('GET /roles/stats', () => {
  it('answers 401, 422, 403 and counts users per role across the scope only', async () => {
    const { org, site, orgRole, siteRole, admin } = await organisation();
    expect((await anon('GET', '/api/roles/stats')).statusCode).toBe(401);
    expect((await (await as(admin.id))('GET', '/api/roles/stats?per_page=0')).statusCode).toBe(422);
    const clerk = await buildUser(h.db, { entityId: org.id, permissions: [21] });
    expect((await (await as(clerk.id))('GET', '/api/roles/stats')).statusCode).toBe(403);
    const res = await (await as(admin.id))('GET', '/api/roles/stats');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((r: { id: number; users_count: number }) => [r.id, r.users_count])).toEqual([
      [orgRole.id, 2],
      [siteRole.id, 0],
    ]);
    // A site manager sees the inherited role, counted within the site only.
    const siteViewer = await buildUser(h.db, { entityId: site.id, permissions: [49] });
    const narrow = await (await as(siteViewer.id))('GET', '/api/roles/stats');
    expect(narrow.json().data.map((r: { id: number; users_count: number }) => [r.id, r.users_count])).toEqual(
      [
        [orgRole.id, 1],
        [siteRole.id, 0],
      ],
    );
    // Another organisation's admin sees none of these.
    const outsider = await buildUser(h.db, { permissions: ROLE_ADMIN });
    const theirs = await (await as(outsider.id))('GET', '/api/roles/stats');
    expect(theirs.json().data.map((r: { id: number }) => r.id)).not.toContain(orgRole.id);
  });
});

describe('GET /roles/{id}/details', () => {
  it('answers 401, 422, 403, 404 and the role with its first holders', async () => {
    const { org, orgRole, admin, carers } = await organisation();
    const url = `/api/roles/${orgRole.id}/details`;
    expect((await anon('GET', url)).statusCode).toBe(401);
    expect((await (await as(admin.id))('GET', '/api/roles/x/details')).statusCode).toBe(422);
    const clerk = await buildUser(h.db, { entityId: org.id, permissions: [21] });
    expect((await (await as(clerk.id))('GET', url)).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: ROLE_ADMIN });
    expect((await (await as(outsider.id))('GET', url)).statusCode).toBe(404);
    for (let i = 0; i < 20; i++)
      await buildUser(h.db, { entityId: org.id, roleId: orgRole.id, name: `Zed ${i}` });
    const res = await (await as(admin.id))('GET', url);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      id: orgRole.id,
      name: 'Care Assistant',
      entity: { id: org.id },
      users_count: 22,
    });
    expect(data.users).toHaveLength(20);
    expect(data.users.slice(0, 2).map((u: { id: number }) => u.id)).toEqual(carers.map((c) => c.id));
    expect(data.users[0]).not.toHaveProperty('email');
  });
});
