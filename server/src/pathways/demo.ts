import { PathwayPerm as P } from '@cc/contracts';
import { sql } from 'kysely';
import type { Trx } from '../results/queries';

/**
 * Demo data of pathways (issue 17). At Oakfield House (the demo manager Sam Patel's home): "New starter induction",
 * sequential, of two existing demo courses (Dementia Awareness, then the first course of SECOND_STEP_COURSES Casey
 * has not passed) and a sign-off step
 * "Safe moving and handling observed", allocated to the Care Assistant job role there, so every care assistant of
 * the home has it, Casey Lee (learner@demo.test) in progress with the first step done (the Care Certificate demo's
 * passed Dementia Awareness result; compose this after it). The demo manager gets 27 and 28 (the Manager type lacks
 * them) to edit pathways; they already hold 24, 26 (sign off) and 43 (allocate).
 */
export const DEMO_PATHWAY_TITLE = 'New starter induction';
export const DEMO_SIGN_OFF_TITLE = 'Safe moving and handling observed';
const DAY = 86_400_000;
const SECOND_STEP_COURSES = [
  'Moving and Handling',
  'Infection Control',
  'Safeguarding Adults',
  'Medication Administration',
  'Basic Life Support',
  'Health and Safety',
  'Food Hygiene',
  'Fire Safety',
  'Information Governance',
];

export async function seedPathwaysDemo(
  trx: Trx,
  o: { oakfieldId: number; roleIds: Record<string, number>; now: Date },
): Promise<void> {
  const { now } = o;
  const manager = await trx
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'manager@demo.test')
    .executeTakeFirst();
  const casey = await trx
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'learner@demo.test')
    .executeTakeFirst();
  const courses = await trx
    .selectFrom('courses as c')
    .leftJoin('latest_results as lr', (j) =>
      j.onRef('lr.course_id', '=', 'c.id').on('lr.user_id', '=', casey?.id ?? 0),
    )
    .select(['c.id', 'c.title'])
    .select(
      sql<boolean>`coalesce(lr.passed AND (lr.expires_at IS NULL OR lr.expires_at > ${now}), false)`.as(
        'done',
      ),
    )
    .where('c.title', 'in', [...SECOND_STEP_COURSES, 'Dementia Awareness'])
    .where('c.kind', '=', 'course')
    .execute();
  const first = courses.find((c) => c.title === 'Dementia Awareness');
  // Step 2 must be still to do for Casey (the other demos give her results): the first of these she has not passed.
  const second = SECOND_STEP_COURSES.map((t) => courses.find((c) => c.title === t && !c.done)).find(Boolean);
  const roleId = o.roleIds['Care Assistant'];
  if (!manager || !first || !second || !roleId) return;

  const granted = await trx
    .selectFrom('user_permissions')
    .select('permission_id')
    .where('user_id', '=', manager.id)
    .execute();
  const missing = P.manage.filter((p) => !granted.some((g) => g.permission_id === p));
  if (missing.length)
    await trx
      .insertInto('user_permissions')
      .values(missing.map((permission_id) => ({ user_id: manager.id, permission_id })))
      .execute();

  const allocatedAt = new Date(now.getTime() - 10 * DAY);
  const course = await trx
    .insertInto('courses')
    .values({ entity_id: o.oakfieldId, title: DEMO_PATHWAY_TITLE, kind: 'pathway', published: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  const pathway = await trx
    .insertInto('pathways')
    .values({
      entity_id: o.oakfieldId,
      course_id: course.id,
      title: DEMO_PATHWAY_TITLE,
      description: 'What every new care assistant at Oakfield House does in their first weeks.',
      sequential: true,
      requires_final_sign_off: false,
      current_version_id: null,
      created_by: manager.id,
      created_at: allocatedAt,
      updated_at: allocatedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const version = await trx
    .insertInto('pathway_versions')
    .values({
      pathway_id: pathway.id,
      number: 1,
      changes: '[]',
      created_by: manager.id,
      created_at: allocatedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('pathway_steps')
    .values([
      { version_id: version.id, position: 0, type: 'course', course_id: first.id, due_days: 14 },
      { version_id: version.id, position: 1, type: 'course', course_id: second.id, due_days: 28 },
      {
        version_id: version.id,
        position: 2,
        type: 'sign_off',
        title: DEMO_SIGN_OFF_TITLE,
        description: 'A senior carer watches a hoist transfer and a stand aid transfer.',
        due_days: 42,
      },
    ])
    .execute();
  await trx
    .updateTable('pathways')
    .set({ current_version_id: version.id })
    .where('id', '=', pathway.id)
    .execute();
  const ra = await trx
    .insertInto('pathway_role_allocations')
    .values({
      pathway_id: pathway.id,
      entity_id: o.oakfieldId,
      role_id: roleId,
      created_by: manager.id,
      created_at: allocatedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // Every care assistant of the home, as POST /entities/{slug}/roles/{role}/pathways does.
  await sql`
    INSERT INTO pathway_allocations (pathway_id, version_id, user_id, role_allocation_id, allocated_by,
                                     allocated_at, updated_at)
    SELECT ${pathway.id}, ${version.id}, u.id, ${ra.id}, ${manager.id}, ${allocatedAt}, ${allocatedAt}
      FROM users u JOIN entities e ON e.id = u.primary_entity_id
     WHERE u.role_id = ${roleId} AND (e.id = ${o.oakfieldId} OR e.parent_id = ${o.oakfieldId})
    ON CONFLICT DO NOTHING`.execute(trx);
}
