import {
  type CreatePathwayBody,
  PathwayMessages as M,
  PathwayPerm as P,
  type PathwayChangesView,
  type PathwayListQuery,
  type PathwayStepInput,
  type PathwaySummary,
  type PathwayVersionDetail,
  type PathwayVersionView,
  type PathwayView,
  type UpdatePathwayBody,
} from '@cc/contracts';
import { sql } from 'kysely';
import type { z } from 'zod';
import { pageWithTotal } from '../db/paged';
import type { PathwayVersionChange } from '../db/schema';
import { entityScope, inScope } from '../entities/scope';
import { actorOf, authorize, type Ctx, can } from '../http/context';
import { invalid, notFound } from '../http/errors';
import type { DbOrTrx } from '../jobs/queries';
import type { Trx } from '../results/service';
import { stepsOf } from './progress';
import { reconcileAllocations } from './reconcile';
import { pathwayFor, requirePerm, scopedEntityIds } from './scope';
import {
  diffSteps,
  insertSteps,
  type NewStep,
  normaliseSteps,
  presentStepView,
  replaceSteps,
  type StepChange,
  stepsDiffer,
} from './steps';

/**
 * Pathways: list, view, create, edit (in place, or a new version with the editor's choices), delete, and the
 * preview of an edit (contracts pathways.ts). Allocations live in allocation-service.ts.
 */

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const LIVE = ['in_progress', 'awaiting_sign_off'] as const;

function summarySelect(db: DbOrTrx) {
  return db
    .selectFrom('pathways as p')
    .innerJoin('entities as e', 'e.id', 'p.entity_id')
    .leftJoin('pathway_versions as cv', 'cv.id', 'p.current_version_id')
    .where('p.deleted_at', 'is', null)
    .select([
      'p.id',
      'p.uuid',
      'p.title',
      'p.description',
      'p.course_id',
      'p.sequential',
      'p.requires_final_sign_off',
      'p.updated_at',
      'p.current_version_id',
      'e.id as entity_id',
      'e.slug as entity_slug',
      'e.name as entity_name',
      'cv.number as version',
      sql<number>`(SELECT count(*) FROM pathway_steps s WHERE s.version_id = p.current_version_id)::int`.as(
        'step_count',
      ),
      sql<number>`(SELECT count(*) FROM pathway_allocations a
        WHERE a.pathway_id = p.id AND a.status = 'in_progress')::int`.as('in_progress'),
      sql<number>`(SELECT count(*) FROM pathway_allocations a
        WHERE a.pathway_id = p.id AND a.status = 'awaiting_sign_off')::int`.as('awaiting_sign_off'),
      sql<number>`(SELECT count(*) FROM pathway_allocations a
        WHERE a.pathway_id = p.id AND a.status = 'completed')::int`.as('completed'),
    ]);
}
type SummaryRow = Awaited<ReturnType<ReturnType<typeof summarySelect>['executeTakeFirstOrThrow']>>;

function presentSummary(r: SummaryRow): PathwaySummary {
  return {
    id: r.id,
    uuid: r.uuid,
    title: r.title,
    description: r.description,
    entity: { id: r.entity_id, slug: r.entity_slug, name: r.entity_name },
    course_id: r.course_id,
    sequential: r.sequential,
    requires_final_sign_off: r.requires_final_sign_off,
    version: r.version ?? 1,
    step_count: Number(r.step_count),
    counts: {
      in_progress: Number(r.in_progress),
      awaiting_sign_off: Number(r.awaiting_sign_off),
      completed: Number(r.completed),
    },
    updated_at: iso(r.updated_at),
  };
}

/** GET /pathways: pathways owned by organisations in scope (any view permission), by title; `entity` narrows. */
export async function listPathways(
  ctx: Ctx,
  q: z.output<typeof PathwayListQuery>,
): Promise<{ data: PathwaySummary[]; total: number }> {
  authorize(ctx, P.view, 'any');
  let base = summarySelect(ctx.db);
  const ids = await scopedEntityIds(ctx);
  if (ids) base = base.where('p.entity_id', 'in', ids.length ? ids : [0]);
  if (q.entity) {
    const entity = await ctx.db
      .selectFrom('entities')
      .select('id')
      .where('slug', '=', q.entity)
      .executeTakeFirst();
    if (!entity || !inScope(await entityScope(ctx), entity.id)) throw notFound();
    base = base.where('p.entity_id', '=', entity.id);
  }
  if (q.search) base = base.where('p.title', 'ilike', `%${q.search.replace(/[\\%_]/g, '\\$&')}%`);
  const { rows, total } = await pageWithTotal(base, (listed) => listed.orderBy('p.title').orderBy('p.id'), {
    page: q.page,
    perPage: q.per_page,
  });
  return { data: rows.map(presentSummary), total };
}

async function versionViews(db: DbOrTrx, pathwayId: number, number?: number): Promise<PathwayVersionView[]> {
  let q = db
    .selectFrom('pathway_versions as v')
    .leftJoin('users as u', 'u.id', 'v.created_by')
    .select([
      'v.id',
      'v.number',
      'v.change_note',
      'v.changes',
      'v.created_at',
      'u.id as by_id',
      'u.uuid as by_uuid',
      'u.name as by_name',
      sql<number>`(SELECT count(*) FROM pathway_allocations a
        WHERE a.version_id = v.id AND a.status IN ('in_progress','awaiting_sign_off'))::int`.as(
        'in_progress',
      ),
    ])
    .where('v.pathway_id', '=', pathwayId);
  if (number !== undefined) q = q.where('v.number', '=', number);
  const rows = await q.orderBy('v.number', 'desc').execute();
  return rows.map((r) => ({
    id: r.id,
    number: r.number,
    change_note: r.change_note,
    changes: ((r.changes ?? []) as PathwayVersionChange[]).map((c) => ({
      step_key: c.step_key,
      change: c.change,
      choice: c.choice,
    })),
    created_by:
      r.by_id !== null ? { id: r.by_id, uuid: r.by_uuid as string, name: r.by_name as string } : null,
    created_at: iso(r.created_at),
    in_progress: Number(r.in_progress),
  }));
}

/** GET /pathways/{id}: in scope (404), any view permission (403). */
export async function getPathway(ctx: Ctx, id: number, db: DbOrTrx = ctx.db): Promise<PathwayView> {
  const pathway = await pathwayFor(ctx, id, { db });
  const actor = requirePerm(ctx, P.view);
  const summary = await summarySelect(db).where('p.id', '=', pathway.id).executeTakeFirstOrThrow();
  const steps = pathway.current_version_id
    ? ((await stepsOf(db, [pathway.current_version_id])).get(pathway.current_version_id) ?? [])
    : [];
  const scope = await entityScope(ctx);
  const roles = await db
    .selectFrom('pathway_role_allocations as ra')
    .innerJoin('entities as e', 'e.id', 'ra.entity_id')
    .innerJoin('entity_roles as r', 'r.id', 'ra.role_id')
    .select([
      'ra.id',
      'ra.created_at',
      'e.id as entity_id',
      'e.slug',
      'e.name as entity_name',
      'r.id as role_id',
    ])
    .select('r.name as role_name')
    .where('ra.pathway_id', '=', pathway.id)
    .orderBy('e.name')
    .orderBy('r.name')
    .execute();
  return {
    ...presentSummary(summary),
    steps: steps.map(presentStepView),
    versions: await versionViews(db, pathway.id),
    role_allocations: roles
      .filter((r) => inScope(scope, r.entity_id))
      .map((r) => ({
        id: r.id,
        entity: { id: r.entity_id, slug: r.slug, name: r.entity_name },
        role: { id: r.role_id, name: r.role_name },
        created_at: iso(r.created_at),
      })),
    can: {
      edit: can(actor, P.manage, 'any'),
      allocate: can(actor, [P.allocate]),
      sign_off: can(actor, [P.signOff]),
    },
  };
}

/** GET /pathways/{id}/versions/{number}: a version and its steps (history). */
export async function getPathwayVersion(ctx: Ctx, id: number, number: number): Promise<PathwayVersionDetail> {
  const pathway = await pathwayFor(ctx, id);
  requirePerm(ctx, P.view);
  const [version] = await versionViews(ctx.db, pathway.id, number);
  if (!version) throw notFound();
  const steps = (await stepsOf(ctx.db, [version.id])).get(version.id) ?? [];
  return { ...version, steps: steps.map(presentStepView) };
}

/** The owner of a new pathway: `entity` (in scope, else 404), else the acting-as one, else the organisation. */
async function ownerOf(ctx: Ctx, slug: string | undefined): Promise<number> {
  const actor = actorOf(ctx);
  const scope = await entityScope(ctx);
  if (slug) {
    const entity = await ctx.db
      .selectFrom('entities')
      .select('id')
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (!entity || !inScope(scope, entity.id)) throw notFound();
    return entity.id;
  }
  if (actor.actingAs) return actor.actingAs.id;
  return inScope(scope, actor.aEntityId) ? actor.aEntityId : actor.primaryEntity.id;
}

/**
 * POST /pathways (27 or 28): the backing course (kind 'pathway', the pathway's title, the same owner), the
 * pathway, version 1 and its steps in one transaction.
 */
export async function createPathway(
  ctx: Ctx,
  body: z.output<typeof CreatePathwayBody>,
): Promise<PathwayView> {
  const actor = authorize(ctx, P.manage, 'any');
  const entityId = await ownerOf(ctx, body.entity);
  const steps = await normaliseSteps(ctx, ctx.db, body.steps);
  const now = ctx.clock();
  const id = await ctx.db.transaction().execute(async (trx) => {
    const course = await trx
      .insertInto('courses')
      .values({ entity_id: entityId, title: body.title, kind: 'pathway', published: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    const pathway = await trx
      .insertInto('pathways')
      .values({
        entity_id: entityId,
        course_id: course.id,
        title: body.title,
        description: body.description ?? null,
        sequential: body.sequential,
        requires_final_sign_off: body.requires_final_sign_off,
        current_version_id: null,
        created_by: actor.userId,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const version = await trx
      .insertInto('pathway_versions')
      .values({ pathway_id: pathway.id, number: 1, created_by: actor.userId, created_at: now, changes: '[]' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertSteps(trx, version.id, steps);
    await trx
      .updateTable('pathways')
      .set({ current_version_id: version.id })
      .where('id', '=', pathway.id)
      .execute();
    return pathway.id;
  });
  return getPathway(ctx, id);
}

/** The current version's steps, under the pathway's lock. */
async function currentSteps(db: DbOrTrx, versionId: number | null) {
  if (!versionId) return [];
  return (await stepsOf(db, [versionId])).get(versionId) ?? [];
}

async function liveOnVersion(db: DbOrTrx, versionId: number | null): Promise<number> {
  if (!versionId) return 0;
  const row = await db
    .selectFrom('pathway_allocations')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('version_id', '=', versionId)
    .where('status', 'in', [...LIVE])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function anyOnVersion(db: DbOrTrx, versionId: number | null): Promise<boolean> {
  if (!versionId) return false;
  const row = await db
    .selectFrom('pathway_allocations')
    .select('id')
    .where('version_id', '=', versionId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** POST /pathways/{id}/changes: what saving these steps would change, and whether it makes a new version. */
export async function previewChanges(
  ctx: Ctx,
  id: number,
  body: { steps: PathwayStepInput[] },
): Promise<PathwayChangesView> {
  const pathway = await pathwayFor(ctx, id);
  requirePerm(ctx, P.manage);
  const steps = await normaliseSteps(ctx, ctx.db, body.steps);
  const current = await currentSteps(ctx.db, pathway.current_version_id);
  const changes = diffSteps(current, steps);
  return {
    new_version:
      stepsDiffer(current, steps, changes) && (await anyOnVersion(ctx.db, pathway.current_version_id)),
    in_progress: await liveOnVersion(ctx.db, pathway.current_version_id),
    changes,
  };
}

/** Every change needs a choice (422 `choices`); returns what the version records. */
function choicesFor(changes: StepChange[], body: UpdatePathwayBody): PathwayVersionChange[] {
  const chosen = new Map((body.choices ?? []).map((c) => [c.step_key, c.choice]));
  const missing = changes.filter((c) => !chosen.has(c.step_key));
  if (missing.length) throw invalid({ choices: [M.choicesMissing] });
  return changes.map((c) => ({
    step_key: c.step_key,
    change: c.change,
    choice: chosen.get(c.step_key) as PathwayVersionChange['choice'],
  }));
}

/**
 * A new version (the pathway row is locked): its steps, the pathway points at it, and the people in progress on the
 * replaced version move to it with the chosen credits, unless a change says `stay` (contracts "Versions").
 * Returns the people who moved (their allocations are reconciled by the caller).
 */
async function makeVersion(
  trx: Trx,
  ctx: Ctx,
  pathway: { id: number; current_version_id: number | null },
  steps: NewStep[],
  changes: PathwayVersionChange[],
  note: string | null,
): Promise<number[]> {
  const actor = actorOf(ctx);
  const now = ctx.clock();
  const last = await trx
    .selectFrom('pathway_versions')
    .select(sql<number>`coalesce(max(number), 0)::int`.as('n'))
    .where('pathway_id', '=', pathway.id)
    .executeTakeFirstOrThrow();
  const version = await trx
    .insertInto('pathway_versions')
    .values({
      pathway_id: pathway.id,
      number: Number(last.n) + 1,
      change_note: note,
      changes: JSON.stringify(changes),
      created_by: actor.userId,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertSteps(trx, version.id, steps);
  await trx
    .updateTable('pathways')
    .set({ current_version_id: version.id, updated_at: now })
    .where('id', '=', pathway.id)
    .execute();
  if (changes.some((c) => c.choice === 'stay') || !pathway.current_version_id) return [];
  const moving = await trx
    .selectFrom('pathway_allocations')
    .select(['id', 'user_id', 'step_credit'])
    .where('version_id', '=', pathway.current_version_id)
    .where('status', 'in', [...LIVE])
    .orderBy('id')
    .forUpdate()
    .execute();
  for (const a of moving) {
    const credit: Record<string, string> = { ...((a.step_credit ?? {}) as Record<string, string>) };
    for (const c of changes) {
      if (c.change === 'removed') delete credit[c.step_key];
      else if (c.choice === 'redo') credit[c.step_key] = now.toISOString();
    }
    await trx
      .updateTable('pathway_allocations')
      .set({ version_id: version.id, step_credit: JSON.stringify(credit), updated_at: now })
      .where('id', '=', a.id)
      .execute();
  }
  return moving.map((a) => a.user_id);
}

/**
 * PATCH /pathways/{id} (27 or 28): only the fields sent change. New steps on a version nobody is on replace them in
 * place; otherwise a new version is made (every change needs a choice). The title follows to the backing course.
 * People's statuses are reconciled afterwards (a step redone, a final sign-off switched on or off).
 */
export async function updatePathway(ctx: Ctx, id: number, body: UpdatePathwayBody): Promise<PathwayView> {
  await pathwayFor(ctx, id);
  requirePerm(ctx, P.manage);
  const steps = body.steps ? await normaliseSteps(ctx, ctx.db, body.steps) : null;
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    const pathway = await pathwayFor(ctx, id, { db: trx, forUpdate: true });
    const fields = {
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.description !== undefined ? { description: body.description ?? null } : {}),
      ...(body.sequential !== undefined ? { sequential: body.sequential } : {}),
      ...(body.requires_final_sign_off !== undefined
        ? { requires_final_sign_off: body.requires_final_sign_off }
        : {}),
    };
    await trx
      .updateTable('pathways')
      .set({ ...fields, updated_at: now })
      .where('id', '=', pathway.id)
      .execute();
    if (body.title !== undefined)
      await trx
        .updateTable('courses')
        .set({ title: body.title, updated_at: now })
        .where('id', '=', pathway.course_id)
        .execute();
    if (steps) {
      const current = await currentSteps(trx, pathway.current_version_id);
      const changes = diffSteps(current, steps);
      if (stepsDiffer(current, steps, changes)) {
        if (!(await anyOnVersion(trx, pathway.current_version_id)) && pathway.current_version_id)
          await replaceSteps(trx, pathway.current_version_id, steps);
        else await makeVersion(trx, ctx, pathway, steps, choicesFor(changes, body), body.change_note ?? null);
      }
    }
    if (!steps && body.sequential === undefined && body.requires_final_sign_off === undefined) return;
    const people = await trx
      .selectFrom('pathway_allocations')
      .select('user_id')
      .distinct()
      .where('pathway_id', '=', pathway.id)
      .where('status', 'in', [...LIVE])
      .orderBy('user_id')
      .execute();
    for (const p of people)
      await reconcileAllocations(trx, p.user_id, undefined, { now, pathwayId: pathway.id });
  });
  return getPathway(ctx, id);
}

/** The current version's number: the PATCH route compares it before and after to say whether a version was made. */
export async function versionNumber(ctx: Ctx, id: number): Promise<number> {
  const row = await ctx.db
    .selectFrom('pathways as p')
    .innerJoin('pathway_versions as v', 'v.id', 'p.current_version_id')
    .select('v.number')
    .where('p.id', '=', id)
    .executeTakeFirst();
  return row?.number ?? 1;
}

/**
 * DELETE /pathways/{id} (27 or 28): hidden (history and results stay), live allocations withdrawn and its role
 * allocations removed, so the trigger allocates it to nobody new.
 */
export async function deletePathway(ctx: Ctx, id: number): Promise<void> {
  await pathwayFor(ctx, id);
  requirePerm(ctx, P.manage);
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    const pathway = await pathwayFor(ctx, id, { db: trx, forUpdate: true });
    await trx
      .updateTable('pathway_allocations')
      .set({ status: 'withdrawn', updated_at: now })
      .where('pathway_id', '=', pathway.id)
      .where('status', 'in', [...LIVE])
      .execute();
    await trx.deleteFrom('pathway_role_allocations').where('pathway_id', '=', pathway.id).execute();
    await trx
      .updateTable('pathways')
      .set({ deleted_at: now, updated_at: now })
      .where('id', '=', pathway.id)
      .execute();
  });
}
