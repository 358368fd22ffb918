import type { Readable } from 'node:stream';
import {
  CELL_STATUS_LABELS,
  CELL_STATUSES,
  type ComplianceFigures,
  type ComplianceReport,
  compliantSummary,
  ReportsPerm,
  reportFileName,
} from '@cc/contracts';
import { scoreBand } from '../compliance/rules';
import { actorOf, authorize, type Ctx } from '../http/context';
import { dateFormatOfScope, whitelabelOfEntity } from '../whitelabel/service';
import { type ComplianceInput, complianceReport } from './compliance-service';
import { type Cell, type Column, dmyTime, writePdf, writeXlsx, XLSX_TYPE } from './writers';

/**
 * The compliance report as a file (16 PDF / 17 XLSX, besides 13): the same figures as POST /reports/compliance,
 * streamed; named reportFileName('compliance', user, today, ext) (spec 2 §9). Files have no size limit (no 300):
 * the figures are aggregates, so even a huge organisation makes a small file.
 */
export interface ReportFile {
  filename: string;
  contentType: string;
  stream: Readable;
}

/** Users, required, a column per cell status (contracts CELL_STATUSES: exempt counted apart), score. */
const figureColumns: Column[] = [
  { header: 'Users', width: 8 },
  { header: 'Required', width: 10 },
  ...CELL_STATUSES.map((s) => ({ header: CELL_STATUS_LABELS[s], width: 9 })),
  { header: 'Score %', width: 9 },
];
const figureCells = (f: ComplianceFigures): Cell[] => [
  f.users,
  f.required,
  ...CELL_STATUSES.map((s) => f[s]),
  f.score,
];

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export async function complianceFile(
  ctx: Ctx,
  input: ComplianceInput,
  format: 'pdf' | 'xlsx',
): Promise<ReportFile> {
  const outcome = await complianceReport(ctx, input, { ignoreLimit: true });
  authorize(ctx, [format === 'pdf' ? ReportsPerm.compliancePdf : ReportsPerm.complianceExcel]);
  if (!('report' in outcome)) throw new Error('unreachable: limit ignored');
  const report = outcome.report;
  const actor = actorOf(ctx);
  const now = ctx.clock();
  const dates = await dateFormatOfScope(ctx);
  const filename = reportFileName('compliance', actor.name, now, format);
  // The organisation's words for the two compliance types (white-label Mandatory / Required alt names).
  const wl = await whitelabelOfEntity(ctx, report.entities[0]?.id ?? actor.primaryEntity.id);
  const typeLabel =
    input.compliance_type === 'all'
      ? `${wl.primaryComplianceAltName} and ${wl.secondaryComplianceAltName}`
      : input.compliance_type === 'primary'
        ? wl.primaryComplianceAltName
        : wl.secondaryComplianceAltName;
  const names = new Map(report.entities.map((e) => [e.id, e.name]));
  const entityRows = report.entities.map((e): Cell[] => [
    e.name,
    e.parent_id === null ? '' : (names.get(e.parent_id) ?? ''),
    ...figureCells(e),
  ]);
  const courseRows = report.courses.map((c): Cell[] => [c.title, ...figureCells(c)]);
  const monthRows = report.months.map((m): Cell[] => [m.month, ...figureCells(m)]);
  const entityColumns: Column[] = [
    { header: 'Organisation', width: 34 },
    { header: 'Parent', width: 24 },
    ...figureColumns,
  ];
  const courseColumns: Column[] = [{ header: 'Course', width: 44 }, ...figureColumns];
  const monthColumns: Column[] = [{ header: 'Month', width: 12 }, ...figureColumns];
  const facts = [
    `Generated ${dmyTime(now, dates)} by ${actor.name}`,
    `${typeLabel} courses · new starters: ${input.new_starters_filter.replace(/_/g, ' ')}`,
    `Overall: ${report.totals.score}%. ${capitalised(compliantSummary(report.totals).text)}`,
  ];

  if (format === 'xlsx') {
    return {
      filename,
      contentType: XLSX_TYPE,
      stream: writeXlsx(
        [
          { name: 'Organisations', columns: entityColumns, rows: [entityRows] },
          { name: 'Courses', columns: courseColumns, rows: [courseRows] },
          { name: 'Trend', columns: monthColumns, rows: [monthRows] },
        ],
        { creator: actor.name },
      ),
    };
  }
  const margins = { green: wl.greenScoreBandLowerMargin, amber: wl.amberScoreBandLowerMargin };
  const tint = { green: '#dcfce7', amber: '#fef3c7', red: '#fee2e2' } as const;
  const rowColour = (row: Cell[]) => {
    const score = row[row.length - 1];
    return typeof score === 'number' ? tint[scoreBand(score, margins)] : null;
  };
  return {
    filename,
    contentType: 'application/pdf',
    stream: writePdf({
      title: 'Compliance report',
      subtitle: facts,
      author: actor.name,
      tables: [
        { heading: 'Organisations', columns: entityColumns, rows: [entityRows], rowColour },
        { heading: 'Courses', columns: courseColumns, rows: [courseRows], rowColour },
        { heading: 'Trend', columns: monthColumns, rows: [monthRows] },
      ],
    }),
  };
}

export type { ComplianceReport };
