import { PERMISSIONS } from '@cc/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse } from '../../test/learning-factories';
import { describeRaces, parallel } from '../../test/parallel';

/**
 * Concurrent writes of results (issue 10 §3) on PostgreSQL: every write of a (user, course) serialises on that pair
 * before it reads the history back (results/service.ts lockLatestResults), so latest_results is the same as if the
 * requests had come one by one.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const ALL = PERMISSIONS.map((p) => p.id);

async function world() {
  const org = await buildEntity(h.db, { level: 'A' });
  const admin = await buildUser(h.db, { entityId: org.id, permissions: ALL });
  const learner = await buildUser(h.db, { entityId: org.id, permissions: [6] });
  const course = await buildCourse(h.db, org.id);
  return { org, admin: await clientFor(h.app, h.db, admin.id), learner, course };
}

/** latest_results as stored, and as it should be from the committed history (results/queries.ts pickLatestResult). */
async function latestAndExpected(userId: number, courseId: number) {
  const stored = await h.db
    .selectFrom('latest_results')
    .select(['result_id', 'result_count', 'passed'])
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .executeTakeFirst();
  const history = await h.db
    .selectFrom('results')
    .select(['id', 'passed'])
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .where('status', '=', 'approved')
    .where('deleted_at', 'is', null)
    .orderBy('passed', 'desc')
    .orderBy('completed_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return {
    stored,
    expected: history[0]
      ? { result_id: history[0].id, result_count: history.length, passed: history[0].passed }
      : undefined,
  };
}

describeRaces('results written in parallel for one (user, course)', () => {
  it('20 parallel historical results leave latest_results on the latest one with result_count 20', async () => {
    const w = await world();
    const responses = await parallel(20, (i) =>
      w.admin('POST', '/api/results/historical/create', {
        user_id: w.learner.id,
        course_id: w.course.id,
        // Days 1..20 of January, in an order that differs from the order requests finish in.
        completed_at: `2024-01-${String(((i * 7) % 20) + 1).padStart(2, '0')}`,
        passed: i % 3 !== 0,
      }),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const { stored, expected } = await latestAndExpected(w.learner.id, w.course.id);
    expect(expected?.result_count).toBe(20);
    expect(stored).toEqual(expected);
  });

  it('parallel deletes of one pair’s results leave latest_results on the newest one left', async () => {
    const w = await world();
    const created = await parallel(12, (i) =>
      w.admin('POST', '/api/results/historical/create', {
        user_id: w.learner.id,
        course_id: w.course.id,
        completed_at: `2024-02-${String(i + 1).padStart(2, '0')}`,
      }),
    );
    const ids = created.map((r) => r.json().data.id as number);
    // Delete the newest eight at once: latest_results must fall back to the newest one left.
    const deleted = await parallel(8, (i) => w.admin('DELETE', `/api/results/${ids[11 - i]}`));
    expect(deleted.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const { stored, expected } = await latestAndExpected(w.learner.id, w.course.id);
    expect(expected).toEqual({ result_id: ids[3], result_count: 4, passed: true });
    expect(stored).toEqual(expected);
  });

  it('parallel bulk adds over the same learners keep every learner’s latest result and count', async () => {
    const w = await world();
    const learners = [w.learner, ...(await parallel(5, () => buildUser(h.db, { entityId: w.org.id })))];
    const ids = learners.map((l) => l.id);
    const responses = await parallel(8, (i) =>
      w.admin('POST', '/api/users/bulk-add-events', {
        // Each operation names the learners in another order.
        user_ids: i % 2 ? [...ids].reverse() : ids,
        course_id: w.course.id,
        completed_at: `2024-03-${String(i + 1).padStart(2, '0')}`,
        type: 'face2face',
      }),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    for (const id of ids) {
      const { stored, expected } = await latestAndExpected(id, w.course.id);
      expect(expected?.result_count).toBe(8);
      expect(stored).toEqual(expected);
    }
  });

  it('20 parallel deletes of one bulk-events operation: exactly one succeeds, the others are told it is done', async () => {
    const w = await world();
    const second = await buildUser(h.db, { entityId: w.org.id });
    await w.admin('POST', '/api/results/historical/create', {
      user_id: w.learner.id,
      course_id: w.course.id,
      completed_at: '2023-06-01',
    });
    const op = (
      await w.admin('POST', '/api/users/bulk-add-events', {
        user_ids: [w.learner.id, second.id],
        course_id: w.course.id,
        completed_at: '2024-04-01',
        type: 'face2face',
      })
    ).json().data;
    const responses = await parallel(20, () => w.admin('DELETE', `/api/users/bulk-add-events/${op.id}`));
    const codes = responses.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, ...Array(19).fill(409)]);
    const operation = await h.db
      .selectFrom('bulk_event_operations')
      .select(['deleted_at'])
      .where('id', '=', op.id)
      .executeTakeFirstOrThrow();
    expect(operation.deleted_at).not.toBeNull();
    // The learner falls back to the earlier result; the second learner has none left.
    for (const id of [w.learner.id, second.id]) {
      const { stored, expected } = await latestAndExpected(id, w.course.id);
      expect(stored).toEqual(expected);
    }
    expect((await latestAndExpected(second.id, w.course.id)).stored).toBeUndefined();
  });
});

describeRaces('results edited in parallel', () => {
  // A historical result and an exemption can both be moved to another course (PATCH course_id).
  const kinds = [
    {
      kind: 'historical result',
      path: '/api/results/historical',
      created: 'create',
      extra: { completed_at: '2024-05-01' },
    },
    { kind: 'exemption', path: '/api/results/exempt', created: '', extra: { notes: 'Agency' } },
  ];
  for (const { kind, path, created, extra } of kinds) {
    it(`10 parallel moves of one ${kind} to other courses leave latest_results only on its final course`, async () => {
      const w = await world();
      const courses = await parallel(10, () => buildCourse(h.db, w.org.id));
      const body = { user_id: w.learner.id, course_id: w.course.id, ...extra };
      const result = (await w.admin('POST', created ? `${path}/${created}` : path, body)).json().data;
      const moves = await parallel(10, (i) =>
        w.admin('PATCH', `${path}/${result.id}`, { course_id: courses[i]?.id }),
      );
      expect(moves.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
      const stored = await h.db
        .selectFrom('results')
        .select('course_id')
        .where('id', '=', result.id)
        .executeTakeFirstOrThrow();
      const rows = await h.db
        .selectFrom('latest_results')
        .select(['course_id', 'result_id'])
        .where('user_id', '=', w.learner.id)
        .execute();
      expect(rows).toEqual([{ course_id: stored.course_id, result_id: result.id }]);
    });
  }
});
