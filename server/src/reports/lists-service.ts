import {
  CELL_STATUS_LABELS,
  CELL_STATUSES,
  type CertificateReportBody,
  type CertificateReportRow,
  type ExportFormat,
  plusMonths,
  ReportsPerm,
  ResultsPerm,
  type ResultsReportBody,
  type ResultsReportRow,
  type RoleReportBody,
  type RoleReportRow,
  reportFileName,
  type StaffReportBody,
} from '@cc/contracts';
import type { ResultType } from '../db/schema';
import { actorOf, authorize, type Ctx, can } from '../http/context';
import { dateFormatOfScope } from '../whitelabel/service';
import type { ReportFile } from './compliance-export';
import { withScore } from './compliance-service';
import {
  type CellFilters,
  listResultsPage,
  type ResultListFilters,
  type ResultListRow,
  resultBatches,
  roleFigures,
  userFigures,
} from './queries';
import { resolveReportScope, typeFilter } from './scope';
import { type Cell, type Column, dmy, dmyTime, writePdf, writeXlsx, XLSX_TYPE } from './writers';

/** Role, certificate, results and staff reports (spec 2 §7 "Reports"). 404 (scope) before 403 (permission). */

const DAY = 86_400_000;

/** POST /reports/role (13): each role's users and compliance over the scope. */
export async function roleReport(ctx: Ctx, body: RoleReportBody): Promise<RoleReportRow[]> {
  const scope = await resolveReportScope(ctx, body);
  authorize(ctx, [ReportsPerm.complianceReport]);
  const rows = await roleFigures(ctx.db, cellFilters(scope.entityIds, body), ctx.clock());
  return rows.map((r) => ({ id: r.id, name: r.name, inspectable: r.inspectable, ...withScore(r) }));
}

export function cellFilters(
  entityIds: number[],
  b: Pick<RoleReportBody, 'roles' | 'courses' | 'compliance_type' | 'new_starters_filter'>,
): CellFilters {
  return {
    entityIds,
    roleIds: b.roles,
    courseIds: b.courses,
    type: typeFilter(b.compliance_type),
    newStarters: b.new_starters_filter,
  };
}

/**
 * The date window of the preset fields (spec 2 §3): from_date / to_date (inclusive days, UTC) when given, else the
 * period: today, last_week (the 7 days up to now), otherwise last month (one calendar month up to now).
 */
export function periodWindow(
  b: { period: 'today' | 'last_week' | 'last_month'; from_date?: string | null; to_date?: string | null },
  now: Date,
): { from?: Date; to?: Date } {
  if (b.from_date || b.to_date) {
    return {
      from: b.from_date ? new Date(`${b.from_date}T00:00:00Z`) : undefined,
      to: b.to_date ? new Date(new Date(`${b.to_date}T00:00:00Z`).getTime() + DAY) : undefined,
    };
  }
  if (b.period === 'today') {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    return { from: start, to: new Date(start.getTime() + DAY) };
  }
  if (b.period === 'last_week')
    return { from: new Date(now.getTime() - 7 * DAY), to: new Date(now.getTime() + 1) };
  // A month back, clamped: on 31 March, from the last day of February (setUTCMonth made it 3 March).
  return { from: plusMonths(now, -1), to: new Date(now.getTime() + 1) };
}

async function certificateFilters(ctx: Ctx, body: CertificateReportBody): Promise<ResultListFilters> {
  const scope = await resolveReportScope(ctx, body);
  const actor = authorize(ctx, [ReportsPerm.userCertificates]);
  const now = ctx.clock();
  return {
    entityIds: scope.entityIds,
    userIds: body.users,
    courseIds: body.courses,
    roleIds: body.roles,
    types: body.course_type ? [body.course_type as ResultType] : undefined,
    passedOnly: true,
    dateColumn: body.filter_by === 'expires' ? 'expires_at' : 'completed_at',
    ...periodWindow(body, now),
    hideSuppressed: !can(actor, [ResultsPerm.suppressCertificate]),
    grade: body.grade || null,
    newStarters: body.new_starters_filter,
    now,
  };
}

const gradeOf = (type: string) => (type === 'exempt' ? 'Exempt' : 'Pass');
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function presentCertificate(r: ResultListRow): CertificateReportRow {
  return {
    result_id: r.id,
    result_uuid: r.uuid,
    user: { id: r.user_id, uuid: r.user_uuid, name: r.user_name, email: r.user_email },
    entity: { id: r.entity_id, name: r.entity_name },
    role: r.role_id === null || r.role_name === null ? null : { id: r.role_id, name: r.role_name },
    course: { id: r.course_id, title: r.course_title },
    type: r.type,
    grade: gradeOf(r.type),
    score: r.score === null ? null : Number(r.score),
    completed_at: iso(r.completed_at) as string,
    expires_at: iso(r.expires_at),
    certificate_suppressed: r.certificate_suppressed,
  };
}

/** POST /reports/certificate (7): a page of certificates (passed, approved results) in scope. */
export async function certificateReport(
  ctx: Ctx,
  body: CertificateReportBody,
  page: { page: number; per_page: number },
) {
  const f = await certificateFilters(ctx, body);
  const { rows, total } = await listResultsPage(ctx.db, f, { page: page.page, perPage: page.per_page });
  return { data: rows.map(presentCertificate), total };
}

/** The certificate report as a PDF or XLSX file: every row, streamed in batches (scheduled reports, POST /report). */
export async function certificateFile(
  ctx: Ctx,
  body: CertificateReportBody,
  format: ExportFormat,
): Promise<ReportFile> {
  const f = await certificateFilters(ctx, body);
  const actor = actorOf(ctx);
  const ext = format === 'PDF' ? 'pdf' : 'xlsx';
  const filename = reportFileName('certificate', actor.name, ctx.clock(), ext);
  const dates = await dateFormatOfScope(ctx);
  const columns: Column[] = [
    { header: 'Learner', width: 24 },
    { header: 'E-mail', width: 28 },
    { header: 'Organisation', width: 22 },
    { header: 'Role', width: 16 },
    { header: 'Course', width: 34 },
    { header: 'Type', width: 12 },
    { header: 'Grade', width: 8 },
    { header: 'Score', width: 7 },
    { header: 'Completed', width: 11 },
    { header: 'Expires', width: 11 },
  ];
  async function* rows(): AsyncIterable<Cell[][]> {
    for await (const batch of resultBatches(ctx.db, f)) {
      yield batch.map((r) => [
        r.user_name,
        r.user_email,
        r.entity_name,
        r.role_name ?? '',
        r.course_title,
        r.type,
        gradeOf(r.type),
        r.score === null ? null : Number(r.score),
        dmy(r.completed_at, dates),
        dmy(r.expires_at, dates) || 'Never',
      ]);
    }
  }
  if (format === 'XLSX')
    return {
      filename,
      contentType: XLSX_TYPE,
      stream: writeXlsx([{ name: 'Certificates', columns, rows: rows() }], { creator: actor.name }),
    };
  const window = periodWindow(body, ctx.clock());
  return {
    filename,
    contentType: 'application/pdf',
    stream: writePdf({
      title: 'Certificate report',
      author: actor.name,
      subtitle: [
        `Generated ${dmyTime(ctx.clock(), dates)} by ${actor.name}`,
        `${body.filter_by === 'expires' ? 'Expiring' : 'Completed'} ${window.from ? `from ${dmy(window.from, dates)}` : ''} ${
          window.to ? `to ${dmy(new Date(window.to.getTime() - 1), dates)}` : ''
        }`.trim(),
      ],
      tables: [{ columns, rows: rows() }],
    }),
  };
}

function resultFilters(entityIds: number[], body: ResultsReportBody, now: Date): ResultListFilters {
  return {
    entityIds,
    userIds: body.users,
    courseIds: body.courses,
    types: body.course_type ? [body.course_type as ResultType] : undefined,
    passed: body.passed,
    dateColumn: body.date_by === 'created' ? 'created_at' : 'completed_at',
    from: body.from_date ? new Date(`${body.from_date}T00:00:00Z`) : undefined,
    to: body.to_date ? new Date(new Date(`${body.to_date}T00:00:00Z`).getTime() + DAY) : undefined,
    includeAssessments: body.include_assessments,
    includeAdminOnly: body.include_admin_only,
    now,
  };
}

function presentResultRow(r: ResultListRow): ResultsReportRow {
  return {
    id: r.id,
    user: { id: r.user_id, uuid: r.user_uuid, name: r.user_name, email: r.user_email },
    entity: { id: r.entity_id, name: r.entity_name },
    course: { id: r.course_id, title: r.course_title },
    content_title: r.content_title,
    type: r.type,
    status: r.status,
    passed: r.passed,
    score: r.score === null ? null : Number(r.score),
    completed_at: iso(r.completed_at) as string,
    expires_at: iso(r.expires_at),
    created_at: iso(r.created_at) as string,
  };
}

/** POST /reports/results (56), type json: a page of results. */
export async function resultsReport(
  ctx: Ctx,
  body: ResultsReportBody,
  page: { page: number; per_page: number },
) {
  const scope = await resolveReportScope(ctx, body);
  authorize(ctx, [ReportsPerm.resultsReport]);
  const f = resultFilters(scope.entityIds, body, ctx.clock());
  const { rows, total } = await listResultsPage(ctx.db, f, { page: page.page, perPage: page.per_page });
  return { data: rows.map(presentResultRow), total };
}

/** POST /reports/results (56), type xlsx: every result, streamed. */
export async function resultsFile(ctx: Ctx, body: ResultsReportBody): Promise<ReportFile> {
  const scope = await resolveReportScope(ctx, body);
  const actor = authorize(ctx, [ReportsPerm.resultsReport]);
  const f = resultFilters(scope.entityIds, body, ctx.clock());
  const dates = await dateFormatOfScope(ctx);
  const columns: Column[] = [
    { header: 'Learner', width: 24 },
    { header: 'E-mail', width: 28 },
    { header: 'Organisation', width: 22 },
    { header: 'Course', width: 34 },
    { header: 'Content', width: 28 },
    { header: 'Type', width: 12 },
    { header: 'Status', width: 10 },
    { header: 'Passed', width: 8 },
    { header: 'Score', width: 7 },
    { header: 'Completed', width: 11 },
    { header: 'Expires', width: 11 },
  ];
  async function* rows(): AsyncIterable<Cell[][]> {
    for await (const batch of resultBatches(ctx.db, f))
      yield batch.map((r) => [
        r.user_name,
        r.user_email,
        r.entity_name,
        r.course_title,
        r.content_title ?? '',
        r.type,
        r.status,
        r.passed ? 'Yes' : 'No',
        r.score === null ? null : Number(r.score),
        dmy(r.completed_at, dates),
        dmy(r.expires_at, dates),
      ]);
  }
  return {
    filename: reportFileName('results', actor.name, ctx.clock(), 'xlsx'),
    contentType: XLSX_TYPE,
    stream: writeXlsx([{ name: 'Results', columns, rows: rows() }], { creator: actor.name }),
  };
}

/** POST /reports/staff (13 and 17): an XLSX of every user in scope with their compliance figures. */
export async function staffFile(ctx: Ctx, body: StaffReportBody): Promise<ReportFile> {
  const scope = await resolveReportScope(ctx, body);
  const actor = authorize(ctx, [ReportsPerm.complianceReport, ReportsPerm.complianceExcel]);
  const now = ctx.clock();
  const users = await userFigures(ctx.db, cellFilters(scope.entityIds, body), now);
  const dates = await dateFormatOfScope(ctx);
  const columns: Column[] = [
    { header: 'Name', width: 24 },
    { header: 'E-mail', width: 28 },
    { header: 'Organisation', width: 22 },
    { header: 'Role', width: 18 },
    { header: 'Start date', width: 11 },
    { header: 'Last login', width: 11 },
    { header: 'New starter', width: 11 },
    { header: 'Required', width: 9 },
    ...CELL_STATUSES.map((st) => ({ header: CELL_STATUS_LABELS[st], width: 8 })),
    { header: 'Score %', width: 8 },
  ];
  const rows = users.map((u): Cell[] => {
    const s = withScore({ ...u, users: 1 });
    return [
      u.name,
      u.email,
      u.entity_name,
      u.role_name ?? '',
      u.start_date ? dmy(u.start_date, dates) : '',
      dmy(u.last_login_at, dates),
      u.new_starter ? 'Yes' : 'No',
      u.required,
      ...CELL_STATUSES.map((st) => u[st]),
      s.score,
    ];
  });
  return {
    filename: reportFileName('staff', actor.name, now, 'xlsx'),
    contentType: XLSX_TYPE,
    stream: writeXlsx([{ name: 'Staff', columns, rows: [rows] }], { creator: actor.name }),
  };
}
