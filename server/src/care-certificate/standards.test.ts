import { CareCertificateMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCourse } from '../../test/content-factories';
import { buildEntity, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { as, assign, certificateWorld, criteriaOf, versionId } from './certificate-fixtures';

/**
 * Versions, standards, outcomes and criteria (super admins edit, everyone signed in reads) and courses' criteria:
 * 401, 422, 403, 404 (a missing id; another organisation's course), happy.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

let n = 0;
const code = () => `T${Date.now() % 100000}${n++}`;

describe('versions', () => {
  it('401 without sign-in', async () => {
    for (const [method, url] of [
      ['GET', '/api/care-certificate-versions'],
      ['GET', '/api/care-certificate-versions/1'],
      ['POST', '/api/care-certificate-versions'],
      ['PATCH', '/api/care-certificate-versions/1'],
      ['DELETE', '/api/care-certificate-versions/1'],
      ['POST', '/api/care-certificate-versions/1/standards'],
      ['PATCH', '/api/care-certificate-standards/1'],
      ['DELETE', '/api/care-certificate-standards/1'],
      ['POST', '/api/care-certificate-standards/1/outcomes'],
      ['PATCH', '/api/care-certificate-outcomes/1'],
      ['DELETE', '/api/care-certificate-outcomes/1'],
      ['POST', '/api/care-certificate-outcomes/1/criteria'],
      ['PATCH', '/api/care-certificate-criteria/1'],
      ['DELETE', '/api/care-certificate-criteria/1'],
      ['GET', '/api/courses/1/care-certificate-criteria'],
      ['PUT', '/api/courses/1/care-certificate-criteria'],
    ] as const) {
      const res = await h.app.inject({
        method,
        url,
        ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('any signed-in user reads the versions (newest first) and a whole tree; 404 for a missing one', async () => {
    const user = await buildUser(h.db);
    const c = await as(h, user.id);
    const list = await c('GET', '/api/care-certificate-versions');
    expect(list.statusCode).toBe(200);
    const seeded = list.json().data.filter((v: { code: string }) => ['2015', '2025'].includes(v.code));
    expect(seeded.map((v: { code: string; standards_count: number }) => [v.code, v.standards_count])).toEqual(
      [
        ['2025', 16],
        ['2015', 15],
      ],
    );
    const tree = await c('GET', `/api/care-certificate-versions/${await versionId(h.db, '2015')}`);
    expect(tree.json().data.standards).toHaveLength(15);
    expect(tree.json().data.standards[0].outcomes[0].criteria[0]).toMatchObject({ code: expect.any(String) });
    expect(tree.json().data.criteria_count).toBe(180);
    expect((await c('GET', '/api/care-certificate-versions/999999')).statusCode).toBe(404);
    expect((await c('GET', '/api/care-certificate-versions/x')).statusCode).toBe(422);
  });

  it('a super admin makes a copy, swaps the default, and deletes a version without certificates', async () => {
    const admin = await buildUser(h.db, { superAdmin: true });
    const c = await as(h, admin.id);
    const from = await versionId(h.db, '2015');
    const created = await c('POST', '/api/care-certificate-versions', {
      code: code(),
      title: 'Copy of 2015',
      copy_from_id: from,
    });
    expect(created.statusCode).toBe(201);
    const copy = created.json().data;
    expect(copy).toMatchObject({ standards_count: 15, criteria_count: 180, is_default: false });
    const dup = await c('POST', '/api/care-certificate-versions', { code: copy.code, title: 'Again' });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors).toEqual({ code: ['That code is already used.'] });
    const swapped = await c('PATCH', `/api/care-certificate-versions/${copy.id}`, { is_default: true });
    expect(swapped.statusCode).toBe(200);
    expect(swapped.json().data).toMatchObject({ is_default: true, title: 'Copy of 2015' });
    const defaults = await h.db
      .selectFrom('care_certificate_versions')
      .select('id')
      .where('is_default', '=', true)
      .execute();
    expect(defaults).toEqual([{ id: copy.id }]);
    await c('PATCH', `/api/care-certificate-versions/${await versionId(h.db, '2025')}`, { is_default: true });
    const del = await c('DELETE', `/api/care-certificate-versions/${copy.id}`);
    expect(del.statusCode).toBe(200);
    expect((await c('GET', `/api/care-certificate-versions/${copy.id}`)).statusCode).toBe(404);
  });

  it('422 bad bodies; 403 for anyone but a super admin; 409 deleting a version in use', async () => {
    const w = await certificateWorld(h);
    const admin = await as(h, w.admin.id);
    expect((await admin('POST', '/api/care-certificate-versions', { code: '', title: 'x' })).statusCode).toBe(
      422,
    );
    expect((await admin('PATCH', '/api/care-certificate-versions/1', { is_default: 'yes' })).statusCode).toBe(
      422,
    );
    const manager = await as(h, w.outsider.id);
    expect(
      (await manager('POST', '/api/care-certificate-versions', { code: code(), title: 'x' })).statusCode,
    ).toBe(403);
    expect((await manager('PATCH', `/api/care-certificate-versions/1`, { title: 'x' })).statusCode).toBe(403);
    expect((await manager('DELETE', `/api/care-certificate-versions/1`)).statusCode).toBe(403);
    const v = await versionId(h.db, '2015');
    await assign(h, w.manager.id, w.learner.id, v);
    const inUse = await admin('DELETE', `/api/care-certificate-versions/${v}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().message).toBe(M.versionInUse);
  });
});

describe('standards, outcomes, criteria', () => {
  it('adds a standard (and its state to every certificate of the version), an outcome, a criterion; edits; deletes', async () => {
    const w = await certificateWorld(h);
    const admin = await as(h, w.admin.id);
    const version = (
      await admin('POST', '/api/care-certificate-versions', {
        code: code(),
        title: 'Small',
        copy_from_id: await versionId(h.db, '2025'),
      })
    ).json().data;
    const uuid = await assign(h, w.manager.id, w.learner.id, version.id);
    const added = await admin('POST', `/api/care-certificate-versions/${version.id}/standards`, {
      number: 17,
      title: 'Digital skills',
    });
    expect(added.statusCode).toBe(201);
    const standard = added.json().data.standards.find((s: { number: number }) => s.number === 17);
    const view = await (await as(h, w.learner.id))('GET', `/api/care-certificates/${uuid}`);
    expect(view.json().data.standards_total).toBe(17);
    expect(view.json().data.standards.find((s: { number: number }) => s.number === 17).state).toBe('open');
    const dup = await admin('POST', `/api/care-certificate-versions/${version.id}/standards`, {
      number: 17,
      title: 'x',
    });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors).toEqual({ number: ['That number is already used.'] });
    expect(
      (await admin('POST', '/api/care-certificate-versions/999999/standards', { number: 1, title: 'x' }))
        .statusCode,
    ).toBe(404);

    const outcome = (
      await admin('POST', `/api/care-certificate-standards/${standard.id}/outcomes`, {
        code: '17.1',
        title: 'Use devices',
      })
    )
      .json()
      .data.standards.find((s: { id: number }) => s.id === standard.id).outcomes[0];
    expect(outcome).toMatchObject({ code: '17.1', position: 0 });
    const withCriterion = await admin('POST', `/api/care-certificate-outcomes/${outcome.id}/criteria`, {
      code: '17.1a',
      text: 'Demonstrate safe use of a tablet',
      requires_observation: true,
    });
    expect(withCriterion.statusCode).toBe(201);
    const criterion = withCriterion.json().data.standards.find((s: { id: number }) => s.id === standard.id)
      .outcomes[0].criteria[0];
    const dupCode = await admin('POST', `/api/care-certificate-outcomes/${outcome.id}/criteria`, {
      code: '17.1a',
      text: 'x',
    });
    expect(dupCode.json().errors).toEqual({ code: ['That code is already used.'] });
    const patched = await admin('PATCH', `/api/care-certificate-criteria/${criterion.id}`, {
      text: 'Use a tablet safely',
    });
    const after = patched.json().data.standards.find((s: { id: number }) => s.id === standard.id).outcomes[0]
      .criteria[0];
    expect(after).toMatchObject({ text: 'Use a tablet safely', requires_observation: true, code: '17.1a' });
    expect(
      (await admin('PATCH', `/api/care-certificate-outcomes/${outcome.id}`, { title: 'Devices' })).statusCode,
    ).toBe(200);
    expect(
      (await admin('PATCH', `/api/care-certificate-standards/${standard.id}`, { title: 'Digital' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await admin('PATCH', `/api/care-certificate-standards/${standard.id}`, { number: 0 })).statusCode,
    ).toBe(422);

    // An observation on the criterion: it, its outcome and its standard cannot be deleted.
    const cert = await h.db
      .selectFrom('care_certificates')
      .select('id')
      .where('uuid', '=', uuid)
      .executeTakeFirstOrThrow();
    const obs = await h.db
      .insertInto('care_certificate_observations')
      .values({
        certificate_id: cert.id,
        assessor_name: 'A',
        observed_at: new Date(),
        place: 'Lounge',
        shift: 'day',
        observed: 'x',
        outcome: 'competent',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('care_certificate_observation_criteria')
      .values({ observation_id: obs.id, criterion_id: criterion.id })
      .execute();
    for (const url of [
      `/api/care-certificate-criteria/${criterion.id}`,
      `/api/care-certificate-outcomes/${outcome.id}`,
      `/api/care-certificate-standards/${standard.id}`,
    ]) {
      const res = await admin('DELETE', url);
      expect(res.statusCode, url).toBe(409);
      expect(res.json().message).toBe(M.criterionInUse);
    }
    await h.db.deleteFrom('care_certificate_observations').where('id', '=', obs.id).execute();
    expect((await admin('DELETE', `/api/care-certificate-criteria/${criterion.id}`)).statusCode).toBe(200);
    expect((await admin('DELETE', `/api/care-certificate-outcomes/${outcome.id}`)).statusCode).toBe(200);
    const gone = await admin('DELETE', `/api/care-certificate-standards/${standard.id}`);
    expect(gone.statusCode).toBe(200);
    expect(gone.json().data.standards_count).toBe(16);
    expect((await admin('DELETE', `/api/care-certificate-standards/${standard.id}`)).statusCode).toBe(404);
    const nobody = await as(h, w.manager.id);
    expect(
      (
        await nobody('POST', `/api/care-certificate-versions/${version.id}/standards`, {
          number: 18,
          title: 'x',
        })
      ).statusCode,
    ).toBe(403);
    expect((await nobody('DELETE', `/api/care-certificate-outcomes/1`)).statusCode).toBe(403);
  });
});

describe('/api/courses/{id}/care-certificate-criteria', () => {
  it('a content creator maps their course to criteria; 422, 403, 404 for another organisation', async () => {
    const org = await buildEntity(h.db, { level: 'A' });
    const creator = await buildUser(h.db, { entityId: org.id, permissions: [63] });
    const plain = await buildUser(h.db, { entityId: org.id });
    const outsider = await buildUser(h.db, { permissions: [63] });
    const course = await buildCourse(h.db, org.id);
    const url = `/api/courses/${course.id}/care-certificate-criteria`;
    const [a, b] = await criteriaOf(h.db, await versionId(h.db, '2015'), 2);
    const c = await as(h, creator.id);
    expect((await c('GET', url)).json().data).toEqual({ course_id: course.id, criteria: [] });
    const put = await c('PUT', url, { criterion_ids: [b.id, a.id, a.id] });
    expect(put.statusCode).toBe(200);
    expect(put.json().message).toBe(M.courseCriteriaSaved);
    expect(
      put
        .json()
        .data.criteria.map((k: { id: number }) => k.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    expect(put.json().data.criteria[0]).toMatchObject({ version_code: '2015', standard_number: 2 });
    expect((await c('PUT', url, { criterion_ids: [a.id] })).json().data.criteria).toHaveLength(1);
    expect((await c('PUT', url, { criterion_ids: 'x' })).statusCode).toBe(422);
    expect((await c('PUT', url, { criterion_ids: [999999999] })).statusCode).toBe(422);
    expect((await (await as(h, plain.id))('PUT', url, { criterion_ids: [] })).statusCode).toBe(403);
    expect((await (await as(h, plain.id))('GET', url)).statusCode).toBe(403);
    expect((await (await as(h, outsider.id))('PUT', url, { criterion_ids: [] })).statusCode).toBe(404);
    expect((await (await as(h, outsider.id))('GET', url)).statusCode).toBe(404);
    expect((await c('GET', url)).json().data.criteria).toHaveLength(1);
  });
});
