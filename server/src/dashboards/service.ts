import {
  type ComplianceFigures,
  type ComplianceMonthRow,
  DASHBOARD_EXPIRY_WINDOWS,
  DASHBOARD_LIST_PREVIEW,
  type DashboardCourseCell,
  type DashboardEntity,
  type DashboardList,
  type DashboardNewStarter,
  type DashboardPeopleList,
  type DashboardPeopleQuery,
  type DashboardPerson,
  type DashboardQuery,
  DashboardsPerm,
  type DashboardTrend,
  type ManagementDashboard,
  type ManagementEntityRow,
  type ManagementForecastRow,
  type ManagerDashboard,
  ResultsPerm,
  reportScore,
} from '@cc/contracts';
import { requirementStatus } from '../compliance/status';
import { addTally, emptyTally } from '../compliance/tally';
import { findEntityByRef } from '../entities/queries';
import { entityScope, inScope } from '../entities/scope';
import { actorOf, authorize, type Ctx, can } from '../http/context';
import { notFound } from '../http/errors';
import { previousMonthStarts, withScore } from '../reports/compliance-service';
import { entityAndCourseFigures, type Figures, snapshotTrend, subtreeRows } from '../reports/queries';
import { typeFilter } from '../reports/scope';
import {
  type CellScope,
  countNewStarters,
  countPeople,
  expiryForecast,
  newStartersPage,
  type PeopleCondition,
  pendingByType,
  peoplePage,
  snapshotsOfMonth,
} from './queries';

/**
 * The manager and management dashboards (issue 13; contracts dashboards.ts). Scope first (an entity outside the
 * caller's scope is the same 404 as a missing one), then the permission (105 / 79). Figures come from the compliance
 * report's own queries (reports/queries.ts entityAndCourseFigures over user_requirements) for the entity and its
 * descendants with new starters included, so they equal the report's entity row; trends from compliance_snapshots.
 */

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The entity named (id or slug) inside the caller's scope, else `fallback`; 404 outside the scope. */
export async function resolveEntity(ctx: Ctx, ref: string | undefined, fallback: 'primary' | 'base') {
  const actor = actorOf(ctx);
  const scope = await entityScope(ctx);
  let id: number;
  if (ref !== undefined) {
    const row = await findEntityByRef(ctx.db, ref);
    if (!row || !inScope(scope, row.id)) throw notFound();
    id = row.id;
  } else {
    id =
      fallback === 'primary' && inScope(scope, actor.primaryEntity.id)
        ? actor.primaryEntity.id
        : scope.baseId;
  }
  const tree = await subtreeRows(ctx.db, [id]);
  const root = tree.find((e) => e.id === id);
  if (!root) throw notFound();
  const entity: DashboardEntity = { id: root.id, slug: root.slug, name: root.name, level: root.level };
  return { entity, tree };
}

/** Figures of the subtree (the report's entity row, deep) and per course, with each entity's own figures. */
async function figuresOf(ctx: Ctx, entityIds: number[], type: ReturnType<typeof typeFilter>) {
  const { entities, courses } = await entityAndCourseFigures(
    ctx.db,
    { entityIds, type, newStarters: 'include_new_starters' },
    ctx.clock(),
  );
  const own = new Map<number, Figures>(entities.map((r) => [r.entity_id, r]));
  const total = emptyTally();
  for (const f of own.values()) addTally(total, f);
  return { total, own, courses };
}

async function trendOf(
  ctx: Ctx,
  entityIds: number[],
  type: ReturnType<typeof typeFilter>,
  now: ComplianceFigures,
): Promise<DashboardTrend> {
  const months = previousMonthStarts(ctx.clock(), 12);
  const rows = await snapshotTrend(ctx.db, entityIds, months, type);
  const byMonth = new Map(rows.map((r) => [r.month, r]));
  const series: ComplianceMonthRow[] = months
    .map((m) => m.slice(0, 7))
    .filter((m) => byMonth.has(m))
    .map((m) => ({ month: m, ...withScore(byMonth.get(m) as Figures) }));
  const last = series.at(-1);
  return {
    previous: last ? { month: last.month, score: last.score } : null,
    change: last ? now.score - last.score : null,
    months: series,
  };
}

function presentPeople(rows: Awaited<ReturnType<typeof peoplePage>>, now: Date): DashboardPerson[] {
  return rows.map((p) => ({
    id: p.id,
    uuid: p.uuid,
    name: p.name,
    role: p.role_name,
    entity: { id: p.entity_id, name: p.entity_name },
    courses: p.courses.map((c): DashboardCourseCell => {
      const st = requirementStatus(c, now);
      return {
        id: c.id,
        title: c.title,
        type: c.type,
        status: st.cell,
        course_status: st.status,
        status_date: st.date,
        not_passed: st.attempted,
        expires_at: iso(c.expires_at),
      };
    }),
  }));
}

function presentStarters(rows: Awaited<ReturnType<typeof newStartersPage>>): DashboardNewStarter[] {
  return rows.map((p) => ({
    id: p.id,
    uuid: p.uuid,
    name: p.name,
    role: p.role_name,
    entity: { id: p.entity_id, name: p.entity_name },
    start_date: p.start_date ? String(p.start_date).slice(0, 10) : (iso(p.created_at)?.slice(0, 10) ?? null),
    required: p.required,
    compliant: p.compliant,
    score: reportScore({ in_date: p.compliant, expiring: 0, exempt: 0, required: p.required }),
  }));
}

const conditionOf = (list: Exclude<DashboardPeopleList, 'new_starters'>): PeopleCondition =>
  list === 'out_of_date' ? { kind: 'out_of_date' } : { kind: 'expiring', days: Number(list.split('_')[1]) };

async function peopleList(
  ctx: Ctx,
  s: CellScope,
  c: PeopleCondition,
  page: { limit: number; offset: number },
): Promise<DashboardList<DashboardPerson>> {
  const [counts, rows] = await Promise.all([countPeople(ctx.db, s, c), peoplePage(ctx.db, s, c, page)]);
  return { ...counts, rows: presentPeople(rows, s.now) };
}

async function starterList(
  ctx: Ctx,
  s: CellScope,
  page: { limit: number; offset: number },
): Promise<DashboardList<DashboardNewStarter>> {
  const [counts, rows] = await Promise.all([countNewStarters(ctx.db, s), newStartersPage(ctx.db, s, page)]);
  return { ...counts, rows: presentStarters(rows) };
}

/** GET /dashboards/manager (105). */
export async function managerDashboard(ctx: Ctx, q: DashboardQuery): Promise<ManagerDashboard> {
  const { entity, tree } = await resolveEntity(ctx, q.entity, 'primary');
  const actor = authorize(ctx, [DashboardsPerm.managerDashboard]);
  const now = ctx.clock();
  const type = typeFilter(q.compliance_type);
  const entityIds = tree.map((e) => e.id);
  const s: CellScope = { entityIds, type, now };
  const preview = { limit: DASHBOARD_LIST_PREVIEW, offset: 0 };
  const canSeePending = can(actor, [ResultsPerm.searchTrainingRecords, ResultsPerm.updateRecord], 'any');
  const [{ total }, outOfDate, expiring, starters, pending] = await Promise.all([
    figuresOf(ctx, entityIds, type),
    peopleList(ctx, s, { kind: 'out_of_date' }, preview),
    Promise.all(
      DASHBOARD_EXPIRY_WINDOWS.map((days) => peopleList(ctx, s, { kind: 'expiring', days }, preview)),
    ),
    starterList(ctx, s, preview),
    canSeePending ? pendingByType(ctx.db, entityIds) : Promise.resolve(null),
  ]);
  const figures = withScore(total);
  return {
    entity,
    compliance_type: q.compliance_type,
    figures,
    trend: await trendOf(ctx, entityIds, type, figures),
    out_of_date: outOfDate,
    expiring: { '30': expiring[0], '60': expiring[1], '90': expiring[2] },
    pending: pending
      ? {
          total: pending.reduce((n, r) => n + r.n, 0),
          by_type: Object.fromEntries(pending.map((r) => [r.type, r.n])),
        }
      : null,
    new_starters: starters,
    generated_at: now.toISOString(),
  };
}

/** GET /dashboards/manager/people (105): one list of the manager dashboard, paged. */
export async function managerDashboardPeople(
  ctx: Ctx,
  q: DashboardPeopleQuery,
): Promise<{ data: (DashboardPerson | DashboardNewStarter)[]; total: number; cells: number }> {
  const { tree } = await resolveEntity(ctx, q.entity, 'primary');
  authorize(ctx, [DashboardsPerm.managerDashboard]);
  const s: CellScope = {
    entityIds: tree.map((e) => e.id),
    type: typeFilter(q.compliance_type),
    now: ctx.clock(),
  };
  const page = { limit: q.per_page, offset: (q.page - 1) * q.per_page };
  const list =
    q.list === 'new_starters'
      ? await starterList(ctx, s, page)
      : await peopleList(ctx, s, conditionOf(q.list), page);
  return { data: list.rows, total: list.people, cells: list.cells };
}

/** GET /dashboards/management (79). */
export async function managementDashboard(ctx: Ctx, q: DashboardQuery): Promise<ManagementDashboard> {
  const { entity, tree } = await resolveEntity(ctx, q.entity, 'base');
  authorize(ctx, [DashboardsPerm.managementDashboard]);
  const now = ctx.clock();
  const type = typeFilter(q.compliance_type);
  const entityIds = tree.map((e) => e.id);
  const [{ total, own, courses }, forecastRows, expiring30] = await Promise.all([
    figuresOf(ctx, entityIds, type),
    expiryForecast(ctx.db, { entityIds, type, now }, 12),
    countPeople(ctx.db, { entityIds, type, now }, { kind: 'expiring', days: 30 }),
  ]);
  const figures = withScore(total);
  const trend = await trendOf(ctx, entityIds, type, figures);

  // Each child entity with its descendants, summed bottom-up over the tree (as the report's deep rows).
  const children = new Map<number, number[]>();
  for (const e of tree)
    if (e.parent_id !== null && e.id !== entity.id)
      children.set(e.parent_id, [...(children.get(e.parent_id) ?? []), e.id]);
  const subtreeOf = (id: number): number[] => [id, ...(children.get(id) ?? []).flatMap(subtreeOf)];
  const previousMonth = trend.previous ? `${trend.previous.month}-01` : null;
  const snapshots = previousMonth ? await snapshotsOfMonth(ctx.db, entityIds, previousMonth, type) : [];
  const snapshotOf = new Map<number, Figures>(snapshots.map((r) => [r.entity_id, r]));
  const rows = tree
    .filter((e) => e.parent_id === entity.id && e.id !== entity.id)
    .map((e) => {
      const ids = subtreeOf(e.id);
      const now = emptyTally();
      const before = emptyTally();
      let hasBefore = false;
      for (const id of ids) {
        addTally(now, own.get(id) ?? emptyTally());
        const snap = snapshotOf.get(id);
        if (snap) {
          addTally(before, snap);
          hasBefore = true;
        }
      }
      const current = withScore(now);
      const previous =
        hasBefore && trend.previous ? { month: trend.previous.month, score: reportScore(before) } : null;
      return {
        id: e.id,
        slug: e.slug,
        name: e.name,
        level: e.level,
        ...current,
        previous,
        change: previous ? current.score - previous.score : null,
      };
    })
    .sort((a, b) => a.score - b.score || b.required - a.required || a.name.localeCompare(b.name))
    .map((r, i): ManagementEntityRow => ({ ...r, rank: i + 1 }));

  const worst = courses
    .map((c) => ({ id: c.id, title: c.title, ...withScore(c) }))
    .sort((a, b) => a.score - b.score || b.required - a.required || a.title.localeCompare(b.title))
    .slice(0, 10);

  const byMonth = new Map(forecastRows.map((r) => [r.month, r]));
  const forecast: ManagementForecastRow[] = Array.from({ length: 12 }, (_, i) => {
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1))
      .toISOString()
      .slice(0, 7);
    const r = byMonth.get(month);
    return { month, expiries: r?.expiries ?? 0, people: r?.people ?? 0 };
  });

  return {
    entity,
    compliance_type: q.compliance_type,
    figures,
    trend,
    entities: rows,
    courses: worst,
    forecast,
    expiring_30: expiring30,
    generated_at: now.toISOString(),
  };
}
