import { DocumentMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import {
  as,
  DOCX,
  documentsWorld,
  HTML,
  makeDocument,
  makeLibrary,
  open,
  PDF,
  PNG,
  upload,
} from './fixtures';

/** Documents: upload (checked by bytes), list, view, edit, delete, the file's headers. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('POST /libraries/{id}/documents', () => {
  it('401 without sign-in', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/api/libraries/1/documents', payload: {} });
    expect(res.statusCode).toBe(401);
  });

  it('creates the backing course, the document and version 1', async () => {
    const w = await documentsWorld(h);
    const lib = await makeLibrary(h, w.manager.id);
    const res = await upload(
      h,
      w.manager.id,
      `/api/libraries/${lib.id}/documents`,
      [
        ['title', 'Safeguarding policy'],
        ['description', 'Read it'],
        [
          'check_question',
          JSON.stringify({ question: 'Who do you tell?', options: ['Nobody', 'The manager'], correct: 1 }),
        ],
      ],
      { filename: 'Safeguarding.pdf', bytes: PDF, type: 'application/pdf' },
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(M.documentCreated);
    const doc = res.json().data;
    expect(doc).toMatchObject({
      title: 'Safeguarding policy',
      version: 1,
      library: { id: lib.id, name: 'Policies' },
      entity: { id: w.group.id },
      my_status: 'not_required',
      check_question: { question: 'Who do you tell?', options: ['Nobody', 'The manager'] },
      check_question_full: { correct: 1 },
      can: { manage: true, acknowledgements: true },
    });
    expect(doc.current).toMatchObject({
      number: 1,
      file_name: 'Safeguarding.pdf',
      mime_type: 'application/pdf',
      display: 'inline',
      file_url: `/api/documents/${doc.id}/versions/1/file`,
    });
    const course = await h.db
      .selectFrom('courses')
      .selectAll()
      .where('id', '=', doc.course_id)
      .executeTakeFirstOrThrow();
    expect(course).toMatchObject({ kind: 'document', title: 'Safeguarding policy', entity_id: w.group.id });
    const file = await h.db
      .selectFrom('files')
      .innerJoin('document_versions as v', 'v.file_id', 'files.id')
      .select(['purpose', 'mime_type'])
      .where('v.document_id', '=', doc.id)
      .executeTakeFirstOrThrow();
    expect(file).toEqual({ purpose: 'document', mime_type: 'application/pdf' });
    // The learner (not a viewer) opens it through the library's organisation; no answer leaks.
    const seen = await (await as(h, w.member.id))('GET', `/api/documents/${doc.id}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().data.check_question_full).toBeUndefined();
    expect(JSON.stringify(seen.json().data.check_question)).not.toContain('correct');
  });

  it('refuses an HTML file renamed .pdf, a missing file, bad fields and a bad question (422), nothing written', async () => {
    const w = await documentsWorld(h);
    const lib = await makeLibrary(h, w.manager.id);
    const url = `/api/libraries/${lib.id}/documents`;
    const before = await h.db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const html = await upload(h, w.manager.id, url, [['title', 'Policy']], {
      filename: 'policy.pdf',
      bytes: HTML,
      type: 'application/pdf',
    });
    expect(html.statusCode).toBe(422);
    expect(html.json().errors.file).toEqual([M.fileType]);
    const none = await upload(h, w.manager.id, url, [['title', 'Policy']]);
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.file).toEqual([M.fileMissing]);
    const noTitle = await upload(h, w.manager.id, url, [['title', '']], { filename: 'a.pdf', bytes: PDF });
    expect(noTitle.statusCode).toBe(422);
    expect(noTitle.json().errors.title).toEqual(['Enter a title.']);
    const badQ = await upload(
      h,
      w.manager.id,
      url,
      [
        ['title', 'Policy'],
        ['check_question', JSON.stringify({ question: 'Q', options: ['only one'], correct: 0 })],
      ],
      { filename: 'a.pdf', bytes: PDF },
    );
    expect(badQ.statusCode).toBe(422);
    expect(Object.keys(badQ.json().errors)[0]).toMatch(/^check_question/);
    const after = await h.db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('403 without 135 or on a library shared down; 404 for another organisation', async () => {
    const w = await documentsWorld(h);
    const lib = await makeLibrary(h, w.manager.id);
    const url = `/api/libraries/${lib.id}/documents`;
    const file = { filename: 'a.pdf', bytes: PDF };
    expect((await upload(h, w.viewer.id, url, [['title', 'P']], file)).statusCode).toBe(403);
    expect((await upload(h, w.outsider.id, url, [['title', 'P']], file)).statusCode).toBe(404);
  });

  it('office files are stored as downloads by what their bytes are', async () => {
    const w = await documentsWorld(h);
    const lib = await makeLibrary(h, w.manager.id);
    const doc = await makeDocument(h, w.manager.id, lib.id, {
      bytes: DOCX,
      filename: 'rota.pdf',
      title: 'Rota rules',
    });
    const view = (await (await as(h, w.manager.id))('GET', `/api/documents/${doc.id}`)).json().data;
    expect(view.current).toMatchObject({
      mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      display: 'download',
      file_name: 'rota.docx',
    });
    const file = await open(h, w.manager.id, doc.id);
    expect(file.headers['content-disposition']).toBe('attachment; filename="rota.docx"');
  });
});

describe('GET /libraries/{id}/documents', () => {
  it('pages and searches; 401, 403, 404 for another organisation', async () => {
    const w = await documentsWorld(h);
    const lib = await makeLibrary(h, w.manager.id);
    await makeDocument(h, w.manager.id, lib.id, { title: 'Whistleblowing policy' });
    await makeDocument(h, w.manager.id, lib.id, {
      title: 'Safeguarding policy',
      bytes: PNG,
      filename: 'a.png',
    });
    const url = `/api/libraries/${lib.id}/documents`;
    expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const list = await (await as(h, w.viewer.id))('GET', `${url}?per_page=1`);
    expect(list.statusCode).toBe(200);
    expect(list.json().meta.total).toBe(2);
    expect(list.json().data[0]).toMatchObject({
      title: 'Safeguarding policy',
      my_status: 'not_required',
      version: 1,
    });
    const search = await (await as(h, w.viewer.id))('GET', `${url}?search=whistle`);
    expect(search.json().data.map((d: { title: string }) => d.title)).toEqual(['Whistleblowing policy']);
    expect((await (await as(h, w.member.id))('GET', url)).statusCode).toBe(403);
    expect((await (await as(h, w.outsider.id))('GET', url)).statusCode).toBe(404);
  });
});

describe('GET/PATCH/DELETE /documents/{id}', () => {
  it('401; 404 for another organisation; 403 without 135', async () => {
    const w = await documentsWorld(h);
    const lib = await makeLibrary(h, w.manager.id);
    const doc = await makeDocument(h, w.manager.id, lib.id);
    const url = `/api/documents/${doc.id}`;
    expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'PATCH', url, payload: {} })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'DELETE', url })).statusCode).toBe(401);
    const outsider = await as(h, w.outsider.id);
    expect((await outsider('GET', url)).statusCode).toBe(404);
    expect((await outsider('PATCH', url, { title: 'x' })).statusCode).toBe(404);
    expect((await outsider('DELETE', url)).statusCode).toBe(404);
    expect((await outsider('GET', `${url}/versions/1/file`)).statusCode).toBe(404);
    const viewer = await as(h, w.viewer.id);
    expect((await viewer('PATCH', url, { title: 'x' })).statusCode).toBe(403);
    expect((await viewer('DELETE', url)).statusCode).toBe(403);
    expect((await viewer('GET', '/api/documents/2147483647')).statusCode).toBe(404);
  });

  it('PATCH changes only the fields sent (the course keeps the title); 422 on bad input', async () => {
    const w = await documentsWorld(h);
    const lib = await makeLibrary(h, w.manager.id);
    const doc = await makeDocument(h, w.manager.id, lib.id, {
      question: { question: 'Q?', options: ['a', 'b'], correct: 0 },
    });
    const client = await as(h, w.manager.id);
    const res = await client('PATCH', `/api/documents/${doc.id}`, { title: 'Safeguarding adults' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      title: 'Safeguarding adults',
      check_question: { question: 'Q?' },
    });
    const course = await h.db
      .selectFrom('courses')
      .select('title')
      .where('id', '=', doc.course_id)
      .executeTakeFirstOrThrow();
    expect(course.title).toBe('Safeguarding adults');
    const bad = await client('PATCH', `/api/documents/${doc.id}`, {
      check_question: { question: 'Q', options: ['a', 'b'], correct: 5 },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors['check_question.correct']).toBeDefined();
    const cleared = await client('PATCH', `/api/documents/${doc.id}`, { check_question: null });
    expect(cleared.json().data.check_question).toBeNull();
    expect(cleared.json().data.title).toBe('Safeguarding adults');
  });

  it('DELETE removes it from the library and from everyone’s requirements', async () => {
    const w = await documentsWorld(h);
    const lib = await makeLibrary(h, w.manager.id);
    const doc = await makeDocument(h, w.manager.id, lib.id);
    const client = await as(h, w.manager.id);
    await client('PUT', `/api/documents/${doc.id}/requirements`, {
      entity: w.home.slug,
      role_ids: [w.role.id],
    });
    const required = () =>
      h.db.selectFrom('user_requirements').select('user_id').where('course_id', '=', doc.course_id).execute();
    expect((await required()).map((r) => r.user_id)).toEqual([w.learner.id]);
    const res = await client('DELETE', `/api/documents/${doc.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(M.documentDeleted);
    expect(await required()).toEqual([]);
    expect((await client('GET', `/api/documents/${doc.id}`)).statusCode).toBe(404);
  });
});

describe('GET /documents/{id}/versions/{number}/file', () => {
  it('serves the stored bytes sandboxed, nosniff, inline for a PDF; records the first opening', async () => {
    const w = await documentsWorld(h);
    const lib = await makeLibrary(h, w.manager.id);
    const doc = await makeDocument(h, w.manager.id, lib.id);
    expect(
      (await h.app.inject({ method: 'GET', url: `/api/documents/${doc.id}/versions/1/file` })).statusCode,
    ).toBe(401);
    const res = await open(h, w.member.id, doc.id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toBe('inline; filename="policy.pdf"');
    const csp = String(res.headers['content-security-policy']);
    expect(csp.split(';')[0]).toBe('sandbox');
    expect(csp).not.toContain('allow-scripts');
    // Framed only by our own page (/document/{id}), never by another site.
    expect(csp).toContain("frame-ancestors 'self'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.rawPayload.equals(PDF)).toBe(true);
    await open(h, w.member.id, doc.id);
    const views = await h.db
      .selectFrom('document_views as dv')
      .innerJoin('document_versions as v', 'v.id', 'dv.version_id')
      .select('dv.user_id')
      .where('v.document_id', '=', doc.id)
      .execute();
    expect(views).toEqual([{ user_id: w.member.id }]);
    expect((await open(h, w.member.id, doc.id, 2)).statusCode).toBe(404);
  });
});
