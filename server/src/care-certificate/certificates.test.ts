import { CareCertificateMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';
import { as, assign, certificateWorld, versionId } from './certificate-fixtures';

/** /care-certificates: assign, list, mine, view, withdraw (401, 422, 403, 404 other organisation, happy). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('POST /api/care-certificates', () => {
  it('401 without sign-in', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/api/care-certificates', payload: {} });
    expect(res.statusCode).toBe(401);
  });

  it('assigns with the standards, started today, expected after the applied weeks; 409 a second time', async () => {
    const w = await certificateWorld(h);
    const v = await versionId(h.db);
    const c = await as(h, w.manager.id);
    // The group's settings apply to its home's staff.
    expect((await c('PATCH', '/api/care-certificate-settings', { expected_weeks: 4 })).statusCode).toBe(200);
    const res = await c('POST', '/api/care-certificates', {
      user_id: w.learner.id,
      version_id: v,
      started_on: '2026-01-05',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(M.assigned);
    const data = res.json().data;
    expect(data).toMatchObject({
      user: { id: w.learner.id, name: 'Lee Learner', entity: { id: w.home.id } },
      status: 'in_progress',
      historical: false,
      started_on: '2026-01-05',
      expected_by: '2026-02-02',
      standards_total: 16,
      standards_approved: 0,
      nmds: 'not_started',
      overdue: true,
      assigned_by: w.manager.name,
    });
    expect(data.standards).toHaveLength(16);
    expect(data.standards[0].status).toBe('outstanding');
    expect(data.can).toMatchObject({ withdraw: true, upload: true, approve: false });
    const states = await h.db
      .selectFrom('care_certificate_standard_states')
      .innerJoin(
        'care_certificates',
        'care_certificates.id',
        'care_certificate_standard_states.certificate_id',
      )
      .select('state')
      .where('care_certificates.uuid', '=', data.uuid)
      .execute();
    expect(states).toHaveLength(16);
    const again = await c('POST', '/api/care-certificates', { user_id: w.learner.id, version_id: v });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(M.alreadyAssigned);
  });

  it('defaults the start to today in Europe/London', async () => {
    const w = await certificateWorld(h);
    const res = await (await as(h, w.manager.id))('POST', '/api/care-certificates', {
      user_id: w.learner.id,
      version_id: await versionId(h.db, '2015'),
    });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
    expect(res.json().data.started_on).toBe(today);
    expect(res.json().data.overdue).toBe(false);
  });

  it('422 on bad input or a missing version', async () => {
    const w = await certificateWorld(h);
    const c = await as(h, w.manager.id);
    const bad = await c('POST', '/api/care-certificates', { user_id: 'x', started_on: 'soon' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['started_on', 'user_id', 'version_id']);
    const missing = await c('POST', '/api/care-certificates', { user_id: w.learner.id, version_id: 999999 });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ version_id: ['Choose a version.'] });
  });

  it('403 without permission 86; 404 for a person of another organisation', async () => {
    const w = await certificateWorld(h);
    const v = await versionId(h.db);
    const body = { user_id: w.learner.id, version_id: v };
    expect((await (await as(h, w.observer.id))('POST', '/api/care-certificates', body)).statusCode).toBe(403);
    expect((await (await as(h, w.outsider.id))('POST', '/api/care-certificates', body)).statusCode).toBe(404);
    const count = await h.db
      .selectFrom('care_certificates')
      .select('id')
      .where('user_id', '=', w.learner.id)
      .execute();
    expect(count).toHaveLength(0);
  });
});

describe('GET /api/care-certificates, /mine, /{uuid}', () => {
  it('401 without sign-in', async () => {
    for (const url of ['/api/care-certificates', '/api/care-certificates/mine']) {
      expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });

  it('lists certificates in scope with filters and paging; mine for the learner; the view', async () => {
    const w = await certificateWorld(h);
    const v = await versionId(h.db);
    const uuid = await assign(h, w.manager.id, w.learner.id, v);
    await assign(h, w.manager.id, w.member.id, await versionId(h.db, '2015'));
    const c = await as(h, w.manager.id);
    const list = await c('GET', '/api/care-certificates?per_page=1');
    expect(list.statusCode).toBe(200);
    expect(list.json().meta).toMatchObject({ total: 2, per_page: 1, last_page: 2 });
    const mineOnly = await c('GET', `/api/care-certificates?user_id=${w.learner.id}&version_id=${v}`);
    expect(mineOnly.json().data.map((s: { uuid: string }) => s.uuid)).toEqual([uuid]);
    expect(mineOnly.json().data[0]).toMatchObject({ criteria_evidenced: 0, standards_total: 16 });
    expect(mineOnly.json().data[0].criteria_total).toBeGreaterThan(0);
    const searched = await c('GET', '/api/care-certificates?search=Lee%20Learn');
    expect(searched.json().data).toHaveLength(1);
    expect((await c('GET', '/api/care-certificates?awaiting_approval=1')).json().data).toHaveLength(0);
    expect((await c('GET', '/api/care-certificates?status=complete')).json().data).toHaveLength(0);

    const mine = await (await as(h, w.learner.id))('GET', '/api/care-certificates/mine');
    expect(mine.json().data.map((s: { uuid: string }) => s.uuid)).toEqual([uuid]);
    const own = await (await as(h, w.learner.id))('GET', `/api/care-certificates/${uuid}`);
    expect(own.statusCode).toBe(200);
    expect(own.json().data.can).toMatchObject({
      upload: true,
      submit: true,
      withdraw: false,
      approve: false,
    });
    const seen = await (await as(h, w.observer.id))('GET', `/api/care-certificates/${uuid}`);
    expect(seen.json().data.can).toMatchObject({ observe: true, upload: true, withdraw: false });
  });

  it('422 on a bad filter; 403 for a list without a view permission; 404 for another organisation', async () => {
    const w = await certificateWorld(h);
    const uuid = await assign(h, w.manager.id, w.learner.id, await versionId(h.db));
    const c = await as(h, w.manager.id);
    expect((await c('GET', '/api/care-certificates?status=done')).statusCode).toBe(422);
    expect((await c('GET', '/api/care-certificates/not-a-uuid')).statusCode).toBe(422);
    expect((await (await as(h, w.member.id))('GET', '/api/care-certificates')).statusCode).toBe(403);
    expect((await (await as(h, w.member.id))('GET', `/api/care-certificates/${uuid}`)).statusCode).toBe(404);
    const outsider = await as(h, w.outsider.id);
    expect((await outsider('GET', `/api/care-certificates/${uuid}`)).statusCode).toBe(404);
    const list = await outsider('GET', '/api/care-certificates?per_page=100');
    expect(list.body).not.toContain(uuid);
  });
});

describe('DELETE /api/care-certificates/{uuid}', () => {
  it('401, 422, 403, 404 other organisation; withdraws one without evidence, 409 with some', async () => {
    const w = await certificateWorld(h);
    const v = await versionId(h.db);
    const uuid = await assign(h, w.manager.id, w.learner.id, v);
    expect((await h.app.inject({ method: 'DELETE', url: `/api/care-certificates/${uuid}` })).statusCode).toBe(
      401,
    );
    const c = await as(h, w.manager.id);
    expect((await c('DELETE', '/api/care-certificates/nope')).statusCode).toBe(422);
    expect((await (await as(h, w.observer.id))('DELETE', `/api/care-certificates/${uuid}`)).statusCode).toBe(
      403,
    );
    expect((await (await as(h, w.outsider.id))('DELETE', `/api/care-certificates/${uuid}`)).statusCode).toBe(
      404,
    );
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
        shift: 'early',
        observed: 'x',
        outcome: 'competent',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const refused = await c('DELETE', `/api/care-certificates/${uuid}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(M.hasEvidence);
    await h.db.deleteFrom('care_certificate_observations').where('id', '=', obs.id).execute();
    const res = await c('DELETE', `/api/care-certificates/${uuid}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(M.withdrawn);
    expect((await c('GET', `/api/care-certificates/${uuid}`)).statusCode).toBe(404);
  });
});

describeRaces('concurrent assignments', () => {
  it('one of eight parallel assignments of the same person and version wins, the others get 409', async () => {
    const w = await certificateWorld(h);
    const v = await versionId(h.db);
    const c = await as(h, w.manager.id);
    const results = await parallel(8, () =>
      c('POST', '/api/care-certificates', { user_id: w.learner.id, version_id: v }),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const rows = await h.db
      .selectFrom('care_certificates')
      .select('id')
      .where('user_id', '=', w.learner.id)
      .execute();
    expect(rows).toHaveLength(1);
    const states = await h.db
      .selectFrom('care_certificate_standard_states')
      .select('standard_id')
      .where('certificate_id', '=', rows[0].id)
      .execute();
    expect(states).toHaveLength(16);
  });
});
