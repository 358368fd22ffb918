import {
  type CreatePresetBody,
  PRESET_ANY_OF,
  type PresetListQuery,
  PresetMessages,
  type ReportPreset,
  type UpdatePresetBody,
} from '@cc/contracts';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { z } from 'zod';
import { visibleCourseClause } from '../courses/visibility';
import { entityScope, resolveActingAs } from '../entities/scope';
import { ancestorIds } from '../entities/tree';
import { type Actor, type ActorEntity, actorOf, authorize, type Ctx } from '../http/context';
import { type FieldErrors, forbidden, invalid, notFound } from '../http/errors';
import { dateOnly, presentPreset } from './presenters';
import {
  deletePreset as deletePresetRow,
  existingIds,
  findOwnPreset,
  inIds,
  insertPreset,
  listPresets as listPresetRows,
  lockPresetPeriod,
  optionRows,
  updatePreset as updatePresetRow,
} from './queries';

/**
 * Report presets (spec 2 §3 "Report preset", §7 GET/POST /reports/presets, GET/PATCH/DELETE /reports/presets/{id}).
 *
 * A preset is personal: it belongs to the user who saved it and to an entity — the acting-as entity when
 * `acting_as_id` names one the user may act as (spec 1 §6, permission 19), else the entity the user currently
 * works in. Nobody else sees it (the same 404 as a missing id). Every id list must lie within that entity's
 * subtree (roles and courses: also those it inherits or is given), else 422 naming the field.
 */

/** The entity a new preset (or a list) is about: acting_as_id when allowed, else the current entity. */
async function presetEntity(
  ctx: Ctx,
  actor: Actor,
  actingAsId: number | null | undefined,
): Promise<ActorEntity> {
  const current = actor.actingAs ?? actor.primaryEntity;
  if (!actingAsId || actingAsId === current.id) return current;
  const entity = await ctx.db
    .selectFrom('entities')
    .select(['id', 'slug'])
    .where('id', '=', actingAsId)
    .executeTakeFirst();
  if (!entity) throw notFound();
  // 404 outside the organisation, 403 elsewhere in it without permission 19; the client's default (its own
  // a_entity) without 19 means "no acting-as".
  return (await resolveActingAs(ctx, entity.slug, actor)) ?? actor.primaryEntity;
}

/** A ctx acting as the preset's entity: the scope every id list is checked against, and reports run with. */
export function ctxActingAs(ctx: Ctx, actor: Actor, entity: ActorEntity): Ctx {
  return { ...ctx, actor: { ...actor, actingAs: entity }, memo: new Map() };
}

type IdFields = Pick<CreatePresetBody, 'entities' | 'users' | 'roles' | 'courses' | 'pathways'>;

export const OPTION_KINDS = ['entities', 'users', 'roles', 'courses', 'pathways'] as const;
export type OptionKind = (typeof OPTION_KINDS)[number];

interface ScopeClause {
  table: 'entities' | 'users' | 'entity_roles' | 'courses' | 'pathways';
  alias: string;
  label: string;
  where: RawBuilder<SqlBool>;
}

/**
 * What a preset of `entityId` may name, per id list: its subtree's entities and users, the roles of its subtree and
 * of its ancestors (inherited), the courses visible from it and the pathways of its subtree. The options endpoint and the 422 check share these,
 * so the pickers offer exactly what a save accepts.
 */
async function scopeClause(scopeCtx: Ctx, entityId: number, kind: OptionKind): Promise<ScopeClause> {
  const scope = await entityScope(scopeCtx);
  const accessible = scope.accessible === 'all' ? null : [...scope.accessible];
  const all = sql<SqlBool>`true`;
  switch (kind) {
    case 'entities':
      return {
        table: 'entities',
        alias: 'x',
        label: 'x.name',
        where: accessible ? inIds('x.id', accessible) : all,
      };
    case 'users':
      return {
        table: 'users',
        alias: 'u',
        label: 'u.name',
        where: accessible ? inIds('u.primary_entity_id', accessible) : all,
      };
    case 'roles':
      return {
        table: 'entity_roles',
        alias: 'r',
        label: 'r.name',
        where: accessible
          ? inIds('r.entity_id', [...accessible, ...(await ancestorIds(scopeCtx.db, entityId))])
          : all,
      };
    case 'courses':
      return {
        table: 'courses',
        alias: 'c',
        label: 'c.title',
        where: await visibleCourseClause(scopeCtx, { alias: 'c' }),
      };
    case 'pathways':
      // Pathways owned by organisations in scope (pathways/scope.ts), not deleted.
      return {
        table: 'pathways',
        alias: 'pw',
        label: 'pw.title',
        where: accessible
          ? sql<SqlBool>`pw.deleted_at IS NULL AND ${inIds('pw.entity_id', accessible)}`
          : sql<SqlBool>`pw.deleted_at IS NULL`,
      };
  }
}

/** 422 naming each id list that reaches outside the preset's entity (one query per non-empty list). */
async function assertIdsInScope(scopeCtx: Ctx, entityId: number, body: IdFields): Promise<void> {
  const errors: FieldErrors = {};
  for (const field of OPTION_KINDS) {
    const ids = [...new Set(body[field] ?? [])];
    if (ids.length === 0) continue;
    const c = await scopeClause(scopeCtx, entityId, field);
    const found = await existingIds(scopeCtx.db, c.table, ids, c.where, c.alias);
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) errors[field] = [`${PresetMessages.notInScope} (${field}: ${missing.join(', ')})`];
  }
  if (Object.keys(errors).length) throw invalid(errors);
}

/** GET /reports/presets/options/{kind}: what the preset form may offer for an id list (search, first 20 by name). */
export async function presetOptions(
  ctx: Ctx,
  kind: OptionKind,
  query: { acting_as_id?: number; search?: string; ids?: number[] },
): Promise<{ id: number; label: string }[]> {
  const actor = actorOf(ctx);
  const entity = await presetEntity(ctx, actor, query.acting_as_id);
  authorize(ctx, PRESET_ANY_OF, 'any');
  const scopeCtx = ctxActingAs(ctx, actor, entity);
  const c = await scopeClause(scopeCtx, entity.id, kind);
  return optionRows(ctx.db, c, { search: query.search, ids: query.ids, limit: 20 });
}

function assertDates(from: string | null | undefined, to: string | null | undefined) {
  if (from && to && from > to) throw invalid({ to_date: ['The to date must be on or after the from date.'] });
}

/** Wire (spec field names) -> columns; jsonb lists as JSON text so both drivers store them the same. */
function toColumns(body: UpdatePresetBody): Record<string, unknown> {
  const map: Record<string, string> = {
    includeStatusTypes: 'include_status_types',
    includeStarters: 'include_starters',
    previousMonths: 'previous_months',
  };
  const jsonb = new Set(['entities', 'courses', 'pathways', 'users', 'roles', 'includeStatusTypes']);
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || key === 'acting_as_id') continue;
    const v = jsonb.has(key) ? JSON.stringify([...new Set(value as unknown[])]) : value;
    values[map[key] ?? key] = v;
  }
  return values;
}

export async function listPresets(ctx: Ctx, query: z.infer<typeof PresetListQuery>) {
  const actor = actorOf(ctx);
  const entity = query.acting_as_id ? await presetEntity(ctx, actor, query.acting_as_id) : null;
  authorize(ctx, PRESET_ANY_OF, 'any');
  const { rows, total } = await listPresetRows(ctx.db, {
    userId: actor.userId,
    entityId: entity?.id,
    reportType: query.report_type,
    search: query.search,
    page: query.page,
    perPage: query.per_page,
  });
  return { data: rows.map(presentPreset), total };
}

export async function getPreset(ctx: Ctx, id: number): Promise<ReportPreset> {
  const actor = actorOf(ctx);
  const row = await findOwnPreset(ctx.db, id, actor.userId);
  if (!row) throw notFound();
  authorize(ctx, PRESET_ANY_OF, 'any');
  return presentPreset(row);
}

export async function createPreset(ctx: Ctx, body: CreatePresetBody): Promise<ReportPreset> {
  const actor = actorOf(ctx);
  const entity = await presetEntity(ctx, actor, body.acting_as_id);
  authorize(ctx, PRESET_ANY_OF, 'any');
  assertDates(body.from_date, body.to_date);
  await assertIdsInScope(ctxActingAs(ctx, actor, entity), entity.id, body);
  const id = await insertPreset(ctx.db, { user_id: actor.userId, entity_id: entity.id, ...toColumns(body) });
  return getPreset(ctx, id);
}

export async function updatePreset(ctx: Ctx, id: number, body: UpdatePresetBody): Promise<ReportPreset> {
  const actor = actorOf(ctx);
  const row = await findOwnPreset(ctx.db, id, actor.userId);
  if (!row) throw notFound();
  authorize(ctx, PRESET_ANY_OF, 'any');
  const current = presentPreset(row);
  assertDates(
    body.from_date === undefined ? current.from_date : body.from_date,
    body.to_date === undefined ? current.to_date : body.to_date,
  );
  // The caller must still be able to work in the preset's entity (acting-as may have been withdrawn).
  const entity = await presetEntity(ctx, actor, row.entity_id);
  if (entity.id !== row.entity_id) throw forbidden();
  await assertIdsInScope(ctxActingAs(ctx, actor, entity), entity.id, body);
  const values = toColumns(body);
  if (Object.keys(values).length)
    await ctx.db.transaction().execute(async (trx) => {
      // Checked again against the period as locked now: two edits, one of each date, cannot invert it together.
      const stored = await lockPresetPeriod(trx, id);
      if (!stored) throw notFound();
      assertDates(
        body.from_date === undefined ? dateOnly(stored.from_date) : body.from_date,
        body.to_date === undefined ? dateOnly(stored.to_date) : body.to_date,
      );
      await updatePresetRow(trx, id, values, ctx.clock());
    });
  return getPreset(ctx, id);
}

/** Deleting a preset deletes its schedules (they cannot run without it). */
export async function deletePreset(ctx: Ctx, id: number): Promise<void> {
  const actor = actorOf(ctx);
  const row = await findOwnPreset(ctx.db, id, actor.userId);
  if (!row) throw notFound();
  authorize(ctx, PRESET_ANY_OF, 'any');
  await deletePresetRow(ctx.db, id);
}
