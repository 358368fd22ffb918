import {
  CertificateReportBody,
  ComplianceExportParams,
  ComplianceReportBody,
  ComplianceReportQuery,
  DownloadCertificatesBody,
  DrillDownEntityParams,
  DrillDownQuery,
  DrillDownTagParams,
  DrillDownUsersParams,
  GenericReportBody,
  ReportPageQuery,
  ReportsMessages,
  ResultsReportBody,
  RoleReportBody,
  StaffReportBody,
} from '@cc/contracts';
import type { FastifyReply } from 'fastify';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import { certificatesZip } from './certificates-zip';
import { complianceFile, type ReportFile } from './compliance-export';
import { complianceCourses, complianceReport } from './compliance-service';
import {
  type DrillOutcome,
  drillEntities,
  drillRoles,
  drillTags,
  drillTagUsers,
  drillUsers,
} from './drill-down';
import { emailCompliance, genericReport } from './generic-service';
import { registerReportRenderers } from './jobs';
import { certificateReport, resultsFile, resultsReport, roleReport, staffFile } from './lists-service';
import { roleFile } from './role-export';

/** spec 2 §7 "Reports" (HTTP only; rules, permissions and scope live in the services). */

export function sendFile(reply: FastifyReply, file: ReportFile) {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.stream);
}

/** spec 2 §4: 202 means poll again (every 5 s). */
function drill<T>(reply: FastifyReply, outcome: DrillOutcome<T>) {
  if (!outcome.ready) return reply.status(202).send(done(ReportsMessages.preparing));
  return reply.send(ok(outcome.data));
}

/** The reports asked for with a POST body read only: they leave the caches alone (http/authenticate.ts). */
const READ_ONLY = { readOnly: true } as const;

export async function reportRoutes(app: App) {
  const tags = ['reports'];
  registerReportRenderers();

  app.post(
    '/reports/compliance',
    { config: { ...READ_ONLY, readCache: true }, schema: { tags, body: ComplianceReportBody } },
    async (r, reply) => {
      if (r.body.emailFormat) return done(await emailCompliance(r.ctx, r.body, r.body.emailFormat));
      const outcome = await complianceReport(r.ctx, r.body);
      // spec 2 §4: "status 300 means too large, and expected_time is shown".
      if ('tooLarge' in outcome) return reply.status(300).send(outcome.tooLarge);
      return ok(outcome.report);
    },
  );
  app.get(
    '/reports/compliance/courses',
    { schema: { tags, querystring: ComplianceReportQuery } },
    async (r) => ok(await complianceCourses(r.ctx, r.query)),
  );
  app.get(
    '/reports/compliance/export/:format',
    { schema: { tags, params: ComplianceExportParams, querystring: ComplianceReportQuery } },
    async (r, reply) => sendFile(reply, await complianceFile(r.ctx, r.query, r.params.format)),
  );

  // format (ours, issue 33 §5): the same rows as an XLSX or PDF file.
  app.post(
    '/reports/role',
    { config: READ_ONLY, schema: { tags, body: RoleReportBody } },
    async (r, reply) => {
      if (r.body.format) return sendFile(reply, await roleFile(r.ctx, r.body, r.body.format));
      return ok(await roleReport(r.ctx, r.body));
    },
  );

  app.post(
    '/reports/certificate',
    { config: READ_ONLY, schema: { tags, body: CertificateReportBody, querystring: ReportPageQuery } },
    async (r) => {
      const { data, total } = await certificateReport(r.ctx, r.body, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );

  app.post(
    '/reports/results',
    { config: READ_ONLY, schema: { tags, body: ResultsReportBody, querystring: ReportPageQuery } },
    async (r, reply) => {
      if (r.body.type === 'xlsx') return sendFile(reply, await resultsFile(r.ctx, r.body));
      const { data, total } = await resultsReport(r.ctx, r.body, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );

  app.post(
    '/reports/staff',
    { config: READ_ONLY, schema: { tags, body: StaffReportBody } },
    async (r, reply) => sendFile(reply, await staffFile(r.ctx, r.body)),
  );

  app.post(
    '/report',
    { config: READ_ONLY, schema: { tags, body: GenericReportBody, querystring: ReportPageQuery } },
    async (r, reply) => {
      const outcome = await genericReport(r.ctx, r.body, r.query);
      if ('file' in outcome) return sendFile(reply, outcome.file);
      if ('matrix' in outcome) return ok(outcome.matrix);
      return paginate(outcome.page.data, outcome.page.total, r.query, r.url);
    },
  );

  app.post(
    '/results/certificate/download-multiple',
    { config: READ_ONLY, schema: { tags, body: DownloadCertificatesBody } },
    async (r, reply) => {
      const zip = await certificatesZip(r.ctx, r.body.result_ids);
      // spec 2 §4: "Export or download answering 204 yields an empty result".
      if (!zip) return reply.status(204).send();
      return sendFile(reply, { filename: zip.filename, contentType: 'application/zip', stream: zip.stream });
    },
  );

  app.get(
    '/reports/drill-down/entities',
    { schema: { tags, querystring: DrillDownQuery } },
    async (r, reply) => drill(reply, await drillEntities(r.ctx, r.query)),
  );
  // The static `tags` segment wins over the :id / :a params in find-my-way, whatever the order here; the tag routes
  // come first anyway so a reader sees the precedence.
  app.get('/reports/drill-down/tags', { schema: { tags, querystring: DrillDownQuery } }, async (r, reply) =>
    drill(reply, await drillTags(r.ctx, r.query)),
  );
  app.get(
    '/reports/drill-down/tags/:id/users',
    { schema: { tags, params: DrillDownTagParams, querystring: DrillDownQuery } },
    async (r, reply) => drill(reply, await drillTagUsers(r.ctx, r.params.id, r.query)),
  );
  app.get(
    '/reports/drill-down/:id/roles',
    { schema: { tags, params: DrillDownEntityParams, querystring: DrillDownQuery } },
    async (r, reply) => drill(reply, await drillRoles(r.ctx, r.params.id, r.query)),
  );
  app.get(
    '/reports/drill-down/:a/:b/users',
    { schema: { tags, params: DrillDownUsersParams, querystring: DrillDownQuery } },
    async (r, reply) => drill(reply, await drillUsers(r.ctx, r.params.a, r.params.b, r.query)),
  );
}
