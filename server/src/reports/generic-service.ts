import {
  type ComplianceReportBody,
  type ExportFormat,
  type GenericReportBody,
  ReportsMessages,
  ReportsPerm,
} from '@cc/contracts';
import { actorOf, authorize, type Ctx } from '../http/context';
import { invalidField } from '../http/errors';
import type { ReportFile } from './compliance-export';
import { complianceScope } from './compliance-service';
import { enqueueEmailReport } from './jobs';
import { certificateFile, certificateReport } from './lists-service';

/**
 * emailFormat on POST /reports/compliance: the same checks as a direct report and its export (13, then 16 for PDF
 * or 17 for XLSX), then a queued job renders it as the caller and e-mails it to them (spec 2 §8 "Failed to request
 * emailed report" is the client's message when this call fails).
 */
export async function emailCompliance(
  ctx: Ctx,
  body: ComplianceReportBody,
  format: ExportFormat,
): Promise<string> {
  await complianceScope(ctx, body);
  authorize(ctx, [format === 'PDF' ? ReportsPerm.compliancePdf : ReportsPerm.complianceExcel]);
  const actor = actorOf(ctx);
  const { emailFormat: _ignored, ...rest } = body;
  await enqueueEmailReport(ctx, {
    user_id: actor.userId,
    acting_as_slug: actor.actingAs?.slug ?? null,
    report: 'compliance',
    body: rest,
    format,
  });
  return ReportsMessages.emailQueued;
}

/**
 * POST /report: the report of a preset's fields. report_type certificate answers a page (format json) or a file
 * (PDF / XLSX). The matrix has its own calls (POST /reports/matrix and the websocket channel of the matrix
 * capability), so report_type matrix is refused here with a pointer to them.
 */
export async function genericReport(
  ctx: Ctx,
  body: GenericReportBody,
  page: { page: number; per_page: number },
): Promise<{ file: ReportFile } | { page: Awaited<ReturnType<typeof certificateReport>> }> {
  if (body.report_type === 'matrix') throw invalidField('report_type', ReportsMessages.matrixElsewhere);
  const { report_type: _t, format, ...rest } = body;
  if (format === 'json') return { page: await certificateReport(ctx, rest, page) };
  return { file: await certificateFile(ctx, rest, format) };
}
