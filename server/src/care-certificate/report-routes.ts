import { CareCertificateReportQuery, ComplianceExportParams } from '@cc/contracts';
import type { App } from '../http/app-types';
import { ok, paginate } from '../http/envelope';
import { sendFile } from '../reports/routes';
import { learnerWidget, managerWidget } from './dashboard';
import { careCertificateFile } from './export';
import { careCertificateReport, careCertificateStandardReport } from './report';

/**
 * The report (87), its exports, and the dashboards' widgets (H3). Issue 16; contracts care-certificate.ts. HTTP only:
 * scope, permissions and figures live in report.ts, export.ts and dashboard.ts.
 */
export async function reportRoutes(app: App) {
  const tags = ['care-certificate'];
  app.get(
    '/reports/care-certificate',
    {
      schema: {
        tags,
        summary:
          'Care Certificate report (87): a page of people with their certificate (view=person), or counts per standard (view=standard)',
        querystring: CareCertificateReportQuery,
      },
    },
    async (r) => {
      if (r.query.view === 'standard') return ok(await careCertificateStandardReport(r.ctx, r.query));
      const { data, total } = await careCertificateReport(r.ctx, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.get(
    '/reports/care-certificate/export/:format',
    {
      schema: {
        tags,
        summary: 'Care Certificate report as XLSX or PDF (87): every matching person, not paged',
        params: ComplianceExportParams,
        querystring: CareCertificateReportQuery,
      },
    },
    async (r, reply) => sendFile(reply, await careCertificateFile(r.ctx, r.query, r.params.format)),
  );
  app.get(
    '/dashboard/care-certificate',
    {
      schema: {
        tags,
        summary: "The caller's own certificate and the next criteria to evidence (any signed-in user)",
      },
    },
    async (r) => ok(await learnerWidget(r.ctx)),
  );
  app.get(
    '/dashboard/care-certificate/team',
    {
      schema: {
        tags,
        summary:
          'People in scope by stage: working towards, awaiting approval, overdue, complete (any certificate view permission)',
      },
    },
    async (r) => ok(await managerWidget(r.ctx)),
  );
}
