import { Messages } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authoringWorld } from '../../test/content-clients';
import { buildContent, buildLesson, buildTopic, linkLessons, linkTopics } from '../../test/content-factories';
import { buildEntity } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';

let h: Harness;
let w: Awaited<ReturnType<typeof authoringWorld>>;
beforeAll(async () => {
  h = await createHarness();
  w = await authoringWorld(h);
});
afterAll(async () => h?.close());

describe('authentication', () => {
  it.each([
    ['GET', '/api/lessons'],
    ['POST', '/api/lessons'],
    ['GET', '/api/lessons/1'],
    ['PATCH', '/api/lessons/1'],
    ['DELETE', '/api/lessons/1'],
    ['POST', '/api/lessons/1/topics'],
  ] as const)('%s %s answers 401 without a caller', async (method, url) => {
    expect((await h.app.inject({ method, url, payload: {} })).statusCode).toBe(401);
  });
});

describe('lessons', () => {
  it('creates (422, 403) and lists within the organisation', async () => {
    expect((await w.author('POST', '/api/lessons', { title: ' ' })).statusCode).toBe(422);
    expect((await w.viewer('POST', '/api/lessons', { title: 'No' })).statusCode).toBe(403);
    const res = await w.author('POST', '/api/lessons', { title: 'Lesson one', question_qty: 5 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: Messages.lessonCreated,
      data: { title: 'Lesson one', question_qty: 5, entity_id: w.org.id, topics: [] },
    });
    const id = res.json().data.id;
    expect((await w.learner('GET', '/api/lessons')).statusCode).toBe(403);
    expect((await w.viewer('GET', '/api/lessons')).json().data.map((l: { id: number }) => l.id)).toContain(
      id,
    );
    expect(
      (await w.siteAuthor('GET', '/api/lessons')).json().data.map((l: { id: number }) => l.id),
    ).toContain(id);
    expect(
      (await w.outsider('GET', '/api/lessons')).json().data.map((l: { id: number }) => l.id),
    ).not.toContain(id);
    expect((await w.outsider('GET', `/api/lessons/${id}`)).statusCode).toBe(404);
    expect((await w.learner('GET', `/api/lessons/${id}`)).statusCode).toBe(403);
  });

  it('updates and deletes (detaching it from content in the same statement)', async () => {
    const lesson = await buildLesson(h.db, w.org.id, { title: 'Before' });
    const url = `/api/lessons/${lesson.id}`;
    expect((await w.author('PATCH', url, { question_qty: -1 })).statusCode).toBe(422);
    expect((await w.viewer('PATCH', url, { title: 'No' })).statusCode).toBe(403);
    expect((await w.outsider('PATCH', url, { title: 'No' })).statusCode).toBe(404);
    expect((await w.siteAuthor('PATCH', url, { title: 'No' })).statusCode).toBe(403);
    const res = await w.author('PATCH', url, { title: 'After' });
    expect(res.json()).toMatchObject({ message: Messages.lessonUpdated, data: { title: 'After' } });

    const content = await buildContent(h.db, { entityId: w.org.id });
    await linkLessons(h.db, content.id, [lesson.id]);
    expect((await w.viewer('DELETE', url)).statusCode).toBe(403);
    expect((await w.outsider('DELETE', url)).statusCode).toBe(404);
    expect((await w.author('DELETE', url)).json().message).toBe(Messages.lessonDeleted);
    expect(
      await h.db.selectFrom('content_lessons').selectAll().where('content_id', '=', content.id).execute(),
    ).toEqual([]);
  });

  it('adds, orders and removes topics', async () => {
    const lesson = await buildLesson(h.db, w.org.id);
    const [t1, t2] = [await buildTopic(h.db, w.org.id), await buildTopic(h.db, w.org.id)];
    const theirs = await buildTopic(h.db, (await buildEntity(h.db)).id);
    const url = `/api/lessons/${lesson.id}/topics`;
    expect((await w.author('POST', url, { action: 'order' })).statusCode).toBe(422);
    expect((await w.author('POST', url, { action: 'add', topic_id: theirs.id })).statusCode).toBe(422);
    expect((await w.viewer('POST', url, { action: 'add', topic_id: t1.id })).statusCode).toBe(403);
    expect((await w.outsider('POST', url, { action: 'add', topic_id: t1.id })).statusCode).toBe(404);
    expect((await w.author('POST', url, { action: 'add', topic_id: t1.id })).json().message).toBe(
      Messages.topicAdded,
    );
    await w.author('POST', url, { action: 'add', topic_id: t2.id });
    const ordered = await w.author('POST', url, { action: 'order', ids: [t2.id, t1.id] });
    expect(ordered.json().message).toBe(Messages.topicReordered);
    expect(
      (await w.author('GET', `/api/lessons/${lesson.id}`))
        .json()
        .data.topics.map((t: { id: number }) => t.id),
    ).toEqual([t2.id, t1.id]);
    const removed = await w.author('POST', url, { action: 'remove', topic_id: t2.id });
    expect(removed.json()).toMatchObject({ message: Messages.topicRemoved, data: [{ id: t1.id }] });
  });

  it('keeps topic links when a topic is deleted elsewhere consistent', async () => {
    const lesson = await buildLesson(h.db, w.org.id);
    const topic = await buildTopic(h.db, w.org.id);
    await linkTopics(h.db, lesson.id, [topic.id]);
    expect((await w.author('DELETE', `/api/topics/${topic.id}`)).statusCode).toBe(200);
    expect((await w.author('GET', `/api/lessons/${lesson.id}`)).json().data.topics).toEqual([]);
  });
});

describe('platform lessons while acting as (issue 10 §5: the web always sends actingAs)', () => {
  it("a super admin acting as an organisation opens and lists platform lessons, but not other organisations'", async () => {
    const platform = await buildLesson(h.db, null, { title: 'Platform lesson' });
    const theirs = await buildLesson(h.db, (await buildEntity(h.db)).id);
    const ours = await buildLesson(h.db, w.org.id);
    const as = `actingAs=${w.org.slug}`;
    const opened = await w.superAdmin('GET', `/api/lessons/${platform.id}?${as}`);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().data).toMatchObject({ id: platform.id, entity_id: null, title: 'Platform lesson' });
    expect((await w.superAdmin('GET', `/api/lessons/${theirs.id}?${as}`)).statusCode).toBe(404);
    const listed = (await w.superAdmin('GET', `/api/lessons?per_page=100&${as}`))
      .json()
      .data.map((l: { id: number }) => l.id);
    expect(listed).toEqual(expect.arrayContaining([platform.id, ours.id]));
    expect(listed).not.toContain(theirs.id);
    // Still changeable by the super admin while acting as.
    expect(
      (await w.superAdmin('PATCH', `/api/lessons/${platform.id}?${as}`, { title: 'Renamed' })).statusCode,
    ).toBe(200);
  });

  it('an organisation author does not see platform lessons, acting as or not', async () => {
    const platform = await buildLesson(h.db, null);
    expect((await w.author('GET', `/api/lessons/${platform.id}`)).statusCode).toBe(404);
    expect((await w.author('GET', `/api/lessons/${platform.id}?actingAs=${w.org.slug}`)).statusCode).toBe(
      404,
    );
    expect(
      (await w.author('GET', `/api/lessons?per_page=100&actingAs=${w.org.slug}`))
        .json()
        .data.map((l: { id: number }) => l.id),
    ).not.toContain(platform.id);
  });
});
