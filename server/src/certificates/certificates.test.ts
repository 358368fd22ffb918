import { LearningMessages, LearningPerm, PERMISSIONS } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent, buildPassedResult } from '../../test/learning-factories';
import { pdfText } from '../../test/pdf-text';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const as = (userId: number) => clientFor(h.app, h.db, userId);
const ALL = PERMISSIONS.map((p) => p.id);

async function passedLearner(o: { suppressed?: boolean; name?: string; courseTitle?: string } = {}) {
  const entity = await buildEntity(h.db);
  const learner = await buildUser(h.db, {
    entityId: entity.id,
    name: o.name ?? 'Ada Lovelace',
    permissions: [LearningPerm.ownCertificates],
  });
  const content = await buildContent(h.db, entity.id, {
    courseTitle: o.courseTitle ?? 'Medication Awareness',
  });
  const result = await buildPassedResult(h.db, {
    userId: learner.id,
    entityId: entity.id,
    courseId: content.course_id,
    contentId: content.id,
    completedAt: new Date('2024-05-07T12:00:00Z'),
    suppressed: o.suppressed,
  });
  return { entity, learner, content, result };
}

describe('GET /api/users/{id}/training-certificate', () => {
  it('streams a branded PDF with the learner, the course, the date and the result type', async () => {
    const { entity, learner, content } = await passedLearner();
    const admin = await buildUser(h.db, { entityId: entity.id, permissions: ALL });
    const branding = await (await as(admin.id))(
      'PATCH',
      `/api/entities/${entity.slug}/certificate-branding`,
      {
        title: 'Certificate of Achievement',
        signatory_name: 'Grace Hopper',
        signatory_role: 'Training Manager',
        accent_colour: '#0f766e',
      },
    );
    expect(branding.statusCode, branding.body).toBe(200);
    expect(branding.json().message).toBe(LearningMessages.certificateBrandingUpdated);

    const res = await (await as(learner.id))(
      'GET',
      `/api/users/${learner.id}/training-certificate?course_id=${content.course_id}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="certificate-medication-awareness-ada-lovelace-07-05-2024.pdf"',
    );
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(pdf);
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('Medication Awareness');
    expect(text).toContain('Certificate of Achievement');
    expect(text).toContain('Grace Hopper');
    expect(text).toContain('Completed on 07-05-2024');
    expect(text).toContain('E-learning');
    expect(text).not.toContain('Someone Else');
  });

  it('writes names beyond Windows-1252 as they are (Polish, Romanian, Vietnamese, Greek, Cyrillic)', async () => {
    const name = 'Łukasz Ștefan Nguyễn';
    const courseTitle = 'Ασφάλεια – Пожарная безопасность';
    const { learner, content } = await passedLearner({ name, courseTitle });
    const res = await (await as(learner.id))(
      'GET',
      `/api/users/${learner.id}/training-certificate?course_id=${content.course_id}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain(name);
    expect(text).toContain(courseTitle);
  });

  it('answers 401, 422 without a course or result, 403 without 6 (self) or 7 (others), 404 elsewhere or without a pass', async () => {
    const { entity, learner, content, result } = await passedLearner();
    const url = `/api/users/${learner.id}/training-certificate?course_id=${content.course_id}`;
    expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect(
      (await (await as(learner.id))('GET', `/api/users/${learner.id}/training-certificate`)).statusCode,
    ).toBe(422);
    const noSix = await buildUser(h.db, { entityId: entity.id, permissions: [] });
    expect(
      (
        await (
          await as(noSix.id)
        )('GET', `/api/users/${noSix.id}/training-certificate?course_id=${content.course_id}`)
      ).statusCode,
    ).toBe(403);
    expect((await (await as(noSix.id))('GET', url)).statusCode).toBe(403);
    const manager = await buildUser(h.db, {
      entityId: entity.id,
      permissions: [LearningPerm.userCertificates],
    });
    expect(
      (
        await (
          await as(manager.id)
        )('GET', `/api/users/${learner.id}/training-certificate?result_id=${result.id}`)
      ).statusCode,
    ).toBe(200);
    const outsider = await buildUser(h.db, { permissions: ALL });
    expect((await (await as(outsider.id))('GET', url)).statusCode).toBe(404);
    const other = await buildContent(h.db, entity.id);
    const none = await (await as(learner.id))(
      'GET',
      `/api/users/${learner.id}/training-certificate?course_id=${other.course_id}`,
    );
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe(LearningMessages.noCertificate);
  });

  it('hides a suppressed certificate from the learner (404); 124 still reaches it', async () => {
    const { entity, learner, content } = await passedLearner({ suppressed: true });
    const url = `/api/users/${learner.id}/training-certificate?course_id=${content.course_id}`;
    expect((await (await as(learner.id))('GET', url)).statusCode).toBe(404);
    const viewer = await buildUser(h.db, {
      entityId: entity.id,
      permissions: [LearningPerm.userCertificates],
    });
    expect((await (await as(viewer.id))('GET', url)).statusCode).toBe(404);
    const suppressor = await buildUser(h.db, {
      entityId: entity.id,
      permissions: [LearningPerm.userCertificates, LearningPerm.suppressCertificate],
    });
    expect((await (await as(suppressor.id))('GET', url)).statusCode).toBe(200);
  });
});

describe('/api/entities/{slug}/certificate-branding', () => {
  it('answers 401, 422, 403 without 20, 404 for another organisation (unchanged), and defaults', async () => {
    const entity = await buildEntity(h.db);
    const url = `/api/entities/${entity.slug}/certificate-branding`;
    expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const admin = await buildUser(h.db, { entityId: entity.id, permissions: [LearningPerm.whiteLabel] });
    const call = await as(admin.id);
    expect((await call('GET', url)).json().data).toMatchObject({
      title: 'Certificate of Completion',
      accent_colour: '#1f2937',
    });
    expect((await call('PATCH', url, { accent_colour: 'red' })).statusCode).toBe(422);
    const foreignFile = await h.db
      .insertInto('files')
      .values({
        entity_id: (await buildEntity(h.db)).id,
        purpose: 'logo',
        storage_key: 'logo/x.png',
        original_name: 'x.png',
        mime_type: 'image/png',
        size_bytes: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const stolen = await call('PATCH', url, { logo_file_id: foreignFile.id });
    expect(stolen.statusCode).toBe(422);
    expect(stolen.json().message).toBe(LearningMessages.logoNotAvailable);
    const peer = await buildUser(h.db, { entityId: entity.id, permissions: [] });
    expect((await (await as(peer.id))('PATCH', url, { title: 'Mine' })).statusCode).toBe(403);
    const outsider = await buildUser(h.db, { permissions: ALL });
    expect((await (await as(outsider.id))('PATCH', url, { title: 'Mine' })).statusCode).toBe(404);
    expect((await (await as(outsider.id))('GET', url)).statusCode).toBe(404);
    expect(
      await h.db.selectFrom('certificate_branding').selectAll().where('entity_id', '=', entity.id).execute(),
    ).toEqual([]);
  });

  it('saves a logo of the organisation and answers its public address (logo_url)', async () => {
    const entity = await buildEntity(h.db);
    const url = `/api/entities/${entity.slug}/certificate-branding`;
    const admin = await buildUser(h.db, { entityId: entity.id, permissions: [LearningPerm.whiteLabel] });
    const call = await as(admin.id);
    expect((await call('GET', url)).json().data.logo_url).toBeNull();
    const file = await h.db
      .insertInto('files')
      .values({
        entity_id: entity.id,
        purpose: 'content_image',
        storage_key: 'content/logo.png',
        original_name: 'logo.png',
        mime_type: 'image/png',
        size_bytes: 1,
      })
      .returning(['id', 'uuid'])
      .executeTakeFirstOrThrow();
    const saved = await call('PATCH', url, { logo_file_id: file.id, signatory_name: 'Ada Lovelace' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({
      logo_file_id: file.id,
      logo_url: `/api/files/${file.uuid}`,
      signatory_name: 'Ada Lovelace',
    });
    expect((await call('GET', url)).json().data.logo_url).toBe(`/api/files/${file.uuid}`);
  });
});
