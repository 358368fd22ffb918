import {
  CELL_STATUS_LABELS,
  CELL_STATUSES,
  describeComplianceFilters,
  ReportsPerm,
  type RoleReportBody,
  type RoleReportRow,
  reportFileName,
} from '@cc/contracts';
import { scoreBand } from '../compliance/rules';
import { actorOf, authorize, type Ctx } from '../http/context';
import { dateFormatOfScope, whitelabelOfEntity } from '../whitelabel/service';
import type { ReportFile } from './compliance-export';
import { roleReport } from './lists-service';
import { resolveReportScope } from './scope';
import { type Cell, type Column, dmyTime, writePdf, writeXlsx, XLSX_TYPE } from './writers';

/**
 * The role report as a file (issue 33 §5): POST /reports/role with `format`, the same rows as the page (roleReport,
 * same scope and filters), XLSX (17) or PDF (16) besides 13, as the compliance report's files. Its header names the
 * scope and the filters in the organisation's words (white-label compliance type and home labels) and when it was
 * made in the organisation's date format.
 */

const columns: Column[] = [
  { header: 'Role', width: 30 },
  { header: 'Inspectable', width: 11 },
  { header: 'Staff', width: 8 },
  { header: 'Required', width: 10 },
  ...CELL_STATUSES.map((s) => ({ header: CELL_STATUS_LABELS[s], width: 9 })),
  { header: 'Score %', width: 9 },
];

const rowOf = (r: RoleReportRow): Cell[] => [
  r.name,
  r.inspectable ? 'Yes' : 'No',
  r.users,
  r.required,
  ...CELL_STATUSES.map((s) => r[s]),
  r.score,
];

export async function roleFile(ctx: Ctx, body: RoleReportBody, format: 'pdf' | 'xlsx'): Promise<ReportFile> {
  const scope = await resolveReportScope(ctx, body);
  const rows = await roleReport(ctx, body);
  authorize(ctx, [format === 'pdf' ? ReportsPerm.compliancePdf : ReportsPerm.complianceExcel]);
  const actor = actorOf(ctx);
  const now = ctx.clock();
  const dates = await dateFormatOfScope(ctx);
  const wl = await whitelabelOfEntity(ctx, scope.rootIds[0] ?? actor.primaryEntity.id);
  const roots = new Set(scope.rootIds);
  const scopeName = scope.entities
    .filter((e) => roots.has(e.id))
    .map((e) => e.name)
    .join(', ');
  const words = describeComplianceFilters(body, {
    primary: wl.primaryComplianceAltName,
    secondary: wl.secondaryComplianceAltName,
  });
  const home = wl.entityAltName?.trim() || 'Home';
  const chosen = body.entities?.length ? scopeName : 'All';
  const title = `Role report · ${scopeName || actor.primaryEntity.name}`;
  const facts = [
    `Filters: ${words.type} · ${home}: ${chosen}${body.deep ? '' : ' (not its sub-organisations)'} · ${words.newStarters}`,
    `Generated ${dmyTime(now, dates)} by ${actor.name} · ${rows.length} ${rows.length === 1 ? 'role' : 'roles'}`,
  ];
  const filename = reportFileName('roles', actor.name, now, format);
  const data = rows.map(rowOf);
  if (format === 'xlsx')
    return {
      filename,
      contentType: XLSX_TYPE,
      stream: writeXlsx([{ name: 'Roles', title: [title, ...facts], columns, rows: [data] }], {
        creator: actor.name,
      }),
    };
  const margins = { green: wl.greenScoreBandLowerMargin, amber: wl.amberScoreBandLowerMargin };
  const tint = { green: '#dcfce7', amber: '#fef3c7', red: '#fee2e2' } as const;
  return {
    filename,
    contentType: 'application/pdf',
    stream: writePdf({
      title,
      subtitle: facts,
      author: actor.name,
      tables: [
        {
          columns,
          rows: [data],
          rowColour: (row) => {
            const score = row[row.length - 1];
            return typeof score === 'number' ? tint[scoreBand(score, margins)] : null;
          },
        },
      ],
    }),
  };
}
