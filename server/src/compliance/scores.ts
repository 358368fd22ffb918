import {
  compliantCells,
  type EntityScore,
  SCORE_READ_ANY_OF,
  type ScoreQuery,
  type ScoreType,
} from '@cc/contracts';
import { findEntityByRef } from '../entities/queries';
import { assertEntityInScope } from '../entities/scope';
import { subtreeIds } from '../entities/tree';
import { actorOf, authorize, type Ctx, can } from '../http/context';
import { notFound } from '../http/errors';
import { whitelabelOfEntity } from '../whitelabel/service';
import { currentCounts, deepPrimaryCounts, usersWithRequirements } from './queries';
import { scoreBand, scoreOf } from './rules';
import { type Figures, lookupScore } from './scores-cache';
import { emptyTally } from './tally';

/**
 * GET /entities/{id}/score/{x} (spec 1 §7, §4 "Score request"; spec 2 §9 score bands). `x` is the compliance type:
 * primary, secondary or all (both). The figures are the entity's own users (its descendants' too with deep), from
 * the engine's currentCounts; expiring and exempt cells count as compliant (contracts compliantCells). The band uses the entity's white-label lower margins
 * and its traffic-light colour. Answers `{ status: 'computing' }` (the route's 202) until the background computation
 * is ready.
 */
export async function entityScore(
  ctx: Ctx,
  ref: string,
  x: ScoreType,
  query: ScoreQuery,
): Promise<{ status: 'computing' } | { status: 'ready'; value: EntityScore }> {
  actorOf(ctx);
  const entity = await findEntityByRef(ctx.db, ref);
  if (!entity) throw notFound();
  await assertEntityInScope(ctx, entity.id);
  authorize(ctx, SCORE_READ_ANY_OF, 'any');
  const deep = query.deep === true;
  const newStarters = query.new_starters ?? 'include';
  const key = `${entity.id}:${x}:${deep ? 'deep' : 'own'}:${newStarters}`;
  const lookup = lookupScore(
    key,
    () => computeScore({ db: ctx.db, now: ctx.clock() }, entity.id, x, deep, newStarters),
    (error) => ctx.log.error({ err: error, key }, 'score computation failed'),
  );
  return lookup;
}

/** The score now, computed in one grouped query (no cache): the background job of entityScore. */
export async function computeScore(
  deps: { db: Ctx['db']; now: Date },
  entityId: number,
  x: ScoreType,
  deep: boolean,
  newStarters: 'include' | 'exclude',
): Promise<EntityScore> {
  const ids = deep ? await subtreeIds(deps.db, entityId) : [entityId];
  const filter = newStarters === 'exclude' ? 'exclude_new_starters' : 'include_new_starters';
  const rows = await currentCounts(deps.db, ids, deps.now, { newStarters: filter });
  const figures: Figures = emptyTally();
  for (const r of rows) {
    if (x !== 'all' && r.type !== x) continue;
    figures.required += r.required;
    figures.in_date += r.in_date;
    figures.expiring += r.expiring;
    figures.expired += r.expired;
    figures.missing += r.missing;
    figures.exempt += r.exempt;
    if (x !== 'all') figures.users += r.users;
  }
  // Over both types a person is counted once (not the larger type's count, which missed people required to do only
  // the other type's courses; the compliance report counts them so).
  if (x === 'all')
    figures.users = await usersWithRequirements(deps.db, ids, deps.now, { newStarters: filter });
  const wl = await whitelabelOfEntity({ db: deps.db }, entityId);
  const margins = { green: wl.greenScoreBandLowerMargin, amber: wl.amberScoreBandLowerMargin };
  const score = scoreOf(compliantCells(figures), figures.required);
  const band = scoreBand(score, margins);
  const colour =
    band === 'green' ? wl.trafficLightOk : band === 'amber' ? wl.trafficLightWarning : wl.trafficLightDanger;
  return {
    entity_id: entityId,
    type: x,
    deep,
    new_starters: newStarters,
    score,
    band,
    colour,
    margins,
    ...figures,
    computed_at: deps.now.toISOString(),
  };
}

/**
 * The `score` of entity records (spec 1 §3): each entity's Mandatory score over its subtree, computed now in one
 * grouped statement for the whole page (no cache, no N+1). null when the caller may not read scores
 * (SCORE_READ_ANY_OF): the records then carry no score. The callers pass entities already bounded by their scope.
 */
export async function entityRecordScores(ctx: Ctx, entityIds: number[]): Promise<Map<number, number> | null> {
  if (!can(actorOf(ctx), [...SCORE_READ_ANY_OF], 'any')) return null;
  const rows = await deepPrimaryCounts(ctx.db, entityIds, ctx.clock());
  const byEntity = new Map(rows.map((r) => [r.entity_id, r]));
  return new Map(
    entityIds.map((id) => {
      const r = byEntity.get(id);
      return [id, r ? scoreOf(r.in_date, r.required) : scoreOf(0, 0)];
    }),
  );
}
