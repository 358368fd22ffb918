import { LearningPerm, PERMISSIONS } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent, buildPassedResult } from '../../test/learning-factories';
import { buildSession } from '../bookings/delegate-fixtures';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const as = (userId: number) => clientFor(h.app, h.db, userId);
const ALL = PERMISSIONS.map((p) => p.id);
const titles = (res: { json(): { data: { title: string }[] } }) =>
  res
    .json()
    .data.map((c) => c.title)
    .sort();

describe('learner lists (spec 1 §7 Users)', () => {
  it('lists available, compliant and personal development courses for oneself', async () => {
    const group = await buildEntity(h.db);
    const site = await buildEntity(h.db, { parentId: group.id });
    const carer = await buildRole(h.db, group.id, { name: 'Carer' });
    const learner = await buildUser(h.db, { entityId: site.id, roleId: carer.id, permissions: [] });
    const fire = await buildContent(h.db, group.id, { courseTitle: 'Fire Safety' }); // inherited from the group
    await buildContent(h.db, site.id, { courseTitle: 'Hand Hygiene' });
    // Required of carers by the group's rule (inherited by the site): a compliance course, not personal development.
    const moving = await buildContent(h.db, group.id, { courseTitle: 'Moving and Handling' });
    await h.db
      .insertInto('compliance_rules')
      .values({ entity_id: group.id, role_id: carer.id, course_id: moving.course_id, type: 'secondary' })
      .execute();
    await buildContent(h.db, site.id, { courseTitle: 'Draft Course', published: false });
    await buildContent(h.db, site.id, { courseTitle: 'Restricted Course', adminOnly: true });
    await buildContent(h.db, (await buildEntity(h.db)).id, { courseTitle: 'Elsewhere Course' });
    await buildContent(h.db, site.id, {
      courseTitle: 'First Aid Day',
      title: 'First Aid Workshop',
      type: 'face2face',
    });
    await buildPassedResult(h.db, {
      userId: learner.id,
      entityId: site.id,
      courseId: fire.course_id,
      contentId: fire.id,
    });

    const call = await as(learner.id);
    const available = await call('GET', `/api/users/${learner.id}/available-courses`);
    expect(available.statusCode).toBe(200);
    expect(titles(available)).toEqual([
      'Fire Safety',
      'First Aid Day',
      'Hand Hygiene',
      'Moving and Handling',
    ]);
    const fireRow = available.json().data.find((c: { title: string }) => c.title === 'Fire Safety');
    expect(fireRow.latest_result).toMatchObject({ passed: true, type: 'elearning' });
    expect(available.json().meta.total).toBe(4);
    expect(titles(await call('GET', `/api/users/${learner.id}/compliant-courses`))).toEqual(['Fire Safety']);
    expect(titles(await call('GET', `/api/users/${learner.id}/personal-development-courses`))).toEqual([
      'First Aid Day',
      'Hand Hygiene',
    ]);
    const paged = await call('GET', `/api/users/${learner.id}/available-courses?per_page=1&page=2`);
    expect(paged.json().data).toHaveLength(1);
    expect(paged.json().links.prev).toContain('page=1');

    // An expired pass is not compliant.
    await h.db
      .updateTable('latest_results')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', learner.id)
      .execute();
    expect(titles(await call('GET', `/api/users/${learner.id}/compliant-courses`))).toEqual([]);
  });

  it('available training: the open sessions the learner may book, internal and (with the flag) external', async () => {
    const group = await buildEntity(h.db, { settings: { can_view_external_bookings: true } });
    const site = await buildEntity(h.db, { parentId: group.id });
    const learner = await buildUser(h.db, { entityId: site.id, permissions: [108] });
    const company = await buildEntity(h.db, { isTrainingCompany: true });
    const other = await buildEntity(h.db);
    const open = await buildSession(h.db, group.id, { title: 'Group Workshop', max: 1 });
    await buildSession(h.db, site.id, { title: 'Site Workshop', startsInHours: 48 });
    await buildSession(h.db, group.id, { title: 'Cancelled Workshop', status: 'cancelled' });
    await buildSession(h.db, group.id, { title: 'Past Workshop', startsInHours: -4 });
    await buildSession(h.db, group.id, { title: 'Outside Only', availableTo: 'external' });
    await buildSession(h.db, company.id, {
      title: 'Provider Workshop',
      availableTo: 'all',
      startsInHours: 72,
    });
    await buildSession(h.db, company.id, { title: 'Provider Internal' });
    await buildSession(h.db, other.id, { title: 'Other Org Workshop', availableTo: 'all' });
    const call = await as(learner.id);
    const url = `/api/users/${learner.id}/available-training`;
    const sessionTitles = (res: { json(): { data: { content: { title: string } }[] } }) =>
      res.json().data.map((s) => s.content.title);
    const res = await call('GET', url);
    expect(res.statusCode).toBe(200);
    // Soonest first; a full session stays listed (booking it joins the waitlist).
    expect(sessionTitles(res)).toEqual(['Site Workshop', 'Provider Workshop', 'Group Workshop']);
    expect(res.json().data[0]).toMatchObject({ can: { book: true }, my_booking: null, places_free: 10 });
    // Booked: left out.
    expect((await call('POST', `/api/training-sessions/${open.id}/book`, {})).statusCode).toBe(201);
    expect(sessionTitles(await call('GET', url))).toEqual(['Site Workshop', 'Provider Workshop']);
    // Without the external flag, the provider's sessions go.
    await h.db
      .updateTable('entities')
      .set({ can_view_external_bookings: false })
      .where('id', '=', group.id)
      .execute();
    expect(sessionTitles(await call('GET', `${url}?search=workshop`))).toEqual(['Site Workshop']);
  });

  it('answers 401, 422, 403 without 80 for someone else, 404 for another organisation', async () => {
    const entity = await buildEntity(h.db);
    const learner = await buildUser(h.db, { entityId: entity.id, permissions: [] });
    await buildContent(h.db, entity.id, { courseTitle: 'Secret Course Title' });
    for (const list of [
      'available-courses',
      'available-training',
      'compliant-courses',
      'personal-development-courses',
    ]) {
      const url = `/api/users/${learner.id}/${list}`;
      expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
      expect((await (await as(learner.id))('GET', `${url}?per_page=0`)).statusCode).toBe(422);
      const peer = await buildUser(h.db, { entityId: entity.id, permissions: [] });
      expect((await (await as(peer.id))('GET', url)).statusCode).toBe(403);
      const manager = await buildUser(h.db, {
        entityId: entity.id,
        permissions: [LearningPerm.availableCourses],
      });
      expect((await (await as(manager.id))('GET', url)).statusCode).toBe(200);
      const outsider = await buildUser(h.db, { permissions: ALL });
      const res = await (await as(outsider.id))('GET', url);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('Secret Course Title');
    }
  });
});

describe('a course of several items once its SCORM item is opened (issue 28 item 4)', () => {
  it('keeps listing every item of the course, and the open attempt leads to the course with all of them', async () => {
    const site = await buildEntity(h.db);
    const learner = await buildUser(h.db, { entityId: site.id, permissions: [] });
    const scorm = await buildContent(h.db, site.id, {
      courseTitle: 'Medication Awareness',
      title: 'Medication package',
      type: 'scorm',
    });
    const reading = await buildContent(h.db, site.id, {
      courseId: scorm.course_id,
      title: 'Medication reading',
    });
    const check = await buildContent(h.db, site.id, { courseId: scorm.course_id, title: 'Medication check' });
    const call = await as(learner.id);
    const started = await call('POST', `/api/users/${learner.id}/attempts`, { content_id: scorm.id });
    expect(started.statusCode, started.body).toBe(201);
    const attemptId = started.json().data.id as number;

    const available = await call('GET', `/api/users/${learner.id}/available-courses`);
    const course = available.json().data.find((c: { id: number }) => c.id === scorm.course_id);
    expect(course.contents.map((c: { id: number }) => c.id).sort()).toEqual(
      [scorm.id, reading.id, check.id].sort(),
    );
    // The to-do's row for the course carries the open attempt; its structure (the /cattempt page) is the course's.
    const events = (await call('GET', `/api/users/${learner.id}/events`)).json().data.data;
    const row = events.find((e: { course: { id: number } }) => e.course.id === scorm.course_id);
    expect(row).toMatchObject({ state: 'in_progress', attempt_id: attemptId });
    const structure = (await call('GET', `/api/attempts/${attemptId}/structure`)).json().data;
    expect(structure.course.contents.map((c: { id: number }) => c.id).sort()).toEqual(
      [scorm.id, reading.id, check.id].sort(),
    );
  });
});
