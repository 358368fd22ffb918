import { CareCertificatePerm as P } from '@cc/contracts';
import { sql } from 'kysely';
import { londonDate } from '../bookings/session-service';
import type { Trx } from '../results/queries';
import { recordResult } from '../results/service';

/**
 * Demo data of the Care Certificate (issue 16 "Demo data with people at every stage"). At Oakfield House (the demo
 * manager Sam Patel's home), on the 2025 version:
 * - assigned, nothing yet;
 * - working towards through e-learning: a passed Dementia Awareness result, the course being mapped to Standard 9's
 *   knowledge criteria (outcomes 9.1 and 9.2; the seeded 2025 version has criteria for Standard 9 only);
 * - working towards through an observation (9.3's criteria, recorded by the demo assessor, not yet approved);
 * - Standard 9 awaiting approval (e-learning plus the observation), selected by the person themself;
 * - Standard 9 approved (its observation approved with it);
 * - overdue: started 16 weeks ago against the default 12 weeks, nothing evidenced;
 * and a historical certificate (2015 version) completed with a previous employer. Casey Lee (learner@demo.test) is
 * the e-learning one. The demo manager gets 86–93 (the Manager type lacks 90 and 92) and there is an assessor,
 * Robin Hughes (assessor@demo.test), who may record observations (89). Nothing is notified for seeded rows.
 */
const DAY = 86_400_000;
const dateIn = (now: Date, days: number) => londonDate(new Date(now.getTime() + days * DAY));

export const DEMO_ASSESSOR_EMAIL = 'assessor@demo.test';
export const DEMO_CC_COURSE = 'Dementia Awareness';

interface Person {
  id: number;
  primary_entity_id: number;
}

async function certificate(
  trx: Trx,
  o: {
    person: Person;
    versionId: number;
    startedOn: string;
    expectedBy: string | null;
    by: number;
    now: Date;
  },
) {
  const cert = await trx
    .insertInto('care_certificates')
    .values({
      user_id: o.person.id,
      version_id: o.versionId,
      started_on: o.startedOn,
      expected_by: o.expectedBy,
      assigned_by: o.by,
      created_at: o.now,
      updated_at: o.now,
    })
    .returning(['id', 'uuid'])
    .executeTakeFirstOrThrow();
  await sql`
    INSERT INTO care_certificate_standard_states (certificate_id, standard_id)
    SELECT ${cert.id}, s.id FROM care_certificate_standards s WHERE s.version_id = ${o.versionId}`.execute(
    trx,
  );
  await trx.updateTable('users').set({ start_date: o.startedOn }).where('id', '=', o.person.id).execute();
  return cert;
}

export async function seedCareCertificateDemo(
  trx: Trx,
  o: {
    oakfieldId: number;
    roleIds: Record<string, number>;
    learnerTypeId: number;
    passwordHash: string;
    now: Date;
  },
): Promise<void> {
  const { now } = o;
  const v2025 = await trx
    .selectFrom('care_certificate_versions')
    .select('id')
    .where('code', '=', '2025')
    .executeTakeFirst();
  const v2015 = await trx
    .selectFrom('care_certificate_versions')
    .select('id')
    .where('code', '=', '2015')
    .executeTakeFirst();
  const manager = await trx
    .selectFrom('users')
    .select(['id', 'primary_entity_id'])
    .where('email', '=', 'manager@demo.test')
    .executeTakeFirst();
  const casey = await trx
    .selectFrom('users')
    .select(['id', 'primary_entity_id'])
    .where('email', '=', 'learner@demo.test')
    .executeTakeFirst();
  const course = await trx
    .selectFrom('courses')
    .select('id')
    .where('title', '=', DEMO_CC_COURSE)
    .where('entity_id', 'is', null)
    .executeTakeFirst();
  if (!v2025 || !v2015 || !manager || !casey || !course) return;

  // The demo manager holds every Care Certificate permission; an assessor may record observations.
  await trx
    .insertInto('user_permissions')
    .values(
      [P.deleteObservation, P.historical].map((permission_id) => ({ user_id: manager.id, permission_id })),
    )
    .execute();
  const assessor = await trx
    .insertInto('users')
    .values({
      name: 'Robin Hughes',
      email: DEMO_ASSESSOR_EMAIL,
      password_hash: o.passwordHash,
      email_verified_at: now,
      primary_entity_id: o.oakfieldId,
      role_id: o.roleIds['Senior Carer'] ?? null,
      type_id: o.learnerTypeId,
      start_date: dateIn(now, -900),
      password_changed_at: now,
      user_preferences: '{}',
    })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('user_permissions')
    .values({ user_id: assessor.id, permission_id: P.observe })
    .execute();

  // Standard 9's criteria: the e-learning course evidences the knowledge of 9.1 and 9.2; 9.3 is observed.
  const criteria = await trx
    .selectFrom('care_certificate_criteria as k')
    .innerJoin('care_certificate_standards as s', 's.id', 'k.standard_id')
    .innerJoin('care_certificate_outcomes as oc', 'oc.id', 'k.outcome_id')
    .select(['k.id', 'k.code', 'oc.code as outcome', 's.id as standard_id'])
    .where('s.version_id', '=', v2025.id)
    .where('s.number', '=', 9)
    .orderBy('k.position')
    .execute();
  const standard9 = criteria[0]?.standard_id;
  if (!standard9) return;
  const byCourse = criteria.filter((c) => c.outcome !== '9.3').map((c) => c.id);
  const byObservation = criteria.filter((c) => c.outcome === '9.3').map((c) => c.id);
  if (byCourse.length)
    await trx
      .insertInto('course_care_certificate_criteria')
      .values(byCourse.map((criterion_id) => ({ course_id: course.id, criterion_id })))
      .onConflict((oc) => oc.doNothing())
      .execute();

  // Oakfield staff with no pass of the course yet (so "nothing yet" is true), in a fixed order.
  const staff = await trx
    .selectFrom('users as u')
    .select(['u.id', 'u.primary_entity_id'])
    .where('u.primary_entity_id', '=', o.oakfieldId)
    .where('u.email', 'like', '%@meadowbrook.example')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('results as r')
            .select('r.id')
            .whereRef('r.user_id', '=', 'u.id')
            .where('r.course_id', '=', course.id)
            .where('r.passed', '=', true),
        ),
      ),
    )
    .orderBy('u.id', 'desc')
    .limit(6)
    .execute();
  const [fresh, observed, awaiting, approved, overdue, historical] = staff;
  if (!fresh || !observed || !awaiting || !approved || !overdue || !historical) return;

  const start = (daysAgo: number) => ({
    startedOn: dateIn(now, -daysAgo),
    expectedBy: dateIn(now, 12 * 7 - daysAgo),
  });
  const assign = (person: Person, daysAgo: number, versionId = v2025.id) =>
    certificate(trx, { person, versionId, ...start(daysAgo), by: manager.id, now });
  const passCourse = (person: Person, daysAgo: number) =>
    recordResult(
      trx,
      {
        userId: person.id,
        entityId: person.primary_entity_id,
        courseId: course.id,
        contentId: null,
        type: 'elearning',
        passed: true,
        score: 90,
        completedAt: new Date(now.getTime() - daysAgo * DAY),
        attemptId: null,
        createdBy: person.id,
      },
      now,
    );
  const observe = async (certificateId: number, daysAgo: number) => {
    const row = await trx
      .insertInto('care_certificate_observations')
      .values({
        certificate_id: certificateId,
        assessor_id: assessor.id,
        assessor_name: assessor.name,
        observed_at: new Date(now.getTime() - daysAgo * DAY),
        place: 'Oakfield House, the lounge',
        shift: 'early',
        observed:
          'Noticed a resident living with dementia becoming distressed at a change of routine, adjusted how the activity was offered and reported the unmet need to the senior on shift.',
        outcome: 'competent',
        created_by: assessor.id,
        created_at: new Date(now.getTime() - daysAgo * DAY),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (byObservation.length)
      await trx
        .insertInto('care_certificate_observation_criteria')
        .values(byObservation.map((criterion_id) => ({ observation_id: row.id, criterion_id })))
        .execute();
    return row.id;
  };
  const decide = (
    certificateId: number,
    action: 'submitted' | 'approved',
    actorId: number,
    daysAgo: number,
  ) =>
    trx
      .insertInto('care_certificate_decisions')
      .values({
        certificate_id: certificateId,
        standard_id: standard9,
        action,
        actor_id: actorId,
        created_at: new Date(now.getTime() - daysAgo * DAY),
      })
      .execute();

  // Assigned this week, nothing yet.
  await assign(fresh, 3);

  // Working towards through e-learning: Casey Lee.
  await assign(casey, 20);
  const caseyPassed = await trx
    .selectFrom('results')
    .select('id')
    .where('user_id', '=', casey.id)
    .where('course_id', '=', course.id)
    .where('passed', '=', true)
    .where('status', '=', 'approved')
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!caseyPassed) await passCourse(casey, 10);

  // Working towards through an observation.
  const c2 = await assign(observed, 30);
  await observe(c2.id, 6);

  // Standard 9 awaiting approval.
  const c3 = await assign(awaiting, 45);
  await passCourse(awaiting, 30);
  await observe(c3.id, 12);
  await trx
    .updateTable('care_certificate_standard_states')
    .set({
      state: 'awaiting_approval',
      submitted_at: new Date(now.getTime() - 2 * DAY),
      submitted_by: awaiting.id,
    })
    .where('certificate_id', '=', c3.id)
    .where('standard_id', '=', standard9)
    .execute();
  await decide(c3.id, 'submitted', awaiting.id, 2);

  // Standard 9 approved, with the observation it was judged on.
  const c4 = await assign(approved, 60);
  await passCourse(approved, 50);
  const o4 = await observe(c4.id, 25);
  const approvedAt = new Date(now.getTime() - 15 * DAY);
  await trx
    .updateTable('care_certificate_standard_states')
    .set({
      state: 'approved',
      submitted_at: new Date(now.getTime() - 20 * DAY),
      submitted_by: approved.id,
      decided_at: approvedAt,
      decided_by: manager.id,
    })
    .where('certificate_id', '=', c4.id)
    .where('standard_id', '=', standard9)
    .execute();
  await decide(c4.id, 'submitted', approved.id, 20);
  await decide(c4.id, 'approved', manager.id, 15);
  await trx
    .updateTable('care_certificate_observations')
    .set({ approved_at: approvedAt, approved_by: manager.id })
    .where('id', '=', o4)
    .execute();

  // Overdue against the default 12 weeks.
  await assign(overdue, 16 * 7);

  // A historical certificate: completed with a previous employer, every standard approved as of then.
  const completedOn = dateIn(now, -400);
  const past = await trx
    .insertInto('care_certificates')
    .values({
      user_id: historical.id,
      version_id: v2015.id,
      historical: true,
      status: 'complete',
      started_on: dateIn(now, -480),
      completed_on: completedOn,
      provider: 'Elmfield Home Care (previous employer)',
      assessor_name: 'Jan Walsh',
      notes: 'Certificate seen and copied at interview.',
      assigned_by: manager.id,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`
    INSERT INTO care_certificate_standard_states (certificate_id, standard_id, state, decided_at, decided_by)
    SELECT ${past.id}, s.id, 'approved', ${new Date(`${completedOn}T12:00:00Z`)}, ${manager.id}
      FROM care_certificate_standards s WHERE s.version_id = ${v2015.id}`.execute(trx);
}
