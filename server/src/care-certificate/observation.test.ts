import { CareCertificateMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import {
  buildCertificate,
  buildObservation,
  buildPeople,
  buildVersion,
  observationBody,
  type TestVersion,
} from './approval-world';
import { ObservationErrors } from './observation-service';
import { criteriaLackingEvidence } from './progress';

/** Observations: POST/PATCH/DELETE /care-certificates/{uuid}/observations[/{id}], …/approve. */
let h: Harness;
let v: TestVersion;
beforeAll(async () => {
  h = await createHarness();
  v = await buildVersion(h.db);
});
afterAll(async () => h?.close());

const as = (userId: number) => clientFor(h.app, h.db, userId);

async function world() {
  const people = await buildPeople(h.db);
  const cert = await buildCertificate(h.db, { userId: people.learner.id, versionId: v.id });
  return { ...people, cert, url: `/api/care-certificates/${cert.uuid}/observations` };
}

const rowOf = (id: number) =>
  h.db.selectFrom('care_certificate_observations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('POST /care-certificates/{uuid}/observations', () => {
  it('401 without sign-in', async () => {
    const { url } = await world();
    const res = await h.app.inject({ method: 'POST', url, payload: observationBody([v.criteria['1a']]) });
    expect(res.statusCode).toBe(401);
  });

  it('records an observation: the caller is the assessor by default, their name kept', async () => {
    const { url, observer } = await world();
    const res = await (await as(observer.id))(
      'POST',
      url,
      observationBody([v.criteria['1b'], v.criteria['1a']]),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(M.observationSaved);
    const o = res.json().data;
    expect(o).toMatchObject({
      assessor: { id: observer.id, name: 'Oli Observer' },
      observed_at: '2026-02-03T09:30:00.000Z',
      place: 'Dining room',
      shift: 'day',
      outcome: 'competent',
      criterion_ids: [v.criteria['1a'], v.criteria['1b']].sort((a, b) => a - b),
      approved_at: null,
      supersedes_id: null,
      superseded_by_id: null,
      created_by: 'Oli Observer',
    });
    // The name is a snapshot: renaming the user later does not rewrite the record.
    await h.db.updateTable('users').set({ name: 'Renamed' }).where('id', '=', observer.id).execute();
    expect((await rowOf(o.id)).assessor_name).toBe('Oli Observer');
  });

  it('names an assessor from elsewhere, or a colleague in scope by id', async () => {
    const { url, observer, approver } = await world();
    const c = await as(observer.id);
    const external = await c(
      'POST',
      url,
      observationBody([v.criteria['2a']], { assessor_name: 'Jo External' }),
    );
    expect(external.json().data.assessor).toEqual({ id: null, name: 'Jo External' });
    const colleague = await c('POST', url, observationBody([v.criteria['2a']], { assessor_id: approver.id }));
    expect(colleague.json().data.assessor).toEqual({ id: approver.id, name: 'Ava Approver' });
  });

  it('422: bad input, criteria of another version, an assessor out of scope, half a correction', async () => {
    const { url, observer, outsider } = await world();
    const c = await as(observer.id);
    const bad = await c('POST', url, { place: '', shift: 'dawn', criterion_ids: [] });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(
      expect.arrayContaining(['observed_at', 'place', 'shift', 'observed', 'outcome', 'criterion_ids']),
    );
    const other = await buildVersion(h.db);
    const wrong = await c('POST', url, observationBody([other.criteria['1a']]));
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual({ criterion_ids: [M.criteriaOtherVersion] });
    const stranger = await c('POST', url, observationBody([v.criteria['1a']], { assessor_id: outsider.id }));
    expect(stranger.json().errors).toEqual({ assessor_id: [ObservationErrors.assessor] });
    const noReason = await c('POST', url, observationBody([v.criteria['1a']], { supersedes_id: 1 }));
    expect(noReason.json().errors).toEqual({ correction_reason: [ObservationErrors.correctionReason] });
    const noTarget = await c('POST', url, observationBody([v.criteria['1a']], { correction_reason: 'Typo' }));
    expect(noTarget.json().errors).toEqual({ supersedes_id: [ObservationErrors.supersedesMissing] });
    const count = await h.db
      .selectFrom('care_certificate_observations')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const again = await c(
      'POST',
      url,
      observationBody([v.criteria['1a']], { supersedes_id: 999999, correction_reason: 'x' }),
    );
    expect(again.json().errors).toEqual({ supersedes_id: [ObservationErrors.supersedes] });
    const after = await h.db
      .selectFrom('care_certificate_observations')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(count.n);
  });

  it('403 without observe (the learner on their own certificate, an assigner); 404 for another organisation', async () => {
    const { url, learner, assigner, outsider } = await world();
    const body = observationBody([v.criteria['1a']]);
    expect((await (await as(learner.id))('POST', url, body)).statusCode).toBe(403);
    expect((await (await as(assigner.id))('POST', url, body)).statusCode).toBe(403);
    expect((await (await as(outsider.id))('POST', url, body)).statusCode).toBe(404);
  });
});

describe('PATCH, DELETE and approve an observation', () => {
  it('401 without sign-in', async () => {
    const { url, cert } = await world();
    const o = await buildObservation(h.db, { certificateId: cert.id, criterionIds: [v.criteria['1a']] });
    for (const [method, u] of [
      ['PATCH', `${url}/${o.id}`],
      ['DELETE', `${url}/${o.id}`],
      ['POST', `${url}/${o.id}/approve`],
    ] as const)
      expect((await h.app.inject({ method, url: u, payload: {} })).statusCode).toBe(401);
  });

  it('PATCH changes only the fields sent; 422 on bad values', async () => {
    const { url, cert, observer } = await world();
    const o = await buildObservation(h.db, { certificateId: cert.id, criterionIds: [v.criteria['1a']] });
    const c = await as(observer.id);
    const before = await rowOf(o.id);
    const res = await c('PATCH', `${url}/${o.id}`, { place: 'Garden' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ place: 'Garden', criterion_ids: [v.criteria['1a']] });
    const after = await rowOf(o.id);
    expect({ ...after, place: before.place, updated_at: before.updated_at }).toEqual(before);
    const crit = await c('PATCH', `${url}/${o.id}`, { criterion_ids: [v.criteria['2a']] });
    expect(crit.json().data.criterion_ids).toEqual([v.criteria['2a']]);
    const bad = await c('PATCH', `${url}/${o.id}`, { shift: 'dawn' });
    expect(bad.statusCode).toBe(422);
  });

  it('403 and 404 by permission and organisation; 404 for an observation of another certificate', async () => {
    const { url, cert, observer, approver, outsider, learner } = await world();
    const o = await buildObservation(h.db, { certificateId: cert.id, criterionIds: [v.criteria['1a']] });
    expect((await (await as(approver.id))('PATCH', `${url}/${o.id}`, { place: 'x' })).statusCode).toBe(403);
    expect((await (await as(observer.id))('DELETE', `${url}/${o.id}`)).statusCode).toBe(403);
    expect((await (await as(observer.id))('POST', `${url}/${o.id}/approve`)).statusCode).toBe(403);
    expect((await (await as(learner.id))('POST', `${url}/${o.id}/approve`)).statusCode).toBe(403);
    for (const [method, u] of [
      ['PATCH', `${url}/${o.id}`],
      ['DELETE', `${url}/${o.id}`],
      ['POST', `${url}/${o.id}/approve`],
    ] as const)
      expect(
        (await (await as(outsider.id))(method, u, method === 'PATCH' ? { place: 'x' } : undefined))
          .statusCode,
      ).toBe(404);
    const other = await world();
    const theirs = await buildObservation(h.db, {
      certificateId: other.cert.id,
      criterionIds: [v.criteria['1a']],
    });
    expect((await (await as(observer.id))('PATCH', `${url}/${theirs.id}`, { place: 'x' })).statusCode).toBe(
      404,
    );
  });

  it('DELETE (90) removes an unapproved observation', async () => {
    const { url, cert, manager } = await world();
    const o = await buildObservation(h.db, { certificateId: cert.id, criterionIds: [v.criteria['1a']] });
    const res = await (await as(manager.id))('DELETE', `${url}/${o.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(M.observationDeleted);
    expect(
      await h.db
        .selectFrom('care_certificate_observations')
        .select('id')
        .where('id', '=', o.id)
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it('an approved observation cannot be changed in place: PATCH and DELETE 409, the row unchanged; a correction supersedes it', async () => {
    const { url, cert, manager, approver } = await world();
    const o = await buildObservation(h.db, { certificateId: cert.id, criterionIds: [v.criteria['1b']] });
    const approved = await (await as(approver.id))('POST', `${url}/${o.id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().message).toBe(M.observationApproved);
    expect(approved.json().data.approved_by).toBe('Ava Approver');
    const locked = await rowOf(o.id);
    expect(locked.approved_at).not.toBeNull();
    const c = await as(manager.id);
    const patch = await c('PATCH', `${url}/${o.id}`, { outcome: 'not_yet_competent' });
    expect(patch.statusCode).toBe(409);
    expect(patch.json().message).toBe(M.observationLocked);
    const del = await c('DELETE', `${url}/${o.id}`);
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toBe(M.observationLocked);
    expect(await rowOf(o.id)).toEqual(locked);
    // Approving again changes nothing.
    expect((await (await as(approver.id))('POST', `${url}/${o.id}/approve`)).json().data.approved_at).toBe(
      new Date(locked.approved_at as Date).toISOString(),
    );
    // The database refuses an update of an approved row whatever the path.
    await expect(
      h.db.updateTable('care_certificate_observations').set({ place: 'x' }).where('id', '=', o.id).execute(),
    ).rejects.toThrow();

    expect((await criteriaLackingEvidence(h.db, cert.id, v.standards[1])).lacking).toEqual([
      v.criteria['1a'],
    ]);
    const correction = await c(
      'POST',
      url,
      observationBody([v.criteria['1b']], {
        outcome: 'not_yet_competent',
        supersedes_id: o.id,
        correction_reason: 'The wrong person was recorded.',
      }),
    );
    expect(correction.statusCode, correction.body).toBe(201);
    expect(correction.json().data).toMatchObject({
      supersedes_id: o.id,
      correction_reason: 'The wrong person was recorded.',
    });
    // The old one no longer counts: 1b lacks evidence again.
    expect((await criteriaLackingEvidence(h.db, cert.id, v.standards[1])).lacking.sort()).toEqual(
      [v.criteria['1a'], v.criteria['1b']].sort(),
    );
    expect(await rowOf(o.id)).toEqual(locked);
    const second = await c(
      'POST',
      url,
      observationBody([v.criteria['1b']], { supersedes_id: o.id, correction_reason: 'Again' }),
    );
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(M.observationSuperseded);
    // A corrected observation cannot be deleted from under its correction.
    const unapproved = await buildObservation(h.db, {
      certificateId: cert.id,
      criterionIds: [v.criteria['2a']],
    });
    await c(
      'POST',
      url,
      observationBody([v.criteria['2a']], { supersedes_id: unapproved.id, correction_reason: 'Date' }),
    );
    const gone = await c('DELETE', `${url}/${unapproved.id}`);
    expect(gone.statusCode).toBe(409);
    expect(gone.json().message).toBe(M.observationSuperseded);
  });
});
