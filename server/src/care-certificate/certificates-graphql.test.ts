import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { certificateWorld, versionId } from './certificate-fixtures';

/** The Care Certificate over GraphQL: the same services, rules and answers as REST. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

async function gql(userId: number | null, query: string, variables: Record<string, unknown> = {}) {
  const headers = userId === null ? {} : await bearer(h.db, userId);
  const res = await h.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
  return res.json() as {
    // biome-ignore lint/suspicious/noExplicitAny: GraphQL answers are read by the query each test sends.
    data?: Record<string, any> | null;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
  };
}

describe('GraphQL care certificates', () => {
  it('assigns, lists, reads, reads mine, withdraws; versions and settings; refuses like REST', async () => {
    const w = await certificateWorld(h);
    const v = await versionId(h.db);
    const assigned = await gql(
      w.manager.id,
      'mutation ($input: AssignCareCertificateInput!) { assignCareCertificate(input: $input) { uuid status standards_total standards { number status outcomes { criteria { id evidenced } } } can { withdraw } } }',
      { input: { user_id: w.learner.id, version_id: v } },
    );
    expect(assigned.errors).toBeUndefined();
    const cert = assigned.data?.assignCareCertificate;
    expect(cert).toMatchObject({ status: 'in_progress', standards_total: 16, can: { withdraw: true } });
    const list = await gql(
      w.manager.id,
      '{ careCertificates(first: 5, version_id: ' +
        v +
        ') { data { uuid user { name entity { name } } nmds } paginatorInfo { total } } }',
    );
    expect(list.data?.careCertificates).toEqual({
      data: [
        { uuid: cert.uuid, user: { name: 'Lee Learner', entity: { name: 'Oak Home' } }, nmds: 'not_started' },
      ],
      paginatorInfo: { total: 1 },
    });
    const mine = await gql(w.learner.id, '{ myCareCertificates { uuid } }');
    expect(mine.data?.myCareCertificates).toEqual([{ uuid: cert.uuid }]);
    const one = await gql(
      w.learner.id,
      'query ($u: String!) { careCertificate(uuid: $u) { uuid files { id } observations { id } decisions { id } } }',
      { u: cert.uuid },
    );
    expect(one.data?.careCertificate).toEqual({
      uuid: cert.uuid,
      files: [],
      observations: [],
      decisions: [],
    });
    const outsider = await gql(w.outsider.id, 'query ($u: String!) { careCertificate(uuid: $u) { uuid } }', {
      u: cert.uuid,
    });
    expect(outsider.errors?.[0].message).toBeTruthy();
    expect(outsider.data?.careCertificate ?? null).toBeNull();
    const versions = await gql(w.learner.id, '{ careCertificateVersions { code standards_count } }');
    expect(versions.data?.careCertificateVersions.map((x: { code: string }) => x.code)).toContain('2015');
    const settings = await gql(
      w.manager.id,
      'mutation { updateCareCertificateSettings(input: { expected_weeks: 9 }) { entity_id expected_weeks inherited_from { name } } }',
    );
    expect(settings.data?.updateCareCertificateSettings).toEqual({
      entity_id: String(w.group.id),
      expected_weeks: 9,
      inherited_from: { name: 'Oak Care' },
    });
    const denied = await gql(w.observer.id, `mutation { withdrawCareCertificate(uuid: "${cert.uuid}") }`);
    expect(denied.errors?.length).toBe(1);
    const withdrawn = await gql(w.manager.id, `mutation { withdrawCareCertificate(uuid: "${cert.uuid}") }`);
    expect(withdrawn.data?.withdrawCareCertificate).toBe(true);
    const anonymous = await gql(null, '{ myCareCertificates { uuid } }');
    expect(anonymous.errors?.length).toBe(1);
  });
});
