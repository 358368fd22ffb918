import { DocumentMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { as, documentsWorld, newVersion, open, requiredDocument } from './fixtures';

/** Reading and acknowledging: opening first, the check question, the typed name, versions, the result and the cell. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const QUESTION = { question: 'Who do you tell?', options: ['Nobody', 'The manager'], correct: 1 };
const requirement = (userId: number, courseId: number) =>
  h.db
    .selectFrom('user_requirements')
    .select(['passed', 'expires_at'])
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .executeTakeFirst();

describe('POST /documents/{id}/acknowledge', () => {
  it('401 without sign-in; 404 for another organisation; 422 without a name', async () => {
    const w = await documentsWorld(h);
    const { doc } = await requiredDocument(h, w);
    const url = `/api/documents/${doc.id}/acknowledge`;
    expect((await h.app.inject({ method: 'POST', url, payload: {} })).statusCode).toBe(401);
    const outsider = await (await as(h, w.outsider.id))('POST', url, { typed_name: 'x', version: 1 });
    expect(outsider.statusCode).toBe(404);
    const bad = await (await as(h, w.learner.id))('POST', url, { typed_name: ' ', version: 1 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.typed_name).toEqual(['Type your name.']);
  });

  it('refuses before opening, a wrong answer and another name; then records the acknowledgement and its result', async () => {
    const w = await documentsWorld(h);
    const { doc } = await requiredDocument(h, w, { question: QUESTION });
    const learner = await as(h, w.learner.id);
    const url = `/api/documents/${doc.id}/acknowledge`;
    expect((await learner('GET', `/api/documents/${doc.id}`)).json().data.my_status).toBe('to_read');
    const unopened = await learner('POST', url, { typed_name: 'Lee Learner', answer: 1, version: 1 });
    expect(unopened.statusCode).toBe(409);
    expect(unopened.json().message).toBe(M.openFirst);
    await open(h, w.learner.id, doc.id);
    const wrong = await learner('POST', url, { typed_name: 'Lee Learner', answer: 0, version: 1 });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.answer).toEqual([M.wrongAnswer]);
    const noAnswer = await learner('POST', url, { typed_name: 'Lee Learner', version: 1 });
    expect(noAnswer.statusCode).toBe(422);
    const name = await learner('POST', url, { typed_name: 'Someone Else', answer: 1, version: 1 });
    expect(name.statusCode).toBe(422);
    expect(name.json().errors.typed_name).toEqual([M.nameMismatch]);
    expect(await requirement(w.learner.id, doc.course_id)).toMatchObject({ passed: null });
    const res = await learner('POST', url, { typed_name: '  lee LEARNER ', answer: 1, version: 1 });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(M.acknowledged);
    expect(res.json().data).toMatchObject({
      my_status: 'acknowledged',
      my_acknowledgement: { version: 1, typed_name: 'lee LEARNER' },
    });
    const results = await h.db
      .selectFrom('results')
      .select(['type', 'passed', 'expires_at', 'content_id', 'entity_id'])
      .where('user_id', '=', w.learner.id)
      .where('course_id', '=', doc.course_id)
      .execute();
    expect(results).toEqual([
      { type: 'document', passed: true, expires_at: null, content_id: null, entity_id: w.home.id },
    ]);
    expect(await requirement(w.learner.id, doc.course_id)).toMatchObject({ passed: true, expires_at: null });
    const again = await learner('POST', url, { typed_name: 'Lee Learner', answer: 1, version: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(M.alreadyAcknowledged);
  });

  it('a new version takes the cell out of date with its note; the person opens and acknowledges again', async () => {
    const w = await documentsWorld(h);
    const { doc } = await requiredDocument(h, w);
    const learner = await as(h, w.learner.id);
    const url = `/api/documents/${doc.id}/acknowledge`;
    await open(h, w.learner.id, doc.id);
    expect((await learner('POST', url, { typed_name: 'Lee Learner', version: 1 })).statusCode).toBe(201);
    // Someone reading version 1 while version 2 is published is refused.
    const v2 = await newVersion(h, w.manager.id, doc.id, 'New contact numbers');
    expect(v2.statusCode).toBe(201);
    expect(v2.json().message).toBe(M.versionAdded);
    expect(v2.json().data).toMatchObject({
      version: 2,
      current: { number: 2, change_note: 'New contact numbers' },
    });
    const req = await requirement(w.learner.id, doc.course_id);
    expect(req?.passed).toBe(true);
    expect(req?.expires_at).not.toBeNull();
    expect(new Date(req?.expires_at as Date).getTime()).toBeLessThanOrEqual(Date.now());
    const mine = await learner('GET', '/api/documents/mine');
    expect(mine.json().data).toEqual([
      expect.objectContaining({
        id: doc.id,
        version: 2,
        status: 'new_version',
        change_note: 'New contact numbers',
      }),
    ]);
    const stale = await learner('POST', url, { typed_name: 'Lee Learner', version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(M.newerVersion);
    const unopened = await learner('POST', url, { typed_name: 'Lee Learner', version: 2 });
    expect(unopened.statusCode).toBe(409);
    await open(h, w.learner.id, doc.id, 2);
    expect((await learner('POST', url, { typed_name: 'Lee Learner', version: 2 })).statusCode).toBe(201);
    expect(await requirement(w.learner.id, doc.course_id)).toMatchObject({ passed: true, expires_at: null });
    expect((await learner('GET', '/api/documents/mine')).json().data[0].status).toBe('acknowledged');
  });
});

describe('POST /documents/{id}/versions', () => {
  it('401, 403 without 135, 404 for another organisation, 422 without a note or with a bad file', async () => {
    const w = await documentsWorld(h);
    const { doc } = await requiredDocument(h, w);
    const url = `/api/documents/${doc.id}/versions`;
    expect((await h.app.inject({ method: 'POST', url, payload: {} })).statusCode).toBe(401);
    expect((await newVersion(h, w.viewer.id, doc.id)).statusCode).toBe(403);
    expect((await newVersion(h, w.outsider.id, doc.id)).statusCode).toBe(404);
    const noNote = await newVersion(h, w.manager.id, doc.id, '');
    expect(noNote.statusCode).toBe(422);
    expect(noNote.json().errors.change_note).toEqual(['Say what changed.']);
  });
});

describe('GET /documents/{id}/acknowledgements', () => {
  it('who must read it, acknowledged or outstanding (136); 401, 403, 404', async () => {
    const w = await documentsWorld(h);
    const { doc } = await requiredDocument(h, w);
    const url = `/api/documents/${doc.id}/acknowledgements`;
    expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await (await as(h, w.viewer.id))('GET', url)).statusCode).toBe(403);
    expect((await (await as(h, w.outsider.id))('GET', url)).statusCode).toBe(404);
    const manager = await as(h, w.manager.id);
    const before = await manager('GET', url);
    expect(before.statusCode).toBe(200);
    expect(before.json().data).toEqual([
      expect.objectContaining({
        user: expect.objectContaining({ id: w.learner.id }),
        acknowledged_version: null,
        current: false,
        role: 'Care assistant',
      }),
    ]);
    await open(h, w.learner.id, doc.id);
    await (await as(h, w.learner.id))('POST', `/api/documents/${doc.id}/acknowledge`, {
      typed_name: 'Lee Learner',
      version: 1,
    });
    const acknowledged = await manager('GET', `${url}?status=acknowledged`);
    expect(acknowledged.json().data).toEqual([
      expect.objectContaining({ acknowledged_version: 1, current: true }),
    ]);
    expect((await manager('GET', `${url}?status=outstanding`)).json().data).toEqual([]);
    await newVersion(h, w.manager.id, doc.id);
    const outstanding = await manager('GET', `${url}?status=outstanding`);
    expect(outstanding.json().data).toEqual([
      expect.objectContaining({ acknowledged_version: 1, current: false }),
    ]);
  });
});

describe('PUT /documents/{id}/requirements', () => {
  it('sets and replaces the roles through compliance rules; 401, 403, 404, 422', async () => {
    const w = await documentsWorld(h);
    const { doc } = await requiredDocument(h, w);
    const url = `/api/documents/${doc.id}/requirements`;
    const body = { entity: w.home.slug, role_ids: [w.role.id] };
    expect((await h.app.inject({ method: 'PUT', url, payload: body })).statusCode).toBe(401);
    expect((await (await as(h, w.viewer.id))('PUT', url, body)).statusCode).toBe(403);
    expect((await (await as(h, w.outsider.id))('PUT', url, body)).statusCode).toBe(404);
    const manager = await as(h, w.manager.id);
    expect((await manager('PUT', url, { ...body, entity: w.other.slug })).statusCode).toBe(404);
    const badRole = await manager('PUT', url, { ...body, role_ids: [2147483647] });
    expect(badRole.statusCode).toBe(422);
    expect(badRole.json().errors.role_ids).toBeDefined();
    const secondary = await manager('PUT', url, { ...body, type: 'secondary' });
    expect(secondary.statusCode).toBe(200);
    expect(secondary.json().message).toBe(M.requirementsSaved);
    expect(secondary.json().data.required_for).toEqual([
      expect.objectContaining({
        entity: expect.objectContaining({ id: w.home.id }),
        role: { id: w.role.id, name: 'Care assistant' },
        type: 'secondary',
      }),
    ]);
    const rules = await h.db
      .selectFrom('compliance_rules')
      .select(['type', 'validity_months'])
      .where('course_id', '=', doc.course_id)
      .execute();
    expect(rules).toEqual([{ type: 'secondary', validity_months: null }]);
    const cleared = await manager('PUT', url, { ...body, role_ids: [] });
    expect(cleared.json().data.required_for).toEqual([]);
    const req = await h.db
      .selectFrom('user_requirements')
      .select('user_id')
      .where('course_id', '=', doc.course_id)
      .execute();
    expect(req).toEqual([]);
    expect((await (await as(h, w.learner.id))('GET', '/api/documents/mine')).json().data).toEqual([]);
  });
});

describe('GET /documents/mine', () => {
  it('401; the documents required of the caller', async () => {
    const w = await documentsWorld(h);
    expect((await h.app.inject({ method: 'GET', url: '/api/documents/mine' })).statusCode).toBe(401);
    const { doc } = await requiredDocument(h, w);
    const mine = await (await as(h, w.learner.id))('GET', '/api/documents/mine');
    expect(mine.json().data).toEqual([
      {
        id: doc.id,
        title: 'Safeguarding policy',
        version: 1,
        status: 'to_read',
        change_note: null,
        type: 'primary',
      },
    ]);
    expect((await (await as(h, w.member.id))('GET', '/api/documents/mine')).json().data).toEqual([]);
  });
});
