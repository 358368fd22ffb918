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
const TYPE_ADMIN = [31, 32, 50, 55, 19];

/**
 * A level A organisation with a 'Manager' type held by its admin, a level B site with its own 'Learner' type
 * held by one learner. (buildUser gives every user a fresh type; these users are moved onto the named ones.)
 */
async function organisation() {
  const org = await buildEntity(h.db);
  const site = await buildEntity(h.db, { parentId: org.id });
  const orgType = await buildType(h.db, org.id, { name: 'Manager', permissions: TYPE_ADMIN });
  const siteType = await buildType(h.db, site.id, { name: 'Learner' });
  const admin = await buildUser(h.db, { entityId: org.id, permissions: TYPE_ADMIN });
  const learner = await buildUser(h.db, { entityId: site.id, name: 'Lena Learner' });
  await h.db.updateTable('users').set({ type_id: orgType.id }).where('id', '=', admin.id).execute();
  await h.db.updateTable('users').set({ type_id: siteType.id }).where('id', '=', learner.id).execute();
  // The factories' throw-away types would clutter the lists: remove them.
  await h.db.deleteFrom('entity_types').where('id', 'in', [admin.type.id, learner.type.id]).execute();
  return { org, site, orgType, siteType, admin, learner };
}

describe('GET /entities/{slug}/types', () => {
  it('answers 401, 422, 403 without 50, 404 to another organisation', async () => {
    const { org, admin } = await organisation();
    expect((await anon('GET', `/api/entities/${org.slug}/types`)).statusCode).toBe(401);
    expect((await (await as(admin.id))('GET', `/api/entities/${org.slug}/types?page=0`)).statusCode).toBe(
      422,
    );
    const roleViewer = await buildUser(h.db, { entityId: org.id, permissions: [49, 98] });
    expect((await (await as(roleViewer.id))('GET', `/api/entities/${org.slug}/types`)).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: TYPE_ADMIN });
    expect((await (await as(outsider.id))('GET', `/api/entities/${org.slug}/types`)).statusCode).toBe(404);
  });

  it('lists own and inherited types with users_count', async () => {
    const { org, site, orgType, siteType, admin } = await organisation();
    const res = await (await as(admin.id))('GET', `/api/entities/${site.slug}/types`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      {
        id: siteType.id,
        entity_id: site.id,
        entity: { id: site.id, slug: site.slug, name: site.name },
        name: 'Learner',
        inherited: false,
        users_count: 1,
      },
      {
        id: orgType.id,
        entity_id: org.id,
        entity: { id: org.id, slug: org.slug, name: org.name },
        name: 'Manager',
        inherited: true,
        users_count: 0,
      },
    ]);
    const top = await (await as(admin.id))('GET', `/api/entities/${org.slug}/types?search=man`);
    expect(top.json().data).toEqual([expect.objectContaining({ id: orgType.id, users_count: 1 })]);
  });
});

describe('POST /entities/{slug}/types', () => {
  it('answers 401, 422, 403 without 31, 404 to another organisation, and creates', async () => {
    const { org, admin } = await organisation();
    const url = `/api/entities/${org.slug}/types`;
    expect((await anon('POST', url, { name: 'Trainer' })).statusCode).toBe(401);
    const post = await as(admin.id);
    expect((await post('POST', url, {})).statusCode).toBe(422);
    const dup = await post('POST', url, { name: 'manager' });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors.name).toEqual(['The name has already been taken.']);
    const viewer = await buildUser(h.db, { entityId: org.id, permissions: [50] });
    expect((await (await as(viewer.id))('POST', url, { name: 'Trainer' })).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: TYPE_ADMIN });
    const before = await snapshot(h.db, 'entity_types');
    expect((await (await as(outsider.id))('POST', url, { name: 'Trainer' })).statusCode).toBe(404);
    expect(await snapshot(h.db, 'entity_types')).toBe(before);
    const res = await post('POST', url, { name: 'Trainer' });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('User Type has been created.');
    expect(res.json().data).toMatchObject({ entity_id: org.id, name: 'Trainer', users_count: 0 });
    expect(res.json().data).not.toHaveProperty('inspectable');
  });
});

describe('GET and PATCH /entities/{slug}/types/{id}', () => {
  it('reads a type: 401, 422, 403, 404, then the type', async () => {
    const { org, site, orgType, admin } = await organisation();
    const url = `/api/entities/${site.slug}/types/${orgType.id}`;
    expect((await anon('GET', url)).statusCode).toBe(401);
    expect((await (await as(admin.id))('GET', `/api/entities/${site.slug}/types/-1`)).statusCode).toBe(422);
    const clerk = await buildUser(h.db, { entityId: org.id, permissions: [21] });
    expect((await (await as(clerk.id))('GET', url)).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: TYPE_ADMIN });
    expect((await (await as(outsider.id))('GET', url)).statusCode).toBe(404);
    const res = await (await as(admin.id))('GET', url);
    expect(res.json().data).toMatchObject({ id: orgType.id, name: 'Manager', inherited: true });
  });

  it('updates a type: 401, 422, 403 without 32, 403 from a child, 404, then renames', async () => {
    const { org, site, orgType, siteType, admin } = await organisation();
    const url = `/api/entities/${site.slug}/types/${siteType.id}`;
    expect((await anon('PATCH', url, { name: 'X' })).statusCode).toBe(401);
    const patch = await as(admin.id);
    expect((await patch('PATCH', url, { name: '' })).statusCode).toBe(422);
    const viewer = await buildUser(h.db, { entityId: org.id, permissions: [50] });
    expect((await (await as(viewer.id))('PATCH', url, { name: 'X' })).statusCode).toBe(403);
    expect(
      (await patch('PATCH', `/api/entities/${site.slug}/types/${orgType.id}`, { name: 'X' })).statusCode,
    ).toBe(403);
    const outsider = await buildUser(h.db, { permissions: TYPE_ADMIN });
    const before = await snapshot(h.db, 'entity_types');
    expect((await (await as(outsider.id))('PATCH', url, { name: 'X' })).statusCode).toBe(404);
    expect(await snapshot(h.db, 'entity_types')).toBe(before);
    const res = await patch('PATCH', url, { name: 'Care Learner' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('User Type has been updated.');
    expect(res.json().data).toMatchObject({ id: siteType.id, name: 'Care Learner', users_count: 1 });
  });
});

describe('DELETE /entities/{slug}/types/{id}', () => {
  it('answers 401, 422, 403 without 55, 404, 409 while held, then deletes', async () => {
    const { org, site, siteType, admin, learner } = await organisation();
    const url = `/api/entities/${site.slug}/types/${siteType.id}`;
    expect((await anon('DELETE', url)).statusCode).toBe(401);
    expect((await (await as(admin.id))('DELETE', `/api/entities/${site.slug}/types/nope`)).statusCode).toBe(
      422,
    );
    const editor = await buildUser(h.db, { entityId: org.id, permissions: [31, 32, 50] });
    expect((await (await as(editor.id))('DELETE', url)).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: TYPE_ADMIN });
    const before = await snapshot(h.db, 'entity_types');
    expect((await (await as(outsider.id))('DELETE', url)).statusCode).toBe(404);
    const held = await (await as(admin.id))('DELETE', url);
    expect(held.statusCode).toBe(409);
    expect(held.json().message).toBe(
      'This user type cannot be deleted: 1 user still holds it. Move that user to another user type first.',
    );
    expect(await snapshot(h.db, 'entity_types')).toBe(before);
    await h.db.updateTable('users').set({ type_id: null }).where('id', '=', learner.id).execute();
    const res = await (await as(admin.id))('DELETE', url);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('User Type has been deleted.');
  });
});

describe('GET /types/stats and /types/{id}/details', () => {
  it('counts holders per type in scope; details list holders; 401, 422, 403, 404', async () => {
    const { org, site, orgType, siteType, admin, learner } = await organisation();
    expect((await anon('GET', '/api/types/stats')).statusCode).toBe(401);
    expect((await (await as(admin.id))('GET', '/api/types/stats?per_page=500')).statusCode).toBe(422);
    const clerk = await buildUser(h.db, { entityId: org.id, permissions: [21] });
    expect((await (await as(clerk.id))('GET', '/api/types/stats')).statusCode).toBe(403);
    const stats = await (await as(admin.id))('GET', '/api/types/stats');
    const counts = stats.json().data.map((t: { id: number; users_count: number }) => [t.id, t.users_count]);
    expect(counts).toEqual(
      expect.arrayContaining([
        [orgType.id, 1],
        [siteType.id, 1],
      ]),
    );
    const outsider = await buildUser(h.db, { permissions: TYPE_ADMIN });
    const theirs = await (await as(outsider.id))('GET', '/api/types/stats');
    expect(theirs.json().data.map((t: { id: number }) => t.id)).not.toContain(orgType.id);

    const url = `/api/types/${siteType.id}/details`;
    expect((await anon('GET', url)).statusCode).toBe(401);
    expect((await (await as(admin.id))('GET', '/api/types/0/details')).statusCode).toBe(422);
    expect((await (await as(clerk.id))('GET', url)).statusCode).toBe(403);
    expect((await (await as(outsider.id))('GET', url)).statusCode).toBe(404);
    const details = await (await as(admin.id))('GET', url);
    expect(details.json().data).toMatchObject({
      id: siteType.id,
      entity: { id: site.id },
      users_count: 1,
      users: [{ id: learner.id, name: 'Lena Learner', primary_entity: { id: site.id } }],
    });
  });
});
