import { EntityMessages, Messages, PERMISSIONS, Perm } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildUser, clientFor, snapshot } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

/** A level A organisation with two sites and a sub-site under the first (to tell "deep" apart). */
async function organisation(o: { name?: string } = {}) {
  const a = await buildEntity(h.db, { name: o.name ?? `Group ${Math.random().toString(36).slice(2, 8)}` });
  const b1 = await buildEntity(h.db, { parentId: a.id, name: `Alpha site ${a.id}` });
  const b2 = await buildEntity(h.db, { parentId: a.id, name: `Beta site ${a.id}` });
  const g = await buildEntity(h.db, { parentId: b1.id, level: 'B', name: `Gamma sub-site ${a.id}` });
  return { a, b1, b2, g };
}

const as = async (userId: number) => clientFor(h.app, h.db, userId);
const anon = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  h.app.inject({ method, url, ...(payload ? { payload } : {}) });
const ids = (res: { json(): { data: { id: number }[] } }) => res.json().data.map((e) => e.id);

describe('GET /api/entities (spec 1 §7, permission 22)', () => {
  it('answers 401 to an anonymous caller', async () => {
    expect((await anon('GET', '/api/entities')).statusCode).toBe(401);
  });

  it('answers 422 for a bad query', async () => {
    const { a } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.searchEntities] });
    const res = await (await as(user.id))('GET', '/api/entities?per_page=1000&level=C');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.per_page).toBeDefined();
    expect(res.json().errors.level).toBeDefined();
  });

  it('answers 403 to an insider without permission 22', async () => {
    const { a } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.seeEntity] });
    expect((await (await as(user.id))('GET', '/api/entities')).statusCode).toBe(403);
  });

  it('lists the base entity and its direct children by name; deep lists the whole subtree', async () => {
    const { a, b1, b2, g } = await organisation();
    const other = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.searchEntities] });
    const call = await as(user.id);
    const shallow = await call('GET', '/api/entities');
    expect(shallow.statusCode).toBe(200);
    expect(ids(shallow)).toEqual([b1.id, b2.id, a.id]); // Alpha, Beta, Group
    expect(shallow.json().meta).toMatchObject({ current_page: 1, total: 3 });
    const deep = await call('GET', '/api/entities?deep=1');
    expect(ids(deep).sort()).toEqual([a.id, b1.id, b2.id, g.id].sort());
    for (const e of Object.values(other)) expect(ids(deep)).not.toContain(e.id);
  });

  it('searches name, slug and code case-insensitively and filters by level, parent and training company', async () => {
    const { a, b1, b2, g } = await organisation();
    await h.db.updateTable('entities').set({ code: 'XQ-77' }).where('id', '=', b2.id).execute();
    await h.db.updateTable('entities').set({ is_training_company: true }).where('id', '=', g.id).execute();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.searchEntities] });
    const call = await as(user.id);
    expect(ids(await call('GET', '/api/entities?search=ALPHA'))).toEqual([b1.id]);
    expect(
      ids(await call('GET', `/api/entities?search=${encodeURIComponent(b1.slug.toUpperCase())}`)),
    ).toEqual([b1.id]);
    expect(ids(await call('GET', '/api/entities?search=xq-7'))).toEqual([b2.id]);
    expect(ids(await call('GET', '/api/entities?search=%25'))).toEqual([]); // a literal %, not a wildcard
    expect(ids(await call('GET', '/api/entities?level=A'))).toEqual([a.id]);
    expect(ids(await call('GET', `/api/entities?parent_id=${b1.id}`))).toEqual([g.id]);
    expect(ids(await call('GET', '/api/entities?deep=1&is_training_company=1'))).toEqual([g.id]);
  });

  it('pages with data, meta and links (spec 2 §3)', async () => {
    const { a } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.searchEntities] });
    const res = await (await as(user.id))('GET', '/api/entities?per_page=2&page=2&deep=1');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(2);
    expect(body.meta).toMatchObject({ current_page: 2, last_page: 2, per_page: 2, total: 4, from: 3, to: 4 });
    expect(body.links.prev).toContain('page=1');
    expect(body.links.prev).toContain('deep=1');
    expect(body.links.next).toBeNull();
  });

  it('never shows another organisation, nor its entities through parent_id', async () => {
    const mine = await organisation();
    const other = await organisation();
    const user = await buildUser(h.db, { entityId: mine.a.id, permissions: [Perm.searchEntities] });
    const res = await (await as(user.id))('GET', `/api/entities?parent_id=${other.a.id}&deep=1`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
  });

  it('hides notes and the restricted-access password', async () => {
    const { a } = await organisation();
    await h.db
      .updateTable('entities')
      .set({ notes: 'secret', restricted_access_password: 'hash' })
      .where('id', '=', a.id)
      .execute();
    const plain = await buildUser(h.db, { entityId: a.id, permissions: [Perm.searchEntities] });
    const notes = await buildUser(h.db, { entityId: a.id, permissions: [Perm.searchEntities, 120] });
    const row = (await (await as(plain.id))('GET', '/api/entities?level=A')).json().data[0];
    expect(row).not.toHaveProperty('notes');
    expect(row).not.toHaveProperty('restricted_access_password');
    expect(row.has_restricted_access_password).toBe(true);
    const withNotes = (await (await as(notes.id))('GET', '/api/entities?level=A')).json().data[0];
    expect(withNotes.notes).toBe('secret');
  });

  it('a super admin without acting-as sees every organisation', async () => {
    const one = await organisation();
    const two = await organisation();
    const admin = await buildUser(h.db, { superAdmin: true });
    const call = await as(admin.id);
    const top = ids(await call('GET', '/api/entities?per_page=100&search=group'));
    expect(top).toEqual(expect.arrayContaining([one.a.id, two.a.id]));
    expect(top).not.toContain(one.b1.id);
    const deep = ids(await call('GET', `/api/entities?deep=1&per_page=100&search=${one.a.id}`));
    expect(deep).toEqual(expect.arrayContaining([one.b1.id, one.b2.id, one.g.id]));
  });

  it('acting-as: own subtree narrows; elsewhere in the organisation needs 19; another organisation is 404', async () => {
    const { a, b1, b2, g } = await organisation();
    const other = await organisation();
    const groupUser = await buildUser(h.db, { entityId: a.id, permissions: [Perm.searchEntities] });
    const narrowed = await (await as(groupUser.id))('GET', `/api/entities?actingAs=${b1.slug}`);
    expect(narrowed.statusCode).toBe(200);
    expect(ids(narrowed)).toEqual([b1.id, g.id]);

    const siteUser = await buildUser(h.db, { entityId: b1.id, permissions: [Perm.searchEntities] });
    const site = await as(siteUser.id);
    expect((await site('GET', `/api/entities?actingAs=${b1.slug}`)).statusCode).toBe(200);
    expect((await site('GET', `/api/entities?actingAs=${b2.slug}`)).statusCode).toBe(403);
    expect((await site('GET', `/api/entities?actingAs=${other.b1.slug}`)).statusCode).toBe(404);

    const actor = await buildUser(h.db, {
      entityId: b1.id,
      permissions: [Perm.searchEntities, Perm.actingAs],
    });
    const res = await (await as(actor.id))('GET', `/api/entities?actingAs=${b2.slug}`);
    expect(res.statusCode).toBe(200);
    expect(ids(res)).toEqual([b2.id]);
  });
});

describe('POST /api/entities (spec 1 §7, permission 1)', () => {
  it('answers 401 to an anonymous caller', async () => {
    const before = await snapshot(h.db, 'entities');
    expect((await anon('POST', '/api/entities', { name: 'X', level: 'B', parent_id: 1 })).statusCode).toBe(
      401,
    );
    expect(await snapshot(h.db, 'entities')).toBe(before);
  });

  it('answers 422 for bad input', async () => {
    const { a } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.addEntity] });
    const call = await as(user.id);
    const res = await call('POST', '/api/entities', { level: 'C', email: 'nope' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(expect.arrayContaining(['name', 'level', 'email']));
    const noParent = await call('POST', '/api/entities', { name: 'Site', level: 'B' });
    expect(noParent.statusCode).toBe(422);
    expect(noParent.json().errors.parent_id).toEqual([EntityMessages.parentRequired]);
    const digits = await call('POST', '/api/entities', {
      name: 'Site',
      level: 'B',
      parent_id: a.id,
      slug: '123',
    });
    expect(digits.statusCode).toBe(422);
    expect(digits.json().errors.slug).toBeDefined();
  });

  it('answers 403 to an insider without permission 1, and for fields needing 51, 52 or 119', async () => {
    const { a } = await organisation();
    const before = await snapshot(h.db, 'entities');
    const none = await buildUser(h.db, { entityId: a.id, permissions: [Perm.updateEntity] });
    expect(
      (await (await as(none.id))('POST', '/api/entities', { name: 'S', level: 'B', parent_id: a.id }))
        .statusCode,
    ).toBe(403);
    const adder = await as((await buildUser(h.db, { entityId: a.id, permissions: [Perm.addEntity] })).id);
    for (const extra of [{ expiry_warning: 10 }, { starter_period: 10 }, { notes: 'n' }]) {
      const res = await adder('POST', '/api/entities', { name: 'S', level: 'B', parent_id: a.id, ...extra });
      expect(res.statusCode).toBe(403);
    }
    // A level A entity is a new organisation: a super admin's act.
    expect((await adder('POST', '/api/entities', { name: 'New group', level: 'A' })).statusCode).toBe(403);
    expect(await snapshot(h.db, 'entities')).toBe(before);
  });

  it('refuses a parent in another organisation with 422 and writes nothing', async () => {
    const mine = await organisation();
    const other = await organisation();
    const user = await buildUser(h.db, { entityId: mine.a.id, permissions: [Perm.addEntity] });
    const before = await snapshot(h.db, 'entities');
    const res = await (await as(user.id))('POST', '/api/entities', {
      name: 'Intruder',
      level: 'B',
      parent_id: other.a.id,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.parent_id).toEqual([EntityMessages.parentInvalid]);
    expect(await snapshot(h.db, 'entities')).toBe(before);
  });

  it('creates a level B site with a generated unique slug and its parent’s entity permissions', async () => {
    const a = await buildEntity(h.db, { allowed: [1, 2, 3, 22, 53] });
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.addEntity] });
    const call = await as(user.id);
    const name = `Rose Court ${a.id}`;
    const res = await call('POST', '/api/entities', {
      name,
      level: 'B',
      parent_id: a.id,
      email: 'rose@example.test',
      restricted_access_password: 'let-me-in',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.message).toBe(Messages.entityCreated);
    expect(body.data).toMatchObject({ name, level: 'B', parent_id: a.id, slug: `rose-court-${a.id}` });
    expect(body.data.has_restricted_access_password).toBe(true);
    expect(body.data).not.toHaveProperty('restricted_access_password');
    const stored = await h.db
      .selectFrom('entities')
      .selectAll()
      .where('id', '=', body.data.id)
      .executeTakeFirstOrThrow();
    expect(stored.restricted_access_password).toMatch(/^\$argon2id\$/);
    const perms = await h.db
      .selectFrom('entity_permissions')
      .select('permission_id')
      .where('entity_id', '=', body.data.id)
      .orderBy('permission_id')
      .execute();
    expect(perms.map((p) => p.permission_id)).toEqual([1, 2, 3, 22, 53]);

    const again = await call('POST', '/api/entities', { name, level: 'B', parent_id: a.id });
    expect(again.json().data.slug).toBe(`rose-court-${a.id}-2`);
    const taken = await call('POST', '/api/entities', {
      name: 'X',
      level: 'B',
      parent_id: a.id,
      slug: body.data.slug,
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.slug).toEqual(['The slug has already been taken.']);
  });

  it('refuses a sub-domain already taken', async () => {
    const a = await buildEntity(h.db, { settings: { subdomain: `taken-${Date.now()}` } });
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.addEntity] });
    const res = await (await as(user.id))('POST', '/api/entities', {
      name: 'S',
      level: 'B',
      parent_id: a.id,
      subdomain: a.subdomain,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.subdomain).toEqual([EntityMessages.subdomainTaken]);
  });

  it('lets a super admin create an organisation with the whole catalogue', async () => {
    const admin = await buildUser(h.db, { superAdmin: true });
    const res = await (await as(admin.id))('POST', '/api/entities', {
      name: 'Fresh Group',
      level: 'A',
      expiry_warning: 14,
      notes: 'vip',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ level: 'A', parent_id: null, expiry_warning: 14, notes: 'vip' });
    const count = await h.db
      .selectFrom('entity_permissions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('entity_id', '=', res.json().data.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(PERMISSIONS.length);
    const withParent = await (await as(admin.id))('POST', '/api/entities', {
      name: 'Bad',
      level: 'A',
      parent_id: res.json().data.id,
    });
    expect(withParent.statusCode).toBe(422);
  });

  it('acting-as a site: the group is out of scope, so it cannot be a parent', async () => {
    const { a, b1 } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.addEntity] });
    const res = await (await as(user.id))('POST', `/api/entities?actingAs=${b1.slug}`, {
      name: 'S',
      level: 'B',
      parent_id: a.id,
    });
    expect(res.statusCode).toBe(422);
  });
});

describe('GET /api/entities/{id} (spec 1 §7)', () => {
  it('answers 401 to an anonymous caller', async () => {
    const { a } = await organisation();
    expect((await anon('GET', `/api/entities/${a.id}`)).statusCode).toBe(401);
  });

  it('answers 422 for a malformed reference', async () => {
    const { a } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.seeEntity] });
    const res = await (await as(user.id))('GET', '/api/entities/not%20a%20slug');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.id).toEqual(['The entity must be an id or a slug.']);
  });

  it('answers 403 to an insider without 53 for an entity that is not their own', async () => {
    const { a, b1 } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.searchEntities] });
    expect((await (await as(user.id))('GET', `/api/entities/${b1.id}`)).statusCode).toBe(403);
  });

  it('answers 404 to another organisation holding 53, by id and by slug', async () => {
    const { a } = await organisation();
    const other = await organisation();
    const user = await buildUser(h.db, { entityId: other.a.id, permissions: [Perm.seeEntity] });
    const call = await as(user.id);
    expect((await call('GET', `/api/entities/${a.id}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/entities/${a.slug}`)).statusCode).toBe(404);
    expect((await call('GET', '/api/entities/no-such-entity')).statusCode).toBe(404);
  });

  it('returns the entity with children and white-label, by id or slug', async () => {
    const { a, b1, b2 } = await organisation();
    await h.db
      .updateTable('entities')
      .set({ whitelabel: JSON.stringify({ primary: '#112233' }), notes: 'private' })
      .where('id', '=', a.id)
      .execute();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.seeEntity] });
    const call = await as(user.id);
    const res = await call('GET', `/api/entities/${a.slug}`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ id: a.id, slug: a.slug, level: 'A', has_restricted_access_password: false });
    expect(data.children.map((c: { id: number }) => c.id)).toEqual([b1.id, b2.id]);
    expect(data.whitelabel).toMatchObject({ primary: '#112233', entity: { id: a.id, slug: a.slug } });
    expect(data).not.toHaveProperty('notes');
    expect(data).not.toHaveProperty('restricted_access_password');
    const site = await call('GET', `/api/entities/${b1.id}`);
    expect(site.json().data.whitelabel.primary).toBe('#112233'); // inherited from the level A parent
  });

  it('lets any member read their own entity and organisation without 53; notes only with 120', async () => {
    const { a, b1, b2 } = await organisation();
    const member = await buildUser(h.db, { entityId: b1.id, permissions: [] });
    const call = await as(member.id);
    expect((await call('GET', `/api/entities/${b1.id}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/entities/${a.id}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/entities/${b2.id}`)).statusCode).toBe(404); // a sibling is outside the scope
    const reader = await buildUser(h.db, { entityId: a.id, permissions: [Perm.seeEntity, 120] });
    await h.db.updateTable('entities').set({ notes: 'n1' }).where('id', '=', b1.id).execute();
    expect((await (await as(reader.id))('GET', `/api/entities/${b1.id}`)).json().data.notes).toBe('n1');
  });

  it('acting-as narrows what can be read', async () => {
    const { a, b1, b2 } = await organisation();
    const other = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.seeEntity] });
    const call = await as(user.id);
    expect((await call('GET', `/api/entities/${b1.id}?actingAs=${b1.slug}`)).statusCode).toBe(200);
    expect((await call('GET', `/api/entities/${b2.id}?actingAs=${b1.slug}`)).statusCode).toBe(404);
    const site = await as((await buildUser(h.db, { entityId: b1.id, permissions: [Perm.seeEntity] })).id);
    expect((await site('GET', `/api/entities/${b2.id}?actingAs=${b2.slug}`)).statusCode).toBe(403);
    expect((await site('GET', `/api/entities/${other.a.id}?actingAs=${other.a.slug}`)).statusCode).toBe(404);
  });
});

describe('PATCH /api/entities/{id} (spec 1 §7, permission 2)', () => {
  it('answers 401 to an anonymous caller', async () => {
    const { a } = await organisation();
    expect((await anon('PATCH', `/api/entities/${a.id}`, { name: 'x' })).statusCode).toBe(401);
  });

  it('answers 422 for bad input', async () => {
    const { a, b1 } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.updateEntity] });
    const call = await as(user.id);
    const res = await call('PATCH', `/api/entities/${b1.id}`, { email: 'nope', expiry_warning: -1 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email).toBeDefined();
    const level = await call('PATCH', `/api/entities/${b1.id}`, { level: 'A' });
    expect(level.statusCode).toBe(422);
    expect(level.json().errors.level).toEqual([EntityMessages.levelFixed]);
    const taken = await call('PATCH', `/api/entities/${b1.id}`, { slug: a.slug });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.slug).toEqual(['The slug has already been taken.']);
  });

  it('answers 403 without 2, and for expiry warning, starter period, notes and parent without 51, 52, 119, 84', async () => {
    const { a, b1, b2 } = await organisation();
    const before = await snapshot(h.db, 'entities');
    const none = await buildUser(h.db, { entityId: a.id, permissions: [Perm.seeEntity] });
    expect((await (await as(none.id))('PATCH', `/api/entities/${b1.id}`, { name: 'x' })).statusCode).toBe(
      403,
    );
    const updater = await as(
      (await buildUser(h.db, { entityId: a.id, permissions: [Perm.updateEntity] })).id,
    );
    for (const body of [{ expiry_warning: 5 }, { starter_period: 5 }, { notes: 'x' }, { parent_id: b2.id }]) {
      expect((await updater('PATCH', `/api/entities/${b1.id}`, body)).statusCode).toBe(403);
    }
    expect(await snapshot(h.db, 'entities')).toBe(before);
    // Sending the stored value back is not a change and needs no extra permission.
    const same = await updater('PATCH', `/api/entities/${b1.id}`, { expiry_warning: 30, parent_id: a.id });
    expect(same.statusCode).toBe(200);
  });

  it('answers 404 to another organisation holding 2 and changes nothing', async () => {
    const { a } = await organisation();
    const other = await organisation();
    const user = await buildUser(h.db, { entityId: other.a.id, permissions: [Perm.updateEntity] });
    const before = await snapshot(h.db, 'entities');
    const call = await as(user.id);
    expect((await call('PATCH', `/api/entities/${a.id}`, { name: 'Hacked' })).statusCode).toBe(404);
    expect((await call('PATCH', `/api/entities/${a.slug}`, { name: 'Hacked' })).statusCode).toBe(404);
    expect(await snapshot(h.db, 'entities')).toBe(before);
  });

  it('updates settings, hashes the restricted-access password and never changes the level', async () => {
    const { a, b1 } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.updateEntity, 51, 119, 120] });
    const res = await (await as(user.id))('PATCH', `/api/entities/${b1.slug}`, {
      name: 'Renamed Site',
      level: 'B',
      expiry_warning: 45,
      notes: 'note',
      telephone: '0113 000',
      restricted_access_password: 'open-sesame',
      password_requirements: { min_length: 14 },
      focused_courses: [3, 4],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(Messages.entityUpdated);
    expect(res.json().data).toMatchObject({
      name: 'Renamed Site',
      level: 'B',
      expiry_warning: 45,
      notes: 'note',
      telephone: '0113 000',
      has_restricted_access_password: true,
      focused_courses: [3, 4],
    });
    expect(res.json().data.password_requirements.min_length).toBe(14);
    const row = await h.db
      .selectFrom('entities')
      .selectAll()
      .where('id', '=', b1.id)
      .executeTakeFirstOrThrow();
    expect(row.level).toBe('B');
    expect(row.restricted_access_password).toMatch(/^\$argon2id\$/);
    const cleared = await (await as(user.id))('PATCH', `/api/entities/${b1.id}`, {
      restricted_access_password: '',
    });
    expect(cleared.json().data.has_restricted_access_password).toBe(false);
  });

  it('moves a site to another level A parent only in scope (84), never under a level B or another organisation', async () => {
    const { a, b1, b2 } = await organisation();
    const other = await organisation();
    const mover = await as(
      (await buildUser(h.db, { entityId: a.id, permissions: [Perm.updateEntity, Perm.updateParentEntity] }))
        .id,
    );
    expect((await mover('PATCH', `/api/entities/${b1.id}`, { parent_id: b2.id })).statusCode).toBe(422);
    expect((await mover('PATCH', `/api/entities/${b1.id}`, { parent_id: other.a.id })).statusCode).toBe(422);
    expect((await mover('PATCH', `/api/entities/${b1.id}`, { parent_id: null })).statusCode).toBe(422);
    expect((await mover('PATCH', `/api/entities/${a.id}`, { parent_id: other.a.id })).statusCode).toBe(422);
    const admin = await as((await buildUser(h.db, { superAdmin: true })).id);
    const moved = await admin('PATCH', `/api/entities/${b1.id}`, { parent_id: other.a.id });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data.parent).toEqual({ id: other.a.id, slug: other.a.slug, name: other.a.name });
  });

  it('acting-as a site: that site can be changed, its sibling is 404', async () => {
    const { a, b1, b2 } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.updateEntity] });
    const call = await as(user.id);
    expect(
      (await call('PATCH', `/api/entities/${b1.id}?actingAs=${b1.slug}`, { name: 'Ok' })).statusCode,
    ).toBe(200);
    expect(
      (await call('PATCH', `/api/entities/${b2.id}?actingAs=${b1.slug}`, { name: 'No' })).statusCode,
    ).toBe(404);
    const site = await as((await buildUser(h.db, { entityId: b1.id, permissions: [Perm.updateEntity] })).id);
    expect(
      (await site('PATCH', `/api/entities/${b2.id}?actingAs=${b2.slug}`, { name: 'No' })).statusCode,
    ).toBe(403);
  });
});

describe('POST /api/entities/{id}/send-welcome-email (spec 1 §7, permission 3)', () => {
  const outbox = () =>
    h.db
      .selectFrom('mail_outbox')
      .selectAll()
      .execute()
      .then((r) => r.length);

  it('answers 401, 422, 403 and 404 without sending anything', async () => {
    const { a } = await organisation();
    await buildUser(h.db, { entityId: a.id });
    const before = await outbox();
    expect((await anon('POST', `/api/entities/${a.id}/send-welcome-email`)).statusCode).toBe(401);
    const insider = await as(
      (await buildUser(h.db, { entityId: a.id, permissions: [Perm.updateEntity] })).id,
    );
    expect((await insider('POST', `/api/entities/bad_ref/send-welcome-email`)).statusCode).toBe(422);
    expect((await insider('POST', `/api/entities/${a.id}/send-welcome-email`)).statusCode).toBe(403);
    const other = await organisation();
    const outsider = await as(
      (await buildUser(h.db, { entityId: other.a.id, permissions: [Perm.addUser] })).id,
    );
    expect((await outsider('POST', `/api/entities/${a.id}/send-welcome-email`)).statusCode).toBe(404);
    expect(await outbox()).toBe(before);
  });

  it('mails a set-your-password link to every user who never signed in', async () => {
    const { a, b1 } = await organisation();
    const fresh1 = await buildUser(h.db, { entityId: b1.id });
    const fresh2 = await buildUser(h.db, { entityId: b1.id });
    const active = await buildUser(h.db, { entityId: b1.id });
    await h.db.updateTable('users').set({ last_login_at: new Date() }).where('id', '=', active.id).execute();
    const admin = await buildUser(h.db, { entityId: a.id, permissions: [Perm.addUser] });
    await h.db.updateTable('users').set({ last_login_at: new Date() }).where('id', '=', admin.id).execute();
    const res = await (await as(admin.id))('POST', `/api/entities/${b1.slug}/send-welcome-email`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { sent: 2 }, message: Messages.welcomeEmailSent });
    const mails = await h.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', 'in', [fresh1.email, fresh2.email, active.email])
      .execute();
    expect(mails.map((m) => m.to_address).sort()).toEqual([fresh1.email, fresh2.email].sort());
    expect(mails.every((m) => m.template === 'welcome' && m.text_body.includes('/reset-password/'))).toBe(
      true,
    );
    const tokens = await h.db
      .selectFrom('user_tokens')
      .selectAll()
      .where('user_id', 'in', [fresh1.id, fresh2.id])
      .execute();
    expect(tokens).toHaveLength(2);
    expect(tokens.every((t) => t.purpose === 'password_reset')).toBe(true);
  });

  it('acting-as a sibling without 19 is 403; in own subtree it works', async () => {
    const { b1, b2 } = await organisation();
    const user = await buildUser(h.db, { entityId: b1.id, permissions: [Perm.addUser] });
    const call = await as(user.id);
    expect(
      (await call('POST', `/api/entities/${b2.id}/send-welcome-email?actingAs=${b2.slug}`)).statusCode,
    ).toBe(403);
    expect(
      (await call('POST', `/api/entities/${b1.id}/send-welcome-email?actingAs=${b1.slug}`)).statusCode,
    ).toBe(200);
  });
});

describe('GET /api/entities/{id}/children (spec 1 §7, 22 or 53)', () => {
  it('answers 401, 422, 403 and 404', async () => {
    const { a } = await organisation();
    expect((await anon('GET', `/api/entities/${a.id}/children`)).statusCode).toBe(401);
    const insider = await as(
      (await buildUser(h.db, { entityId: a.id, permissions: [Perm.updateEntity] })).id,
    );
    expect((await insider('GET', `/api/entities/${a.id}/children?per_page=0`)).statusCode).toBe(422);
    expect((await insider('GET', `/api/entities/${a.id}/children`)).statusCode).toBe(403);
    const other = await organisation();
    const outsider = await as((await buildUser(h.db, { entityId: other.a.id, permissions: [22, 53] })).id);
    expect((await outsider('GET', `/api/entities/${a.id}/children`)).statusCode).toBe(404);
  });

  it('lists direct children, paged, with 53 alone', async () => {
    const { a, b1, b2 } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.seeEntity] });
    const res = await (await as(user.id))('GET', `/api/entities/${a.slug}/children?per_page=1`);
    expect(res.statusCode).toBe(200);
    expect(ids(res)).toEqual([b1.id]);
    expect(res.json().meta.total).toBe(2);
    expect(res.json().links.next).toContain(`/api/entities/${a.slug}/children`);
    const all = await (await as(user.id))('GET', `/api/entities/${a.id}/children`);
    expect(ids(all)).toEqual([b1.id, b2.id]);
  });

  it('acting-as limits which parents can be listed', async () => {
    const { a, b1 } = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [Perm.searchEntities] });
    const call = await as(user.id);
    expect((await call('GET', `/api/entities/${a.id}/children?actingAs=${b1.slug}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/entities/${b1.id}/children?actingAs=${b1.slug}`)).statusCode).toBe(200);
  });
});

describe('GET /api/entities/organisation (spec 1 §7)', () => {
  it('answers 401 to an anonymous caller', async () => {
    expect((await anon('GET', '/api/entities/organisation')).statusCode).toBe(401);
  });

  it('returns the caller’s organisation as a tree from the a_entity, for any member', async () => {
    const { a, b1, b2, g } = await organisation();
    const member = await buildUser(h.db, { entityId: g.id, permissions: [] });
    const res = await (await as(member.id))('GET', '/api/entities/organisation');
    expect(res.statusCode).toBe(200);
    const tree = res.json().data;
    expect(tree).toMatchObject({
      id: a.id,
      uuid: a.uuid,
      slug: a.slug,
      level: 'A',
      is_training_company: false,
    });
    expect(tree.children.map((c: { id: number }) => c.id)).toEqual([b1.id, b2.id]);
    expect(tree.children[0].children.map((c: { id: number }) => c.id)).toEqual([g.id]);
    expect(tree.children[1].children).toEqual([]);
    expect(tree).not.toHaveProperty('parent_id');
  });

  it('starts at the acting-as entity; another organisation is 404', async () => {
    const { a, b1, g } = await organisation();
    const other = await organisation();
    const user = await buildUser(h.db, { entityId: a.id, permissions: [] });
    const call = await as(user.id);
    const res = await call('GET', `/api/entities/organisation?actingAs=${b1.slug}`);
    expect(res.json().data).toMatchObject({ id: b1.id, children: [{ id: g.id, children: [] }] });
    expect((await call('GET', `/api/entities/organisation?actingAs=${other.a.slug}`)).statusCode).toBe(404);
    const site = await as((await buildUser(h.db, { entityId: b1.id })).id);
    const sibling = await organisation();
    expect((await site('GET', `/api/entities/organisation?actingAs=${sibling.a.slug}`)).statusCode).toBe(404);
  });
});
