import { Messages, ContentPerm as P, PERMISSIONS } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCategory, buildContent, buildCourse } from '../../test/content-factories';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';

const AUTHOR = [P.contentCreator, P.addCourses, P.editCourses, P.addContent, P.editContent];
const ALL = PERMISSIONS.map((p) => p.id);

let h: Harness;
type Call = Awaited<ReturnType<typeof clientFor>>;
let org: { id: number; slug: string };
let site: { id: number; slug: string };
let author: Call;
let siteAuthor: Call;
let viewer: Call;
let learner: Call;
let outsider: Call;
let superAdmin: Call;

beforeAll(async () => {
  h = await createHarness();
  org = await buildEntity(h.db, { level: 'A' });
  site = await buildEntity(h.db, { level: 'B', parentId: org.id });
  author = await clientFor(
    h.app,
    h.db,
    (await buildUser(h.db, { entityId: org.id, permissions: AUTHOR })).id,
  );
  siteAuthor = await clientFor(
    h.app,
    h.db,
    (await buildUser(h.db, { entityId: site.id, permissions: AUTHOR })).id,
  );
  viewer = await clientFor(
    h.app,
    h.db,
    (await buildUser(h.db, { entityId: org.id, permissions: [P.contentCreator] })).id,
  );
  learner = await clientFor(h.app, h.db, (await buildUser(h.db, { entityId: org.id, permissions: [] })).id);
  outsider = await clientFor(h.app, h.db, (await buildUser(h.db, { permissions: ALL })).id);
  superAdmin = await clientFor(h.app, h.db, (await buildUser(h.db, { superAdmin: true })).id);
});
afterAll(async () => h?.close());

const courseCount = async () =>
  Number(
    (
      await h.db
        .selectFrom('courses')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('authentication', () => {
  it.each([
    ['GET', '/api/courses'],
    ['POST', '/api/courses'],
    ['GET', '/api/courses/1'],
    ['PATCH', '/api/courses/1'],
    ['DELETE', '/api/courses/1'],
    ['GET', '/api/course-categories'],
    ['POST', '/api/course-categories'],
    ['PATCH', '/api/course-categories/1'],
    ['DELETE', '/api/course-categories/1'],
    ['GET', '/api/entities/x/courses'],
    ['POST', '/api/entities/x/courses'],
    ['PATCH', '/api/entities/x/courses/updateMultiple'],
    ['PATCH', '/api/entities/x/courses/1'],
    ['DELETE', '/api/entities/x/courses/1'],
    ['GET', '/api/entities/x/content'],
    ['POST', '/api/entities/x/content'],
    ['PATCH', '/api/entities/x/content/updateMultiple'],
    ['PATCH', '/api/entities/x/content/1'],
    ['DELETE', '/api/entities/x/content/1'],
    ['POST', '/api/entity-content'],
  ] as const)('%s %s answers 401 without a caller', async (method, url) => {
    const res = await h.app.inject({ method, url, payload: {} });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/courses', () => {
  it('validates (422), needs 27 (403), and creates in the author organisation', async () => {
    const bad = await author('POST', '/api/courses', { title: '' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.title).toBeDefined();
    const before = await courseCount();
    expect((await viewer('POST', '/api/courses', { title: 'No' })).statusCode).toBe(403);
    expect((await learner('POST', '/api/courses', { title: 'No' })).statusCode).toBe(403);
    expect(await courseCount()).toBe(before);

    const category = await buildCategory(h.db, org.id);
    const res = await author('POST', '/api/courses', {
      title: 'Moving and handling',
      short_title: 'M&H',
      category_id: category.id,
      published: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(Messages.courseCreated);
    expect(res.json().data).toMatchObject({
      title: 'Moving and handling',
      short_title: 'M&H',
      published: true,
      entity_id: org.id,
      platform: false,
      category: { id: category.id },
      contents: [],
    });
  });

  it('refuses a category of another organisation as invalid', async () => {
    const theirs = await buildCategory(h.db, (await buildEntity(h.db)).id);
    const res = await author('POST', '/api/courses', { title: 'X', category_id: theirs.id });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.category_id).toBeDefined();
  });

  it('lets only super admins create platform courses', async () => {
    expect((await author('POST', '/api/courses', { title: 'Platform', platform: true })).statusCode).toBe(
      403,
    );
    const res = await superAdmin('POST', '/api/courses', { title: 'Platform course', platform: true });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ entity_id: null, platform: true });
  });
});

describe('GET /api/courses', () => {
  it('lists visible courses, 10 by default, with filters; 403 without 63', async () => {
    const category = await buildCategory(h.db, org.id);
    for (let i = 0; i < 12; i++)
      await buildCourse(h.db, org.id, { title: `Paged ${i}`, categoryId: category.id });
    const theirs = await buildCourse(h.db, (await buildEntity(h.db)).id, { title: 'Their paged course' });

    expect((await learner('GET', '/api/courses')).statusCode).toBe(403);
    const first = await author('GET', `/api/courses?category_id=${category.id}`);
    expect(first.statusCode).toBe(200);
    expect(first.json().message).toBe(Messages.coursesFetched);
    expect(first.json().data).toHaveLength(10);
    expect(first.json().meta).toMatchObject({ per_page: 10, total: 12 });
    expect((await author('GET', `/api/courses?category_id=${category.id}&first=5`)).json().data).toHaveLength(
      5,
    );

    const search = await author('GET', '/api/courses?search=paged&per_page=100');
    expect(search.json().data.map((c: { title: string }) => c.title)).not.toContain(theirs.title);
    const published = await author('GET', '/api/courses?published=1&per_page=100');
    expect(published.json().data.every((c: { published: boolean }) => c.published)).toBe(true);
  });

  it('shows a site the courses of its parent organisation, and platform courses only when assigned and published', async () => {
    const parents = await buildCourse(h.db, org.id, { title: 'Parent course' });
    const platformDraft = await buildCourse(h.db, null, { title: 'Platform draft' });
    const platformLive = await buildCourse(h.db, null, { title: 'Platform live', published: true });
    const unassigned = await buildCourse(h.db, null, { title: 'Platform unassigned', published: true });
    await h.db
      .insertInto('entity_courses')
      .values([
        { entity_id: org.id, course_id: platformDraft.id },
        { entity_id: org.id, course_id: platformLive.id },
      ])
      .execute();
    const titles = (await siteAuthor('GET', '/api/courses?per_page=100'))
      .json()
      .data.map((c: { title: string }) => c.title);
    expect(titles).toContain(parents.title);
    expect(titles).toContain(platformLive.title);
    expect(titles).not.toContain(platformDraft.title);
    expect(titles).not.toContain(unassigned.title);
    const outsiders = (await outsider('GET', '/api/courses?per_page=100'))
      .json()
      .data.map((c: { title: string }) => c.title);
    expect(outsiders).not.toContain(parents.title);
    expect(outsiders).not.toContain(platformLive.title);
  });
});

describe('GET/PATCH/DELETE /api/courses/{id}', () => {
  it('shows a course with its contents, lessons and topics', async () => {
    const course = await buildCourse(h.db, org.id);
    const content = await buildContent(h.db, { entityId: org.id, courseId: course.id });
    const res = await viewer('GET', `/api/courses/${course.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.contents).toEqual([
      { id: content.id, title: content.title, type: 'elearning', published: false },
    ]);
    expect((await learner('GET', `/api/courses/${course.id}`)).statusCode).toBe(403);
    expect((await outsider('GET', `/api/courses/${course.id}`)).statusCode).toBe(404);
    expect((await author('GET', '/api/courses/99999999')).statusCode).toBe(404);
  });

  it('updates (422, 403 without 28, 404 outsider, 403 for a parent course seen from a site)', async () => {
    const course = await buildCourse(h.db, org.id, { title: 'Before' });
    expect((await author('PATCH', `/api/courses/${course.id}`, { title: '' })).statusCode).toBe(422);
    expect((await viewer('PATCH', `/api/courses/${course.id}`, { title: 'No' })).statusCode).toBe(403);
    expect((await outsider('PATCH', `/api/courses/${course.id}`, { title: 'No' })).statusCode).toBe(404);
    const fromSite = await siteAuthor('PATCH', `/api/courses/${course.id}`, { title: 'No' });
    expect(fromSite.statusCode).toBe(403);
    expect(fromSite.json().message).toBe(Messages.readOnlyInherited);
    const row = await h.db
      .selectFrom('courses')
      .select('title')
      .where('id', '=', course.id)
      .executeTakeFirstOrThrow();
    expect(row.title).toBe('Before');

    const res = await author('PATCH', `/api/courses/${course.id}`, { title: 'After', published: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: Messages.courseUpdated,
      data: { title: 'After', published: true },
    });
  });

  it('deletes a course with its contents', async () => {
    const course = await buildCourse(h.db, org.id);
    const content = await buildContent(h.db, { entityId: org.id, courseId: course.id });
    expect((await viewer('DELETE', `/api/courses/${course.id}`)).statusCode).toBe(403);
    expect((await outsider('DELETE', `/api/courses/${course.id}`)).statusCode).toBe(404);
    const res = await author('DELETE', `/api/courses/${course.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(Messages.courseDeleted);
    expect(
      await h.db.selectFrom('contents').where('id', '=', content.id).selectAll().executeTakeFirst(),
    ).toBeUndefined();
  });
});

describe('/api/course-categories', () => {
  it('creates, lists, renames and deletes categories of the organisation', async () => {
    expect((await author('POST', '/api/course-categories', { name: '' })).statusCode).toBe(422);
    expect((await viewer('POST', '/api/course-categories', { name: 'No' })).statusCode).toBe(403);
    const created = await author('POST', '/api/course-categories', { name: 'Clinical' });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    expect((await author('POST', '/api/course-categories', { name: 'clinical' })).statusCode).toBe(422);

    expect((await learner('GET', '/api/course-categories')).statusCode).toBe(403);
    const list = await viewer('GET', '/api/course-categories?per_page=100');
    expect(list.json().data.map((c: { id: number }) => c.id)).toContain(id);
    const theirs = await outsider('GET', '/api/course-categories?per_page=100');
    expect(theirs.json().data.map((c: { id: number }) => c.id)).not.toContain(id);

    expect((await outsider('PATCH', `/api/course-categories/${id}`, { name: 'Taken' })).statusCode).toBe(404);
    expect((await viewer('PATCH', `/api/course-categories/${id}`, { name: 'Taken' })).statusCode).toBe(403);
    expect((await author('PATCH', `/api/course-categories/${id}`, { name: '' })).statusCode).toBe(422);
    const renamed = await author('PATCH', `/api/course-categories/${id}`, { name: 'Clinical skills' });
    expect(renamed.json().data.name).toBe('Clinical skills');

    const course = await buildCourse(h.db, org.id, { categoryId: id });
    expect((await outsider('DELETE', `/api/course-categories/${id}`)).statusCode).toBe(404);
    expect((await author('DELETE', `/api/course-categories/${id}`)).statusCode).toBe(200);
    const row = await h.db
      .selectFrom('courses')
      .select('category_id')
      .where('id', '=', course.id)
      .executeTakeFirstOrThrow();
    expect(row.category_id).toBeNull();
  });
});

describe('entity courses and content', () => {
  let admin: Call;
  beforeAll(async () => {
    admin = await clientFor(
      h.app,
      h.db,
      (
        await buildUser(h.db, {
          entityId: org.id,
          permissions: [...AUTHOR, P.entityContent, P.entityCourses],
        })
      ).id,
    );
  });

  it('assigns, switches and removes a course for a site', async () => {
    const course = await buildCourse(h.db, org.id, { title: 'Assignable' });
    const url = `/api/entities/${site.slug}/courses`;
    expect((await author('POST', url, { course_id: course.id })).statusCode).toBe(403);
    expect((await outsider('POST', url, { course_id: course.id })).statusCode).toBe(404);
    expect((await admin('POST', url, {})).statusCode).toBe(422);
    const theirs = await buildCourse(h.db, (await buildEntity(h.db)).id);
    expect((await admin('POST', url, { course_id: theirs.id })).statusCode).toBe(422);

    const added = await admin('POST', url, { course_id: course.id });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().data).toMatchObject({ course_id: course.id, enabled: true });
    const list = await admin('GET', url);
    // The site's own row; the organisation's other courses are listed as inherited (issue 38).
    expect(list.json().data.filter((r: { inherited: boolean }) => !r.inherited)).toEqual([
      { course_id: course.id, title: 'Assignable', enabled: true, inherited: false },
    ]);

    const off = await admin('PATCH', `${url}/${course.id}`, { enabled: false });
    expect(off.json()).toMatchObject({ message: Messages.successfullyUpdated, data: { enabled: false } });
    expect((await admin('PATCH', `${url}/99999999`, { enabled: false })).statusCode).toBe(404);
    expect((await admin('DELETE', `${url}/${course.id}`)).statusCode).toBe(200);
    expect((await admin('DELETE', `${url}/${course.id}`)).statusCode).toBe(404);
  });

  it('lists the courses a site inherits from its organisation, marked inherited; its own row wins (issue 38)', async () => {
    const home = await buildEntity(h.db, { parentId: org.id });
    const inherited = await buildCourse(h.db, org.id, { title: 'Zz inherited from the group' });
    const catalogue = await buildCourse(h.db, null, {
      title: 'Zz platform course on at the group',
      published: true,
    });
    const hidden = await buildCourse(h.db, null, {
      title: 'Zz platform course off at the group',
      published: true,
    });
    await h.db
      .insertInto('entity_courses')
      .values([
        { entity_id: org.id, course_id: catalogue.id, enabled: true },
        { entity_id: org.id, course_id: hidden.id, enabled: false },
      ])
      .execute();
    const url = `/api/entities/${home.slug}/courses`;
    const rows = async () => (await admin('GET', `${url}?search=Zz&per_page=50`)).json();
    const first = await rows();
    expect(first.data).toEqual([
      { course_id: inherited.id, title: 'Zz inherited from the group', enabled: true, inherited: true },
      {
        course_id: catalogue.id,
        title: 'Zz platform course on at the group',
        enabled: true,
        inherited: true,
      },
    ]);
    expect(first.meta.total).toBe(2);
    // Switched off at the home: its own row, listed once, not inherited.
    expect((await admin('POST', url, { course_id: inherited.id, enabled: false })).statusCode).toBe(201);
    expect((await rows()).data).toContainEqual({
      course_id: inherited.id,
      title: 'Zz inherited from the group',
      enabled: false,
      inherited: false,
    });
    expect((await rows()).meta.total).toBe(2);
    // The organisation itself inherits nothing: its own rows only.
    const own = (await admin('GET', `/api/entities/${org.slug}/courses?search=Zz`)).json().data;
    expect(own.every((r: { inherited: boolean }) => !r.inherited)).toBe(true);
  });

  it('keeps a platform course switched off for the organisation listed, so it can be switched back on', async () => {
    const catalogue = await buildCourse(h.db, null, { title: 'Catalogue course', published: true });
    const content = await buildContent(h.db, {
      entityId: null,
      courseId: catalogue.id,
      title: 'Catalogue content',
      published: true,
    });
    const url = `/api/entities/${org.slug}/courses`;
    const contentUrl = `/api/entities/${org.slug}/content`;
    await h.db
      .insertInto('entity_courses')
      .values({ entity_id: org.id, course_id: catalogue.id, enabled: true })
      .execute();
    await h.db
      .insertInto('entity_content')
      .values({ entity_id: org.id, content_id: content.id, enabled: true })
      .execute();

    const off = await admin('PATCH', `${url}/updateMultiple`, {
      items: [{ course_id: catalogue.id, enabled: false }],
    });
    expect(off.statusCode, off.body).toBe(200);
    // Switched off, the course is hidden from the organisation's learners and authors, but still listed here.
    expect((await admin('GET', `/api/courses/${catalogue.id}`)).statusCode).toBe(404);
    const listed = (await admin('GET', `${url}?search=Catalogue`)).json().data;
    expect(listed).toEqual([
      { course_id: catalogue.id, title: 'Catalogue course', enabled: false, inherited: false },
    ]);
    const on = await admin('PATCH', `${url}/${catalogue.id}`, { enabled: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().data.enabled).toBe(true);

    const contentOff = await admin('PATCH', `${contentUrl}/${content.id}`, { enabled: false });
    expect(contentOff.statusCode, contentOff.body).toBe(200);
    expect((await admin('GET', `${contentUrl}?search=Catalogue`)).json().data[0]).toMatchObject({
      content_id: content.id,
      enabled: false,
    });
    const contentOn = await admin('PATCH', `${contentUrl}/updateMultiple`, {
      items: [{ content_id: content.id, enabled: true }],
    });
    expect(contentOn.statusCode, contentOn.body).toBe(200);
    // Another organisation's course that was never listed here stays refused.
    const theirs = await buildCourse(h.db, (await buildEntity(h.db)).id);
    expect(
      (await admin('PATCH', `${url}/updateMultiple`, { items: [{ course_id: theirs.id, enabled: true }] }))
        .statusCode,
    ).toBe(422);
  });

  it('updateMultiple is all or nothing', async () => {
    const a = await buildContent(h.db, { entityId: org.id });
    const b = await buildContent(h.db, { entityId: org.id });
    const theirs = await buildContent(h.db, { entityId: (await buildEntity(h.db)).id });
    const url = `/api/entities/${site.slug}/content/updateMultiple`;
    const refused = await admin('PATCH', url, {
      items: [
        { content_id: a.id, enabled: false },
        { content_id: theirs.id, enabled: false },
      ],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors['items.1.content_id']).toBeDefined();
    const none = await h.db
      .selectFrom('entity_content')
      .selectAll()
      .where('entity_id', '=', site.id)
      .execute();
    expect(none).toEqual([]);

    const res = await admin('PATCH', url, {
      items: [
        { content_id: a.id, enabled: false },
        { content_id: b.id, enabled: true },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(Messages.successfullyUpdated);
    const rows = await h.db
      .selectFrom('entity_content')
      .select(['content_id', 'enabled'])
      .where('entity_id', '=', site.id)
      .orderBy('content_id')
      .execute();
    expect(rows).toEqual([
      { content_id: a.id, enabled: false },
      { content_id: b.id, enabled: true },
    ]);
  });

  it('keeps the admin-only override behind 122, and POST /entity-content assigns several', async () => {
    const content = await buildContent(h.db, { entityId: org.id });
    const url = `/api/entities/${site.slug}/content`;
    expect((await admin('POST', url, { content_id: content.id, admin_only_override: true })).statusCode).toBe(
      403,
    );
    expect((await admin('POST', url, { content_id: content.id })).statusCode).toBe(201);
    expect((await admin('PATCH', `${url}/${content.id}`, { admin_only_override: true })).statusCode).toBe(
      403,
    );

    const c2 = await buildContent(h.db, { entityId: org.id });
    expect(
      (await admin('POST', '/api/entity-content', { entity: site.slug, content_ids: [] })).statusCode,
    ).toBe(422);
    expect(
      (await author('POST', '/api/entity-content', { entity: site.slug, content_ids: [c2.id] })).statusCode,
    ).toBe(403);
    const res = await admin('POST', '/api/entity-content', {
      entity: site.slug,
      content_ids: [content.id, c2.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.map((r: { content_id: number }) => r.content_id)).toEqual(
      expect.arrayContaining([content.id, c2.id]),
    );
    expect((await admin('DELETE', `${url}/${c2.id}`)).json().message).toBe(Messages.assignmentRemoved);
  });
});
