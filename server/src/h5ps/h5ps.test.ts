import { Messages } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authoringWorld } from '../../test/content-clients';
import { buildH5p, buildTopic } from '../../test/content-factories';
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
    ['GET', '/api/h5ps'],
    ['POST', '/api/h5ps'],
    ['GET', '/api/h5ps/1'],
    ['PATCH', '/api/h5ps/1'],
    ['DELETE', '/api/h5ps/1'],
  ] as const)('%s %s answers 401 without a caller', async (method, url) => {
    expect((await h.app.inject({ method, url, payload: {} })).statusCode).toBe(401);
  });
});

describe('H5P items', () => {
  it('creates, lists, shows, updates and deletes (topics lose the item)', async () => {
    expect((await w.author('POST', '/api/h5ps', {})).statusCode).toBe(422);
    expect((await w.viewer('POST', '/api/h5ps', { title: 'No' })).statusCode).toBe(403);
    const res = await w.author('POST', '/api/h5ps', { title: 'Video', video_id: 'abc123' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: Messages.h5pCreated,
      data: { title: 'Video', video_id: 'abc123', entity_id: w.org.id },
    });
    const id = res.json().data.id;
    const url = `/api/h5ps/${id}`;
    expect((await w.learner('GET', '/api/h5ps')).statusCode).toBe(403);
    expect((await w.viewer('GET', '/api/h5ps')).json().data.map((x: { id: number }) => x.id)).toContain(id);
    expect((await w.outsider('GET', '/api/h5ps')).json().data.map((x: { id: number }) => x.id)).not.toContain(
      id,
    );
    expect((await w.outsider('GET', url)).statusCode).toBe(404);
    expect((await w.learner('GET', url)).statusCode).toBe(403);

    expect((await w.author('PATCH', url, { title: '' })).statusCode).toBe(422);
    expect((await w.viewer('PATCH', url, { title: 'No' })).statusCode).toBe(403);
    expect((await w.outsider('PATCH', url, { title: 'No' })).statusCode).toBe(404);
    expect((await w.author('PATCH', url, { title: 'Renamed' })).json()).toMatchObject({
      message: Messages.h5pUpdated,
      data: { title: 'Renamed' },
    });

    const topic = await buildTopic(h.db, w.org.id, { h5pId: id });
    expect((await w.viewer('DELETE', url)).statusCode).toBe(403);
    expect((await w.outsider('DELETE', url)).statusCode).toBe(404);
    expect((await w.author('DELETE', url)).json().message).toBe(Messages.h5pDeleted);
    const row = await h.db
      .selectFrom('topics')
      .select('h5p_id')
      .where('id', '=', topic.id)
      .executeTakeFirstOrThrow();
    expect(row.h5p_id).toBeNull();
  });

  it('lets a super admin keep platform items that organisations do not see', async () => {
    const res = await w.superAdmin('POST', '/api/h5ps', { title: 'Platform video', platform: true });
    expect(res.json().data.entity_id).toBeNull();
    expect((await w.author('POST', '/api/h5ps', { title: 'x', platform: true })).statusCode).toBe(403);
    expect((await w.author('GET', `/api/h5ps/${res.json().data.id}`)).statusCode).toBe(404);
    const mine = await buildH5p(h.db, w.org.id);
    expect((await w.superAdmin('GET', `/api/h5ps/${mine.id}`)).statusCode).toBe(200);
  });
});
