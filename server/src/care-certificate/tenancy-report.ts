import type { Db } from '../db/connect';

/**
 * The report part's rows in server/test/tenancy.test.ts (issue 16): a certificate of the victim's (historical, so it
 * never meets another part's live certificate of the same version), and the cases calling the report, its exports and
 * the team widget (outsider: 404 for the target's organisation, and nothing of it in their own lists; insider without
 * permissions: 403).
 */
export interface CareCertificateReportFixture {
  certificateUuid: string;
}

type Method = 'GET';
interface F {
  site: { id: number };
  victim: { id: number; uuid: string };
  careCertificateReport: CareCertificateReportFixture;
}

export async function careCertificateReportFixture(
  db: Db,
  o: { victimId: number },
): Promise<CareCertificateReportFixture> {
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
      historical: true,
      status: 'complete',
      started_on: '2024-01-01',
      completed_on: '2024-06-01',
      provider: 'Elsewhere',
    })
    .returning('uuid')
    .executeTakeFirstOrThrow();
  return { certificateUuid: cert.uuid };
}

/** Scoped: the target's organisation named in the query (404 outside it, 403 without 87). */
export function careCertificateReportCases() {
  const s = (route: string, url: (f: F) => string) => ({
    method: 'GET' as Method,
    route,
    url,
    kind: 'scoped' as const,
  });
  return [
    s('/api/reports/care-certificate', (f) => `/api/reports/care-certificate?entities=${f.site.id}`),
    s(
      '/api/reports/care-certificate/export/:format',
      (f) => `/api/reports/care-certificate/export/xlsx?entities=${f.site.id}`,
    ),
  ];
}

/** Lists: another organisation's report and team widget never show the target's people or certificates. */
export function careCertificateReportLists() {
  const secrets = (f: F) => [f.victim.uuid, f.careCertificateReport.certificateUuid];
  return [
    {
      method: 'GET' as Method,
      route: '/api/reports/care-certificate',
      url: () => '/api/reports/care-certificate?people=all&per_page=100',
      secrets,
      insider: 403 as const,
    },
    {
      method: 'GET' as Method,
      route: '/api/reports/care-certificate',
      url: () => '/api/reports/care-certificate?view=standard',
      secrets: () => [] as string[],
      insider: 403 as const,
    },
    {
      method: 'GET' as Method,
      route: '/api/dashboard/care-certificate/team',
      url: () => '/api/dashboard/care-certificate/team',
      secrets,
      insider: 403 as const,
    },
  ];
}

export const CARE_CERTIFICATE_REPORT_EXEMPT = {
  'GET /api/dashboard/care-certificate':
    "the caller's own certificate only (care-certificate/report.test.ts)",
};
