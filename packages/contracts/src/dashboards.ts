import { z } from 'zod';
import { PageQuery } from './common';
import type { CourseStatus } from './course-status';
import type { ComplianceFigures, ComplianceMonthRow } from './reports';

/**
 * Dashboards (issue 13): ours, not in the spec. Both read the compliance core (user_requirements and the cell status
 * of compliance/queries.ts, the monthly compliance_snapshots for trends), so every figure equals the compliance
 * report's for the same entity, compliance type and new-starter filter (deep: the entity and its descendants).
 *
 * - GET /dashboards/manager?entity=&compliance_type= (105): one home (default the caller's primary entity).
 * - GET /dashboards/manager/people?entity=&list=&page=&per_page= (105): every person of one list, paged.
 * - GET /dashboards/management?entity=&compliance_type= (79): an entity's child entities ranked, worst courses,
 *   the expiry forecast.
 *
 * `entity` is an id or slug inside the caller's scope (404 otherwise, as for a missing one).
 */
export const DashboardsPerm = {
  managerDashboard: 105,
  managementDashboard: 79,
} as const;

export const DASHBOARD_EXPIRY_WINDOWS = [30, 60, 90] as const;
export type DashboardExpiryWindow = (typeof DASHBOARD_EXPIRY_WINDOWS)[number];
/** People shown in each list of the manager dashboard; the rest through "see all" (the people call, paged). */
export const DASHBOARD_LIST_PREVIEW = 10;
export const DASHBOARD_PEOPLE_LISTS = [
  'out_of_date',
  'expiring_30',
  'expiring_60',
  'expiring_90',
  'new_starters',
] as const;
export type DashboardPeopleList = (typeof DASHBOARD_PEOPLE_LISTS)[number];

const entityRef = z.string().trim().min(1).max(190);
const complianceType = z.enum(['primary', 'secondary', 'all']).default('all');

export const DashboardQuery = z.object({ entity: entityRef.optional(), compliance_type: complianceType });
export type DashboardQuery = z.infer<typeof DashboardQuery>;

export const DashboardPeopleQuery = PageQuery.extend({
  entity: entityRef.optional(),
  compliance_type: complianceType,
  list: z.enum(DASHBOARD_PEOPLE_LISTS),
});
export type DashboardPeopleQuery = z.infer<typeof DashboardPeopleQuery>;

export interface DashboardEntity {
  id: number;
  slug: string;
  name: string;
  level: 'A' | 'B';
}

/** A required course of a person in a list: its cell status now and its expiry (null: never had one / no expiry). */
export interface DashboardCourseCell {
  id: number;
  title: string;
  /** primary = Mandatory, secondary = Required (white-label words). */
  type: 'primary' | 'secondary';
  /** The matrix/tally status. */
  status: 'expired' | 'missing' | 'expiring' | 'in_date' | 'exempt';
  /** The one status (course-status.ts courseStatus) and its date: what the line says (courseStatusText). */
  course_status: CourseStatus;
  status_date: string | null;
  /** A result exists but is not a pass ("Not passed" rather than "Never done"). */
  not_passed: boolean;
  expires_at: string | null;
}

export interface DashboardPerson {
  id: number;
  uuid: string;
  name: string;
  role: string | null;
  entity: { id: number; name: string };
  /**
   * The courses that put the person on the list (out of date: courseStatus outOfDate, expired or never done past its
   * due date; expiring: expiring in the window).
   */
  courses: DashboardCourseCell[];
}

export interface DashboardNewStarter {
  id: number;
  uuid: string;
  name: string;
  role: string | null;
  entity: { id: number; name: string };
  start_date: string | null;
  /** Required cells and how many are compliant (in date, expiring or exempt). */
  required: number;
  compliant: number;
  score: number;
}

/** A list's first people (DASHBOARD_LIST_PREVIEW) and its totals: people and (person, course) cells. */
export interface DashboardList<T> {
  people: number;
  cells: number;
  rows: T[];
}

/** The score now and the last month-end snapshot before (null without one). */
export interface DashboardTrend {
  previous: { month: string; score: number } | null;
  /** score now − previous score (null without a previous snapshot). */
  change: number | null;
  months: ComplianceMonthRow[];
}

export interface ManagerDashboard {
  entity: DashboardEntity;
  compliance_type: 'primary' | 'secondary' | 'all';
  /** The entity and its descendants, as the compliance report's entity row (new starters included). */
  figures: ComplianceFigures;
  trend: DashboardTrend;
  out_of_date: DashboardList<DashboardPerson>;
  expiring: Record<`${DashboardExpiryWindow}`, DashboardList<DashboardPerson>>;
  /** Pending training records waiting for approval, by result type; null when the caller may not see them. */
  pending: { total: number; by_type: Record<string, number> } | null;
  new_starters: DashboardList<DashboardNewStarter>;
  generated_at: string;
}

export interface ManagementEntityRow extends ComplianceFigures {
  id: number;
  slug: string;
  name: string;
  level: 'A' | 'B';
  rank: number;
  previous: { month: string; score: number } | null;
  change: number | null;
}

export interface ManagementCourseRow extends ComplianceFigures {
  id: number;
  title: string;
}

export interface ManagementForecastRow {
  /** 'YYYY-MM' */
  month: string;
  /** Requirements (person, course) whose in-date record expires in the month. */
  expiries: number;
  people: number;
}

export interface ManagementDashboard {
  entity: DashboardEntity;
  compliance_type: 'primary' | 'secondary' | 'all';
  figures: ComplianceFigures;
  trend: DashboardTrend;
  /** The entity's child entities (each with its descendants), lowest score first. */
  entities: ManagementEntityRow[];
  /** Courses with the lowest in-date share first (at most 10). */
  courses: ManagementCourseRow[];
  /** The next 12 months, this month first (from today). */
  forecast: ManagementForecastRow[];
  /** People and required courses expiring in the next 30 days (as the manager dashboard's 30-day list). */
  expiring_30: { people: number; cells: number };
  generated_at: string;
}

// --- Who is behind (issue 33 §7): a manager's own checks of one home, on the Care Certificate, pathways and the
// documents people must read, in one list, with "Message these people" and "Remind" as on the manager dashboard.

/**
 * What "behind" means, per kind, each the definition its own screens already use (never a second one):
 * - care_certificate: the person's certificate (the one the Care Certificate report chooses) is in progress and its
 *   expected date has passed (certificates' `overdue`: started plus the organisation's expected weeks, 12 by
 *   default, the Care Certificate's usual time to complete; Europe/London days);
 * - pathway: an allocation in progress with a step `overdue` (pathways' step status: not done, its due date passed);
 * - document: a document the person's job role must read, not read (its current version), and past its due date
 *   (the one course status, contracts courseStatus `outOfDate`: a new requirement's grace period and a new starter's
 *   period count, as on the manager dashboard's out-of-date list).
 */
export const BEHIND_KINDS = ['care_certificate', 'pathway', 'document'] as const;
export type BehindKind = (typeof BEHIND_KINDS)[number];
export const BEHIND_KIND_LABELS: Record<BehindKind, string> = {
  care_certificate: 'Care Certificate',
  pathway: 'Pathways',
  document: 'Documents to read',
};
export const BEHIND_FILTERS = ['all', ...BEHIND_KINDS] as const;
export type BehindFilter = (typeof BEHIND_FILTERS)[number];

export const BehindQuery = z.object({ entity: entityRef.optional() });
export type BehindQuery = z.infer<typeof BehindQuery>;
export const BehindPeopleQuery = PageQuery.extend({
  entity: entityRef.optional(),
  kind: z.enum(BEHIND_FILTERS).default('all'),
});
export type BehindPeopleQuery = z.infer<typeof BehindPeopleQuery>;
export const BehindRemindBody = z.object({
  entity: entityRef.optional(),
  kind: z.enum(BEHIND_FILTERS).default('all'),
});
export type BehindRemindBody = z.infer<typeof BehindRemindBody>;

/** One thing a person is behind on. */
export interface BehindItem {
  kind: BehindKind;
  /** The certificate's version title, the pathway's title or the document's title. */
  title: string;
  /** The date it was due (yyyy-mm-dd or ISO): expected by, the earliest overdue step's due date, the document's. */
  due: string | null;
  /**
   * The state in a few words: "3 of 15 standards approved", "Step ‘Fire safety’ overdue (2 of 5 done)", "Never
   * read" / "Version 3 not read".
   */
  detail: string;
  /** Where the manager goes to act: the certificate, the pathway's people, the document. */
  href: string;
}

export interface BehindPerson {
  id: number;
  uuid: string;
  name: string;
  role: string | null;
  entity: { id: number; name: string };
  /** Longest overdue first. */
  items: BehindItem[];
}

/**
 * GET /dashboards/manager/behind (105): how many people of the home (and the homes under it) are behind, per kind.
 * A kind is null when the caller may not see it (Care Certificate: one of CARE_CERTIFICATE_VIEW_PERMS; pathways:
 * one of PathwayPerm.view; documents: the manager dashboard's 105).
 */
export interface BehindSummary {
  entity: DashboardEntity;
  /** People behind on at least one kind the caller may see. */
  people: number;
  counts: Record<BehindKind, number | null>;
  generated_at: string;
}

export const BehindMessages = {
  reminded: (n: number) =>
    n === 0
      ? 'No one was reminded: everyone on the list was reminded today already.'
      : `Reminded ${n} ${n === 1 ? 'person' : 'people'}.`,
} as const;
