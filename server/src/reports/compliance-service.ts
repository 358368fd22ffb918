import {
  COMPLIANCE_REPORT_CELLS_PER_SECOND,
  COMPLIANCE_REPORT_MAX_CELLS,
  type ComplianceCourseRow,
  type ComplianceEntityRow,
  type ComplianceFigures,
  type ComplianceMonthRow,
  type ComplianceReport,
  type ComplianceTooLarge,
  describeDuration,
  ReportsMessages,
  ReportsPerm,
  reportScore,
} from '@cc/contracts';
import type { NewStartersFilter } from '../compliance/queries';
import { addTally, emptyTally } from '../compliance/tally';
import { authorize, type Ctx } from '../http/context';
import {
  type CellFilters,
  countCells,
  courseFigures,
  entityAndCourseFigures,
  type Figures,
  snapshotTrend,
} from './queries';
import { resolveReportScope, typeFilter } from './scope';

/** Limits of the compliance report; tests lower them to reach the 300 path with a small organisation. */
export const reportLimits = { maxCells: COMPLIANCE_REPORT_MAX_CELLS };

export interface ComplianceInput {
  entities?: number[];
  deep: boolean;
  roles?: number[];
  courses?: number[];
  compliance_type: 'primary' | 'secondary' | 'all';
  new_starters_filter: NewStartersFilter;
  previousMonths: number;
}

export const withScore = (f: Figures): ComplianceFigures => ({
  users: f.users,
  required: f.required,
  in_date: f.in_date,
  expiring: f.expiring,
  expired: f.expired,
  missing: f.missing,
  exempt: f.exempt,
  score: reportScore(f),
});

/** The first days ('YYYY-MM-01') of the `n` whole months before `now`'s month, oldest first. */
export function previousMonthStarts(now: Date, n: number): string[] {
  const out: string[] = [];
  for (let i = n; i >= 1; i--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

/** 403 unless 13; returns the resolved scope and filters (404s first: spec "404 before 403"). */
export async function complianceScope(ctx: Ctx, input: Omit<ComplianceInput, 'previousMonths'>) {
  const scope = await resolveReportScope(ctx, input);
  authorize(ctx, [ReportsPerm.complianceReport]);
  const filters: CellFilters = {
    entityIds: scope.entityIds,
    roleIds: input.roles,
    courseIds: input.courses,
    type: typeFilter(input.compliance_type),
    newStarters: input.new_starters_filter,
  };
  return { scope, filters };
}

export type ComplianceOutcome = { tooLarge: ComplianceTooLarge } | { report: ComplianceReport };

/**
 * POST /reports/compliance (13): spec 2 §3 {months, courses, entities}. Current figures come from one grouped join
 * (users × effective rules × latest_results) per entity and per course; an entity's figure covers its subtree when
 * deep. The trend sums the monthly snapshots. Above reportLimits.maxCells the answer is 300 (spec 2 §4).
 */
export async function complianceReport(
  ctx: Ctx,
  input: ComplianceInput,
  opts: { ignoreLimit?: boolean } = {},
): Promise<ComplianceOutcome> {
  const { scope, filters } = await complianceScope(ctx, input);
  const now = ctx.clock();
  if (!opts.ignoreLimit) {
    const cells = await countCells(ctx.db, filters, now);
    if (cells > reportLimits.maxCells) {
      const seconds = cells / COMPLIANCE_REPORT_CELLS_PER_SECOND;
      return {
        tooLarge: {
          message: ReportsMessages.tooLarge,
          expected_time: describeDuration(seconds),
          expected_seconds: Math.ceil(seconds),
          cells,
        },
      };
    }
  }
  const figures = await entityAndCourseFigures(ctx.db, filters, now);
  const own = new Map<number, Figures>();
  for (const row of figures.entities) own.set(row.entity_id, row);
  const courses = figures.courses;
  const months = await trend(ctx, scope.entityIds, input);

  // Sum each entity's subtree (deep) bottom-up over the resolved tree.
  const children = new Map<number, number[]>();
  const ids = new Set(scope.entityIds);
  for (const e of scope.entities)
    if (e.parent_id !== null && ids.has(e.parent_id))
      children.set(e.parent_id, [...(children.get(e.parent_id) ?? []), e.id]);
  const deepOf = new Map<number, Figures>();
  const sumOf = (id: number, seen = new Set<number>()): Figures => {
    const cached = deepOf.get(id);
    if (cached) return cached;
    const total = emptyTally();
    addTally(total, own.get(id) ?? emptyTally());
    if (input.deep && !seen.has(id)) {
      seen.add(id);
      for (const c of children.get(id) ?? []) addTally(total, sumOf(c, seen));
    }
    deepOf.set(id, total);
    return total;
  };
  const entities: ComplianceEntityRow[] = scope.entities.map((e) => ({
    id: e.id,
    name: e.name,
    slug: e.slug,
    level: e.level,
    parent_id: e.parent_id,
    ...withScore(sumOf(e.id)),
    own: withScore(own.get(e.id) ?? emptyTally()),
  }));
  const totals = emptyTally();
  for (const f of own.values()) addTally(totals, f);
  return {
    report: {
      months,
      courses: courses.map((c): ComplianceCourseRow => ({ id: c.id, title: c.title, ...withScore(c) })),
      entities,
      totals: withScore(totals),
      generated_at: now.toISOString(),
    },
  };
}

/** The last `previousMonths` whole months from the snapshots; a month without any snapshot is left out. */
async function trend(ctx: Ctx, entityIds: number[], input: ComplianceInput): Promise<ComplianceMonthRow[]> {
  const months = previousMonthStarts(ctx.clock(), input.previousMonths);
  const rows = await snapshotTrend(ctx.db, entityIds, months, typeFilter(input.compliance_type));
  const byMonth = new Map(rows.map((r) => [r.month, r]));
  return months
    .map((m) => m.slice(0, 7))
    .filter((m) => byMonth.has(m))
    .map((m) => {
      const r = byMonth.get(m) as Figures & { month: string };
      return { month: m, ...withScore(r) };
    });
}

/** GET /reports/compliance/courses (13): the per-course figures alone. */
export async function complianceCourses(ctx: Ctx, input: Omit<ComplianceInput, 'previousMonths'>) {
  const { filters } = await complianceScope(ctx, input);
  const rows = await courseFigures(ctx.db, filters, ctx.clock());
  return rows.map((c): ComplianceCourseRow => ({ id: c.id, title: c.title, ...withScore(c) }));
}
