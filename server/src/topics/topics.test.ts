import { Messages } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authoringWorld } from '../../test/content-clients';
import { buildH5p, buildTopic } from '../../test/content-factories';
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
    ['GET', '/api/topics'],
    ['POST', '/api/topics'],
    ['GET', '/api/topics/1'],
    ['PATCH', '/api/topics/1'],
    ['DELETE', '/api/topics/1'],
  ] as const)('%s %s answers 401 without a caller', async (method, url) => {
    expect((await h.app.inject({ method, url, payload: {} })).statusCode).toBe(401);
  });
});

describe('topics', () => {
  it('creates a topic with sanitised HTML, flags, an H5P item and resources', async () => {
    const h5p = await buildH5p(h.db, w.org.id);
    const body = {
      title: 'Intro',
      body_html:
        '<h3>Hi</h3><script>document.cookie</script><img src="https://x.test/a.png" onerror="alert(1)">',
      hidden: true,
      skippable: true,
      is_child: true,
      h5p_id: h5p.id,
      resources: [{ title: 'Guide', url: 'https://example.org/guide.pdf' }],
    };
    expect(
      (
        await w.author('POST', '/api/topics', {
          ...body,
          resources: [{ title: 'x', url: 'javascript:alert(1)' }],
        })
      ).statusCode,
    ).toBe(422);
    expect((await w.viewer('POST', '/api/topics', body)).statusCode).toBe(403);
    const theirs = await buildH5p(h.db, (await buildEntity(h.db)).id);
    const foreign = await w.author('POST', '/api/topics', { ...body, h5p_id: theirs.id });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.h5p_id).toBeDefined();

    const res = await w.author('POST', '/api/topics', body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      message: Messages.topicCreated,
      data: {
        title: 'Intro',
        body_html: '<h3>Hi</h3><img src="https://x.test/a.png" />',
        hidden: true,
        skippable: true,
        is_child: true,
        h5p_id: h5p.id,
        h5p: { id: h5p.id, title: h5p.title },
        resources: body.resources,
        entity_id: w.org.id,
      },
    });
  });

  it('lists, shows, updates (h5p_id) and deletes within the organisation only', async () => {
    const topic = await buildTopic(h.db, w.org.id, { title: 'Mine' });
    const h5p = await buildH5p(h.db, w.org.id);
    const url = `/api/topics/${topic.id}`;
    expect((await w.learner('GET', '/api/topics')).statusCode).toBe(403);
    expect(
      (await w.viewer('GET', '/api/topics?search=Mine')).json().data.map((t: { id: number }) => t.id),
    ).toEqual([topic.id]);
    expect(
      (await w.outsider('GET', '/api/topics?per_page=100')).json().data.map((t: { id: number }) => t.id),
    ).not.toContain(topic.id);
    expect((await w.outsider('GET', url)).statusCode).toBe(404);
    expect((await w.learner('GET', url)).statusCode).toBe(403);
    expect((await w.viewer('GET', url)).json().data.title).toBe('Mine');

    expect((await w.author('PATCH', url, { hidden: 'yes' })).statusCode).toBe(422);
    expect((await w.viewer('PATCH', url, { h5p_id: h5p.id })).statusCode).toBe(403);
    expect((await w.outsider('PATCH', url, { h5p_id: h5p.id })).statusCode).toBe(404);
    const updated = await w.author('PATCH', url, {
      h5p_id: h5p.id,
      body_html: '<p onmouseover="x()">Safe</p>',
    });
    expect(updated.json()).toMatchObject({
      message: Messages.topicUpdated,
      data: { h5p_id: h5p.id, body_html: '<p>Safe</p>' },
    });
    expect((await w.author('PATCH', url, { h5p_id: null })).json().data.h5p).toBeNull();

    expect((await w.viewer('DELETE', url)).statusCode).toBe(403);
    expect((await w.outsider('DELETE', url)).statusCode).toBe(404);
    expect((await w.author('DELETE', url)).json().message).toBe(Messages.topicDeleted);
    expect((await w.author('GET', url)).statusCode).toBe(404);
  });
});

describe('platform topics while acting as (issue 10 §5: the web always sends actingAs)', () => {
  it("a super admin acting as an organisation opens and lists platform topics, but not other organisations'", async () => {
    const platform = await buildTopic(h.db, null, { title: 'Platform topic' });
    const theirs = await buildTopic(h.db, (await buildEntity(h.db)).id);
    const as = `actingAs=${w.org.slug}`;
    const opened = await w.superAdmin('GET', `/api/topics/${platform.id}?${as}`);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().data).toMatchObject({ id: platform.id, entity_id: null, title: 'Platform topic' });
    expect((await w.superAdmin('GET', `/api/topics/${theirs.id}?${as}`)).statusCode).toBe(404);
    const listed = (await w.superAdmin('GET', `/api/topics?per_page=100&${as}`))
      .json()
      .data.map((t: { id: number }) => t.id);
    expect(listed).toContain(platform.id);
    expect(listed).not.toContain(theirs.id);
  });

  it('an organisation author does not see platform topics, acting as or not', async () => {
    const platform = await buildTopic(h.db, null);
    expect((await w.author('GET', `/api/topics/${platform.id}`)).statusCode).toBe(404);
    expect((await w.author('GET', `/api/topics/${platform.id}?actingAs=${w.org.slug}`)).statusCode).toBe(404);
  });
});
