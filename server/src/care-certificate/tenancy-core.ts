import type { Db } from '../db/connect';

/**
 * The Care Certificate core part's rows in server/test/tenancy.test.ts (issue 16): the victim's certificate with an
 * evidence file, and the cases calling every certificate, evidence, settings and course-criteria route with them
 * (outsider: 404 and nothing changes; insider without permissions: 403, or 404 where only the owner or someone with
 * a view permission may reach the certificate at all).
 */
export interface CoreFixture {
  versionId: number;
  uuid: string;
  evidenceId: number;
  criterionId: number;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
interface F {
  careCertificate: CoreFixture;
  victim: { id: number };
  site: { slug: string };
  course: { id: number };
}
interface CoreCase {
  method: Method;
  route: string;
  url: (f: F) => string;
  body?: (f: F) => unknown;
  kind: 'scoped' | 'own';
}

export async function coreFixture(
  db: Db,
  o: { victimId: number; siteId: number; canary: string },
): Promise<CoreFixture> {
  const version = await db
    .selectFrom('care_certificate_versions')
    .select('id')
    .where('code', '=', '2015')
    .executeTakeFirstOrThrow();
  const cert = await db
    .insertInto('care_certificates')
    .values({
      user_id: o.victimId,
      version_id: version.id,
      started_on: '2026-01-05',
      expected_by: '2026-03-30',
    })
    .returning(['id', 'uuid'])
    .executeTakeFirstOrThrow();
  const standards = await db
    .selectFrom('care_certificate_standards')
    .select('id')
    .where('version_id', '=', version.id)
    .execute();
  await db
    .insertInto('care_certificate_standard_states')
    .values(standards.map((s) => ({ certificate_id: cert.id, standard_id: s.id })))
    .execute();
  const criterion = await db
    .selectFrom('care_certificate_criteria as k')
    .innerJoin('care_certificate_standards as s', 's.id', 'k.standard_id')
    .select('k.id')
    .where('s.version_id', '=', version.id)
    .where('k.requires_observation', '=', false)
    .orderBy('k.id')
    .executeTakeFirstOrThrow();
  const file = await db
    .insertInto('files')
    .values({
      entity_id: o.siteId,
      purpose: 'care_certificate_evidence',
      storage_key: 'evidence/tenancy-missing.pdf',
      original_name: `${o.canary}.pdf`,
      mime_type: 'application/pdf',
      size_bytes: 10,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const evidence = await db
    .insertInto('care_certificate_evidence')
    .values({
      certificate_id: cert.id,
      kind: 'file',
      file_id: file.id,
      description: `${o.canary} evidence`,
      added_by: o.victimId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('care_certificate_evidence_criteria')
    .values({ evidence_id: evidence.id, criterion_id: criterion.id })
    .execute();
  return { versionId: version.id, uuid: cert.uuid, evidenceId: evidence.id, criterionId: criterion.id };
}

export function coreCases(): CoreCase[] {
  const c =
    (kind: CoreCase['kind']) =>
    (method: Method, route: string, url: (f: F) => string, body?: (f: F) => unknown): CoreCase => ({
      method,
      route,
      url,
      ...(body ? { body } : {}),
      kind,
    });
  const scoped = c('scoped');
  const own = c('own');
  const cert = (f: F) => `/api/care-certificates/${f.careCertificate.uuid}`;
  const evidence = (f: F) => `${cert(f)}/evidence/${f.careCertificate.evidenceId}`;
  const settings = (f: F) => `/api/care-certificate-settings?actingAs=${f.site.slug}`;
  const criteria = (f: F) => `/api/courses/${f.course.id}/care-certificate-criteria`;
  return [
    scoped('GET', '/api/care-certificate-settings', settings),
    scoped('PATCH', '/api/care-certificate-settings', settings, () => ({ expected_weeks: 2 })),
    scoped('GET', '/api/courses/:id/care-certificate-criteria', criteria),
    scoped('PUT', '/api/courses/:id/care-certificate-criteria', criteria, (f) => ({
      criterion_ids: [f.careCertificate.criterionId],
    })),
    scoped(
      'POST',
      '/api/care-certificates',
      () => '/api/care-certificates',
      (f) => ({ user_id: f.victim.id, version_id: f.careCertificate.versionId }),
    ),
    // Only the owner, or someone with a view permission in scope, reaches a certificate: everyone else 404.
    own('GET', '/api/care-certificates/:uuid', cert),
    own('DELETE', '/api/care-certificates/:uuid', cert),
    own(
      'POST',
      '/api/care-certificates/:uuid/evidence',
      (f) => `${cert(f)}/evidence`,
      (f) => ({
        result_id: 1,
        criterion_ids: [f.careCertificate.criterionId],
      }),
    ),
    own('DELETE', '/api/care-certificates/:uuid/evidence/:id', evidence),
    own('GET', '/api/care-certificates/:uuid/evidence/:id/file', (f) => `${evidence(f)}/file`),
  ];
}

/** GET /care-certificates: another organisation's list never shows the victim's certificate. */
export const coreLists = () => [
  {
    method: 'GET' as const,
    route: '/api/care-certificates',
    url: () => '/api/care-certificates?per_page=100',
    secrets: (f: F) => [f.careCertificate.uuid],
    insider: 403 as const,
  },
];

export const CORE_TABLES = [
  'care_certificate_settings',
  'course_care_certificate_criteria',
  'care_certificates',
  'care_certificate_standard_states',
  'care_certificate_evidence',
  'care_certificate_evidence_criteria',
] as const;

const SUPER_ADMIN_ONLY = 'super admins only: the standards are the same for every organisation';
export const CORE_EXEMPT: Record<string, string> = {
  'GET /api/care-certificate-versions': 'the standards, the same for every organisation',
  'GET /api/care-certificate-versions/:id': 'the standards, the same for every organisation',
  'GET /api/care-certificate-versions/:id/gaps': 'the standards, the same for every organisation',
  'POST /api/care-certificate-versions/:id/criteria-import/preview': SUPER_ADMIN_ONLY,
  'POST /api/care-certificate-versions/:id/criteria-import': SUPER_ADMIN_ONLY,
  'GET /api/care-certificates/mine': 'the caller only',
  'POST /api/care-certificate-versions': SUPER_ADMIN_ONLY,
  'PATCH /api/care-certificate-versions/:id': SUPER_ADMIN_ONLY,
  'DELETE /api/care-certificate-versions/:id': SUPER_ADMIN_ONLY,
  'POST /api/care-certificate-versions/:id/standards': SUPER_ADMIN_ONLY,
  'PATCH /api/care-certificate-standards/:id': SUPER_ADMIN_ONLY,
  'DELETE /api/care-certificate-standards/:id': SUPER_ADMIN_ONLY,
  'POST /api/care-certificate-standards/:id/outcomes': SUPER_ADMIN_ONLY,
  'PATCH /api/care-certificate-outcomes/:id': SUPER_ADMIN_ONLY,
  'DELETE /api/care-certificate-outcomes/:id': SUPER_ADMIN_ONLY,
  'POST /api/care-certificate-outcomes/:id/criteria': SUPER_ADMIN_ONLY,
  'PATCH /api/care-certificate-criteria/:id': SUPER_ADMIN_ONLY,
  'DELETE /api/care-certificate-criteria/:id': SUPER_ADMIN_ONLY,
};
