import { Messages, ContentPerm as P, PERMISSIONS } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildContent,
  buildContentImage,
  buildCourse,
  buildLesson,
  buildQuiz,
  linkLessons,
} from '../../test/content-factories';
import { bearer, buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { sanitizeRichText } from './sanitize';

const AUTHOR = [P.contentCreator, P.addCourses, P.editCourses, P.addContent, P.editContent];
const ALL = PERMISSIONS.map((p) => p.id);

let h: Harness;
type Call = Awaited<ReturnType<typeof clientFor>>;
let org: { id: number; slug: string };
let authorId: number;
let author: Call;
let restrictor: Call;
let viewer: Call;
let learner: Call;
let outsider: Call;
let course: { id: number };

beforeAll(async () => {
  h = await createHarness();
  org = await buildEntity(h.db, { level: 'A' });
  authorId = (await buildUser(h.db, { entityId: org.id, permissions: AUTHOR })).id;
  author = await clientFor(h.app, h.db, authorId);
  restrictor = await clientFor(
    h.app,
    h.db,
    (await buildUser(h.db, { entityId: org.id, permissions: [...AUTHOR, P.restrictContent] })).id,
  );
  viewer = await clientFor(
    h.app,
    h.db,
    (await buildUser(h.db, { entityId: org.id, permissions: [P.contentCreator] })).id,
  );
  learner = await clientFor(h.app, h.db, (await buildUser(h.db, { entityId: org.id, permissions: [] })).id);
  outsider = await clientFor(h.app, h.db, (await buildUser(h.db, { permissions: ALL })).id);
  course = await buildCourse(h.db, org.id);
});
afterAll(async () => h?.close());

const contentRow = (id: number) =>
  h.db.selectFrom('contents').selectAll().where('id', '=', id).executeTakeFirst();

describe('authentication', () => {
  it.each([
    ['GET', '/api/content'],
    ['POST', '/api/content'],
    ['GET', '/api/content/1'],
    ['PATCH', '/api/content/1'],
    ['DELETE', '/api/content/1'],
    ['POST', '/api/content/images'],
    ['POST', '/api/content/images/delete'],
    ['POST', '/api/content/1/lessons'],
    ['POST', '/api/content/1/quizzes'],
    ['POST', '/api/feedback/1'],
  ] as const)('%s %s answers 401 without a caller', async (method, url) => {
    expect((await h.app.inject({ method, url, payload: {} })).statusCode).toBe(401);
  });
});

describe('POST /api/content', () => {
  const valid = () => ({
    course_id: course.id,
    type: 'historical',
    title: 'Fire safety',
    aims: '<p onclick="steal()">Aims<script>alert(1)</script></p>',
    outcomes: '<ul><li>One</li></ul><img src="x" onerror="alert(1)">',
    estimated_duration: 45,
    cpd_accredited: true,
    published: true,
  });

  it('validates every field (422) and needs 29 (403)', async () => {
    const bad = await author('POST', '/api/content', { ...valid(), type: 'video', title: '' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(expect.arrayContaining(['type', 'title']));
    expect((await viewer('POST', '/api/content', valid())).statusCode).toBe(403);
    const theirCourse = await buildCourse(h.db, (await buildEntity(h.db)).id);
    const foreign = await author('POST', '/api/content', { ...valid(), course_id: theirCourse.id });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.course_id).toBeDefined();
  });

  it('creates content with sanitised aims and outcomes', async () => {
    const res = await author('POST', '/api/content', valid());
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(Messages.contentCreated);
    const data = res.json().data;
    expect(data).toMatchObject({
      type: 'historical',
      title: 'Fire safety',
      course: { id: course.id },
      entity_id: org.id,
      estimated_duration: 45,
      cpd_accredited: true,
      admin_only: false,
      published: true,
      prerequisites: [],
      lessons: [],
      quizzes: [],
    });
    const row = await contentRow(data.id);
    expect(row?.aims).toBe('<p>Aims</p>');
    expect(row?.outcomes).toBe('<ul><li>One</li></ul>');
  });

  it('needs 122 to create admin-only content', async () => {
    expect((await author('POST', '/api/content', { ...valid(), admin_only: true })).statusCode).toBe(403);
    const res = await restrictor('POST', '/api/content', { ...valid(), admin_only: true });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.admin_only).toBe(true);
  });

  it('checks prerequisites: options of visible content ids', async () => {
    const a = await buildContent(h.db, { entityId: org.id, courseId: course.id });
    const b = await buildContent(h.db, { entityId: org.id, courseId: course.id });
    const theirs = await buildContent(h.db, { entityId: (await buildEntity(h.db)).id });
    const bad = await author('POST', '/api/content', {
      ...valid(),
      prerequisites: [[a.id], [b.id, theirs.id]],
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['prerequisites.1.1']);
    const res = await author('POST', '/api/content', { ...valid(), prerequisites: [[a.id], [b.id]] });
    expect(res.json().data.prerequisites).toEqual([[a.id], [b.id]]);
  });
});

describe('GET /api/content', () => {
  it('lists face-to-face content for those who schedule sessions (9 or 11), and nothing else without 63', async () => {
    const f2f = await buildContent(h.db, {
      entityId: org.id,
      type: 'face2face',
      title: 'Moving and Handling F2F',
    });
    await buildContent(h.db, { entityId: org.id, type: 'elearning', title: 'Online Only' });
    const scheduler = await clientFor(
      h.app,
      h.db,
      (await buildUser(h.db, { entityId: org.id, permissions: [9] })).id,
    );
    expect((await scheduler('GET', '/api/content')).statusCode).toBe(403);
    expect((await scheduler('GET', '/api/content?type=elearning')).statusCode).toBe(403);
    const res = await scheduler('GET', '/api/content?type=face2face&per_page=100');
    expect(res.statusCode).toBe(200);
    const titles = res.json().data.map((c: { title: string }) => c.title);
    expect(titles).toContain(f2f.title);
    expect(titles).not.toContain('Online Only');
    expect((await learner('GET', '/api/content?type=face2face')).statusCode).toBe(403);
  });

  it('filters by type, course and search, and hides other organisations and admin-only content without 122', async () => {
    const c2 = await buildCourse(h.db, org.id);
    const scorm = await buildContent(h.db, {
      entityId: org.id,
      courseId: c2.id,
      type: 'scorm',
      title: 'Scorm one',
    });
    const hidden = await buildContent(h.db, {
      entityId: org.id,
      courseId: c2.id,
      adminOnly: true,
      title: 'Hidden one',
    });
    const theirs = await buildContent(h.db, { entityId: (await buildEntity(h.db)).id, title: 'Their one' });

    expect((await learner('GET', '/api/content')).statusCode).toBe(403);
    expect((await author('GET', '/api/content?type=video')).statusCode).toBe(422);
    const byType = await author('GET', `/api/content?type=scorm&course_id=${c2.id}`);
    expect(byType.json().data.map((c: { id: number }) => c.id)).toEqual([scorm.id]);
    const all = await author('GET', `/api/content?course_id=${c2.id}`);
    expect(all.json().data.map((c: { id: number }) => c.id)).not.toContain(hidden.id);
    const withRestrict = await restrictor('GET', `/api/content?course_id=${c2.id}`);
    expect(withRestrict.json().data.map((c: { id: number }) => c.id)).toContain(hidden.id);
    expect((await author('GET', `/api/content/${hidden.id}`)).statusCode).toBe(404);
    const search = await author('GET', '/api/content?search=one&per_page=100');
    expect(search.json().data.map((c: { title: string }) => c.title)).not.toContain(theirs.title);
    expect((await outsider('GET', `/api/content/${scorm.id}`)).statusCode).toBe(404);
    expect((await learner('GET', `/api/content/${scorm.id}`)).statusCode).toBe(403);
  });

  it('an entity override can make content admin-only for that organisation', async () => {
    const content = await buildContent(h.db, { entityId: org.id, courseId: course.id });
    await h.db
      .insertInto('entity_content')
      .values({ entity_id: org.id, content_id: content.id, admin_only_override: true })
      .execute();
    expect((await author('GET', `/api/content/${content.id}`)).statusCode).toBe(404);
    expect((await restrictor('GET', `/api/content/${content.id}`)).statusCode).toBe(200);
  });
});

describe('PATCH/DELETE /api/content/{id}', () => {
  it('updates (422, 403, 404 outsider, 122 for admin_only) and sanitises', async () => {
    const content = await buildContent(h.db, { entityId: org.id, courseId: course.id, title: 'Before' });
    const url = `/api/content/${content.id}`;
    expect((await author('PATCH', url, { estimated_duration: -1 })).statusCode).toBe(422);
    expect((await viewer('PATCH', url, { title: 'No' })).statusCode).toBe(403);
    expect((await outsider('PATCH', url, { title: 'No' })).statusCode).toBe(404);
    expect((await author('PATCH', url, { admin_only: true })).statusCode).toBe(403);
    expect((await contentRow(content.id))?.title).toBe('Before');

    const res = await author('PATCH', url, { title: 'After', aims: '<a href="javascript:alert(1)">x</a>' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(Messages.contentUpdated);
    expect((await contentRow(content.id))?.aims).toBe('<a rel="noopener noreferrer">x</a>');
  });

  it('deletes content and detaches its lessons in the same statement', async () => {
    const content = await buildContent(h.db, { entityId: org.id, courseId: course.id });
    const lesson = await buildLesson(h.db, org.id);
    await linkLessons(h.db, content.id, [lesson.id]);
    expect((await viewer('DELETE', `/api/content/${content.id}`)).statusCode).toBe(403);
    expect((await outsider('DELETE', `/api/content/${content.id}`)).statusCode).toBe(404);
    const res = await author('DELETE', `/api/content/${content.id}`);
    expect(res.json().message).toBe(Messages.contentDeleted);
    expect(await contentRow(content.id)).toBeUndefined();
    expect(
      await h.db.selectFrom('content_lessons').selectAll().where('lesson_id', '=', lesson.id).execute(),
    ).toEqual([]);
    expect(
      await h.db.selectFrom('lessons').selectAll().where('id', '=', lesson.id).executeTakeFirst(),
    ).toBeDefined();
  });
});

describe('content images', () => {
  const PNG = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.alloc(64, 1),
  ]);
  const multipart = (bytes: Buffer, filename: string) => {
    const boundary = '----cc-test-boundary';
    return {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    };
  };
  const upload = async (userId: number, bytes: Buffer, filename = 'photo.png') => {
    const body = multipart(bytes, filename);
    return h.app.inject({
      method: 'POST',
      url: '/api/content/images',
      headers: { ...(await bearer(h.db, userId)), ...body.headers },
      payload: body.payload,
    });
  };

  it('uploads an image identified by its bytes, serves it, and deletes it', async () => {
    const viewerId = (await buildUser(h.db, { entityId: org.id, permissions: [P.contentCreator] })).id;
    expect((await upload(viewerId, PNG)).statusCode).toBe(403);
    const html = await upload(authorId, Buffer.from('<script>alert(1)</script>'), 'evil.png');
    expect(html.statusCode).toBe(422);
    expect(html.json().errors.image).toBeDefined();
    expect((await author('POST', '/api/content/images', {})).statusCode).toBe(422);

    const res = await upload(authorId, PNG);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(Messages.imageUploaded);
    const { id, url } = res.json().data;
    const file = await h.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(file).toMatchObject({ purpose: 'content_image', entity_id: org.id, mime_type: 'image/png' });
    expect(url).toBe(`/api/files/${file.uuid}`);

    const content = await author('POST', '/api/content', {
      course_id: course.id,
      type: 'elearning',
      title: 'With image',
      image_id: id,
    });
    expect(content.json().data.image).toEqual({ id, url });

    expect((await outsider('POST', '/api/content/images/delete', { id })).statusCode).toBe(404);
    expect((await viewer('POST', '/api/content/images/delete', { id })).statusCode).toBe(403);
    expect((await author('POST', '/api/content/images/delete', {})).statusCode).toBe(422);
    const removed = await author('POST', '/api/content/images/delete', { id });
    expect(removed.json().message).toBe(Messages.imageRemoved);
    expect(
      await h.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst(),
    ).toBeUndefined();
    expect(await h.deps.storage.get(file.storage_key)).toBeNull();
    expect((await contentRow(content.json().data.id))?.image_file_id).toBeNull();
  });

  it('refuses an image of another organisation as a reference', async () => {
    const theirs = await buildContentImage(h.db, (await buildEntity(h.db)).id);
    const res = await author('POST', '/api/content', {
      course_id: course.id,
      type: 'elearning',
      title: 'X',
      image_id: theirs.id,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.image_id).toBeDefined();
  });
});

describe('POST /api/content/{id}/lessons and /quizzes', () => {
  it('adds, orders and removes lessons', async () => {
    const content = await buildContent(h.db, { entityId: org.id, courseId: course.id });
    const [l1, l2, l3] = [
      await buildLesson(h.db, org.id),
      await buildLesson(h.db, org.id),
      await buildLesson(h.db, org.id),
    ];
    const url = `/api/content/${content.id}/lessons`;
    expect((await author('POST', url, { action: 'add' })).statusCode).toBe(422);
    expect((await author('POST', url, { action: 'fly', lesson_id: l1.id })).statusCode).toBe(422);
    expect((await viewer('POST', url, { action: 'add', lesson_id: l1.id })).statusCode).toBe(403);
    expect((await outsider('POST', url, { action: 'add', lesson_id: l1.id })).statusCode).toBe(404);
    const theirs = await buildLesson(h.db, (await buildEntity(h.db)).id);
    expect((await author('POST', url, { action: 'add', lesson_id: theirs.id })).statusCode).toBe(422);

    for (const l of [l1, l2, l3]) {
      const res = await author('POST', url, { action: 'add', lesson_id: l.id });
      expect(res.json().message).toBe(Messages.lessonAdded);
    }
    const ordered = await author('POST', url, { action: 'order', ids: [l3.id, l1.id, l2.id] });
    expect(ordered.json().message).toBe(Messages.lessonReordered);
    expect(ordered.json().data.map((l: { id: number }) => l.id)).toEqual([l3.id, l1.id, l2.id]);
    expect((await author('POST', url, { action: 'order', ids: [l3.id, l1.id] })).statusCode).toBe(422);
    const removed = await author('POST', url, { action: 'remove', lesson_id: l1.id });
    expect(removed.json().message).toBe(Messages.lessonRemoved);
    expect(removed.json().data.map((l: { id: number }) => l.id)).toEqual([l3.id, l2.id]);
    expect((await author('POST', url, { action: 'remove', lesson_id: l1.id })).statusCode).toBe(404);
    const detail = await author('GET', `/api/content/${content.id}`);
    expect(detail.json().data.lessons.map((l: { id: number }) => l.id)).toEqual([l3.id, l2.id]);
  });

  it('adds and removes quizzes', async () => {
    const content = await buildContent(h.db, { entityId: org.id, courseId: course.id });
    const quiz = await buildQuiz(h.db, org.id);
    const url = `/api/content/${content.id}/quizzes`;
    expect((await author('POST', url, { action: 'add' })).statusCode).toBe(422);
    expect((await viewer('POST', url, { action: 'add', quiz_id: quiz.id })).statusCode).toBe(403);
    expect((await outsider('POST', url, { action: 'add', quiz_id: quiz.id })).statusCode).toBe(404);
    const added = await author('POST', url, { action: 'add', quiz_id: quiz.id });
    expect(added.json()).toMatchObject({ message: Messages.quizAdded, data: [{ id: quiz.id, position: 0 }] });
    expect((await author('POST', url, { action: 'remove', quiz_id: quiz.id })).json().message).toBe(
      Messages.quizRemoved,
    );
  });
});

describe('POST /api/feedback/{id}', () => {
  it('takes a rating from any user who can see the content', async () => {
    const live = await buildContent(h.db, { entityId: org.id, courseId: course.id, published: true });
    const draft = await buildContent(h.db, { entityId: org.id, courseId: course.id });
    expect((await learner('POST', `/api/feedback/${live.id}`, { rating: 6 })).statusCode).toBe(422);
    expect((await learner('POST', `/api/feedback/${draft.id}`, { rating: 4 })).statusCode).toBe(404);
    expect((await outsider('POST', `/api/feedback/${live.id}`, { rating: 4 })).statusCode).toBe(404);
    const res = await learner('POST', `/api/feedback/${live.id}`, { rating: 4, message: 'Clear' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ content_id: live.id, rating: 4, message: 'Clear' });
    const rows = await h.db.selectFrom('feedback').selectAll().where('content_id', '=', live.id).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('sanitizeRichText', () => {
  it('keeps author formatting and strips script, handlers, styles and iframes', () => {
    const html = sanitizeRichText(
      '<h2>Title</h2><p style="color:red">Text <strong>bold</strong> <a href="https://example.org" onclick="x()">link</a></p>' +
        '<script>alert(1)</script><img src="https://cdn.example/a.png" onerror="alert(1)"><img src="http://insecure/a.png">' +
        '<iframe src="https://evil"></iframe><table><tr><td>1</td></tr></table><a href="mailto:a@b.c">m</a>',
    );
    expect(html).toBe(
      '<h2>Title</h2><p>Text <strong>bold</strong> <a href="https://example.org" rel="noopener noreferrer">link</a></p>' +
        '<img src="https://cdn.example/a.png" /><table><tr><td>1</td></tr></table>' +
        '<a href="mailto:a@b.c" rel="noopener noreferrer">m</a>',
    );
  });
});
