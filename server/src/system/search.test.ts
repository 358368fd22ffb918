import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse, buildPassedResult } from '../../test/learning-factories';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const as = async (userId: number) => clientFor(h.app, h.db, userId);
type Group = { kind: string; total: number; hits: { title: string; ref: string; detail: string | null }[] };
const search = async (userId: number, q: string, extra = '') => {
  const res = await (await as(userId))('GET', `/api/system/search?q=${encodeURIComponent(q)}${extra}`);
  return { res, groups: (res.json().data?.groups ?? []) as Group[] };
};
const kind = (groups: Group[], k: string) => groups.find((g) => g.kind === k);

/** A group with homes whose names rank differently for "oak"; another organisation with an Oak home too. */
async function world() {
  const org = await buildEntity(h.db, { name: 'Harbour Care' });
  const contains = await buildEntity(h.db, { parentId: org.id, name: 'Broakley Lodge' });
  const word = await buildEntity(h.db, { parentId: org.id, name: 'The Oak Tree' });
  const prefix = await buildEntity(h.db, { parentId: org.id, name: 'Oakfield House' });
  const exact = await buildEntity(h.db, { parentId: org.id, name: 'Oak' });
  const admin = await buildUser(h.db, {
    entityId: org.id,
    permissions: [21, 22, 23, 24, 63],
    name: 'Ada Admin',
  });
  const carer = await buildUser(h.db, { entityId: prefix.id, name: 'Olivia Oakes' });
  const course = await buildCourse(h.db, org.id, { title: 'Moving and handling' });
  await buildPassedResult(h.db, { userId: carer.id, entityId: prefix.id, courseId: course.id });
  const other = await buildEntity(h.db, { name: 'Oakridge Elsewhere' });
  const stranger = await buildUser(h.db, { entityId: other.id, name: 'Oakley Stranger' });
  const theirCourse = await buildCourse(h.db, other.id, { title: 'Oak course elsewhere' });
  await buildPassedResult(h.db, { userId: stranger.id, entityId: other.id, courseId: theirCourse.id });
  return { org, contains, word, prefix, exact, admin, carer, course, other, stranger };
}

describe('GET /system/search', () => {
  it('ranks exact, then starts with, then a word starts with, then contains', async () => {
    const w = await world();
    const { res, groups } = await search(w.admin.id, 'oak');
    expect(res.statusCode, res.body).toBe(200);
    const entities = kind(groups, 'entities');
    expect(entities?.hits.map((x) => x.title)).toEqual([
      'Oak',
      'Oakfield House',
      'The Oak Tree',
      'Broakley Lodge',
    ]);
    expect(entities?.total).toBe(4);
    expect(entities?.hits[1]).toMatchObject({ ref: w.prefix.slug, detail: 'Harbour Care' });
    expect(kind(groups, 'users')?.hits.map((x) => x.title)).toEqual(['Olivia Oakes']);
    expect(groups.map((g) => g.kind)).toEqual(['users', 'entities', 'courses', 'records']);
  });

  it('finds courses by title and training records by course title or person', async () => {
    const w = await world();
    const byCourse = await search(w.admin.id, 'moving');
    expect(kind(byCourse.groups, 'courses')?.hits.map((x) => x.title)).toContain('Moving and handling');
    const records = kind(byCourse.groups, 'records');
    expect(records?.hits.map((x) => x.title)).toEqual(['Olivia Oakes — Moving and handling']);
    expect(records?.hits[0]?.ref).toBe(w.carer.uuid);
    expect(records?.hits[0]?.detail).toMatch(/^Completed \d{2}\/\d{2}\/\d{4}$/);
    const byPerson = await search(w.admin.id, 'olivia');
    expect(kind(byPerson.groups, 'records')?.hits).toHaveLength(1);
  });

  it('never shows another organisation: its people, homes, courses and records', async () => {
    const w = await world();
    for (const q of ['oakridge', 'oakley stranger', 'elsewhere', 'stranger']) {
      const { groups } = await search(w.admin.id, q);
      for (const g of groups) expect(g.hits, `${q} ${g.kind}`).toEqual([]);
    }
  });

  it('answers only the kinds the caller may search: a carer without 21 finds no people', async () => {
    const w = await world();
    const carer = await buildUser(h.db, { entityId: w.prefix.id, permissions: [22] });
    const { res, groups } = await search(carer.id, 'oak');
    expect(res.statusCode).toBe(200);
    expect(groups.map((g) => g.kind)).toEqual(['entities']);
    // Their scope is their own home only.
    expect(kind(groups, 'entities')?.hits.map((x) => x.title)).toEqual(['Oakfield House']);
    const nothing = await buildUser(h.db, { entityId: w.prefix.id });
    expect((await search(nothing.id, 'oak')).groups).toEqual([]);
  });

  it('answers 422 for a term shorter than 2 characters, 401 anonymous, and treats % and _ as text', async () => {
    const w = await world();
    const short = await search(w.admin.id, 'o');
    expect(short.res.statusCode).toBe(422);
    expect(short.res.json().errors.q).toBeDefined();
    expect((await h.app.inject({ method: 'GET', url: '/api/system/search?q=oak' })).statusCode).toBe(401);
    const wild = await search(w.admin.id, '%_');
    expect(wild.res.statusCode).toBe(200);
    for (const g of wild.groups) expect(g.hits).toEqual([]);
  });

  it('limits the hits per kind but counts them all', async () => {
    const w = await world();
    const { groups } = await search(w.admin.id, 'oak', '&limit=2');
    const entities = kind(groups, 'entities');
    expect(entities?.hits).toHaveLength(2);
    expect(entities?.total).toBe(4);
  });
});
