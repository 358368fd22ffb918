import { attendanceNotYet, formatDate, BookingsMessages as M, SessionMessages } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';
import {
  dayFromToday,
  insertSession,
  placeDelegate,
  type SessionsWorld,
  sessionsWorld,
} from './sessions-world';

/**
 * Attendance into results (issue 15): marking records a face2face result in the same transaction, so
 * latest_results, compliance and the certificate follow; re-marking replaces the result it made.
 */
let h: Harness;
let w: SessionsWorld;
let admin: Awaited<ReturnType<SessionsWorld['as']>>;
beforeAll(async () => {
  h = await createHarness();
  w = await sessionsWorld(h);
  admin = await w.as((await buildUser(h.db, { superAdmin: true })).id);
});
afterAll(async () => h?.close());

const DAY = 86_400_000;

async function pastSession(o: { grading?: 'attendance' | 'pass_fail' | 'score'; passMark?: number } = {}) {
  const s = await insertSession(h, {
    entityId: w.org.id,
    contentId: w.f2f.id,
    courseId: w.f2f.course_id,
    trainerId: w.trainer.id,
    startsAt: new Date(Date.now() - 2 * DAY),
  });
  if (o.grading)
    await h.db
      .updateTable('training_sessions')
      .set({ grading_method: o.grading, pass_mark: o.passMark ?? null })
      .where('id', '=', s.id)
      .execute();
  return s;
}

async function latest(userId: number) {
  return h.db
    .selectFrom('latest_results')
    .select(['result_id', 'passed', 'type', 'completed_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('course_id', '=', w.f2f.course_id)
    .executeTakeFirst();
}

async function complianceStatus(userId: number) {
  const res = await admin('GET', `/api/users/${userId}/compliance-courses?per_page=100`);
  expect(res.statusCode, res.body).toBe(200);
  const row = res.json().data.find((c: { course: { id: number } }) => c.course.id === w.f2f.course_id);
  return row?.status as string | undefined;
}

describe('POST /training-sessions/{id}/attendance', () => {
  it('a session two weeks ahead cannot be marked (422, nothing recorded); on its day, before it starts, it can', async () => {
    // A session on the day two weeks from now, 12:00 UTC (the same UK day in summer and winter).
    const day = dayFromToday(14);
    const s = await insertSession(h, {
      entityId: w.org.id,
      contentId: w.f2f.id,
      courseId: w.f2f.course_id,
      trainerId: w.trainer.id,
      startsAt: new Date(`${day}T12:00:00Z`),
    });
    const someone = await buildUser(h.db, { entityId: w.org.id, permissions: [108] });
    const d = await placeDelegate(h, s.id, someone);
    const url = `/api/training-sessions/${s.id}/attendance`;
    const trainer = await w.as(w.trainer.id);
    const realClock = h.deps.clock;
    try {
      for (const mark of ['attended', 'no_show'] as const) {
        const early = await trainer('POST', url, { marks: [{ delegate_id: d.id, attendance: mark }] });
        expect(early.statusCode, early.body).toBe(422);
        expect(early.json()).toMatchObject({
          message: attendanceNotYet(day),
          errors: { marks: [attendanceNotYet(day)] },
        });
      }
      expect(attendanceNotYet(day)).toContain(formatDate(day));
      // The day before, at noon (the server's clock, which the rule reads): still refused.
      h.deps.clock = () => new Date(new Date(`${day}T12:00:00Z`).getTime() - DAY);
      expect(
        (await trainer('POST', url, { marks: [{ delegate_id: d.id, attendance: 'attended' }] })).statusCode,
      ).toBe(422);
      const row = await h.db
        .selectFrom('session_delegates')
        .select(['attendance', 'result_id'])
        .where('id', '=', d.id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ attendance: null, result_id: null });
      expect(
        await h.db.selectFrom('results').select('id').where('user_id', '=', someone.id).execute(),
      ).toEqual([]);

      // On the day, hours before the session starts: allowed, dated when marked (never after the clock).
      const onTheDay = new Date(`${day}T01:30:00Z`);
      h.deps.clock = () => onTheDay;
      const res = await trainer('POST', url, { marks: [{ delegate_id: d.id, attendance: 'attended' }] });
      expect(res.statusCode, res.body).toBe(200);
      const result = await h.db
        .selectFrom('results')
        .select('completed_at')
        .where('id', '=', res.json().data[0].result_id)
        .executeTakeFirstOrThrow();
      expect(new Date(result.completed_at).toISOString()).toBe(onTheDay.toISOString());
    } finally {
      h.deps.clock = realClock;
    }
  });

  it('401, 422, 403 for staff without 128, 404 for another organisation', async () => {
    const s = await pastSession();
    const accepted = await placeDelegate(h, s.id, w.learner);
    const waiting = await placeDelegate(h, s.id, w.learner2, 'waitlisted');
    const url = `/api/training-sessions/${s.id}/attendance`;
    const body = { marks: [{ delegate_id: accepted.id, attendance: 'attended' }] };
    expect((await h.app.inject({ method: 'POST', url, payload: body })).statusCode).toBe(401);
    const trainer = await w.as(w.trainer.id);
    expect((await trainer('POST', url, { marks: [] })).statusCode).toBe(422);
    const notAccepted = await trainer('POST', url, {
      marks: [{ delegate_id: waiting.id, attendance: 'attended' }],
    });
    expect(notAccepted.statusCode).toBe(422);
    expect(notAccepted.json().errors).toEqual({ 'marks.0.delegate_id': [SessionMessages.notAccepted] });
    const twice = await trainer('POST', url, { marks: [body.marks[0], body.marks[0]] });
    expect(twice.json().errors).toEqual({ 'marks.1.delegate_id': [SessionMessages.markedTwice] });
    expect((await (await w.as(w.creator.id))('POST', url, body)).statusCode).toBe(403);
    expect((await (await w.as(w.outsider.id))('POST', url, body)).statusCode).toBe(404);
    // Nothing was recorded by the refusals.
    expect(await latest(w.learner.id)).toBeUndefined();
  });

  it('the trainer marks: a face2face result, latest_results, compliance in date, the certificate; re-marking replaces it', async () => {
    const s = await pastSession();
    const d = await placeDelegate(h, s.id, w.learner);
    expect(await complianceStatus(w.learner.id)).toBe('missing');
    const url = `/api/training-sessions/${s.id}/attendance`;
    const res = await (await w.as(w.trainer.id))('POST', url, {
      marks: [{ delegate_id: d.id, attendance: 'attended', notes: 'Good' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(M.attendanceSaved);
    const [marked] = res.json().data;
    expect(marked).toMatchObject({ id: d.id, attendance: 'attended', passed: true, notes: 'Good' });
    expect(marked.result_id).toBeTypeOf('number');

    const result = await h.db
      .selectFrom('results')
      .selectAll()
      .where('id', '=', marked.result_id)
      .executeTakeFirstOrThrow();
    expect(result).toMatchObject({
      type: 'face2face',
      passed: true,
      user_id: w.learner.id,
      course_id: w.f2f.course_id,
      content_id: w.f2f.id,
      created_by: w.trainer.id,
    });
    // completed at the session's last day end; the course rule (12 months) dates the expiry.
    expect(new Date(result.completed_at).toISOString()).toBe(new Date(s.ends_at).toISOString());
    // The same day a year on, or the month's last day: a session ending on 29 February expires on 28 February (a
    // date setUTCMonth would roll on to 1 March).
    const ended = new Date(s.ends_at);
    const lastDay = new Date(Date.UTC(ended.getUTCFullYear() + 1, ended.getUTCMonth() + 1, 0)).getUTCDate();
    const expires = new Date(
      Date.UTC(ended.getUTCFullYear() + 1, ended.getUTCMonth(), Math.min(ended.getUTCDate(), lastDay)),
    );
    expect(new Date(result.expires_at ?? 0).toISOString().slice(0, 10)).toBe(
      expires.toISOString().slice(0, 10),
    );
    expect(await latest(w.learner.id)).toMatchObject({
      result_id: result.id,
      passed: true,
      type: 'face2face',
    });
    expect(await complianceStatus(w.learner.id)).toBe('in_date');

    const cert = await (await w.as(w.learner.id))(
      'GET',
      `/api/users/${w.learner.id}/training-certificate?course_id=${w.f2f.course_id}`,
    );
    expect(cert.statusCode, cert.body.slice(0, 200)).toBe(200);
    expect(cert.headers['content-type']).toBe('application/pdf');

    // Marked again as a no-show: the first result is soft-deleted, the new one fails, compliance follows.
    const again = await (await w.as(w.manager.id))('POST', url, {
      marks: [{ delegate_id: d.id, attendance: 'no_show' }],
    });
    expect(again.statusCode, again.body).toBe(200);
    const old = await h.db
      .selectFrom('results')
      .select('deleted_at')
      .where('id', '=', result.id)
      .executeTakeFirstOrThrow();
    expect(old.deleted_at).not.toBeNull();
    const now = await latest(w.learner.id);
    expect(now).toMatchObject({ result_id: again.json().data[0].result_id, passed: false });
    expect(await complianceStatus(w.learner.id)).not.toBe('in_date');
    const live = await h.db
      .selectFrom('results')
      .select('id')
      .where('user_id', '=', w.learner.id)
      .where('deleted_at', 'is', null)
      .execute();
    expect(live).toHaveLength(1);
  });

  it('grading by pass/fail and by score', async () => {
    const pf = await pastSession({ grading: 'pass_fail' });
    const a = await placeDelegate(h, pf.id, w.learner2);
    const trainer = await w.as(w.trainer.id);
    const missing = await trainer('POST', `/api/training-sessions/${pf.id}/attendance`, {
      marks: [{ delegate_id: a.id, attendance: 'attended' }],
    });
    expect(missing.json().errors).toEqual({ 'marks.0.passed': [SessionMessages.passedRequired] });
    const failed = await trainer('POST', `/api/training-sessions/${pf.id}/attendance`, {
      marks: [{ delegate_id: a.id, attendance: 'attended', passed: false }],
    });
    expect(failed.json().data[0].passed).toBe(false);

    const sc = await pastSession({ grading: 'score', passMark: 70 });
    const b = await placeDelegate(h, sc.id, w.learner2);
    const noScore = await trainer('POST', `/api/training-sessions/${sc.id}/attendance`, {
      marks: [{ delegate_id: b.id, attendance: 'partial' }],
    });
    expect(noScore.json().errors).toEqual({ 'marks.0.score': [SessionMessages.scoreRequired] });
    const low = await trainer('POST', `/api/training-sessions/${sc.id}/attendance`, {
      marks: [{ delegate_id: b.id, attendance: 'attended', score: 65 }],
    });
    expect(low.json().data[0]).toMatchObject({ passed: false, score: 65 });
    const high = await trainer('POST', `/api/training-sessions/${sc.id}/attendance`, {
      marks: [{ delegate_id: b.id, attendance: 'attended', score: 80 }],
    });
    expect(high.json().data[0]).toMatchObject({ passed: true, score: 80 });
    expect(await latest(w.learner2.id)).toMatchObject({ passed: true });
  });

  it('a cancelled session cannot be marked', async () => {
    const s = await pastSession();
    const d = await placeDelegate(h, s.id, w.learner);
    await h.db.updateTable('training_sessions').set({ status: 'cancelled' }).where('id', '=', s.id).execute();
    const res = await (await w.as(w.trainer.id))('POST', `/api/training-sessions/${s.id}/attendance`, {
      marks: [{ delegate_id: d.id, attendance: 'attended' }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(M.sessionClosed);
  });
});

describeRaces('attendance under concurrency (PostgreSQL)', () => {
  it('ten markings of one delegate at once leave exactly one live result, the one the delegate row names', async () => {
    const s = await pastSession();
    const d = await placeDelegate(h, s.id, w.learner2);
    const trainer = await w.as(w.trainer.id);
    const answers = await parallel(10, (i) =>
      trainer('POST', `/api/training-sessions/${s.id}/attendance`, {
        marks: [{ delegate_id: d.id, attendance: i % 2 ? 'attended' : 'partial' }],
      }),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const live = await h.db
      .selectFrom('results')
      .select('id')
      .where('user_id', '=', w.learner2.id)
      .where('course_id', '=', w.f2f.course_id)
      .where('deleted_at', 'is', null)
      .where('created_at', '>=', new Date(Date.now() - 60_000))
      .execute();
    const row = await h.db
      .selectFrom('session_delegates')
      .select('result_id')
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow();
    const fromThisSession = live.filter((r) => r.id === row.result_id);
    expect(fromThisSession).toHaveLength(1);
    const others = await h.db
      .selectFrom('results')
      .select('id')
      .where('content_id', '=', w.f2f.id)
      .where('user_id', '=', w.learner2.id)
      .where('deleted_at', 'is', null)
      .where('completed_at', '=', new Date(s.ends_at))
      .execute();
    expect(others.map((r) => r.id)).toEqual([row.result_id]);
  });

  it('two cancels at once: one cancels, the other is refused', async () => {
    const s = await pastSession();
    const reason = await h.db.selectFrom('cancellation_reasons').select('id').executeTakeFirstOrThrow();
    const manager = await w.as(w.manager.id);
    const answers = await parallel(2, () =>
      manager('POST', `/api/training-sessions/${s.id}/cancel`, { cancellation_reason_id: reason.id }),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 422]);
  });
});
