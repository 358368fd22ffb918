import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { visibleContentClause } from '../courses/visibility';
import type { Ctx } from '../http/context';

/**
 * Which content a learner may take (issue 4 item 2). Read with care: this bounds what learners reach.
 *
 * The rules are the authoring capability's (courses/visibility.ts, the one guarded scope builder): owned by or
 * assigned to the caller's organisation chain, admin-only content hidden without permission 122, and `forLearner`:
 * published, not switched off for the organisation. On top of that a learner takes only content of a published course.
 *
 * When the caller acts for someone else (permission 111 starting an attempt, 80 listing their courses), the content
 * must ALSO be available to that learner's own organisation chain (`learnerChain`): an administrator cannot hand a
 * learner content that their organisation does not have. Aliases: content `c`, its course `co`.
 */
export async function learnerContentWhere(
  ctx: Ctx,
  o: { learnerChain: readonly number[] | null; forLearner: boolean },
): Promise<RawBuilder<SqlBool>> {
  const parts: RawBuilder<unknown>[] = [
    await visibleContentClause(ctx, { alias: 'c', forLearner: o.forLearner }),
  ];
  if (o.forLearner) parts.push(sql`co.published`);
  if (o.learnerChain) parts.push(availableToChain(o.learnerChain));
  return sql<SqlBool>`(${sql.join(parts, sql` AND `)})`;
}

/** Owned by, or enabled (per content or per course) for, an entity of the chain, and not switched off on it. */
function availableToChain(chain: readonly number[]): RawBuilder<SqlBool> {
  if (!chain.length) return sql<SqlBool>`false`;
  const ids = sql.join(chain.map((id) => sql`${id}::int`));
  return sql<SqlBool>`((
    c.entity_id IN (${ids})
    OR EXISTS (SELECT 1 FROM entity_content lec WHERE lec.content_id = c.id AND lec.enabled AND lec.entity_id IN (${ids}))
    OR EXISTS (SELECT 1 FROM entity_courses lecs WHERE lecs.course_id = c.course_id AND lecs.enabled AND lecs.entity_id IN (${ids}))
  ) AND NOT EXISTS (
    SELECT 1 FROM entity_content loff WHERE loff.content_id = c.id AND NOT loff.enabled AND loff.entity_id IN (${ids})
  ) AND NOT EXISTS (
    SELECT 1 FROM entity_courses lcoff WHERE lcoff.course_id = c.course_id AND NOT lcoff.enabled AND lcoff.entity_id IN (${ids})
  ))`;
}
