import { ComplianceMessages, DocumentMessages, LibraryPerm, type UserComplianceCourse } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildGracePeriodWorld, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse, buildPassedResult } from '../../test/learning-factories';
import { countPeople } from '../dashboards/queries';
import { as, documentsWorld, open, requiredDocument } from '../documents/fixtures';
import { sendReminders } from '../notifications/jobs';
import { computeScore } from './scores';

/**
 * Issue 33 §4: a new requirement (a course or a document on a job role) has a due date, its creation plus a grace
 * period (the request's grace_days, else the organisation's new_requirement_days). Until then the people who have
 * not done it are "due by" it: not out of date, not counted in the scores. Then it counts, as before.
 */
const NOW = new Date();
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY);

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  h.deps.clock = () => NOW;
});
afterAll(async () => h?.close());

const pass = (userId: number, entityId: number, courseId: number) =>
  buildPassedResult(h.db, { userId, entityId, courseId, completedAt: at(-10), now: NOW });

async function world() {
  // An organisation that chose 30 days (the column's default is 0: due at once, as before the setting existed).
  const w = await buildGracePeriodWorld(h.db, NOW, { permissions: [68, 49, 105, 24, 43] });
  return { ...w, moving: await buildCourse(h.db, w.org.id, { title: 'Moving and handling' }) };
}
type World = Awaited<ReturnType<typeof world>>;

const require = (w: World, courseId: number, extra: Record<string, unknown> = {}) =>
  h.app.inject({
    method: 'POST',
    url: '/api/compliance',
    headers: w.headers,
    payload: { entity: w.org.slug, roleId: w.carer.id, courseId, type: 'primary', validity: null, ...extra },
  });

const score = (w: World, now: Date) => computeScore({ db: h.db, now }, w.org.id, 'primary', false, 'include');
const outOfDateCells = async (w: World, now: Date) =>
  (await countPeople(h.db, { entityIds: [w.org.id], type: null, now }, { kind: 'out_of_date' })).cells;

describe('a new requirement has a due date', () => {
  it('leaves the score and the out-of-date list as they were until its due date, then counts it', async () => {
    const w = await world();
    const before = await score(w, NOW);
    expect(before).toMatchObject({ required: 2, in_date: 1, missing: 1, score: 50 });
    expect(await outOfDateCells(w, NOW)).toBe(1);

    const res = await require(w, w.food.id);
    expect(res.statusCode).toBe(201);
    // The organisation's "Days to complete new requirements": 30 by default.
    expect(res.json().data.due_at).toBe(at(30).toISOString());

    expect(await score(w, NOW)).toMatchObject({ required: 2, in_date: 1, missing: 1, score: 50 });
    expect(await score(w, at(29))).toMatchObject({ required: 2, score: 50 });
    expect(await outOfDateCells(w, NOW)).toBe(1);
    // The person who has not done it is "due by" the date (the one status), not out of date.
    const courses = await h.app.inject({
      method: 'GET',
      url: `/api/users/${w.bob.id}/compliance-courses`,
      headers: w.headers,
    });
    expect(courses.statusCode).toBe(200);
    const food = (courses.json().data as UserComplianceCourse[]).find((c) => c.course.id === w.food.id);
    expect(food).toMatchObject({
      course_status: 'due',
      status_date: at(30).toISOString(),
      out_of_date: false,
    });

    // Past the due date it counts: two more cells, both missing (25%), and both on the out-of-date list.
    expect(await score(w, at(31))).toMatchObject({ required: 4, in_date: 1, missing: 3, score: 25 });
    expect(await outOfDateCells(w, at(31))).toBe(3);
  });

  it('someone who did it in the grace period counts at once; grace_days 0 is due now; the organisation sets the default', async () => {
    const w = await world();
    expect((await require(w, w.food.id, { grace_days: 10 })).json().data.due_at).toBe(at(10).toISOString());
    await pass(w.ann.id, w.org.id, w.food.id);
    // Ann's pass counts; Bob's never-done cell waits for the due date.
    expect(await score(w, NOW)).toMatchObject({ required: 3, in_date: 2, missing: 1 });
    const now = await require(w, w.moving.id, { grace_days: 0 });
    expect(now.json().data.due_at).toBeNull();
    expect(await score(w, NOW)).toMatchObject({ required: 5, missing: 3 });

    const bad = await require(w, w.moving.id, { grace_days: -1 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.grace_days).toEqual([ComplianceMessages.graceDaysInvalid]);

    const patch = await h.app.inject({
      method: 'PATCH',
      url: `/api/entities/${w.org.id}`,
      headers: await bearer(h.db, (await buildUser(h.db, { entityId: w.org.id, permissions: [2, 52] })).id),
      payload: { new_requirement_days: 14 },
    });
    expect(patch.statusCode).toBe(200);
    expect(patch.json().data.new_requirement_days).toBe(14);
    const other = await buildCourse(h.db, w.org.id, { title: 'Infection control' });
    expect((await require(w, other.id)).json().data.due_at).toBe(at(14).toISOString());
  });

  it('PATCH grace_days moves the due date (from the day it was added) and changes nothing else', async () => {
    const w = await world();
    const created = (await require(w, w.food.id, { grace_days: 10 })).json().data;
    expect(created.due_at).toBe(at(10).toISOString());
    const patch = (payload: Record<string, unknown>) =>
      h.app.inject({ method: 'PATCH', url: `/api/compliance/${created.id}`, headers: w.headers, payload });
    const longer = await patch({ grace_days: 45 });
    expect(longer.statusCode, longer.body).toBe(200);
    expect(longer.json().data).toMatchObject({
      due_at: at(45).toISOString(),
      type: 'primary',
      validity: null,
    });
    // Bob is due by the new date; the score leaves his cell out until then.
    expect(await score(w, at(30))).toMatchObject({ required: 2, in_date: 1, missing: 1 });
    // A PATCH without grace_days keeps the due date.
    const typed = await patch({ validity: 24 });
    expect(typed.json().data).toMatchObject({ due_at: at(45).toISOString(), validity: 24 });
    // 0: due at once, so Ann's and Bob's never-done cells count now.
    const now = await patch({ grace_days: 0 });
    expect(now.json().data.due_at).toBeNull();
    expect(await score(w, NOW)).toMatchObject({ required: 4, in_date: 1, missing: 3 });
    const bad = await patch({ grace_days: 366 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.grace_days).toEqual([ComplianceMessages.graceDaysInvalid]);
  });

  it('a "due soon" reminder goes once, within 7 days of the due date, to those who have not done it', async () => {
    const w = await world();
    await h.db.updateTable('entities').set({ events_reminder: true }).where('id', '=', w.org.id).execute();
    await require(w, w.food.id, { grace_days: 10 });
    await pass(w.ann.id, w.org.id, w.food.id);
    const dueRows = () =>
      h.db
        .selectFrom('notifications')
        .select(['user_id', 'channel', 'title'])
        .where('kind', '=', 'due_reminder')
        .where('course_id', '=', w.food.id)
        .execute();
    const run = (now: Date) => sendReminders({ db: h.db, now, finish: async () => {} } as never);
    await run(NOW);
    expect(await dueRows()).toEqual([]);
    await run(at(4));
    const rows = await dueRows();
    expect(rows.map((r) => [r.user_id, r.channel]).sort()).toEqual([
      [w.bob.id, 'email'],
      [w.bob.id, 'in_app'],
    ]);
    expect(rows[0]?.title).toMatch(/^Food hygiene is due by /);
    await run(at(5));
    expect(await dueRows()).toHaveLength(2);
  });
});

describe('POST /documents/{id}/remind', () => {
  it('reminds once each person in scope who has not read the current version; 404 out of scope, 403 without 136', async () => {
    const d = await documentsWorld(h);
    const { doc } = await requiredDocument(h, d);
    const second = await buildUser(h.db, { entityId: d.home.id, roleId: d.role.id, name: 'Sam Second' });
    await open(h, d.learner.id, doc.id);
    const ack = await (await as(h, d.learner.id))('POST', `/api/documents/${doc.id}/acknowledge`, {
      typed_name: 'Lee Learner',
      version: 1,
    });
    expect(ack.statusCode).toBe(201);
    const url = `/api/documents/${doc.id}/remind`;
    const manager = await as(h, d.manager.id);
    const res = await manager('POST', url);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: DocumentMessages.reminded(1), data: { reminded: 1 } });
    const ledger = () =>
      h.db
        .selectFrom('notifications')
        .select(['id', 'user_id', 'channel', 'state', 'link'])
        .where('kind', '=', 'document_reminder')
        .where('course_id', '=', doc.course_id)
        .orderBy('channel')
        .execute();
    const rows = await ledger();
    expect(rows.map((r) => [r.user_id, r.channel, r.state])).toEqual([
      [second.id, 'email', 'pending'],
      [second.id, 'in_app', 'sent'],
    ]);
    expect(rows[0]?.link).toBe(`/document/${doc.id}`);
    // The e-mail goes through the mail queue.
    const email = rows.find((r) => r.channel === 'email');
    const job = await h.db
      .selectFrom('jobs')
      .select('name')
      .where('unique_key', '=', `notification:${email?.id}`)
      .executeTakeFirst();
    expect(job?.name).toBe('deliver-notification');
    // A second press (or a second manager) reminds nobody twice.
    const again = await manager('POST', url);
    expect(again.json()).toMatchObject({ message: DocumentMessages.reminded(0), data: { reminded: 0 } });
    expect(await ledger()).toHaveLength(2);

    expect((await (await as(h, d.outsider.id))('POST', url)).statusCode).toBe(404);
    expect((await manager('POST', '/api/documents/2147483000/remind')).statusCode).toBe(404);
    expect((await (await as(h, d.viewer.id))('POST', url)).statusCode).toBe(403);
    expect(LibraryPerm.acknowledgements).toBe(136);
  });
});
