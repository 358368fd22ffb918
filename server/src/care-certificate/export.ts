import {
  type CareCertificateReportRow,
  NMDS_LABELS,
  reportFileName,
  type StandardStatus,
} from '@cc/contracts';
import { entityScope } from '../entities/scope';
import { actorOf, type Ctx } from '../http/context';
import type { ReportFile } from '../reports/compliance-export';
import { type Cell, type Column, dmy, dmyTime, writePdf, writeXlsx, XLSX_TYPE } from '../reports/writers';
import { dateFormatOfScope, whitelabelOfEntity } from '../whitelabel/service';
import {
  allReportPeople,
  type ReportQuery,
  reportRows,
  resolveReport,
  STANDARD_STATUS_WORDS,
} from './report';
import { withoutJit } from './report-details';

/**
 * GET /reports/care-certificate/export/{format} (87; xlsx | pdf): every row the report's query matches (not paged),
 * streamed through reports/writers.ts in batches of EXPORT_BATCH people (each batch read in a fixed number of
 * statements), like the compliance export. Columns: person, organisation, role, version, started, expected by,
 * completed, status, the workforce data set value (NMDS_LABELS), and one column per standard number with its status in
 * words. The title and sheet use the organisation's white-label name for the certificate (certificateGroupMenuName).
 */
export const EXPORT_BATCH = 500;

/** The PDF's short codes of the standard statuses (explained under its title). */
export const STANDARD_STATUS_CODES: Record<StandardStatus, string> = {
  approved: 'A',
  awaiting_approval: 'AA',
  working_towards: 'W',
  outstanding: 'O',
};

export async function careCertificateFile(
  ctx: Ctx,
  q: ReportQuery,
  format: 'pdf' | 'xlsx',
): Promise<ReportFile> {
  const f = await resolveReport(ctx, q);
  const actor = actorOf(ctx);
  const now = ctx.clock();
  const scope = await entityScope(ctx);
  const label = (await whitelabelOfEntity(ctx, scope.baseId)).certificateGroupMenuName;
  const dates = await dateFormatOfScope(ctx);
  const people = await withoutJit(ctx, (c) => allReportPeople(c, f));
  // The standard columns: every number of the versions the matching certificates are of (1..15 or 1..16).
  const certIds = people.map((p) => p.certificate_id).filter((id): id is number => id !== null);
  const numbers = certIds.length
    ? (
        await ctx.db
          .selectFrom('care_certificate_standards as s')
          .innerJoin('care_certificates as c', 'c.version_id', 's.version_id')
          .select('s.number')
          .distinct()
          .where('c.id', 'in', certIds)
          .orderBy('s.number')
          .execute()
      ).map((r) => r.number)
    : [];
  const columns: Column[] = [
    { header: 'Person', width: 24 },
    { header: 'Organisation', width: 22 },
    { header: 'Role', width: 16 },
    { header: 'Version', width: 9 },
    { header: 'Started', width: 11 },
    { header: 'Expected by', width: 11 },
    { header: 'Completed', width: 11 },
    { header: 'Status', width: 12 },
    { header: 'Workforce data set', width: 20 },
    ...numbers.map((n) => ({ header: `Standard ${n}`, width: 13 })),
  ];
  // A landscape page holds 16 standards only as short codes (a legend under the title says what they mean).
  const pdf = format === 'pdf';
  const pdfColumns: Column[] = [
    ...columns.slice(0, 9),
    ...numbers.map((n) => ({ header: `S${n}`, width: 3.2 })),
  ];
  async function* batches(): AsyncIterable<Cell[][]> {
    for (let i = 0; i < people.length; i += EXPORT_BATCH) {
      const rows: CareCertificateReportRow[] = await withoutJit(ctx, (c: Ctx) =>
        reportRows(c, f, people.slice(i, i + EXPORT_BATCH)),
      );
      yield rows.map((r): Cell[] => {
        const c = r.certificate;
        const status = !c
          ? 'Not assigned'
          : c.status === 'complete'
            ? c.historical
              ? 'Complete (historical)'
              : 'Complete'
            : c.overdue
              ? 'In progress (overdue)'
              : 'In progress';
        return [
          r.user.name,
          r.user.entity.name,
          r.role ?? '',
          c?.version.code ?? '',
          dmy(c?.started_on, dates),
          dmy(c?.expected_by, dates),
          dmy(c?.completed_on, dates),
          status,
          NMDS_LABELS[r.nmds],
          ...numbers.map((n) => {
            const s = r.standards[String(n)];
            if (!s) return '';
            return pdf ? STANDARD_STATUS_CODES[s] : STANDARD_STATUS_WORDS[s];
          }),
        ];
      });
    }
  }
  const filename = reportFileName('care-certificate', actor.name, now, format);
  const title = `${label} report`;
  if (format === 'xlsx')
    return {
      filename,
      contentType: XLSX_TYPE,
      stream: writeXlsx([{ name: label, columns, rows: batches() }], { creator: actor.name }),
    };
  return {
    filename,
    contentType: 'application/pdf',
    stream: writePdf({
      title,
      subtitle: [
        `Generated ${dmyTime(now, dates)} by ${actor.name}`,
        `${people.length} ${people.length === 1 ? 'person' : 'people'}. Standards (S1, S2, …): ${Object.entries(
          STANDARD_STATUS_CODES,
        )
          .map(([s, code]) => `${code} = ${STANDARD_STATUS_WORDS[s as StandardStatus]}`)
          .join(', ')}.`,
      ],
      author: actor.name,
      tables: [{ columns: pdfColumns, rows: batches() }],
    }),
  };
}
