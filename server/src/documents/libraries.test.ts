import { DocumentMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { as, documentsWorld, makeDocument, makeLibrary } from './fixtures';

/** /libraries: 401, 422, 403, 404 for another organisation, happy paths; shared down to the homes. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('libraries', () => {
  it('401 without sign-in', async () => {
    for (const [method, url] of [
      ['GET', '/api/libraries'],
      ['POST', '/api/libraries'],
      ['GET', '/api/libraries/1'],
      ['PATCH', '/api/libraries/1'],
      ['DELETE', '/api/libraries/1'],
    ] as const)
      expect(
        (
          await h.app.inject({
            method,
            url,
            payload: method === 'GET' || method === 'DELETE' ? undefined : {},
          })
        ).statusCode,
      ).toBe(401);
  });

  it('a manager creates a library; the home sees it (shared down); another organisation does not', async () => {
    const w = await documentsWorld(h);
    const res = await (await as(h, w.manager.id))('POST', '/api/libraries', {
      name: 'Policies',
      description: 'What we expect',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(M.libraryCreated);
    const lib = res.json().data;
    expect(lib).toMatchObject({
      name: 'Policies',
      entity: { id: w.group.id },
      document_count: 0,
      can: { manage: true },
    });
    const homeList = await (await as(h, w.viewer.id))('GET', '/api/libraries');
    expect(homeList.statusCode).toBe(200);
    expect(homeList.json().data.map((l: { id: number }) => l.id)).toEqual([lib.id]);
    expect(homeList.json().data[0].can.manage).toBe(false);
    expect(homeList.json().meta.total).toBe(1);
    const one = await (await as(h, w.viewer.id))('GET', `/api/libraries/${lib.id}`);
    expect(one.statusCode).toBe(200);
    const outsiderList = await (await as(h, w.outsider.id))('GET', '/api/libraries');
    expect(outsiderList.json().data.map((l: { id: number }) => l.id)).not.toContain(lib.id);
    expect((await (await as(h, w.outsider.id))('GET', `/api/libraries/${lib.id}`)).statusCode).toBe(404);
    expect(
      (await (await as(h, w.outsider.id))('PATCH', `/api/libraries/${lib.id}`, { name: 'x' })).statusCode,
    ).toBe(404);
    expect((await (await as(h, w.outsider.id))('DELETE', `/api/libraries/${lib.id}`)).statusCode).toBe(404);
  });

  it('422 with field messages; 404 for an organisation out of scope', async () => {
    const w = await documentsWorld(h);
    const res = await (await as(h, w.manager.id))('POST', '/api/libraries', { name: '  ' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.name).toEqual(['Enter a name.']);
    const other = await (await as(h, w.manager.id))('POST', '/api/libraries', {
      name: 'X',
      entity: w.other.slug,
    });
    expect(other.statusCode).toBe(404);
    const lib = await makeLibrary(h, w.manager.id);
    const bad = await (await as(h, w.manager.id))('PATCH', `/api/libraries/${lib.id}`, { name: '' });
    expect(bad.statusCode).toBe(422);
  });

  it('403 without the permission, or on a library shared down from above', async () => {
    const w = await documentsWorld(h);
    const lib = await makeLibrary(h, w.manager.id);
    expect((await (await as(h, w.member.id))('GET', '/api/libraries')).statusCode).toBe(403);
    expect((await (await as(h, w.member.id))('GET', `/api/libraries/${lib.id}`)).statusCode).toBe(403);
    expect((await (await as(h, w.viewer.id))('POST', '/api/libraries', { name: 'Mine' })).statusCode).toBe(
      403,
    );
    expect(
      (await (await as(h, w.viewer.id))('PATCH', `/api/libraries/${lib.id}`, { name: 'Mine' })).statusCode,
    ).toBe(403);
    expect((await (await as(h, w.viewer.id))('DELETE', `/api/libraries/${lib.id}`)).statusCode).toBe(403);
  });

  it('PATCH changes only the fields sent; DELETE refuses while it has documents', async () => {
    const w = await documentsWorld(h);
    const client = await as(h, w.manager.id);
    const lib = (await client('POST', '/api/libraries', { name: 'Policies', description: 'Kept' })).json()
      .data;
    const res = await client('PATCH', `/api/libraries/${lib.id}`, { name: 'Procedures' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Procedures', description: 'Kept' });
    const doc = await makeDocument(h, w.manager.id, lib.id);
    const refused = await client('DELETE', `/api/libraries/${lib.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(M.libraryNotEmpty);
    expect((await client('DELETE', `/api/documents/${doc.id}`)).statusCode).toBe(200);
    const deleted = await client('DELETE', `/api/libraries/${lib.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().message).toBe(M.libraryDeleted);
    expect((await client('GET', `/api/libraries/${lib.id}`)).statusCode).toBe(404);
  });

  it('search and paging', async () => {
    const w = await documentsWorld(h);
    await makeLibrary(h, w.manager.id, 'Policies');
    await makeLibrary(h, w.manager.id, 'Procedures');
    await makeLibrary(h, w.manager.id, 'Forms');
    const client = await as(h, w.manager.id);
    const found = await client('GET', '/api/libraries?search=proc');
    expect(found.json().data.map((l: { name: string }) => l.name)).toEqual(['Procedures']);
    const page = await client('GET', '/api/libraries?per_page=2&page=2');
    expect(page.json().meta).toMatchObject({ total: 3, current_page: 2 });
    expect(page.json().data.map((l: { name: string }) => l.name)).toEqual(['Procedures']);
  });
});
