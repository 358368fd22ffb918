import { ContentPerm } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContent } from '../../test/content-factories';
import { buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { as, documentsWorld, open, requiredDocument } from './fixtures';

/** Document courses in the rest of the app: never offered as training, linked from the to-do, labelled for admins. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('document courses', () => {
  it('are not offered to learners as courses, even with content attached; compliant lists leave them out', async () => {
    const w = await documentsWorld(h);
    const { doc } = await requiredDocument(h, w);
    await buildContent(h.db, { entityId: w.group.id, courseId: doc.course_id, published: true });
    const learner = await as(h, w.learner.id);
    const ids = async (url: string) => {
      const res = await learner('GET', url);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((c: { id: number }) => c.id);
    };
    expect(await ids(`/api/users/${w.learner.uuid}/available-courses?per_page=100`)).not.toContain(
      doc.course_id,
    );
    expect(await ids(`/api/users/${w.learner.uuid}/personal-development-courses?per_page=100`)).not.toContain(
      doc.course_id,
    );
    await open(h, w.learner.id, doc.id);
    await learner('POST', `/api/documents/${doc.id}/acknowledge`, { typed_name: 'Lee Learner', version: 1 });
    expect(await ids(`/api/users/${w.learner.uuid}/compliant-courses?per_page=100`)).not.toContain(
      doc.course_id,
    );
  });

  it("the learner's to-do carries the document to read", async () => {
    const w = await documentsWorld(h);
    const { doc } = await requiredDocument(h, w);
    const res = await (await as(h, w.learner.id))('GET', `/api/users/${w.learner.uuid}/events`);
    expect(res.statusCode).toBe(200);
    const event = res.json().data.data.find((e: { course: { id: number } }) => e.course.id === doc.course_id);
    expect(event).toMatchObject({ kind: 'mandatory', state: 'due', document_id: doc.id, content_id: null });
  });

  it('content cannot be added to a document course (422 on course_id)', async () => {
    const w = await documentsWorld(h);
    const { doc } = await requiredDocument(h, w);
    const author = await buildUser(h.db, {
      entityId: w.group.id,
      permissions: [ContentPerm.contentCreator, ContentPerm.addContent],
    });
    const res = await (await as(h, author.id))('POST', '/api/content', {
      course_id: doc.course_id,
      type: 'elearning',
      title: 'Sneaked in',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.course_id).toBeDefined();
  });

  it('admin course lists carry the kind', async () => {
    const w = await documentsWorld(h);
    const { doc } = await requiredDocument(h, w);
    const author = await buildUser(h.db, { entityId: w.group.id, permissions: [ContentPerm.contentCreator] });
    const res = await (await as(h, author.id))('GET', `/api/courses/${doc.course_id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.kind).toBe('document');
    // The web opens the document's page from the course lists, not the course editor.
    expect(res.json().data.document_id).toBe(doc.id);
    const list = await (await as(h, author.id))('GET', `/api/courses?per_page=100`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.find((c: { id: number }) => c.id === doc.course_id)).toMatchObject({
      kind: 'document',
      document_id: doc.id,
      pathway_id: null,
    });
  });
});
