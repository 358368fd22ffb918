import { CareCertificateMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import {
  buildCertificate,
  buildObservation,
  buildPeople,
  buildVersion,
  type TestVersion,
} from './approval-world';

/** The workflow over GraphQL: the same services as REST, so the same rules and answers. */
let h: Harness;
let v: TestVersion;
beforeAll(async () => {
  h = await createHarness();
  v = await buildVersion(h.db);
});
afterAll(async () => h?.close());

async function gql(userId: number | null, query: string, variables: Record<string, unknown> = {}) {
  const headers = userId === null ? {} : await bearer(h.db, userId);
  const res = await h.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
  return res.json() as {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: { status?: number; validation?: Record<string, string[]> } }[];
  };
}

const OBS = `mutation ($uuid: String!, $input: CareCertificateObservationInput!) {
  upsertObservation(uuid: $uuid, input: $input) { id place outcome criterion_ids approved_at supersedes_id assessor { id name } }
}`;

describe('GraphQL: observations', () => {
  it('creates, updates only what it is sent, approves, refuses changes once approved, deletes', async () => {
    const p = await buildPeople(h.db);
    const cert = await buildCertificate(h.db, { userId: p.learner.id, versionId: v.id });
    const input = {
      observed_at: '2026-02-03T09:30:00Z',
      place: 'Lounge',
      shift: 'day',
      observed: 'Supported a resident.',
      outcome: 'competent',
      criterion_ids: [v.criteria['1a']],
    };
    const created = await gql(p.manager.id, OBS, { uuid: cert.uuid, input });
    expect(created.errors).toBeUndefined();
    const o = created.data?.upsertObservation as { id: string; assessor: { name: string } };
    expect(o.assessor.name).toBe('Mia Manager');
    const updated = await gql(p.manager.id, OBS, { uuid: cert.uuid, input: { id: o.id, place: 'Garden' } });
    expect(updated.data?.upsertObservation).toMatchObject({ place: 'Garden', outcome: 'competent' });
    const bad = await gql(p.manager.id, OBS, { uuid: cert.uuid, input: { ...input, criterion_ids: [] } });
    expect(bad.errors?.[0]?.extensions?.validation).toEqual({
      criterion_ids: ['Choose at least one criterion.'],
    });
    const approved = await gql(
      p.approver.id,
      'mutation ($uuid: String!, $id: ID!) { approveObservation(uuid: $uuid, id: $id) { approved_at } }',
      { uuid: cert.uuid, id: o.id },
    );
    expect(approved.data?.approveObservation).toMatchObject({ approved_at: expect.any(String) });
    const locked = await gql(p.manager.id, OBS, { uuid: cert.uuid, input: { id: o.id, place: 'Hall' } });
    expect(locked.errors?.[0]?.message).toBe(M.observationLocked);
    const correction = await gql(p.manager.id, OBS, {
      uuid: cert.uuid,
      input: { ...input, supersedes_id: Number(o.id), correction_reason: 'Wrong date' },
    });
    expect(correction.data?.upsertObservation).toMatchObject({ supersedes_id: Number(o.id) });
    const fresh = await buildObservation(h.db, { certificateId: cert.id, criterionIds: [v.criteria['2a']] });
    const del = 'mutation ($uuid: String!, $id: ID!) { deleteObservation(uuid: $uuid, id: $id) }';
    expect(
      (await gql(p.observer.id, del, { uuid: cert.uuid, id: fresh.id })).errors?.[0]?.message,
    ).toBeDefined();
    expect((await gql(p.manager.id, del, { uuid: cert.uuid, id: fresh.id })).data?.deleteObservation).toBe(
      true,
    );
    expect((await gql(p.outsider.id, OBS, { uuid: cert.uuid, input })).errors?.[0]?.message).toBe(
      'Not found.',
    );
    expect((await gql(null, OBS, { uuid: cert.uuid, input })).errors?.[0]).toBeDefined();
  });
});

describe('GraphQL: standards and historical certificates', () => {
  it('submit, reject, approve; historical create, update, list', async () => {
    const p = await buildPeople(h.db);
    const cert = await buildCertificate(h.db, { userId: p.learner.id, versionId: v.id });
    const action = (name: string, extra = '') =>
      `mutation ($uuid: String!, $id: ID!${extra ? ', $reasons: String!' : ''}) { ${name}(uuid: $uuid, standard_id: $id${extra}) { status standards { number state rejection_reasons } } }`;
    const vars = { uuid: cert.uuid, id: v.standards[1] };
    const early = await gql(p.learner.id, action('submitCareCertificateStandard'), vars);
    expect(early.errors?.[0]?.extensions?.validation).toEqual({ standard: [M.criteriaMissingEvidence] });
    await buildObservation(h.db, {
      certificateId: cert.id,
      criterionIds: [v.criteria['1a'], v.criteria['1b'], v.criteria['2a']],
    });
    const submitted = await gql(p.learner.id, action('submitCareCertificateStandard'), vars);
    expect(submitted.errors).toBeUndefined();
    const rejected = await gql(
      p.approver.id,
      action('rejectCareCertificateStandard', ', reasons: $reasons'),
      {
        ...vars,
        reasons: 'More detail',
      },
    );
    expect(
      (rejected.data?.rejectCareCertificateStandard as { standards: unknown[] } | undefined)?.standards[0],
    ).toMatchObject({ state: 'open', rejection_reasons: 'More detail' });
    await gql(p.approver.id, action('approveCareCertificateStandard'), vars);
    const last = await gql(p.approver.id, action('approveCareCertificateStandard'), {
      ...vars,
      id: v.standards[2],
    });
    expect(last.data?.approveCareCertificateStandard).toMatchObject({ status: 'complete' });

    const created = await gql(
      p.manager.id,
      'mutation ($input: HistoricalCareCertificateInput!) { createHistoricalCareCertificate(input: $input) { uuid status historical provider } }',
      {
        input: { user_id: p.learner.id, version_id: v.id, completed_on: '2024-03-01', provider: 'Elm Care' },
      },
    );
    expect(created.errors).toBeUndefined();
    const hist = created.data?.createHistoricalCareCertificate as { uuid: string };
    expect(hist).toMatchObject({ status: 'complete', historical: true, provider: 'Elm Care' });
    const updated = await gql(
      p.manager.id,
      'mutation ($uuid: String!, $input: HistoricalCareCertificateInput!) { updateHistoricalCareCertificate(uuid: $uuid, input: $input) { provider completed_on } }',
      { uuid: hist.uuid, input: { provider: 'Ash Care' } },
    );
    expect(updated.data?.updateHistoricalCareCertificate).toEqual({
      provider: 'Ash Care',
      completed_on: '2024-03-01',
    });
    const list = await gql(
      p.manager.id,
      `query ($user: Int) { historicalCareCertificates(user_id: $user) { data { uuid } paginatorInfo { total } } }`,
      { user: p.learner.id },
    );
    expect(list.data?.historicalCareCertificates).toEqual({
      data: [{ uuid: hist.uuid }],
      paginatorInfo: { total: 1 },
    });
    const denied = await gql(p.assigner.id, 'query { historicalCareCertificates { data { uuid } } }');
    expect(denied.errors?.[0]?.message).toBeDefined();
  });
});
