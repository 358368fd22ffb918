import type { Trx } from './queries';
import { recordResult } from './service';

/**
 * Demo data for the results screens (issue 5 item 1), so a manager of the demo care group sees something real:
 * two historical results awaiting approval (submitted by learner@demo.test), an exemption, and a bulk-added
 * face-to-face session with its history row. Willow Court requires evidence for training records.
 */
export async function seedResultsDemo(trx: Trx, o: { groupId: number; now: Date }): Promise<void> {
  const courses = await trx
    .selectFrom('entity_courses as ec')
    .innerJoin('courses as c', 'c.id', 'ec.course_id')
    .select(['c.id', 'c.title'])
    .where('ec.entity_id', '=', o.groupId)
    .where('ec.enabled', '=', true)
    .orderBy('c.id')
    .limit(3)
    .execute();
  const learner = await trx
    .selectFrom('users')
    .select(['id', 'primary_entity_id'])
    .where('email', '=', 'learner@demo.test')
    .executeTakeFirst();
  const admin = await trx
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'admin@demo.test')
    .executeTakeFirst();
  if (courses.length < 2 || !learner || !admin) return;
  const [first, second] = courses;
  const third = courses[2] ?? second;
  const staff = await trx
    .selectFrom('users')
    .select(['id', 'primary_entity_id'])
    .where('primary_entity_id', '=', learner.primary_entity_id)
    .where('email', 'like', '%@meadowbrook.example')
    .orderBy('id')
    .limit(6)
    .execute();
  const daysAgo = (n: number) => {
    const d = new Date(Date.UTC(o.now.getUTCFullYear(), o.now.getUTCMonth(), o.now.getUTCDate()));
    d.setUTCDate(d.getUTCDate() - n);
    return d;
  };
  const base = { contentId: null, attemptId: null, score: null };

  await trx
    .updateTable('entities')
    .set({ require_training_record_evidence: true })
    .where('slug', '=', 'willow-court')
    .execute();

  for (const [course, ago] of [
    [first, 40],
    [second, 95],
  ] as const) {
    if (!course) continue;
    const r = await recordResult(
      trx,
      {
        ...base,
        userId: learner.id,
        entityId: learner.primary_entity_id,
        courseId: course.id,
        type: 'historical',
        status: 'pending',
        passed: true,
        completedAt: daysAgo(ago),
        createdBy: learner.id,
      },
      o.now,
    );
    await trx
      .updateTable('results')
      .set({ notes: 'Completed with my previous employer.' })
      .where('id', '=', r.id)
      .execute();
  }

  const exemptUser = staff[0];
  if (exemptUser && third) {
    const r = await recordResult(
      trx,
      {
        ...base,
        userId: exemptUser.id,
        entityId: exemptUser.primary_entity_id,
        courseId: third.id,
        type: 'exempt',
        passed: true,
        completedAt: daysAgo(30),
        expiresAt: null,
        createdBy: admin.id,
      },
      o.now,
    );
    await trx
      .updateTable('results')
      .set({ notes: 'Holds a current professional registration covering this course.' })
      .where('id', '=', r.id)
      .execute();
  }

  const attendees = staff.slice(1);
  if (attendees.length && first) {
    const completedAt = daysAgo(14);
    const op = await trx
      .insertInto('bulk_event_operations')
      .values({
        entity_id: o.groupId,
        course_id: first.id,
        type: 'face2face',
        completed_at: completedAt,
        passed: true,
        user_count: attendees.length,
        created_by: admin.id,
        created_at: daysAgo(13),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const u of attendees) {
      const r = await recordResult(
        trx,
        {
          ...base,
          userId: u.id,
          entityId: u.primary_entity_id,
          courseId: first.id,
          type: 'face2face',
          passed: true,
          completedAt,
          createdBy: admin.id,
        },
        o.now,
      );
      await trx.updateTable('results').set({ bulk_operation_id: op.id }).where('id', '=', r.id).execute();
    }
  }
}
