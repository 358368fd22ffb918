import { CareCertificateMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { pdfText } from '../../test/pdf-text';
import { buildCertificate, buildPeople, buildVersion, type TestVersion } from './approval-world';
import { HistoricalErrors } from './historical-service';

/** /historical-care-certificates (92): list, record, view, edit. */
let h: Harness;
let v: TestVersion;
beforeAll(async () => {
  h = await createHarness();
  v = await buildVersion(h.db);
});
afterAll(async () => h?.close());

const as = (userId: number) => clientFor(h.app, h.db, userId);
const URL = '/api/historical-care-certificates';

async function world() {
  const people = await buildPeople(h.db);
  const body = {
    user_id: people.learner.id,
    version_id: v.id,
    completed_on: '2024-06-14',
    provider: 'Elm Tree Care',
    assessor_name: 'Pat Assessor',
    notes: 'Certificate seen at interview.',
  };
  return { ...people, body };
}

describe('POST /historical-care-certificates', () => {
  it('401 without sign-in', async () => {
    expect((await h.app.inject({ method: 'POST', url: URL, payload: {} })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
  });

  it('records a complete certificate with every standard approved as of the completion day', async () => {
    const { manager, body } = await world();
    const res = await (await as(manager.id))('POST', URL, body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(M.historicalSaved);
    const data = res.json().data;
    expect(data).toMatchObject({
      historical: true,
      status: 'complete',
      completed_on: '2024-06-14',
      started_on: '2024-06-14',
      provider: 'Elm Tree Care',
      assessor_name: 'Pat Assessor',
      notes: 'Certificate seen at interview.',
      standards_total: 2,
      standards_approved: 2,
      nmds: 'completed',
    });
    expect(data.standards.map((s: { state: string }) => s.state)).toEqual(['approved', 'approved']);
    const states = await h.db
      .selectFrom('care_certificate_standard_states as s')
      .innerJoin('care_certificates as c', 'c.id', 's.certificate_id')
      .select(['s.decided_at', 's.decided_by'])
      .where('c.uuid', '=', data.uuid)
      .execute();
    expect(states.every((s) => new Date(s.decided_at as Date).toISOString().startsWith('2024-06-14'))).toBe(
      true,
    );
    expect(states.every((s) => s.decided_by === manager.id)).toBe(true);
    // It downloads like any complete certificate, naming where it was completed.
    const pdf = await (await as(manager.id))('GET', `/api/care-certificates/${data.uuid}/pdf`);
    expect(pdf.statusCode).toBe(200);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Elm Tree Care');
    expect(text).toContain('Pat Assessor');
  });

  it('422: bad input, a start after completion, a future date, an unknown version', async () => {
    const { manager, body } = await world();
    const c = await as(manager.id);
    const bad = await c('POST', URL, { user_id: 'x', completed_on: '14/06/2024', provider: '' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(
      expect.arrayContaining(['user_id', 'version_id', 'completed_on', 'provider']),
    );
    const later = await c('POST', URL, { ...body, started_on: '2024-07-01' });
    expect(later.json().errors).toEqual({ started_on: [HistoricalErrors.startAfterCompletion] });
    const future = await c('POST', URL, { ...body, completed_on: '2099-01-01' });
    expect(future.json().errors).toEqual({ completed_on: [HistoricalErrors.future] });
    const version = await c('POST', URL, { ...body, version_id: 999999 });
    expect(version.json().errors).toEqual({ version_id: [HistoricalErrors.version] });
  });

  it('403 without historical (92); 404 for a person of another organisation', async () => {
    const { assigner, outsider, body } = await world();
    expect((await (await as(assigner.id))('POST', URL, body)).statusCode).toBe(403);
    expect((await (await as(outsider.id))('POST', URL, body)).statusCode).toBe(404);
  });
});

describe('GET/PATCH /historical-care-certificates/{uuid} and the list', () => {
  async function recorded() {
    const w = await world();
    const res = await (await as(w.manager.id))('POST', URL, w.body);
    return { ...w, uuid: res.json().data.uuid as string };
  }

  it('lists the historical certificates of people in scope only', async () => {
    const w = await recorded();
    await buildCertificate(h.db, { userId: w.learner.id, versionId: v.id });
    const mine = await (await as(w.manager.id))('GET', `${URL}?user_id=${w.learner.id}`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data.map((c: { uuid: string }) => c.uuid)).toEqual([w.uuid]);
    expect(mine.json().meta.total).toBe(1);
    const theirs = await (await as(w.outsider.id))('GET', `${URL}?per_page=100`);
    expect(JSON.stringify(theirs.json().data)).not.toContain(w.uuid);
    expect((await (await as(w.assigner.id))('GET', URL)).statusCode).toBe(403);
    expect((await (await as(w.manager.id))('GET', `${URL}?per_page=0`)).statusCode).toBe(422);
  });

  it('GET: 200 in scope, 404 elsewhere, 403 without 92, 409 for a certificate that is not historical', async () => {
    const w = await recorded();
    const res = await (await as(w.manager.id))('GET', `${URL}/${w.uuid}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.uuid).toBe(w.uuid);
    expect((await (await as(w.outsider.id))('GET', `${URL}/${w.uuid}`)).statusCode).toBe(404);
    expect((await (await as(w.assigner.id))('GET', `${URL}/${w.uuid}`)).statusCode).toBe(403);
    const live = await buildCertificate(h.db, { userId: w.learner.id, versionId: v.id });
    const notHistorical = await (await as(w.manager.id))('GET', `${URL}/${live.uuid}`);
    expect(notHistorical.statusCode).toBe(409);
    expect(notHistorical.json().message).toBe(M.historicalOnly);
  });

  it('PATCH changes only the fields sent; moving the completion date moves the approvals', async () => {
    const w = await recorded();
    const c = await as(w.manager.id);
    const before = (await c('GET', `${URL}/${w.uuid}`)).json().data;
    const res = await c('PATCH', `${URL}/${w.uuid}`, { provider: 'Ash Care' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(M.historicalSaved);
    expect(res.json().data).toMatchObject({ ...pick(before), provider: 'Ash Care' });
    const early = await c('PATCH', `${URL}/${w.uuid}`, { completed_on: '2024-05-01' });
    expect(early.statusCode).toBe(422);
    expect(early.json().errors).toEqual({ started_on: [HistoricalErrors.startAfterCompletion] });
    await c('PATCH', `${URL}/${w.uuid}`, { started_on: '2024-01-10' });
    const moved = await c('PATCH', `${URL}/${w.uuid}`, { completed_on: '2024-05-01' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({
      completed_on: '2024-05-01',
      started_on: '2024-01-10',
      provider: 'Ash Care',
    });
    const states = await h.db
      .selectFrom('care_certificate_standard_states as s')
      .innerJoin('care_certificates as k', 'k.id', 's.certificate_id')
      .select('s.decided_at')
      .where('k.uuid', '=', w.uuid)
      .execute();
    expect(states.every((s) => new Date(s.decided_at as Date).toISOString().startsWith('2024-05-01'))).toBe(
      true,
    );
  });

  it('PATCH: 401, 422, 403, 404', async () => {
    const w = await recorded();
    const url = `${URL}/${w.uuid}`;
    expect((await h.app.inject({ method: 'PATCH', url, payload: {} })).statusCode).toBe(401);
    const bad = await (await as(w.manager.id))('PATCH', url, { completed_on: 'yesterday' });
    expect(bad.statusCode).toBe(422);
    expect((await (await as(w.assigner.id))('PATCH', url, { notes: 'x' })).statusCode).toBe(403);
    expect((await (await as(w.outsider.id))('PATCH', url, { notes: 'x' })).statusCode).toBe(404);
  });
});

const pick = (d: Record<string, unknown>) => ({
  completed_on: d.completed_on,
  started_on: d.started_on,
  assessor_name: d.assessor_name,
  notes: d.notes,
  version: d.version,
});
