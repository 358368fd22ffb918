import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse } from '../../test/learning-factories';
import { insertRule } from '../compliance/rule-queries';
import { recordResult } from '../results/service';

/** The events other capabilities emit (issue 18): written in the change's transaction, with the documented facts. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ webhooksAllowPrivate: true });
});
afterAll(async () => h?.close());

async function subscribe(entityId: number, types: string[]) {
  return h.db
    .insertInto('webhook_endpoints')
    .values({
      entity_id: entityId,
      url: 'http://127.0.0.1:9/never',
      event_types: JSON.stringify(types),
      secret: 'whsec_MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

const eventsOf = (endpointId: number) =>
  h.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select(['e.type', 'e.payload'])
    .where('d.endpoint_id', '=', endpointId)
    .orderBy('d.id')
    .execute();

it('user.created and user.updated from the users service (names of changed fields, no password)', async () => {
  const org = await buildEntity(h.db);
  const admin = await buildUser(h.db, { entityId: org.id, superAdmin: true });
  const hook = await subscribe(org.id, ['user.created', 'user.updated']);
  const c = await clientFor(h.app, h.db, admin.id);
  const created = await c('POST', '/api/users', {
    name: 'Ada Lovelace',
    email: `ada-${Date.now()}@example.test`,
    password: 'Correct-Horse-42-battery',
    primary_entity_id: org.id,
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().data.id;
  const updated = await c('PATCH', `/api/users/${id}`, { name: 'Ada King' });
  expect(updated.statusCode, updated.body).toBe(200);
  const events = await eventsOf(hook.id);
  expect(events.map((e) => e.type)).toEqual(['user.created', 'user.updated']);
  expect(events[0]?.payload).toMatchObject({ user_id: id, entity_id: org.id });
  expect(events[1]?.payload).toMatchObject({ user_id: id, changed: ['name'] });
  expect(JSON.stringify(events)).not.toMatch(/password|Correct-Horse/i);
});

it('result.recorded, and compliance.status_changed when a required course moves from missing to in date', async () => {
  const org = await buildEntity(h.db);
  const role = await buildRole(h.db, org.id);
  const learner = await buildUser(h.db, { entityId: org.id, roleId: role.id });
  const course = await buildCourse(h.db, org.id);
  const other = await buildCourse(h.db, org.id);
  await h.db
    .transaction()
    .execute((trx) =>
      insertRule(
        trx,
        { entity_id: org.id, role_id: role.id, course_id: course.id, type: 'primary', validity_months: 12 },
        new Date(),
      ),
    );
  const hook = await subscribe(org.id, ['result.recorded', 'compliance.status_changed']);
  const record = (courseId: number, passed: boolean) =>
    h.db.transaction().execute((trx) =>
      recordResult(trx, {
        userId: learner.id,
        entityId: org.id,
        courseId,
        contentId: null,
        type: 'elearning',
        passed,
        score: null,
        completedAt: new Date(),
        attemptId: null,
        createdBy: null,
      }),
    );
  await record(course.id, false);
  await record(course.id, true);
  await record(other.id, true);
  const events = await eventsOf(hook.id);
  expect(events.map((e) => e.type)).toEqual([
    'result.recorded',
    'result.recorded',
    'compliance.status_changed',
    'result.recorded',
  ]);
  expect(events[0]?.payload).toMatchObject({ user_id: learner.id, course_id: course.id, status: 'failed' });
  expect(events[2]?.payload).toMatchObject({ before: 'missing', after: 'in_date', requirement: 'primary' });
  // A result whose transaction rolls back leaves no event.
  await expect(
    h.db.transaction().execute(async (trx) => {
      await recordResult(trx, {
        userId: learner.id,
        entityId: org.id,
        courseId: other.id,
        contentId: null,
        type: 'elearning',
        passed: true,
        score: null,
        completedAt: new Date(),
        attemptId: null,
        createdBy: null,
      });
      throw new Error('rolled back');
    }),
  ).rejects.toThrow('rolled back');
  expect(await eventsOf(hook.id)).toHaveLength(4);
});
