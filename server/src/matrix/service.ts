import {
  type CellsWire,
  type ComplianceTally,
  compliantCells,
  decodeCells,
  decodeUsers,
  MATRIX_BLOCK_USERS,
  type MatrixAggregate,
  type MatrixCell,
  type MatrixCourse,
  type MatrixEntity,
  MatrixFilters,
  type MatrixFiltersInput,
  MatrixPerm,
  type MatrixRole,
  type MatrixTopLevelAggregate,
  type MatrixUser,
  type UsersWire,
} from '@cc/contracts';
import { scoreOf } from '../compliance/rules';
import { addTally, emptyTally } from '../compliance/tally';
import { entityScope, inScope } from '../entities/scope';
import { subtreeIds } from '../entities/tree';
import { authorize, type Ctx } from '../http/context';
import { invalid, notFound } from '../http/errors';
import { pathwayMatrixLimits } from '../pathways/matrix';
import type { BlockTallyRow } from './block-tallies';
import {
  allEntityIds,
  type BlockRow,
  type BlockScope,
  blockBoundaries,
  countMatrixUsers,
  coursesByIds,
  entitiesByIds,
  graceRules,
  matrixBlock,
  requiredCourses,
  rolesFor,
  userIdBefore,
} from './queries';

/**
 * The matrix data service (issue 5 item 4): for the entities the actor may see (deep) and the filters, yields blocks
 * of about MATRIX_BLOCK_USERS users with their cells, encoded by the database (packages/contracts/src/matrix.ts).
 * The websocket channel, POST /reports/matrix (json, XLSX, PDF, e-mail) and the preset renderer all read it.
 * Permission 12 (matrix report); scope from entities/scope.ts, so acting-as narrows it like every other report.
 */

export const FIRST_BLOCK_USERS = 50;

export interface MatrixPlan extends BlockScope {
  total: number;
  entities: MatrixEntity[];
  roles: MatrixRole[];
  /** Courses the rules require (known before the first block); blocks may add courses with a result only. */
  courses: MatrixCourse[];
}

export interface MatrixBlock {
  index: number;
  /** UsersWire / CellsWire as JSON text, ready for the socket. */
  users: string;
  cells: string;
  userCount: number;
  /** Courses first seen in this block (type none cells), to send before its cells. */
  newCourses: MatrixCourse[];
  /** Users prepared so far over the total: 0..1. */
  progress: number;
}

export function parseFilters(input: unknown): MatrixFilters {
  const parsed = MatrixFilters.safeParse(input ?? {});
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.') || 'filters';
      errors[key] = [...(errors[key] ?? []), issue.message];
    }
    throw invalid(errors);
  }
  return parsed.data;
}

/**
 * Pathways named by the filters become what they limit (pathways/matrix.ts): their courses join `courses`, their
 * people narrow `users` (none allocated: nobody, by an id no user has).
 */
async function withPathwayLimits(ctx: Ctx, filters: MatrixFilters): Promise<MatrixFilters> {
  if (!filters.pathways.length) return filters;
  const { courseIds, userIds } = await pathwayMatrixLimits(ctx, filters.pathways);
  const named = new Set(filters.users);
  const people = filters.users.length ? userIds.filter((id) => named.has(id)) : userIds;
  return {
    ...filters,
    courses: [...new Set([...filters.courses, ...courseIds])],
    users: people.length ? people : [0],
  };
}

/** The entity ids the matrix covers: the filtered entities (404 for any outside the scope), deep or not. */
export async function matrixEntityIds(
  ctx: Ctx,
  filters: MatrixFilters,
  permissions: number[] = [MatrixPerm.report],
) {
  const scope = await entityScope(ctx);
  // 404 before 403: an entity of another organisation answers as a missing one.
  for (const id of filters.entities) if (!inScope(scope, id)) throw notFound();
  authorize(ctx, permissions);
  let ids: number[];
  if (filters.entities.length) {
    const set = new Set<number>();
    for (const id of filters.entities) {
      if (!filters.deep) set.add(id);
      else for (const d of await subtreeIds(ctx.db, id)) if (inScope(scope, d)) set.add(d);
    }
    ids = [...set];
  } else if (!filters.deep) ids = [scope.baseId];
  else ids = scope.accessible === 'all' ? await allEntityIds(ctx.db) : [...scope.accessible];
  return ids.sort((a, b) => a - b);
}

/** The scope of a matrix without the global figures (user count, required courses): what the first block needs. */
export type MatrixScopePlan = Omit<MatrixPlan, 'total' | 'courses'> &
  Partial<Pick<MatrixPlan, 'total' | 'courses'>>;

export async function planMatrixScope(
  ctx: Ctx,
  input: MatrixFiltersInput | MatrixFilters,
  permissions: number[] = [MatrixPerm.report],
): Promise<MatrixScopePlan> {
  const filters = await withPathwayLimits(ctx, parseFilters(input));
  const entityIds = await matrixEntityIds(ctx, filters, permissions);
  const now = ctx.clock();
  const [entities, roles, grace] = await Promise.all([
    entitiesByIds(ctx.db, entityIds),
    rolesFor(ctx.db, entityIds),
    graceRules(ctx.db, entityIds, now),
  ]);
  const s: BlockScope = { entityIds, filters, now, grace };
  return { ...s, entities, roles };
}

/** Fills the global figures of a plan: the user count and the courses the rules require. */
export async function completePlan(ctx: Pick<Ctx, 'db'>, plan: MatrixScopePlan): Promise<MatrixPlan> {
  const [total, courses] = await Promise.all([
    plan.total ?? countMatrixUsers(ctx.db, plan),
    plan.courses ?? requiredCourses(ctx.db, plan),
  ]);
  plan.total = total;
  plan.courses = courses;
  return plan as MatrixPlan;
}

export async function planMatrix(
  ctx: Ctx,
  input: MatrixFiltersInput | MatrixFilters,
  permissions: number[] = [MatrixPerm.report],
): Promise<MatrixPlan> {
  return completePlan(ctx, await planMatrixScope(ctx, input, permissions));
}

/** Accumulates the per-block (entity, type) tallies into per-entity own/deep figures and the top level. */
export class MatrixAggregator {
  private own = new Map<number, { primary: ComplianceTally; secondary: ComplianceTally }>();
  totalUsers = 0;

  constructor(private plan: Pick<MatrixPlan, 'entities' | 'filters'>) {
    for (const e of plan.entities) this.own.set(e.id, { primary: emptyTally(), secondary: emptyTally() });
  }

  /** The block's tallies: [entity_id, type, users, required, in_date, expiring, expired, missing, exempt] rows. */
  add(rows: BlockTallyRow[], users: number) {
    this.totalUsers += users;
    for (const [eid, type, u, required, in_date, expiring, expired, missing, exempt] of rows) {
      const entry = this.own.get(eid);
      if (!entry || (type !== 'primary' && type !== 'secondary')) continue;
      addTally(entry[type], { users: u, required, in_date, expiring, expired, missing, exempt });
    }
  }

  private score(t: { primary: ComplianceTally; secondary: ComplianceTally }) {
    const type = this.plan.filters.compliance_type;
    if (type === 'primary') return scoreOf(compliantCells(t.primary), t.primary.required);
    if (type === 'secondary') return scoreOf(compliantCells(t.secondary), t.secondary.required);
    return scoreOf(
      compliantCells(t.primary) + compliantCells(t.secondary),
      t.primary.required + t.secondary.required,
    );
  }

  aggregates(): MatrixAggregate[] {
    const children = new Map<number, number[]>();
    for (const e of this.plan.entities)
      if (e.parent_id !== null && this.own.has(e.parent_id))
        children.set(e.parent_id, [...(children.get(e.parent_id) ?? []), e.id]);
    const deepOf = (id: number, seen = new Set<number>()) => {
      const deep = { primary: emptyTally(), secondary: emptyTally() };
      const walk = (x: number) => {
        if (seen.has(x)) return;
        seen.add(x);
        const own = this.own.get(x);
        if (own) {
          addTally(deep.primary, own.primary);
          addTally(deep.secondary, own.secondary);
        }
        for (const c of children.get(x) ?? []) walk(c);
      };
      walk(id);
      return deep;
    };
    return this.plan.entities.map((e) => {
      const own = this.own.get(e.id) ?? { primary: emptyTally(), secondary: emptyTally() };
      const deep = deepOf(e.id);
      return { entity_id: e.id, name: e.name, parent_id: e.parent_id, own, deep, score: this.score(deep) };
    });
  }

  topLevel(): MatrixTopLevelAggregate {
    const primary = emptyTally();
    const secondary = emptyTally();
    for (const t of this.own.values()) {
      addTally(primary, t.primary);
      addTally(secondary, t.secondary);
    }
    const type = this.plan.filters.compliance_type;
    const all = emptyTally();
    if (type !== 'secondary') addTally(all, primary);
    if (type !== 'primary') addTally(all, secondary);
    return {
      ...all,
      // users with any requirement can be counted twice across types: the matrix's own user count is exact.
      users: this.totalUsers,
      total_users: this.totalUsers,
      score: this.score({ primary, secondary }),
      primary,
      secondary,
    };
  }
}

/**
 * The blocks of a plan, in user id order. The first (small) block is read before anything global, so cells reach
 * the screen first; a plan without its global figures (planMatrixScope) is completed right after it, and the
 * required courses the blocks have not shown yet come with the next block (or alone, as a block of no users:
 * userCount 0, only newCourses).
 * The next blocks' queries run while the caller consumes the current one (sends it, writes it), so the database
 * and the socket work at the same time; at most concurrency + 1 blocks are in memory.
 */
export async function* matrixBlocks(
  ctx: Pick<Ctx, 'db' | 'engine'>,
  plan: MatrixScopePlan,
  aggregator: MatrixAggregator,
  opts: { signal?: AbortSignal; blockUsers?: number; concurrency?: number; lean?: boolean } = {},
): AsyncGenerator<MatrixBlock> {
  const limit = opts.blockUsers ?? MATRIX_BLOCK_USERS;
  const known = new Set((plan.courses ?? []).map((c) => c.id));
  let done = 0;
  let index = 0;
  const toBlock = async (row: BlockRow, extra: MatrixCourse[] = []): Promise<MatrixBlock> => {
    aggregator.add(row.tallies, row.n);
    done += row.n;
    const unknown = (row.course_ids ?? []).filter((id) => !known.has(id));
    for (const id of unknown) known.add(id);
    const newCourses = [...extra, ...(unknown.length ? await coursesByIds(ctx.db, unknown) : [])];
    return {
      index: row.n ? index++ : index,
      users: row.users,
      cells: row.cells,
      userCount: row.n,
      newCourses,
      progress: plan.total ? Math.min(1, done / plan.total) : plan.total === 0 ? 1 : 0,
    };
  };
  // A small first block puts cells on the screen (and the wire) sooner; the rest come in full blocks.
  const lean = { lean: opts.lean };
  const first = await matrixBlock(ctx.db, plan, 0, Math.min(limit, FIRST_BLOCK_USERS), null, lean);
  if (opts.signal?.aborted) return;
  const lazy = plan.total === undefined || plan.courses === undefined;
  if (first.n > 0) yield await toBlock(first);
  if (opts.signal?.aborted) return;
  // Required courses no block has shown yet (a plan completed late): sent with the next block, or alone.
  let pending: MatrixCourse[] = [];
  if (lazy) {
    const full = await completePlan(ctx, plan);
    pending = full.courses.filter((c) => !known.has(c.id));
    for (const c of pending) known.add(c.id);
  }
  const flushPending = (): MatrixBlock => ({
    index,
    users: '[[],[],[],[],[]]',
    cells: '[[],[],[],[],[],[],[],[]]',
    userCount: 0,
    newCourses: pending,
    progress: 1,
  });
  if (first.n === 0 || opts.signal?.aborted) {
    if (pending.length && !opts.signal?.aborted) yield flushPending();
    return;
  }
  // The other blocks are ranges of user ids between precomputed boundaries, read `concurrency` at a time
  // (PostgreSQL: 2, so the database works on the next blocks while this process sends the current one; PGlite has
  // one connection: 1).
  const bounds = await blockBoundaries(ctx.db, plan, first.last_id as number, limit);
  const concurrency = opts.concurrency ?? blocksAhead(ctx.engine);
  const reads = readAhead(
    bounds.length,
    (k) => {
      const after = k === 0 ? (first.last_id as number) : (bounds[k - 1] as number);
      return matrixBlock(ctx.db, plan, after, limit, bounds[k] as number, lean);
    },
    concurrency,
    opts.signal,
  );
  for await (const row of reads) {
    if (row.n === 0) continue;
    yield await toBlock(row, pending);
    pending = [];
  }
  if (pending.length && !opts.signal?.aborted) yield flushPending();
}

/** Blocks read at once: PostgreSQL reads the next while the current one is sent or written; PGlite has one connection. */
export const blocksAhead = (engine: Ctx['engine']) => (engine === 'postgres' ? 2 : 1);

/**
 * read(0..count-1), yielded in order, up to `ahead` running at once so the database works on the next while the
 * caller handles the current one. Stops (launching nothing more) once `signal` is aborted; a read left running when
 * the caller stops is awaited, so it never surfaces as an unhandled rejection.
 */
export async function* readAhead<T>(
  count: number,
  read: (k: number) => Promise<T>,
  ahead: number,
  signal?: AbortSignal,
): AsyncGenerator<T> {
  const inFlight: Promise<T>[] = [];
  let next = 0;
  const launch = () => {
    while (inFlight.length < ahead && next < count) inFlight.push(read(next++));
  };
  launch();
  try {
    while (inFlight.length) {
      const value = await (inFlight.shift() as Promise<T>);
      if (signal?.aborted) return;
      launch();
      yield value;
    }
  } finally {
    await Promise.all(inFlight.map((p) => p.catch(() => undefined)));
  }
}

/** A page of the matrix: a page of its users (id order) with their cells, and the columns the page shows. */
export interface MatrixPage {
  total: number;
  users: (MatrixUser & { score: number })[];
  cells: MatrixCell[];
  courses: MatrixCourse[];
  roles: MatrixRole[];
}

/**
 * The matrix paged by users (GraphQL `matrix`, spec 2 §7 "Paged fetches take first and page"): the same plan, scope
 * and permission (12) as POST /reports/matrix, then one block of `perPage` users starting at the page's offset.
 * `score` is the user's Mandatory score, as the REST response's primary_scores.
 */
export async function matrixPage(
  ctx: Ctx,
  input: MatrixFiltersInput | MatrixFilters,
  page: number,
  perPage: number,
): Promise<MatrixPage> {
  const plan = await planMatrix(ctx, input);
  const base = { total: plan.total, courses: plan.courses, roles: plan.roles };
  const after = await userIdBefore(ctx.db, plan, (page - 1) * perPage);
  if (after === null) return { ...base, users: [], cells: [] };
  const row = await matrixBlock(ctx.db, plan, after, perPage);
  const users = decodeUsers(JSON.parse(row.users) as UsersWire);
  const cells = decodeCells(JSON.parse(row.cells) as CellsWire, new Map(users.map((u) => [u.id, u])));
  const known = new Set(plan.courses.map((c) => c.id));
  const extra = (row.course_ids ?? []).filter((id) => !known.has(id));
  const tally = new Map<number, [number, number]>();
  for (const c of cells) {
    // A new requirement's cell inside its grace period is left out of the score (issue 33 §4).
    if (c.type !== 'primary' || !c.counted) continue;
    const t = tally.get(c.user_id) ?? [0, 0];
    t[1]++;
    if (c.in_date_passed) t[0]++;
    tally.set(c.user_id, t);
  }
  return {
    ...base,
    courses: extra.length ? [...plan.courses, ...(await coursesByIds(ctx.db, extra))] : plan.courses,
    users: users.map((u) => {
      const [passed, required] = tally.get(u.id) ?? [0, 0];
      return { ...u, score: scoreOf(passed, required) };
    }),
    cells,
  };
}
