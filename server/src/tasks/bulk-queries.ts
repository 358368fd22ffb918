import { sql } from 'kysely';
import type { DbOrTrx } from '../jobs/queries';
import type { LearnerClauses } from '../learning/learner';
import { learnerContents } from '../learning/queries';

/** SQL of bulk attempts (POST /attempts/bulk). */

/**
 * The allowed set in one query (STYLE "Bulk checks that return the allowed set"): of the ids asked for, the users
 * whose primary entity is in `entityIds` (null: no bound, a super admin without acting-as), with that entity.
 */
export async function usersInScope(db: DbOrTrx, ids: readonly number[], entityIds: readonly number[] | null) {
  if (!ids.length) return [];
  let q = db
    .selectFrom('users')
    .select(['id', 'primary_entity_id'])
    .where('id', 'in', [...ids]);
  if (entityIds !== null) {
    if (!entityIds.length) return [];
    q = q.where('primary_entity_id', 'in', [...entityIds]);
  }
  return q.orderBy('id').execute();
}

/**
 * The content a bulk request starts: the content asked for, or the course's first content (online before
 * face-to-face and historical, then by id) that the caller can see. `takeable` says whether learners may take it now.
 */
export async function findBulkContent(
  db: DbOrTrx,
  ask: { contentId?: number; courseId?: number },
  clauses: LearnerClauses,
) {
  let q = learnerContents(db, clauses);
  if (ask.contentId !== undefined) q = q.where('c.id', '=', ask.contentId);
  else q = q.where('c.course_id', '=', ask.courseId as number);
  return q
    .orderBy(sql`CASE WHEN c.type IN ('historical', 'face2face') THEN 1 ELSE 0 END`)
    .orderBy(sql`${clauses.takeable} DESC`)
    .orderBy('c.id')
    .limit(1)
    .executeTakeFirst();
}

/** Whether the content is available to learners of an organisation chain (the `takeable` clause of a learner there). */
export async function contentTakeableBy(db: DbOrTrx, contentId: number, clauses: LearnerClauses) {
  const row = await db
    .selectFrom('contents as c')
    .innerJoin('courses as co', 'co.id', 'c.course_id')
    .select(sql<boolean>`${clauses.takeable}`.as('takeable'))
    .where('c.id', '=', contentId)
    .where(clauses.seen)
    .executeTakeFirst();
  return row?.takeable === true;
}

/** Of `userIds`, which contents of `contentIds` each has passed (an approved passed result or a passed attempt). */
export async function passedByUsers(db: DbOrTrx, userIds: readonly number[], contentIds: readonly number[]) {
  const passed = new Map<number, Set<number>>();
  if (!userIds.length || !contentIds.length) return passed;
  const { rows } = await sql<{ user_id: number; content_id: number }>`
    SELECT user_id, content_id FROM results
     WHERE user_id = ANY(${[...userIds]}::int[]) AND content_id = ANY(${[...contentIds]}::int[])
       AND passed AND status = 'approved' AND deleted_at IS NULL
    UNION
    SELECT user_id, content_id FROM attempts
     WHERE user_id = ANY(${[...userIds]}::int[]) AND content_id = ANY(${[...contentIds]}::int[])
       AND status = 'passed' AND deleted_at IS NULL`.execute(db);
  for (const r of rows) {
    const set = passed.get(r.user_id) ?? new Set<number>();
    set.add(r.content_id);
    passed.set(r.user_id, set);
  }
  return passed;
}

/**
 * Starts the attempts of a batch in one statement. attempts_one_in_progress_uq decides who already has one open,
 * so a repeated or concurrent run never duplicates: only the people started now come back.
 */
export async function insertAttempts(
  db: DbOrTrx,
  userIds: readonly number[],
  content: { id: number; course_id: number },
  now: Date,
): Promise<number[]> {
  if (!userIds.length) return [];
  const progress = JSON.stringify({ visited_topic_ids: [], completed_topic_ids: [], skipped_topic_ids: [] });
  const { rows } = await sql<{ user_id: number }>`
    INSERT INTO attempts (user_id, content_id, course_id, progress, cmi, started_at, updated_at)
    SELECT u, ${content.id}::int, ${content.course_id}::int, ${progress}::jsonb, '{}'::jsonb, ${now}, ${now}
      FROM unnest(${[...userIds]}::int[]) AS u
    ON CONFLICT (user_id, content_id) WHERE status = 'in_progress' AND deleted_at IS NULL DO NOTHING
    RETURNING user_id`.execute(db);
  return rows.map((r) => r.user_id);
}
