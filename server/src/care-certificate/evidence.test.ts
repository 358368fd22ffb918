import { CareCertificateMessages as M, ResultsMessages } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCourse } from '../../test/content-factories';
import { buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import {
  as,
  assign,
  certificateWorld,
  criteriaOf,
  PDF,
  PNG,
  upload,
  versionId,
} from './certificate-fixtures';

/** /care-certificates/{uuid}/evidence: files and linked results (401, 422, 403, 404 other organisation, happy). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

async function setup() {
  const w = await certificateWorld(h);
  const v = await versionId(h.db, '2015');
  const uuid = await assign(h, w.manager.id, w.learner.id, v);
  const criteria = (await criteriaOf(h.db, v, 1)).filter((k) => !k.requires_observation);
  const otherVersionCriterion = (await criteriaOf(h.db, await versionId(h.db, '2025'), 9))[0];
  return { w, v, uuid, criteria, otherVersionCriterion, url: `/api/care-certificates/${uuid}/evidence` };
}

describe('POST /api/care-certificates/{uuid}/evidence', () => {
  it('401 without sign-in', async () => {
    const { url } = await setup();
    expect((await h.app.inject({ method: 'POST', url, payload: {} })).statusCode).toBe(401);
  });

  it('the learner uploads a file linked to criteria; it counts, and downloads as an attachment', async () => {
    const { w, url, uuid, criteria } = await setup();
    const res = await upload(
      h,
      w.learner.id,
      url,
      [
        ['description', 'My induction notes'],
        ['criterion_ids', JSON.stringify([criteria[0].id, criteria[1].id])],
      ],
      { filename: 'notes.png', bytes: PNG, type: 'image/png' },
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(M.evidenceAdded);
    const view = res.json().data;
    expect(view.files).toHaveLength(1);
    expect(view.files[0]).toMatchObject({
      description: 'My induction notes',
      original_name: 'notes.png',
      mime_type: 'image/png',
      added_by: 'Lee Learner',
    });
    expect(view.criteria_evidenced).toBe(2);
    expect(view.nmds).toBe('in_progress');
    const s1 = view.standards.find((s: { number: number }) => s.number === 1);
    expect(s1.status).toBe('working_towards');
    const k = s1.outcomes
      .flatMap((o: { criteria: unknown[] }) => o.criteria)
      .find((c: { id: number }) => c.id === criteria[0].id);
    expect(k).toMatchObject({ evidenced: true, file_ids: [view.files[0].id] });
    const file = await (await as(h, w.manager.id))('GET', view.files[0].download_url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe('attachment; filename="notes.png"');
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(PNG)).toBe(true);
    const stored = await h.db
      .selectFrom('files')
      .select('purpose')
      .innerJoin('care_certificate_evidence as e', 'e.file_id', 'files.id')
      .where('e.id', '=', view.files[0].id)
      .executeTakeFirstOrThrow();
    expect(stored.purpose).toBe('care_certificate_evidence');
    // Repeated fields work too.
    const again = await upload(
      h,
      w.manager.id,
      url,
      [
        ['criterion_ids', String(criteria[2].id)],
        ['criterion_ids', String(criteria[3].id)],
      ],
      { filename: 'scan.pdf', bytes: PDF },
    );
    expect(again.statusCode).toBe(201);
    expect(again.json().data.criteria_evidenced).toBe(4);
    const outsiderFile = await (await as(h, w.outsider.id))('GET', view.files[0].download_url);
    expect(outsiderFile.statusCode).toBe(404);
    expect(
      (
        await (
          await as(h, w.member.id)
        )('GET', `/api/care-certificates/${uuid}/evidence/${view.files[0].id}/file`)
      ).statusCode,
    ).toBe(404);
  });

  it('links a result of the certificate’s user by hand; 404 for someone else’s result', async () => {
    const { w, url, criteria } = await setup();
    const course = await buildCourse(h.db, w.group.id);
    const result = await h.db
      .insertInto('results')
      .values({
        user_id: w.learner.id,
        entity_id: w.home.id,
        course_id: course.id,
        type: 'historical',
        passed: true,
        completed_at: new Date('2026-01-10T10:00:00Z'),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const theirs = await h.db
      .insertInto('results')
      .values({
        user_id: w.member.id,
        entity_id: w.home.id,
        course_id: course.id,
        type: 'historical',
        passed: true,
        completed_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const c = await as(h, w.observer.id);
    const res = await c('POST', url, { result_id: result.id, criterion_ids: [criteria[0].id] });
    expect(res.statusCode).toBe(201);
    const k = res
      .json()
      .data.standards[0].outcomes[0].criteria.find((x: { id: number }) => x.id === criteria[0].id);
    expect(k.evidenced).toBe(true);
    expect(k.results).toEqual([
      expect.objectContaining({ result_id: result.id, automatic: false, course_title: course.title }),
    ]);
    const refused = await c('POST', url, { result_id: theirs.id, criterion_ids: [criteria[0].id] });
    expect(refused.statusCode).toBe(404);
  });

  it('422: no criteria, criteria of another version, no file, a file that is not a PDF, PNG or JPEG', async () => {
    const { w, url, criteria, otherVersionCriterion } = await setup();
    const c = await as(h, w.manager.id);
    const none = await c('POST', url, { result_id: 1, criterion_ids: [] });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.criterion_ids).toEqual(['Choose at least one criterion.']);
    const other = await upload(h, w.manager.id, url, [['criterion_ids', `[${otherVersionCriterion.id}]`]], {
      filename: 'a.pdf',
      bytes: PDF,
    });
    expect(other.statusCode).toBe(422);
    expect(other.json().errors).toEqual({ criterion_ids: [M.criteriaOtherVersion] });
    const noFile = await upload(h, w.manager.id, url, [['criterion_ids', `[${criteria[0].id}]`]]);
    expect(noFile.json().errors).toEqual({ file: ['Choose a file.'] });
    const html = await upload(h, w.manager.id, url, [['criterion_ids', `[${criteria[0].id}]`]], {
      filename: 'evil.pdf',
      bytes: Buffer.from('<html><script>alert(1)</script></html>'),
    });
    expect(html.statusCode).toBe(422);
    expect(html.json().errors).toEqual({ file: [ResultsMessages.evidenceType] });
  });

  it('403 for a colleague without permission; 404 for another organisation', async () => {
    const { w, url, criteria, uuid } = await setup();
    const body = { result_id: 1, criterion_ids: [criteria[0].id] };
    // A member of the home with no permission cannot even see it: 404, like a missing id.
    expect((await (await as(h, w.member.id))('POST', url, body)).statusCode).toBe(404);
    const viewer = await buildUser(h.db, {
      entityId: w.group.id,
      permissions: [93],
    });
    expect((await (await as(h, viewer.id))('POST', url, body)).statusCode).toBe(403);
    expect((await (await as(h, w.outsider.id))('POST', url, body)).statusCode).toBe(404);
    const cert = await h.db
      .selectFrom('care_certificates')
      .select('id')
      .where('uuid', '=', uuid)
      .executeTakeFirstOrThrow();
    expect(
      await h.db
        .selectFrom('care_certificate_evidence')
        .select('id')
        .where('certificate_id', '=', cert.id)
        .execute(),
    ).toHaveLength(0);
  });
});

describe('DELETE /api/care-certificates/{uuid}/evidence/{id}', () => {
  it('401, 422, 403 (not the adder, no 86), 404 other organisation; removes; 409 once its standard is approved', async () => {
    const { w, url, criteria, uuid } = await setup();
    const added = await upload(h, w.learner.id, url, [['criterion_ids', `[${criteria[0].id}]`]], {
      filename: 'a.pdf',
      bytes: PDF,
    });
    const id = added.json().data.files[0].id;
    const one = `${url}/${id}`;
    expect((await h.app.inject({ method: 'DELETE', url: one })).statusCode).toBe(401);
    expect((await (await as(h, w.manager.id))('DELETE', `${url}/x`)).statusCode).toBe(422);
    expect((await (await as(h, w.observer.id))('DELETE', one)).statusCode).toBe(403);
    expect((await (await as(h, w.outsider.id))('DELETE', one)).statusCode).toBe(404);
    // Approve standard 1: the evidence is locked.
    const cert = await h.db
      .selectFrom('care_certificates')
      .select('id')
      .where('uuid', '=', uuid)
      .executeTakeFirstOrThrow();
    await h.db
      .updateTable('care_certificate_standard_states')
      .set({ state: 'approved' })
      .where('certificate_id', '=', cert.id)
      .where('standard_id', '=', criteria[0].standard_id)
      .execute();
    const locked = await (await as(h, w.learner.id))('DELETE', one);
    expect(locked.statusCode).toBe(409);
    expect(locked.json().message).toBe(M.evidenceLocked);
    await h.db
      .updateTable('care_certificate_standard_states')
      .set({ state: 'open' })
      .where('certificate_id', '=', cert.id)
      .execute();
    const res = await (await as(h, w.learner.id))('DELETE', one);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(M.evidenceRemoved);
    expect(res.json().data.files).toHaveLength(0);
    expect((await (await as(h, w.manager.id))('DELETE', one)).statusCode).toBe(404);
  });
});
