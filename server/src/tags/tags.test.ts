import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const as = async (userId: number) => clientFor(h.app, h.db, userId);
const anon = (method: Method, url: string, payload?: object) => h.app.inject({ method, url, payload });
const TAG_ADMIN = [94, 95, 96];

/** A level A organisation with a level B site, an admin at the top holding 94-96, and staff in both. */
async function organisation() {
  const org = await buildEntity(h.db, { level: 'A' });
  const site = await buildEntity(h.db, { level: 'B', parentId: org.id });
  const sibling = await buildEntity(h.db, { level: 'B', parentId: org.id });
  const admin = await buildUser(h.db, { entityId: org.id, permissions: TAG_ADMIN });
  const ann = await buildUser(h.db, { entityId: site.id, name: 'Ann Site' });
  const bob = await buildUser(h.db, { entityId: site.id, name: 'Bob Site' });
  const cat = await buildUser(h.db, { entityId: sibling.id, name: 'Cat Sibling' });
  return { org, site, sibling, admin, ann, bob, cat, call: await as(admin.id) };
}

async function tagOf(entityId: number, name: string, userIds: number[] = []) {
  const tag = await h.db
    .insertInto('tags')
    .values({ entity_id: entityId, name })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (userIds.length)
    await h.db
      .insertInto('tag_users')
      .values(userIds.map((user_id) => ({ tag_id: tag.id, user_id })))
      .execute();
  return tag;
}

const linkedIds = async (tagId: number) =>
  (
    await h.db
      .selectFrom('tag_users')
      .select('user_id')
      .where('tag_id', '=', tagId)
      .orderBy('user_id')
      .execute()
  ).map((r) => r.user_id);

describe('GET /entities/{slug}/tags', () => {
  it('answers 401, 403 without 94, and 404 to another organisation', async () => {
    const { org } = await organisation();
    const url = `/api/entities/${org.slug}/tags`;
    expect((await anon('GET', url)).statusCode).toBe(401);
    const clerk = await buildUser(h.db, { entityId: org.id, permissions: [95, 96, 97] });
    expect((await (await as(clerk.id))('GET', url)).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: TAG_ADMIN });
    const theirs = await (await as(outsider.id))('GET', url);
    const missing = await (await as(outsider.id))('GET', '/api/entities/no-such-entity/tags');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe(missing.body);
  });

  it("lists the entity's own tags by name with users counted in its subtree, searched and paged", async () => {
    const { org, site, ann, bob, cat, call } = await organisation();
    const wardens = await tagOf(org.id, 'Fire wardens', [ann.id, cat.id]);
    const night = await tagOf(org.id, 'night shift', [bob.id]);
    await tagOf(org.id, 'Agency');
    await tagOf(site.id, 'Site only', [ann.id]);
    const res = await call('GET', `/api/entities/${org.slug}/tags`);
    expect(res.statusCode).toBe(200);
    expect(
      res.json().data.map((t: { name: string; users_count: number }) => [t.name, t.users_count]),
    ).toEqual([
      ['Agency', 0],
      ['Fire wardens', 2],
      ['night shift', 1],
    ]);
    expect(res.json().data[1]).toEqual({
      id: wardens.id,
      entity_id: org.id,
      entity: { id: org.id, slug: org.slug, name: org.name },
      name: 'Fire wardens',
      users_count: 2,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    // A site's list counts only the site's users, so a group tag is not listed there and its sibling users never show.
    const atSite = await call('GET', `/api/entities/${site.slug}/tags`);
    expect(atSite.json().data.map((t: { name: string }) => t.name)).toEqual(['Site only']);
    const search = await call('GET', `/api/entities/${org.slug}/tags?search=SHIFT`);
    expect(search.json().data.map((t: { id: number }) => t.id)).toEqual([night.id]);
    const page2 = await call('GET', `/api/entities/${org.slug}/tags?per_page=2&page=2`);
    expect(page2.json().data.map((t: { name: string }) => t.name)).toEqual(['night shift']);
    expect(page2.json().meta).toMatchObject({ total: 3, last_page: 2, current_page: 2 });
  });
});

describe('POST /entities/{slug}/tags', () => {
  it('answers 401, 422, 403 without 95, 404 to another organisation, and writes nothing then', async () => {
    const { org, call } = await organisation();
    const url = `/api/entities/${org.slug}/tags`;
    expect((await anon('POST', url, { name: 'Bank staff' })).statusCode).toBe(401);
    const blank = await call('POST', url, { name: '   ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json()).toMatchObject({
      message: 'The name field is required.',
      errors: { name: ['The name field is required.'] },
    });
    const long = await call('POST', url, { name: 'x'.repeat(101) });
    expect(long.json().errors.name).toEqual(['The name may not be longer than 100 characters.']);
    const viewer = await buildUser(h.db, { entityId: org.id, permissions: [94, 96] });
    expect((await (await as(viewer.id))('POST', url, { name: 'Bank staff' })).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: TAG_ADMIN });
    expect((await (await as(outsider.id))('POST', url, { name: 'Bank staff' })).statusCode).toBe(404);
    expect(await h.db.selectFrom('tags').select('id').where('entity_id', '=', org.id).execute()).toEqual([]);
  });

  it('creates a tag with the trimmed name, and refuses the same name in any case in that entity only', async () => {
    const { org, site, call } = await organisation();
    const res = await call('POST', `/api/entities/${org.slug}/tags`, { name: '  Bank staff ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: 'Tag has been created.',
      data: { name: 'Bank staff', entity_id: org.id, users_count: 0 },
    });
    const dup = await call('POST', `/api/entities/${org.slug}/tags`, { name: 'BANK STAFF' });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors).toEqual({ name: ['The name has already been taken.'] });
    expect((await call('POST', `/api/entities/${site.slug}/tags`, { name: 'Bank staff' })).statusCode).toBe(
      201,
    );
  });
});

describe('PATCH and DELETE /tags/{id}', () => {
  it('renames (422 on a taken name), deletes with its links, and keeps the users', async () => {
    const { org, ann, call } = await organisation();
    const tag = await tagOf(org.id, 'Night shift', [ann.id]);
    await tagOf(org.id, 'Day shift');
    const taken = await call('PATCH', `/api/tags/${tag.id}`, { name: 'day SHIFT' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.name).toEqual(['The name has already been taken.']);
    expect((await call('PATCH', `/api/tags/${tag.id}`, { name: '' })).json().errors.name).toEqual([
      'The name field is required.',
    ]);
    const renamed = await call('PATCH', `/api/tags/${tag.id}`, { name: 'Nights' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({
      message: 'Tag has been updated.',
      data: { name: 'Nights', users_count: 1 },
    });
    // Renaming to its own name in another case is not a clash with itself.
    expect((await call('PATCH', `/api/tags/${tag.id}`, { name: 'NIGHTS' })).statusCode).toBe(200);

    const removed = await call('DELETE', `/api/tags/${tag.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ message: 'Tag has been deleted.' });
    expect(await h.db.selectFrom('tags').select('id').where('id', '=', tag.id).execute()).toEqual([]);
    expect(await linkedIds(tag.id)).toEqual([]);
    expect(await h.db.selectFrom('users').select('id').where('id', '=', ann.id).execute()).toHaveLength(1);
    expect((await call('DELETE', `/api/tags/${tag.id}`)).statusCode).toBe(404);
  });

  it("answers 404 for another organisation's tag (as for a missing one) before 403, and changes nothing", async () => {
    const { org } = await organisation();
    const tag = await tagOf(org.id, 'Night shift');
    const outsider = await as((await buildUser(h.db, { permissions: TAG_ADMIN })).id);
    const theirs = await outsider('PATCH', `/api/tags/${tag.id}`, { name: 'Taken over' });
    const missing = await outsider('PATCH', '/api/tags/2147483647', { name: 'Taken over' });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe(missing.body);
    expect((await outsider('DELETE', `/api/tags/${tag.id}`)).statusCode).toBe(404);
    // Without 95 an outsider still sees 404 (it may not know the tag exists); an insider sees 403.
    const bare = await as((await buildUser(h.db, { permissions: [] })).id);
    expect((await bare('DELETE', `/api/tags/${tag.id}`)).statusCode).toBe(404);
    const viewer = await as((await buildUser(h.db, { entityId: org.id, permissions: [94] })).id);
    expect((await viewer('PATCH', `/api/tags/${tag.id}`, { name: 'Taken over' })).statusCode).toBe(403);
    expect((await viewer('DELETE', `/api/tags/${tag.id}`)).statusCode).toBe(403);
    expect(
      (await h.db.selectFrom('tags').select('name').where('id', '=', tag.id).executeTakeFirst())?.name,
    ).toBe('Night shift');
    expect((await anon('DELETE', `/api/tags/${tag.id}`)).statusCode).toBe(401);
    expect((await viewer('PATCH', '/api/tags/abc', { name: 'x' })).statusCode).toBe(422);
  });
});

describe('users of a tag', () => {
  it('links users of the subtree, ignores repeats, lists them by name (paged) and unlinks one', async () => {
    const { org, ann, bob, cat, call } = await organisation();
    const tag = await tagOf(org.id, 'Fire wardens');
    const linked = await call('POST', `/api/tags/${tag.id}/users`, { users: [cat.id, ann.id, ann.id] });
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toMatchObject({
      message: 'Users have been added to the tag.',
      data: { linked: 2, tag: { id: tag.id, users_count: 2 } },
    });
    const again = await call('POST', `/api/tags/${tag.id}/users`, { users: [ann.id, bob.id] });
    expect(again.json().data).toMatchObject({ linked: 1, tag: { users_count: 3 } });

    const page1 = await call('GET', `/api/tags/${tag.id}/users?per_page=2`);
    expect(page1.statusCode).toBe(200);
    expect(page1.json().data.map((u: { name: string }) => u.name)).toEqual(['Ann Site', 'Bob Site']);
    expect(page1.json().meta).toMatchObject({ total: 3, last_page: 2 });
    expect(page1.json().data[0]).toEqual({
      id: ann.id,
      uuid: ann.uuid,
      name: 'Ann Site',
      email: ann.email,
      primary_entity: { id: ann.primary_entity_id, slug: expect.any(String), name: expect.any(String) },
      linked_at: expect.any(String),
    });
    const page2 = await call('GET', `/api/tags/${tag.id}/users?per_page=2&page=2`);
    expect(page2.json().data.map((u: { name: string }) => u.name)).toEqual(['Cat Sibling']);
    const search = await call('GET', `/api/tags/${tag.id}/users?search=bob`);
    expect(search.json().data.map((u: { id: number }) => u.id)).toEqual([bob.id]);

    const unlinked = await call('DELETE', `/api/tags/${tag.id}/users/${bob.id}`);
    expect(unlinked.statusCode).toBe(200);
    expect(unlinked.json()).toMatchObject({
      message: 'User has been removed from the tag.',
      data: { users_count: 2 },
    });
    expect(await linkedIds(tag.id)).toEqual([ann.id, cat.id].sort((a, b) => a - b));
    expect((await call('DELETE', `/api/tags/${tag.id}/users/${bob.id}`)).statusCode).toBe(404);
  });

  it('refuses the whole link (422 on users) when one user is outside the tag subtree or missing', async () => {
    const { org, site, ann, cat, call } = await organisation();
    const siteTag = await tagOf(site.id, 'Night shift');
    const stranger = await buildUser(h.db, { name: 'Stranger' });
    for (const users of [
      [ann.id, stranger.id],
      [ann.id, 2147483647],
      [ann.id, cat.id],
    ]) {
      const res = await call('POST', `/api/tags/${siteTag.id}/users`, { users });
      expect(res.statusCode, JSON.stringify(users)).toBe(422);
      expect(res.json()).toMatchObject({
        message: 'Some of the chosen users cannot be added to this tag.',
        errors: { users: ['Some of the chosen users cannot be added to this tag.'] },
      });
    }
    expect(await linkedIds(siteTag.id)).toEqual([]);
    const empty = await call('POST', `/api/tags/${siteTag.id}/users`, { users: [] });
    expect(empty.json().errors.users).toEqual(['Choose at least one user.']);
    const orgTag = await tagOf(org.id, 'Everyone');
    expect((await call('POST', `/api/tags/${orgTag.id}/users`, { users: [ann.id, cat.id] })).statusCode).toBe(
      200,
    );
  });

  it('answers 404 to another organisation and 403 without 94 or 96, changing nothing', async () => {
    const { org, ann } = await organisation();
    const tag = await tagOf(org.id, 'Fire wardens', [ann.id]);
    const outsider = await as((await buildUser(h.db, { permissions: TAG_ADMIN })).id);
    expect((await outsider('GET', `/api/tags/${tag.id}/users`)).statusCode).toBe(404);
    expect((await outsider('POST', `/api/tags/${tag.id}/users`, { users: [ann.id] })).statusCode).toBe(404);
    expect((await outsider('DELETE', `/api/tags/${tag.id}/users/${ann.id}`)).statusCode).toBe(404);
    const manager = await as((await buildUser(h.db, { entityId: org.id, permissions: [95] })).id);
    expect((await manager('GET', `/api/tags/${tag.id}/users`)).statusCode).toBe(403);
    expect((await manager('POST', `/api/tags/${tag.id}/users`, { users: [ann.id] })).statusCode).toBe(403);
    expect((await manager('DELETE', `/api/tags/${tag.id}/users/${ann.id}`)).statusCode).toBe(403);
    expect(await linkedIds(tag.id)).toEqual([ann.id]);
  });

  it('hides linked users who moved out of the tag subtree from the count and the list', async () => {
    const { site, ann, bob, call } = await organisation();
    const tag = await tagOf(site.id, 'Night shift', [ann.id, bob.id]);
    const elsewhere = await buildEntity(h.db);
    await h.db
      .updateTable('users')
      .set({ primary_entity_id: elsewhere.id })
      .where('id', '=', bob.id)
      .execute();
    const list = await call('GET', `/api/tags/${tag.id}/users`);
    expect(list.json().data.map((u: { id: number }) => u.id)).toEqual([ann.id]);
    const tags = await call('GET', `/api/entities/${site.slug}/tags`);
    expect(tags.json().data[0].users_count).toBe(1);
    expect((await call('DELETE', `/api/tags/${tag.id}/users/${bob.id}`)).statusCode).toBe(404);
  });
});
