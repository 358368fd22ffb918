import { PresetMessages } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCourse } from '../../test/content-factories';
import { bearer, buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';

let h: Harness;
let org: Awaited<ReturnType<typeof buildEntity>>;
let site: Awaited<ReturnType<typeof buildEntity>>;
let otherSite: Awaited<ReturnType<typeof buildEntity>>;
let manager: Awaited<ReturnType<typeof buildUser>>;
let as: Awaited<ReturnType<typeof clientFor>>;

const REPORTS = [12, 13, 14, 15, 16, 17, 56, 7];

beforeAll(async () => {
  h = await createHarness();
  org = await buildEntity(h.db, { level: 'A' });
  site = await buildEntity(h.db, { level: 'B', parentId: org.id });
  otherSite = await buildEntity(h.db, { level: 'B', parentId: org.id });
  manager = await buildUser(h.db, {
    entityId: org.id,
    permissions: [...REPORTS, 117, 19],
    name: 'Jane Smith',
  });
  as = await clientFor(h.app, h.db, manager.id);
});
afterAll(async () => h?.close());

const full = () => ({
  name: 'Oakfield monthly matrix',
  report_type: 'matrix',
  entities: [site.id],
  courses: [],
  pathways: [],
  users: [],
  roles: [],
  includeStatusTypes: ['expired', 'missing'],
  includeStarters: false,
  compliance_type: 'secondary',
  previousMonths: 6,
  grade: 'Pass',
  filter_by: 'expires',
  course_type: 'elearning',
  period: 'last_week',
  from_date: '2026-01-01',
  to_date: '2026-03-31',
  primary_only: true,
  never_logged_in_only: true,
  date_completion: true,
  new_starters_filter: 'new_starters_only',
  care_certificate_filter: 'complete',
});

describe('POST /api/reports/presets', () => {
  it('answers 401 to an anonymous caller', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/api/reports/presets', payload: full() });
    expect(res.statusCode).toBe(401);
  });

  it('answers 422 naming each bad field', async () => {
    const res = await as('POST', '/api/reports/presets', {
      name: '',
      report_type: 'pie',
      period: 'yesterday',
      new_starters_filter: 'all',
      care_certificate_filter: 'maybe',
      from_date: '2026-02-30',
    });
    expect(res.statusCode).toBe(422);
    const { errors } = res.json();
    expect(Object.keys(errors).sort()).toEqual(
      ['care_certificate_filter', 'from_date', 'name', 'new_starters_filter', 'period', 'report_type'].sort(),
    );
    expect(errors.report_type).toEqual(['The report type must be certificate or matrix.']);
  });

  it('answers 422 when the to date is before the from date', async () => {
    const res = await as('POST', '/api/reports/presets', {
      ...full(),
      from_date: '2026-05-01',
      to_date: '2026-04-01',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.to_date).toBeDefined();
  });

  it('answers 422 naming the id list that reaches outside the scope', async () => {
    const stranger = await buildEntity(h.db);
    const strangerUser = await buildUser(h.db, { entityId: stranger.id });
    const strangerRole = await buildRole(h.db, stranger.id);
    const strangerCourse = await buildCourse(h.db, stranger.id);
    const before = await h.db.selectFrom('report_presets').select('id').execute();
    const res = await as('POST', '/api/reports/presets', {
      ...full(),
      entities: [site.id, stranger.id],
      users: [strangerUser.id],
      roles: [strangerRole.id],
      courses: [strangerCourse.id],
      pathways: [1],
    });
    expect(res.statusCode).toBe(422);
    const { errors } = res.json();
    expect(Object.keys(errors).sort()).toEqual(['courses', 'entities', 'pathways', 'roles', 'users']);
    expect(errors.entities[0]).toContain(String(stranger.id));
    expect(errors.entities[0]).not.toContain(String(site.id));
    expect(await h.db.selectFrom('report_presets').select('id').execute()).toEqual(before);
  });

  it('answers 403 to a user without a report permission', async () => {
    const user = await buildUser(h.db, { entityId: org.id, permissions: [21] });
    const res = await (await clientFor(h.app, h.db, user.id))('POST', '/api/reports/presets', full());
    expect(res.statusCode).toBe(403);
  });

  it('saves every field of spec 2 §3 and answers them back', async () => {
    const role = await buildRole(h.db, org.id);
    const course = await buildCourse(h.db, org.id);
    const learner = await buildUser(h.db, { entityId: site.id });
    const res = await as('POST', '/api/reports/presets', {
      ...full(),
      roles: [role.id],
      courses: [course.id],
      users: [learner.id],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(PresetMessages.created);
    const { data } = res.json();
    const { name: _n, ...rest } = full();
    expect(data).toMatchObject({
      ...rest,
      name: 'Oakfield monthly matrix',
      roles: [role.id],
      courses: [course.id],
      users: [learner.id],
      user_id: manager.id,
      entity: { id: org.id, slug: org.slug },
      schedules_count: 0,
    });
    const again = await as('GET', `/api/reports/presets/${data.id}`);
    expect(again.json().data).toEqual(data);
  });

  it('fills defaults for the fields left out', async () => {
    const res = await as('POST', '/api/reports/presets', {
      name: 'Just the basics',
      report_type: 'certificate',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      period: 'last_month',
      new_starters_filter: 'include_new_starters',
      care_certificate_filter: 'either',
      compliance_type: 'primary',
      filter_by: 'completed',
      includeStarters: true,
      entities: [],
      from_date: null,
    });
  });
});

describe('acting_as_id', () => {
  it('puts the preset in the acting-as entity, and checks ids against that entity', async () => {
    const res = await as('POST', '/api/reports/presets', {
      name: 'Site preset',
      report_type: 'matrix',
      acting_as_id: site.id,
      entities: [site.id],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.entity.id).toBe(site.id);

    const sibling = await as('POST', '/api/reports/presets', {
      name: 'Reaches a sibling',
      report_type: 'matrix',
      acting_as_id: site.id,
      entities: [otherSite.id],
    });
    expect(sibling.statusCode).toBe(422);
    expect(sibling.json().errors.entities).toBeDefined();

    const listed = await as('GET', `/api/reports/presets?acting_as_id=${site.id}`);
    expect(listed.json().data.map((p: { name: string }) => p.name)).toEqual(['Site preset']);
  });

  it('answers 404 for an entity of another organisation and 403 without permission 19', async () => {
    const stranger = await buildEntity(h.db);
    const outside = await as('POST', '/api/reports/presets', {
      name: 'x',
      report_type: 'matrix',
      acting_as_id: stranger.id,
    });
    expect(outside.statusCode).toBe(404);
    const missing = await as('POST', '/api/reports/presets', {
      name: 'x',
      report_type: 'matrix',
      acting_as_id: 99_999_999,
    });
    expect(missing.json()).toEqual(outside.json());

    const siteManager = await buildUser(h.db, { entityId: site.id, permissions: REPORTS });
    const res = await (await clientFor(h.app, h.db, siteManager.id))('POST', '/api/reports/presets', {
      name: 'x',
      report_type: 'matrix',
      acting_as_id: otherSite.id,
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('GET, PATCH, DELETE /api/reports/presets/{id}', () => {
  it('lets the owner change and delete a preset, and hides it from everyone else', async () => {
    const created = (await as('POST', '/api/reports/presets', full())).json().data;
    const colleague = await buildUser(h.db, { entityId: org.id, permissions: [...REPORTS, 117] });
    const outsider = await buildUser(h.db, { permissions: [...REPORTS, 117] });
    for (const user of [colleague, outsider]) {
      const other = await clientFor(h.app, h.db, user.id);
      expect((await other('GET', `/api/reports/presets/${created.id}`)).statusCode).toBe(404);
      expect((await other('PATCH', `/api/reports/presets/${created.id}`, { name: 'Mine' })).statusCode).toBe(
        404,
      );
      expect((await other('DELETE', `/api/reports/presets/${created.id}`)).statusCode).toBe(404);
    }

    const patched = await as('PATCH', `/api/reports/presets/${created.id}`, {
      name: 'Renamed',
      period: 'today',
      includeStatusTypes: ['in_date'],
      from_date: null,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().data).toMatchObject({
      name: 'Renamed',
      period: 'today',
      includeStatusTypes: ['in_date'],
      from_date: null,
      to_date: '2026-03-31',
      report_type: 'matrix',
    });

    const bad = await as('PATCH', `/api/reports/presets/${created.id}`, { care_certificate_filter: 'nope' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.care_certificate_filter).toBeDefined();

    const del = await as('DELETE', `/api/reports/presets/${created.id}`);
    expect(del.json()).toEqual({ message: PresetMessages.deleted });
    expect((await as('GET', `/api/reports/presets/${created.id}`)).statusCode).toBe(404);
  });

  it('lists only the caller’s presets, paginated', async () => {
    const user = await buildUser(h.db, { entityId: org.id, permissions: [12] });
    const mine = await clientFor(h.app, h.db, user.id);
    for (const name of ['C preset', 'A preset', 'B preset'])
      expect((await mine('POST', '/api/reports/presets', { name, report_type: 'matrix' })).statusCode).toBe(
        201,
      );
    const page1 = (await mine('GET', '/api/reports/presets?per_page=2')).json();
    expect(page1.data.map((p: { name: string }) => p.name)).toEqual(['A preset', 'B preset']);
    expect(page1.meta).toMatchObject({ total: 3, last_page: 2 });
    const page2 = (await mine('GET', '/api/reports/presets?per_page=2&page=2')).json();
    expect(page2.data.map((p: { name: string }) => p.name)).toEqual(['C preset']);
    const res = await h.app.inject({
      method: 'GET',
      url: '/api/reports/presets',
      headers: await bearer(h.db, user.id),
    });
    expect(res.json().data).toHaveLength(3);
  });
});

describe('GET /api/reports/presets/options/{kind}', () => {
  it('offers exactly what a save accepts, by search or by ids', async () => {
    const stranger = await buildEntity(h.db, { name: 'Stranger Home' });
    await buildUser(h.db, { entityId: stranger.id, name: 'Zed Stranger' });
    const learner = await buildUser(h.db, { entityId: site.id, name: 'Zed Insider' });
    const users = await as('GET', '/api/reports/presets/options/users?search=Zed');
    expect(users.statusCode).toBe(200);
    expect(users.json().data).toEqual([{ id: learner.id, label: 'Zed Insider' }]);

    const bySite = await as('GET', `/api/reports/presets/options/entities?acting_as_id=${site.id}`);
    expect(bySite.json().data).toEqual([{ id: site.id, label: site.name }]);
    const byIds = await as('GET', `/api/reports/presets/options/entities?ids=${site.id},${stranger.id}`);
    expect(byIds.json().data).toEqual([{ id: site.id, label: site.name }]);

    // Pathways (issue 17): those of the scope, none here.
    expect((await as('GET', '/api/reports/presets/options/pathways?search=Zed')).json().data).toEqual([]);
    expect((await as('GET', '/api/reports/presets/options/nothing')).statusCode).toBe(422);
    expect((await as('GET', '/api/reports/presets/options/users?ids=1,x')).statusCode).toBe(422);
    expect(
      (await as('GET', `/api/reports/presets/options/users?acting_as_id=${stranger.id}`)).statusCode,
    ).toBe(404);
    const none = await buildUser(h.db, { entityId: org.id, permissions: [21] });
    expect(
      (await (await clientFor(h.app, h.db, none.id))('GET', '/api/reports/presets/options/users')).statusCode,
    ).toBe(403);
  });
});
