import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent, buildCourse, buildExemption } from '../../test/learning-factories';
import { recordResult } from '../results/service';

/**
 * The learner's to-do (GET /users/{id}/events, GraphQL events): states from the compliance engine, the order
 * (overdue mandatory, overdue required, expiring soonest, due, in progress, optional, done), the counts, and who may
 * read it (self; 24 or 43 in scope; another organisation's user is 404).
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const DAY = 86_400_000;
const daysFromNow = (n: number) => new Date(Date.now() + n * DAY);

async function rule(entityId: number, roleId: number, courseId: number, type: 'primary' | 'secondary') {
  await h.db
    .insertInto('compliance_rules')
    .values({ entity_id: entityId, role_id: roleId, course_id: courseId, type, validity_months: 12 })
    .execute();
}

async function result(
  userId: number,
  entityId: number,
  courseId: number,
  completedAt: Date,
  expiresAt: Date,
) {
  await h.db.transaction().execute((trx) =>
    recordResult(trx, {
      userId,
      entityId,
      courseId,
      contentId: null,
      type: 'elearning',
      passed: true,
      score: 90,
      completedAt,
      expiresAt,
      attemptId: null,
      createdBy: null,
    }),
  );
}

/** A home with a carer role requiring seven courses in every state, and a carer. */
async function scenario() {
  const org = await buildEntity(h.db, { settings: { expiry_warning: 30 } });
  const role = await buildRole(h.db, org.id, { name: 'Care assistant' });
  const carer = await buildUser(h.db, { entityId: org.id, roleId: role.id, name: 'Cara Carer' });
  const course = async (title: string, type: 'primary' | 'secondary') => {
    const content = await buildContent(h.db, org.id, { courseTitle: title, title: `${title} e-learning` });
    await rule(org.id, role.id, content.course_id, type);
    return content;
  };
  const fireOld = await course('Fire safety', 'primary'); // expired 40 days ago
  const moving = await course('Moving and handling', 'primary'); // expired 10 days ago
  const food = await course('Food hygiene', 'secondary'); // expired 5 days ago
  const infection = await course('Infection control', 'primary'); // expires in 20 days
  const dementia = await course('Dementia awareness', 'secondary'); // expires in 5 days
  const safeguarding = await course('Safeguarding adults', 'primary'); // never done
  const data = await course('Data protection', 'secondary'); // never done, started
  const health = await course('Health and safety', 'primary'); // in date
  const equality = await course('Equality and diversity', 'secondary'); // exempt
  const optional = await buildContent(h.db, org.id, { courseTitle: 'Baking for fun' }); // optional, started

  const year = 365 * DAY;
  const expired = async (c: { course_id: number }, days: number) =>
    result(carer.id, org.id, c.course_id, new Date(Date.now() - days * DAY - year), daysFromNow(-days));
  await expired(fireOld, 40);
  await expired(moving, 10);
  await expired(food, 5);
  await result(carer.id, org.id, infection.course_id, daysFromNow(-345), daysFromNow(20));
  await result(carer.id, org.id, dementia.course_id, daysFromNow(-360), daysFromNow(5));
  await result(carer.id, org.id, health.course_id, daysFromNow(-10), daysFromNow(355));
  await buildExemption(h.db, { userId: carer.id, entityId: org.id, courseId: equality.course_id });

  const asCarer = await clientFor(h.app, h.db, carer.id);
  const started = await asCarer('POST', `/api/users/${carer.uuid}/attempts`, { content_id: data.id });
  expect(started.statusCode).toBe(201);
  const startedOptional = await asCarer('POST', `/api/users/${carer.uuid}/attempts`, {
    content_id: optional.id,
  });
  expect(startedOptional.statusCode).toBe(201);
  return {
    org,
    role,
    carer,
    asCarer,
    contents: { fireOld, moving, food, infection, dementia, safeguarding, data, health, equality, optional },
    attempts: { data: started.json().data.id as number, optional: startedOptional.json().data.id as number },
  };
}

type Event = {
  course: { id: number; title: string };
  kind: string;
  state: string;
  status: string | null;
  due_date: string | null;
  days_left: number | null;
  attempt_id: number | null;
  content_id: number | null;
  content_type: string | null;
};

describe('GET /users/{id}/events', () => {
  it('orders the to-do: overdue mandatory, overdue required, expiring soonest, due, in progress, optional, done', async () => {
    const s = await scenario();
    const res = await s.asCarer('GET', `/api/users/${s.carer.uuid}/events`);
    expect(res.statusCode).toBe(200);
    const body = res.json().data as { counts: Record<string, number>; data: Event[] };
    expect(body.data.map((e) => [e.course.title, e.kind, e.state])).toEqual([
      ['Fire safety', 'mandatory', 'overdue'],
      ['Moving and handling', 'mandatory', 'overdue'],
      ['Food hygiene', 'required', 'overdue'],
      ['Dementia awareness', 'required', 'expiring'],
      ['Infection control', 'mandatory', 'expiring'],
      ['Safeguarding adults', 'mandatory', 'due'],
      ['Data protection', 'required', 'in_progress'],
      ['Baking for fun', 'optional', 'in_progress'],
      ['Health and safety', 'mandatory', 'done'],
      ['Equality and diversity', 'required', 'done'],
    ]);
    expect(body.counts).toEqual({ current: 5, overdue: 3, completed: 2 });
  });

  it('gives dates, days left, the attempt to resume and the content to start', async () => {
    const s = await scenario();
    const body = (await s.asCarer('GET', `/api/users/${s.carer.id}/events`)).json().data as { data: Event[] };
    const by = (title: string) => body.data.find((e) => e.course.title === title) as Event;
    const fire = by('Fire safety');
    expect(fire.status).toBe('expired');
    expect(fire.days_left).toBe(-40);
    expect(new Date(fire.due_date ?? '').getTime()).toBeCloseTo(daysFromNow(-40).getTime(), -5);
    expect(fire.content_id).toBe(s.contents.fireOld.id);
    // Its type, so the mobile app offers "Download for offline" on the to-do (issue 31 §1).
    expect(fire.content_type).toBe('elearning');
    expect(fire.attempt_id).toBeNull();
    expect(by('Dementia awareness').days_left).toBe(5);
    // Never done by a new starter (issue 28 item 5): due by the end of their new-starter period (90 days), not overdue.
    const safeguarding = by('Safeguarding adults');
    expect(safeguarding).toMatchObject({ status: 'missing', course_status: 'due', state: 'due' });
    expect(safeguarding.days_left).toBeGreaterThanOrEqual(89);
    expect(safeguarding.days_left).toBeLessThanOrEqual(90);
    expect(by('Data protection')).toMatchObject({ status: 'missing', attempt_id: s.attempts.data });
    expect(by('Baking for fun')).toMatchObject({ status: null, attempt_id: s.attempts.optional });
    expect(by('Equality and diversity')).toMatchObject({ status: 'exempt', due_date: null });
    expect(by('Health and safety').status).toBe('in_date');
  });

  it('is empty for a user without a job role or courses', async () => {
    const user = await buildUser(h.db);
    const res = await (await clientFor(h.app, h.db, user.id))('GET', `/api/users/${user.uuid}/events`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ counts: { current: 0, overdue: 0, completed: 0 }, data: [] });
  });

  it("a manager (24) reads a user in scope; another organisation's user is 404; without 24/43 it is 403", async () => {
    const s = await scenario();
    const manager = await buildUser(h.db, { entityId: s.org.id, permissions: [24] });
    const asManager = await clientFor(h.app, h.db, manager.id);
    const mine = await asManager('GET', `/api/users/${s.carer.uuid}/events`);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data.counts.overdue).toBe(3);

    const other = await buildUser(h.db); // another organisation
    expect((await asManager('GET', `/api/users/${other.uuid}/events`)).statusCode).toBe(404);
    expect((await asManager('GET', '/api/users/999999999/events')).statusCode).toBe(404);

    const colleague = await buildUser(h.db, { entityId: s.org.id });
    const asColleague = await clientFor(h.app, h.db, colleague.id);
    expect((await asColleague('GET', `/api/users/${s.carer.uuid}/events`)).statusCode).toBe(403);
  });

  it('an unpublished course has no content to start', async () => {
    const org = await buildEntity(h.db);
    const role = await buildRole(h.db, org.id);
    const user = await buildUser(h.db, { entityId: org.id, roleId: role.id });
    const course = await buildCourse(h.db, org.id, { title: 'Unpublished', published: false });
    await buildContent(h.db, org.id, { courseId: course.id });
    await rule(org.id, role.id, course.id, 'primary');
    const body = (
      await (
        await clientFor(h.app, h.db, user.id)
      )('GET', `/api/users/${user.uuid}/events`)
    ).json().data as { data: Event[] };
    expect(body.data).toEqual([
      expect.objectContaining({
        kind: 'mandatory',
        state: 'due',
        content_id: null,
        content_type: null,
        attempt_id: null,
      }),
    ]);
  });
});

describe('GraphQL events (spec 2 §7)', () => {
  it('answers the same to-do and counts as REST; NOT_FOUND outside the scope', async () => {
    const s = await scenario();
    const { bearer } = await import('../../test/factories');
    const headers = await bearer(h.db, s.carer.id);
    const query = `query($user: String) { events(user: $user) {
      counts { current overdue completed }
      data { course_id course_title kind state status due_date days_left attempt_id content_id content_type }
    } }`;
    const res = await h.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query } });
    const body = res.json();
    expect(body.errors).toBeUndefined();
    expect(body.data.events.counts).toEqual({ current: 5, overdue: 3, completed: 2 });
    expect(body.data.events.data[0]).toMatchObject({
      course_title: 'Fire safety',
      kind: 'mandatory',
      state: 'overdue',
      days_left: -40,
      content_type: 'elearning',
    });
    const other = await buildUser(h.db);
    const denied = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers,
      payload: { query, variables: { user: other.uuid } },
    });
    expect(denied.json().errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
