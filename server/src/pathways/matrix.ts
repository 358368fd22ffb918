import type { MatrixPathwayAllocation } from '@cc/contracts';
import { entityScope, inScope } from '../entities/scope';
import type { Ctx } from '../http/context';
import { notFound } from '../http/errors';
import type { DbOrTrx } from '../jobs/queries';
import { allocationSelect, presentSummary, progressFor } from './allocation-view';

/**
 * Pathways in the matrix (spec 2 §3) and in report presets that name pathways.
 *
 * - `pathway_allocations` of the matrix response: every live or completed allocation of the matrix's users (a
 *   withdrawn one is history), limited to the filter's pathways when it names some.
 * - A matrix (or preset) limited to pathways shows as columns the pathways' backing courses and the courses of
 *   their current steps (a document step by its backing course), added to any courses it names, and as rows only
 *   the people allocated one of them (live or completed), within any people it names.
 */

/** The pathways' columns and people; 404 for a pathway outside the caller's scope (or deleted). */
export async function pathwayMatrixLimits(
  ctx: Ctx,
  pathwayIds: readonly number[],
): Promise<{ courseIds: number[]; userIds: number[] }> {
  const ids = [...new Set(pathwayIds)];
  const pathways = await ctx.db
    .selectFrom('pathways')
    .select(['id', 'entity_id', 'course_id', 'current_version_id'])
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  const scope = await entityScope(ctx);
  if (pathways.length !== ids.length || pathways.some((p) => !inScope(scope, p.entity_id))) throw notFound();
  const versionIds = pathways.flatMap((p) => (p.current_version_id ? [p.current_version_id] : []));
  const steps = versionIds.length
    ? await ctx.db
        .selectFrom('pathway_steps as s')
        .leftJoin('documents as d', 'd.id', 's.document_id')
        .select(['s.course_id', 'd.course_id as document_course_id'])
        .where('s.version_id', 'in', versionIds)
        .execute()
    : [];
  const courseIds = new Set(pathways.map((p) => p.course_id));
  for (const s of steps) {
    if (s.course_id) courseIds.add(s.course_id);
    if (s.document_course_id) courseIds.add(s.document_course_id);
  }
  const people = await ctx.db
    .selectFrom('pathway_allocations')
    .select('user_id')
    .distinct()
    .where('pathway_id', 'in', ids)
    .where('status', '<>', 'withdrawn')
    .execute();
  return { courseIds: [...courseIds].sort((a, b) => a - b), userIds: people.map((p) => p.user_id) };
}

/** The matrix response's pathway_allocations for its users (progress computed like every other read). */
export async function matrixPathwayAllocations(
  db: DbOrTrx,
  userIds: readonly number[],
  pathwayIds: readonly number[],
  now: Date,
): Promise<MatrixPathwayAllocation[]> {
  if (userIds.length === 0) return [];
  const out: MatrixPathwayAllocation[] = [];
  // Chunks keep the IN lists and the evidence queries bounded on a large matrix.
  for (let i = 0; i < userIds.length; i += 500) {
    let q = allocationSelect(db)
      .where('a.user_id', 'in', userIds.slice(i, i + 500))
      .where('a.status', '<>', 'withdrawn');
    if (pathwayIds.length) q = q.where('a.pathway_id', 'in', [...pathwayIds]);
    const rows = await q.orderBy('a.user_id').orderBy('p.title').orderBy('a.id').execute();
    const progress = await progressFor(db, rows, now);
    for (const r of rows) {
      const s = presentSummary(r, progress.get(r.id) ?? []);
      out.push({
        user_id: r.user_id,
        pathway_id: r.pathway_id,
        course_id: r.pathway_course_id,
        title: r.pathway_title,
        status: r.status,
        steps_done: s.steps_done,
        steps_total: s.steps_total,
        completed_at: s.completed_at,
      });
    }
  }
  return out;
}
