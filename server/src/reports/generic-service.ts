import {
  type ComplianceReportBody,
  type ExportFormat,
  type GenericReportBody,
  ReportsMessages,
  ReportsPerm,
} from '@cc/contracts';
import { actorOf, authorize, type Ctx } from '../http/context';
import { matrixFile, matrixFileFormat, matrixFiltersOfPreset, matrixJson } from '../matrix/report';
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
 * POST /report: the report of a preset's fields (spec 2 §3 "Report preset": certificate or matrix).
 * certificate answers a page (format json) or a file (PDF / XLSX); matrix answers the "Matrix response" (json) or
 * the matrix export (PDF / XLSX) through the matrix capability, with the same permissions (12, then 14 / 15) and
 * scope as POST /reports/matrix, and the same filters as a scheduled matrix preset.
 */
export async function genericReport(
  ctx: Ctx,
  body: GenericReportBody,
  page: { page: number; per_page: number },
): Promise<
  | { file: ReportFile }
  | { page: Awaited<ReturnType<typeof certificateReport>> }
  | { matrix: Awaited<ReturnType<typeof matrixJson>> }
> {
  if (body.report_type === 'matrix') return matrixReport(ctx, body);
  const {
    report_type: _t,
    format,
    compliance_type: _c,
    includeStatusTypes: _s,
    includeStarters: _i,
    primary_only: _p,
    // The certificate report lists results, not pathways: a preset's pathways limit its matrix only.
    pathways: _pw,
    ...rest
  } = body;
  if (format === 'json') return { page: await certificateReport(ctx, rest, page) };
  return { file: await certificateFile(ctx, rest, format) };
}

async function matrixReport(ctx: Ctx, body: GenericReportBody) {
  const filters = matrixFiltersOfPreset(body);
  if (body.format === 'json') return { matrix: await matrixJson(ctx, filters) };
  const file = await matrixFile(ctx, filters, matrixFileFormat(body.format));
  return { file: { filename: file.filename, contentType: file.contentType, stream: file.body } };
}
