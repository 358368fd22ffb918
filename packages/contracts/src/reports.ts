import { z } from 'zod';
import { compliantCells } from './course-status';
import type { ComplianceTally } from './matrix';
import {
  EXPORT_FORMATS,
  NEW_STARTERS_FILTERS,
  PRESET_COMPLIANCE_TYPES,
  PRESET_COURSE_TYPES,
  PRESET_FILTER_BY,
  PRESET_PERIODS,
  STATUS_TYPES,
} from './presets';

/**
 * Reports (spec 2 §3 "Compliance response", §4, §7 "Reports", §8, §9; issue 5 item 5). The spec names the calls and
 * some fields; the rest (written down here, used by server and web alike) is ours:
 *
 * - Scope: `entities` (ids; default the caller's current entity) and `deep` (default true: each entity with all its
 *   descendants). Every id must be inside the caller's scope (404 otherwise, as for a missing id).
 * - compliance_type: primary (Mandatory, the navigation default), secondary (Required) or all.
 * - new_starters_filter: include_new_starters (default), exclude_new_starters or new_starters_only.
 * - A compliance report covering more than COMPLIANCE_REPORT_MAX_CELLS (user, course) cells answers status 300 with
 *   `expected_time` (spec 2 §4 "status 300 means too large"); the client offers to e-mail it instead (emailFormat).
 * - The trend (`months`) comes from the monthly snapshots (compliance_snapshots): whole-entity figures, so it follows
 *   the entity scope and compliance type but not the role, course or new-starter filters.
 */

export const ReportsPerm = {
  userCertificates: 7,
  matrixReport: 12,
  complianceReport: 13,
  compliancePdf: 16,
  complianceExcel: 17,
  resultsReport: 56,
} as const;

export const ReportsMessages = {
  // spec 2 §8
  fetchFailed: 'Failed to fetch report. Please contact support',
  emailFailed: 'Failed to request emailed report. Please contact support.',
  exportFailed: 'Something went wrong on exporting the results',
  certificatesFailed: 'Something went wrong on downloading the certificates',
  // ours, in the same style
  tooLarge: 'This report is too large to show now.',
  emailQueued: 'The report has been queued and will be e-mailed to you shortly.',
  preparing: 'The report is being prepared. Please try again in a few seconds.',
  noRole: 'The selected role is invalid.',
} as const;

/** spec 2 §4: status 300 above this many (user, course) cells. ~2 s of work on PGlite at the bench's rate. */
export const COMPLIANCE_REPORT_MAX_CELLS = 2_000_000;
/** Cells computed per second when estimating expected_time (measured by the bench on PGlite, rounded down). */
export const COMPLIANCE_REPORT_CELLS_PER_SECOND = 400_000;
/** The trend covers at most 12 months. */
export const MAX_PREVIOUS_MONTHS = 12;
/** Certificates in one zip. */
export const MAX_CERTIFICATE_DOWNLOADS = 500;

const dbId = z.number().int().positive().max(2147483647);
const idList = z.array(dbId).max(1000, 'At most 1000 ids may be chosen.');
const qId = z.coerce.number().int().positive().max(2147483647);
const qBool = z
  .union([z.boolean(), z.enum(['0', '1', 'true', 'false'])])
  .transform((v) => v === true || v === '1' || v === 'true');
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'The date must be YYYY-MM-DD.')
  .refine(
    (s) =>
      !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    {
      message: 'The date is not a valid date.',
    },
  );

/** The scope and filters every compliance-style report shares. */
const scopeFields = {
  entities: idList.optional(),
  deep: z.boolean().default(true),
  roles: idList.optional(),
  courses: idList.optional(),
  compliance_type: z.enum(PRESET_COMPLIANCE_TYPES).default('primary'),
  new_starters_filter: z.enum(NEW_STARTERS_FILTERS).default('include_new_starters'),
};

/** POST /reports/compliance (13). emailFormat: e-mail the report (a queued job) instead of answering it. */
export const ComplianceReportBody = z.object({
  ...scopeFields,
  previousMonths: z
    .number()
    .int()
    .min(0)
    .max(MAX_PREVIOUS_MONTHS, `The trend covers at most ${MAX_PREVIOUS_MONTHS} months.`)
    .default(MAX_PREVIOUS_MONTHS),
  emailFormat: z.enum(EXPORT_FORMATS).optional(),
});
export type ComplianceReportBody = z.infer<typeof ComplianceReportBody>;

/** GET /reports/compliance/courses and the exports: the same fields as query params (lists comma separated). */
const csvIds = z.union([z.string(), z.array(z.string())]).transform((v, c) => {
  const parts = (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean);
  const ids = parts.map(Number);
  if (ids.some((n) => !Number.isInteger(n) || n <= 0 || n > 2147483647)) {
    c.addIssue({ code: 'custom', message: 'The ids must be a comma-separated list of numbers.' });
    return z.NEVER;
  }
  return ids;
});
export const ComplianceReportQuery = z.object({
  entities: csvIds.optional(),
  deep: qBool.default(true),
  roles: csvIds.optional(),
  courses: csvIds.optional(),
  compliance_type: z.enum(PRESET_COMPLIANCE_TYPES).default('primary'),
  new_starters_filter: z.enum(NEW_STARTERS_FILTERS).default('include_new_starters'),
  previousMonths: z.coerce.number().int().min(0).max(MAX_PREVIOUS_MONTHS).default(MAX_PREVIOUS_MONTHS),
  actingAs: z.string().max(120).optional(),
});
export type ComplianceReportQuery = z.infer<typeof ComplianceReportQuery>;
export const ComplianceExportParams = z.object({ format: z.enum(['pdf', 'xlsx']) });

export interface ComplianceFigures extends ComplianceTally {
  /** Whole percent: (in date + expiring + exempt) / required; nothing required = 100. */
  score: number;
}
export interface ComplianceEntityRow extends ComplianceFigures {
  id: number;
  name: string;
  slug: string;
  level: 'A' | 'B';
  parent_id: number | null;
  /** The entity alone, without descendants (for the tree's "own staff" line). */
  own: ComplianceFigures;
}
export interface ComplianceCourseRow extends Omit<ComplianceFigures, 'users'> {
  id: number;
  title: string;
  users: number;
}
export interface ComplianceMonthRow extends ComplianceFigures {
  /** 'YYYY-MM' */
  month: string;
}
/** spec 2 §3 "Compliance response: months, courses, entities". */
export interface ComplianceReport {
  months: ComplianceMonthRow[];
  courses: ComplianceCourseRow[];
  entities: ComplianceEntityRow[];
  totals: ComplianceFigures;
  generated_at: string;
}
/** spec 2 §4: the 300 answer. expected_time is a phrase ("2 minutes") shown as "it will take about {expected_time}". */
export interface ComplianceTooLarge {
  message: string;
  expected_time: string;
  expected_seconds: number;
  cells: number;
}

/**
 * POST /reports/role (13): per role, its users and their compliance. `format` (ours, issue 33 §5): the same rows as
 * a file, XLSX (17) or PDF (16) like the compliance report's, its header naming the filters.
 */
export const RoleReportBody = z.object({ ...scopeFields, format: z.enum(['pdf', 'xlsx']).optional() });
export type RoleReportBody = z.infer<typeof RoleReportBody>;
export interface RoleReportRow extends ComplianceFigures {
  id: number;
  name: string;
  inspectable: boolean;
}

/** Preset fields the certificate and results reports filter on (spec 2 §3 "Report preset"). */
const periodFields = {
  period: z.enum(PRESET_PERIODS).default('last_month'),
  from_date: isoDate.nullable().optional(),
  to_date: isoDate.nullable().optional(),
  filter_by: z.enum(PRESET_FILTER_BY).default('completed'),
  course_type: z.enum(PRESET_COURSE_TYPES).nullable().optional(),
};

/**
 * POST /reports/certificate (7): passed results (certificates) of the users in scope. period today | last_week |
 * otherwise last_month, overridden by from_date/to_date; filter_by completed (default) or expires; date_completion
 * shows completion dates instead of expiry dates in exports; grade: results carry no grade of their own yet, so the
 * grade of a passed result is "Pass" ("Exempt" for an exemption) and the filter matches that label.
 */
export const CertificateReportBody = z.object({
  entities: idList.optional(),
  deep: z.boolean().default(true),
  users: idList.optional(),
  courses: idList.optional(),
  roles: idList.optional(),
  ...periodFields,
  grade: z.string().trim().max(50).nullable().optional(),
  date_completion: z.boolean().default(false),
  new_starters_filter: z.enum(NEW_STARTERS_FILTERS).default('include_new_starters'),
});
export type CertificateReportBody = z.infer<typeof CertificateReportBody>;
export const ReportPageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(25),
  actingAs: z.string().max(120).optional(),
});
export interface CertificateReportRow {
  result_id: number;
  result_uuid: string;
  user: { id: number; uuid: string; name: string; email: string };
  entity: { id: number; name: string };
  role: { id: number; name: string } | null;
  course: { id: number; title: string };
  type: string;
  grade: string;
  score: number | null;
  completed_at: string;
  expires_at: string | null;
  certificate_suppressed: boolean;
}

/**
 * POST /reports/results (56): every result in scope. spec 2 §4 defaults: dated by completion, assessments and
 * admin-only results included. type json answers a page; xlsx streams the whole list.
 */
export const ResultsReportBody = z.object({
  type: z.enum(['json', 'xlsx']).default('json'),
  entities: idList.optional(),
  deep: z.boolean().default(true),
  users: idList.optional(),
  courses: idList.optional(),
  from_date: isoDate.nullable().optional(),
  to_date: isoDate.nullable().optional(),
  date_by: z.enum(['completed', 'created']).default('completed'),
  include_assessments: z.boolean().default(true),
  include_admin_only: z.boolean().default(true),
  course_type: z.enum(PRESET_COURSE_TYPES).nullable().optional(),
  passed: z.boolean().nullable().optional(),
});
export type ResultsReportBody = z.infer<typeof ResultsReportBody>;
export interface ResultsReportRow {
  id: number;
  user: { id: number; uuid: string; name: string; email: string };
  entity: { id: number; name: string };
  course: { id: number; title: string };
  content_title: string | null;
  type: string;
  status: string;
  passed: boolean;
  score: number | null;
  completed_at: string;
  expires_at: string | null;
  created_at: string;
}

/** POST /reports/staff (13 and 17): an XLSX of the staff in scope with their compliance. */
export const StaffReportBody = z.object(scopeFields);
export type StaffReportBody = z.infer<typeof StaffReportBody>;

/**
 * POST /report: the generic report of a preset's fields (spec 2 §3 "Report preset": report_type certificate or
 * matrix). certificate: the certificate report (json: a page; PDF / XLSX: the file). matrix: the compliance matrix
 * of the preset's entities, roles, courses, users, statuses, compliance type and new-starter handling (json: the
 * "Matrix response" as POST /reports/matrix answers it; PDF / XLSX: the matrix export, permissions 12 and 14 / 15).
 * Fields that do not apply to the chosen report are ignored, as a preset carries them all.
 */
export const GenericReportBody = CertificateReportBody.extend({
  report_type: z.enum(['certificate', 'matrix'], {
    message: 'The report type must be certificate or matrix.',
  }),
  format: z.enum(['json', ...EXPORT_FORMATS]).default('json'),
  compliance_type: z.enum(PRESET_COMPLIANCE_TYPES).default('primary'),
  includeStatusTypes: z.array(z.enum(STATUS_TYPES)).max(STATUS_TYPES.length).default([]),
  includeStarters: z.boolean().default(true),
  primary_only: z.boolean().default(false),
  /** Matrix only (issue 17): limit columns and people to these pathways (contracts matrix.ts MatrixFilters). */
  pathways: idList.optional(),
});
export type GenericReportBody = z.infer<typeof GenericReportBody>;

/** POST /results/certificate/download-multiple (7): a zip of the certificates of these results. */
export const DownloadCertificatesBody = z.object({
  result_ids: z
    .array(dbId)
    .min(1, 'Choose at least one certificate.')
    .max(MAX_CERTIFICATE_DOWNLOADS, `At most ${MAX_CERTIFICATE_DOWNLOADS} certificates at once.`),
});

/** Drill-downs (13): spec 2 §4 "202 means poll again" every DRILL_DOWN_POLL_MS. */
export const DrillDownQuery = z.object({
  entity: qId.optional(),
  compliance_type: z.enum(PRESET_COMPLIANCE_TYPES).default('primary'),
  new_starters_filter: z.enum(NEW_STARTERS_FILTERS).default('include_new_starters'),
  actingAs: z.string().max(120).optional(),
});
export type DrillDownQuery = z.infer<typeof DrillDownQuery>;
export const DrillDownEntityParams = z.object({ id: qId });
export const DrillDownUsersParams = z.object({ a: qId, b: qId });
/** GET /reports/drill-down/tags/{id}/users (13 and 97 tags use). */
export const DrillDownTagParams = z.object({ id: qId });
export interface DrillDownEntityRow extends ComplianceFigures {
  id: number;
  name: string;
  slug: string;
  has_children: boolean;
}
/**
 * GET /reports/drill-down/tags (13 and 97): a tag of the entity or of its subtree, with the figures of its users whose
 * primary entity is in that subtree (the same tally as an entity row).
 */
export interface DrillDownTagRow extends ComplianceFigures {
  id: number;
  name: string;
  entity: { id: number; name: string };
  /** Linked users inside the subtree, with or without requirements (`users` counts those with requirements). */
  users_count: number;
}
export interface DrillDownUserRow {
  id: number;
  uuid: string;
  name: string;
  email: string;
  entity: { id: number; name: string };
  new_starter: boolean;
  required: number;
  in_date: number;
  expiring: number;
  expired: number;
  missing: number;
  exempt: number;
  score: number;
}

/** "2 minutes", "45 seconds", "1 hour": the phrase of a 300 answer. */
export function describeDuration(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `${s} second${s === 1 ? '' : 's'}`;
  const m = Math.ceil(s / 60);
  if (m < 60) return `${m} minute${m === 1 ? '' : 's'}`;
  const h = Math.ceil(m / 60);
  return `${h} hour${h === 1 ? '' : 's'}`;
}

/**
 * Whole percent of compliant cells (in date, expiring and exempt: compliance.ts compliantCells); nothing required =
 * 100 (server rules.ts scoreOf).
 */
export function reportScore(
  t: Pick<ComplianceTally, 'in_date' | 'expiring' | 'exempt' | 'required'>,
): number {
  if (t.required <= 0) return 100;
  return Math.floor((compliantCells(t) * 100) / t.required);
}

/**
 * The one definition of "compliant" in words, shown the same way wherever a tally is (start-page widget, compliance
 * report, its PDF): "587 of 744 compliant (in date 517, expiring soon 47, exempt 23)". Compliant = in date +
 * expiring soon (still in date) + exempt (compliantCells); "in date" alone excludes those expiring soon.
 */
export function compliantSummary(t: Pick<ComplianceTally, 'in_date' | 'expiring' | 'exempt' | 'required'>): {
  compliant: number;
  required: number;
  text: string;
  breakdown: string;
} {
  const compliant = compliantCells(t);
  const breakdown = `in date ${t.in_date}, expiring soon ${t.expiring}, exempt ${t.exempt}`;
  return {
    compliant,
    required: t.required,
    breakdown,
    text: `${compliant} of ${t.required} compliant (${breakdown})`,
  };
}
