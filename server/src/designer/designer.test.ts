import { DesignerMessages as M, ContentPerm as P } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authoringWorld } from '../../test/content-clients';
import { buildH5p } from '../../test/content-factories';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { samplePages, uid } from './design-fixtures';

/** Designs (issue 17): REST routes, scope, validation, sanitising and the guarded save. Publishing: publish.test.ts. */
let h: Harness;
let w: Awaited<ReturnType<typeof authoringWorld>>;
beforeAll(async () => {
  h = await createHarness();
  w = await authoringWorld(h);
});
afterAll(async () => h?.close());

const create = (body: unknown) => w.author('POST', '/api/designs', body);

describe('authentication', () => {
  it.each([
    ['GET', '/api/designs'],
    ['POST', '/api/designs'],
    ['POST', '/api/designs/preview'],
    ['GET', '/api/designs/1'],
    ['PATCH', '/api/designs/1'],
    ['DELETE', '/api/designs/1'],
    ['POST', '/api/designs/1/publish'],
  ] as const)('%s %s answers 401 without a caller', async (method, url) => {
    expect((await h.app.inject({ method, url, payload: {} })).statusCode).toBe(401);
  });
});

describe('designs', () => {
  it('creates (422, 403), lists in scope only, reads (404 to another organisation)', async () => {
    expect((await create({ title: ' ' })).statusCode).toBe(422);
    expect((await w.learner('POST', '/api/designs', { title: 'No' })).statusCode).toBe(403);
    const res = await create({ title: 'Moving and handling', pages: samplePages() });
    expect(res.statusCode, res.body).toBe(201);
    const design = res.json().data;
    expect(res.json().message).toBe(M.created);
    expect(design).toMatchObject({
      title: 'Moving and handling',
      entity: { id: w.org.id },
      page_count: 2,
      revision: 1,
      state: 'draft',
      content: null,
    });
    // Content creator (63) alone is enough to use the designer.
    const list = (await w.viewer('GET', '/api/designs')).json();
    expect(list.data.map((d: { id: number }) => d.id)).toContain(design.id);
    expect(list.meta.total).toBeGreaterThan(0);
    expect((await w.learner('GET', '/api/designs')).statusCode).toBe(403);
    const theirs = (await w.outsider('GET', '/api/designs')).json().data;
    expect(theirs.map((d: { id: number }) => d.id)).not.toContain(design.id);
    expect((await w.outsider('GET', `/api/designs/${design.id}`)).statusCode).toBe(404);
    expect((await w.learner('GET', `/api/designs/${design.id}`)).statusCode).toBe(403);
    const read = (await w.author('GET', `/api/designs/${design.id}`)).json().data;
    expect(read.pages).toHaveLength(2);
    expect(read.pages[1].blocks[2]).toMatchObject({ type: 'question', correct: 0 });
  });

  it('creates for an organisation named by slug only when it is in scope', async () => {
    const site = await buildEntity(h.db, { parentId: w.org.id, level: 'B' });
    const ok = await create({ title: 'Site design', entity: site.slug });
    expect(ok.json().data.entity.id).toBe(site.id);
    const other = await buildEntity(h.db);
    const no = await create({ title: 'Theirs', entity: other.slug });
    expect(no.statusCode).toBe(422);
    expect(no.json().errors).toHaveProperty('entity');
  });

  it('validates blocks: video hosts, image sources, answers, H5P items in sight, one H5P per page', async () => {
    const mine = await buildH5p(h.db, w.org.id);
    const theirs = await buildH5p(h.db, (await buildEntity(h.db)).id);
    const page = (blocks: unknown[]) => [{ id: uid(), title: 'P', blocks }];
    const video = await create({
      title: 'V',
      pages: page([{ id: uid(), type: 'video', url: 'https://evil.example/watch?v=1' }]),
    });
    expect(video.statusCode).toBe(422);
    expect(video.json().errors['pages.0.blocks.0.url']).toEqual([M.videoHost]);
    const image = await create({
      title: 'I',
      pages: page([{ id: uid(), type: 'image', url: 'javascript:alert(1)', alt: 'x' }]),
    });
    expect(image.json().errors).toHaveProperty(['pages.0.blocks.0.url']);
    const answer = await create({
      title: 'Q',
      pages: page([{ id: uid(), type: 'question', question: 'Q?', options: ['a', 'b'], correct: 5 }]),
    });
    expect(answer.json().errors).toHaveProperty(['pages.0.blocks.0.correct']);
    const foreign = await create({
      title: 'H',
      pages: page([{ id: uid(), type: 'h5p', h5p_id: theirs.id }]),
    });
    expect(foreign.json().errors).toHaveProperty(['pages.0.blocks.0.h5p_id']);
    const two = await create({
      title: 'H2',
      pages: page([
        { id: uid(), type: 'h5p', h5p_id: mine.id },
        { id: uid(), type: 'h5p', h5p_id: mine.id },
      ]),
    });
    expect(two.json().errors).toHaveProperty(['pages.0.blocks.1.h5p_id']);
    const unknown = await create({ title: 'U', pages: page([{ id: uid(), type: 'marquee' }]) });
    expect(unknown.statusCode).toBe(422);
    const fine = await create({ title: 'H3', pages: page([{ id: uid(), type: 'h5p', h5p_id: mine.id }]) });
    expect(fine.statusCode).toBe(201);
  });

  it('sanitises author HTML on save: no script, no event handler', async () => {
    const res = await create({
      title: 'Unsafe',
      pages: [
        {
          id: uid(),
          title: 'P',
          blocks: [
            {
              id: uid(),
              type: 'text',
              html: '<p>Hi<script>alert(1)</script><img src=x onerror="alert(2)"></p>',
            },
            { id: uid(), type: 'callout', tone: 'warning', html: '<p onclick="x()">Careful</p>' },
            {
              id: uid(),
              type: 'accordion',
              items: [{ title: 'T', html: '<a href="javascript:alert(3)">link</a>' }],
            },
          ],
        },
      ],
    });
    const stored = JSON.stringify((await w.author('GET', `/api/designs/${res.json().data.id}`)).json().data);
    expect(stored).not.toMatch(/script|onerror|onclick|javascript:/i);
    expect(stored).toContain('Careful');
  });

  it('saves only the fields sent, moves the revision on, and refuses a stale revision with 409', async () => {
    const design = (await create({ title: 'Before', pages: samplePages() })).json().data;
    const url = `/api/designs/${design.id}`;
    expect((await w.author('PATCH', url, { title: 'No revision' })).statusCode).toBe(422);
    expect((await w.author('PATCH', url, { revision: 1, title: '' })).statusCode).toBe(422);
    expect((await w.learner('PATCH', url, { revision: 1, title: 'No' })).statusCode).toBe(403);
    expect((await w.outsider('PATCH', url, { revision: 1, title: 'No' })).statusCode).toBe(404);
    const saved = await w.author('PATCH', url, { revision: 1, title: 'After' });
    expect(saved.json()).toMatchObject({
      message: M.saved,
      data: { title: 'After', revision: 2, page_count: 2 },
    });
    const stale = await w.author('PATCH', url, { revision: 1, title: 'Lost' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(M.staleRevision);
    const read = (await w.author('GET', url)).json().data;
    expect(read).toMatchObject({ title: 'After', revision: 2 });
    const pages = await w.author('PATCH', url, { revision: 2, pages: [] });
    expect(pages.json().data).toMatchObject({ title: 'After', revision: 3, page_count: 0 });
  });

  it('deletes after the checks (403, 404) and the design leaves the list', async () => {
    const design = (await create({ title: 'Gone' })).json().data;
    const url = `/api/designs/${design.id}`;
    expect((await w.learner('DELETE', url)).statusCode).toBe(403);
    expect((await w.outsider('DELETE', url)).statusCode).toBe(404);
    expect((await w.author('DELETE', url)).json().message).toBe(M.deleted);
    expect((await w.author('GET', url)).statusCode).toBe(404);
    expect((await w.author('DELETE', url)).statusCode).toBe(404);
  });

  it('previews pages as publishing renders them (sanitised topic HTML, questions apart), storing nothing', async () => {
    expect((await w.learner('POST', '/api/designs/preview', { pages: [] })).statusCode).toBe(403);
    expect((await w.author('POST', '/api/designs/preview', { pages: 'x' })).statusCode).toBe(422);
    const res = await w.author('POST', '/api/designs/preview', { pages: samplePages() });
    expect(res.statusCode, res.body).toBe(200);
    const { pages, questions } = res.json().data;
    expect(pages[0].body_html).toContain('<h2>Moving people safely</h2>');
    expect(pages[0].body_html).toContain(
      '<blockquote><p><strong>Tip</strong></p><p>Ask first.</p></blockquote>',
    );
    expect(pages[1].body_html).toContain('<details><summary>Hoists</summary><p>Two people.</p></details>');
    expect(pages[1].body_html).toContain('href="https://www.youtube.com/watch?v=abc"');
    expect(pages[1].body_html).toContain('rel="noopener noreferrer"');
    expect(pages[1].body_html).not.toContain('Who plans a move?');
    expect(questions).toEqual([{ text: 'Who plans a move?', answers: ['Everyone', 'Nobody'] }]);
  });

  it('a super admin acting for nobody sees every organisation; add content (29) alone may use it too', async () => {
    const other = await buildEntity(h.db, { level: 'A' });
    const adder = await clientFor(
      h.app,
      h.db,
      (await buildUser(h.db, { entityId: other.id, permissions: [P.addContent] })).id,
    );
    const theirs = (await adder('POST', '/api/designs', { title: 'Adder design' })).json().data;
    expect(theirs.entity.id).toBe(other.id);
    expect((await w.superAdmin('GET', `/api/designs/${theirs.id}`)).statusCode).toBe(200);
  });
});
