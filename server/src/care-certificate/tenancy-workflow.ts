import type { Db } from '../db/connect';
import { buildCertificate, buildObservation, buildVersion, observationBody } from './approval-world';

/**
 * The Care Certificate workflow's rows in server/test/tenancy.test.ts (issue 16): the victim's certificate with an
 * observation, and a historical certificate of theirs whose provider carries the canary; the cases calling every
 * observation, standards, PDF and historical route with them. Routes by certificate uuid are 'own': anyone but the
 * certificate's person who may not see it (another organisation, or an insider with no certificate permission) gets
 * the same 404 as a missing uuid (scope.ts). Recording a historical certificate is 'scoped' (403 without 92).
 */
export interface WorkflowFixture {
  certUuid: string;
  observationId: number;
  standardId: number;
  criterionId: number;
  versionId: number;
  historicalUuid: string;
  historicalProvider: string;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
interface F {
  workflow: WorkflowFixture;
  victim: { id: number };
}
interface WorkflowCase {
  method: Method;
  route: string;
  url: (f: F) => string;
  body?: (f: F) => unknown;
  kind: 'scoped' | 'own';
}

export async function workflowFixture(
  db: Db,
  o: { victimId: number; canary: string },
): Promise<WorkflowFixture> {
  const version = await buildVersion(db);
  const cert = await buildCertificate(db, { userId: o.victimId, versionId: version.id });
  const criterionId = version.criteria['1a'] as number;
  const observation = await buildObservation(db, { certificateId: cert.id, criterionIds: [criterionId] });
  const historicalProvider = `${o.canary} Previous Employer`;
  const historical = await db
    .insertInto('care_certificates')
    .values({
      user_id: o.victimId,
      version_id: version.id,
      historical: true,
      status: 'complete',
      started_on: '2024-01-10',
      completed_on: '2024-06-14',
      provider: historicalProvider,
    })
    .returning('uuid')
    .executeTakeFirstOrThrow();
  return {
    certUuid: cert.uuid,
    observationId: observation.id,
    standardId: version.standards[1] as number,
    criterionId,
    versionId: version.id,
    historicalUuid: historical.uuid,
    historicalProvider,
  };
}

export function workflowCases(): WorkflowCase[] {
  const c =
    (kind: WorkflowCase['kind']) =>
    (method: Method, route: string, url: (f: F) => string, body?: (f: F) => unknown): WorkflowCase => ({
      method,
      route,
      url,
      ...(body ? { body } : {}),
      kind,
    });
  const own = c('own');
  const scoped = c('scoped');
  const cert = (f: F) => `/api/care-certificates/${f.workflow.certUuid}`;
  const observation = (f: F) => `${cert(f)}/observations/${f.workflow.observationId}`;
  const standard = (f: F) => `${cert(f)}/standards/${f.workflow.standardId}`;
  const historical = (f: F) => `/api/historical-care-certificates/${f.workflow.historicalUuid}`;
  return [
    own(
      'POST',
      '/api/care-certificates/:uuid/observations',
      (f) => `${cert(f)}/observations`,
      (f) => observationBody([f.workflow.criterionId]),
    ),
    own('PATCH', '/api/care-certificates/:uuid/observations/:id', observation, () => ({
      place: 'Elsewhere',
    })),
    own('DELETE', '/api/care-certificates/:uuid/observations/:id', observation),
    own('POST', '/api/care-certificates/:uuid/observations/:id/approve', (f) => `${observation(f)}/approve`),
    own('POST', '/api/care-certificates/:uuid/standards/:id/submit', (f) => `${standard(f)}/submit`),
    own('POST', '/api/care-certificates/:uuid/standards/:id/approve', (f) => `${standard(f)}/approve`),
    own(
      'POST',
      '/api/care-certificates/:uuid/standards/:id/reject',
      (f) => `${standard(f)}/reject`,
      () => ({ reasons: 'Not enough' }),
    ),
    own('GET', '/api/care-certificates/:uuid/pdf', (f) => `${cert(f)}/pdf`),
    own('GET', '/api/historical-care-certificates/:uuid', historical),
    own('PATCH', '/api/historical-care-certificates/:uuid', historical, () => ({ provider: 'Another' })),
    scoped(
      'POST',
      '/api/historical-care-certificates',
      () => '/api/historical-care-certificates',
      (f) => ({
        user_id: f.victim.id,
        version_id: f.workflow.versionId,
        completed_on: '2024-06-14',
        provider: 'Elm Care',
      }),
    ),
  ];
}

/** GET /historical-care-certificates: another organisation's list never shows the victim's. */
export const workflowLists = () => [
  {
    method: 'GET' as const,
    route: '/api/historical-care-certificates',
    url: () => '/api/historical-care-certificates?per_page=100',
    secrets: (f: F) => [f.workflow.historicalProvider, f.workflow.historicalUuid],
    insider: 403 as const,
  },
];

/** The workflow's tables, compared before and after every call. */
export const WORKFLOW_TABLES = [
  'care_certificate_observations',
  'care_certificate_observation_criteria',
  'care_certificate_standard_states',
  'care_certificate_decisions',
] as const;
