import { type CareCertificateReportRow, NMDS_LABELS, reportFileName } from '@cc/contracts';
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
  async function* reportBatches(): AsyncIterable<CareCertificateReportRow[]> {
    for (let i = 0; i < people.length; i += EXPORT_BATCH)
      yield await withoutJit(ctx, (c: Ctx) => reportRows(c, f, people.slice(i, i + EXPORT_BATCH)));
  }
  const statusOf = (r: CareCertificateReportRow) => {
    const c = r.certificate;
    if (!c) return 'Not assigned';
    if (c.status === 'complete') return c.historical ? 'Complete (historical)' : 'Complete';
    return c.overdue ? 'In progress (overdue)' : 'In progress';
  };
  async function* batches(): AsyncIterable<Cell[][]> {
    for await (const rows of reportBatches())
      yield rows.map((r): Cell[] => {
        const c = r.certificate;
        return [
          r.user.name,
          r.user.entity.name,
          r.role ?? '',
          c?.version.code ?? '',
          dmy(c?.started_on, dates),
          dmy(c?.expected_by, dates),
          dmy(c?.completed_on, dates),
          statusOf(r),
          NMDS_LABELS[r.nmds],
          ...numbers.map((n) => {
            const s = r.standards[String(n)];
            return s ? STANDARD_STATUS_WORDS[s] : '';
          }),
        ];
      });
  }
  const filename = reportFileName('care-certificate', actor.name, now, format);
  const title = `${label} report`;
  if (format === 'xlsx')
    return {
      filename,
      contentType: XLSX_TYPE,
      stream: writeXlsx([{ name: label, columns, rows: batches() }], { creator: actor.name }),
    };
  // The PDF (issue 32 §5): landscape A4 has no room for 9 facts and 16 statuses in words on one line, so it prints two
  // tables in the same order: the people (every date whole in the organisation's format), then each person's
  // standards under S1..S16 headings, statuses in words wrapped to two lines. No cell is left blank: what a person
  // does not have says so. Each table repeats its header on every page (reports/writers.ts).
  async function* peopleTable(): AsyncIterable<Cell[][]> {
    for await (const rows of reportBatches())
      yield rows.map((r): Cell[] => {
        const c = r.certificate;
        return [
          r.user.name,
          r.user.entity.name,
          r.role || 'No role',
          c?.version.code ?? 'None',
          c ? dmy(c.started_on, dates) : 'Not assigned',
          c ? dmy(c.expected_by, dates) || 'Not set' : 'Not assigned',
          c ? dmy(c.completed_on, dates) || 'Not yet' : 'Not assigned',
          statusOf(r),
          NMDS_LABELS[r.nmds],
        ];
      });
  }
  async function* standardsTable(): AsyncIterable<Cell[][]> {
    for await (const rows of reportBatches())
      yield rows.map((r): Cell[] => [
        r.user.name,
        ...numbers.map((n) => {
          if (!r.certificate) return 'Not assigned';
          const s = r.standards[String(n)];
          return s ? STANDARD_STATUS_WORDS[s] : 'Not in version';
        }),
      ]);
  }
  return {
    filename,
    contentType: 'application/pdf',
    stream: writePdf({
      title,
      subtitle: [
        `Generated ${dmyTime(now, dates)} by ${actor.name}`,
        `${people.length} ${people.length === 1 ? 'person' : 'people'}. Standards S1 to S${numbers.length ? numbers[numbers.length - 1] : 16}: ${Object.values(
          STANDARD_STATUS_WORDS,
        ).join(', ')}.`,
      ],
      author: actor.name,
      tables: [
        {
          heading: 'People',
          columns: [
            { header: 'Person', width: 24 },
            { header: 'Organisation', width: 22 },
            { header: 'Role', width: 16 },
            { header: 'Version', width: 9 },
            { header: 'Started', width: 12 },
            { header: 'Expected by', width: 12 },
            { header: 'Completed', width: 12 },
            { header: 'Status', width: 18 },
            { header: 'Workforce data set', width: 20 },
          ],
          rows: peopleTable(),
          lines: 2, // "In progress or partially completed", long names and organisations stay whole
        },
        {
          heading: 'Standards',
          columns: [
            { header: 'Person', width: 18 },
            ...numbers.map((n) => ({ header: `S${n}`, width: 8.5 })),
          ],
          rows: standardsTable(),
          // 16 columns of about 42 pt: "Outstanding" whole at 7 pt, "Awaiting approval" on two lines.
          fontSize: 7,
          lines: 2,
          padding: 2,
        },
      ],
    }),
  };
}
