import {
  BookingsMessages as M,
  SESSION_LINK_ERROR,
  SessionMessages,
  type TrainingSessionView,
} from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { londonDate } from './session-service';
import {
  dayFromToday,
  insertSession,
  placeDelegate,
  type SessionsWorld,
  sessionBody,
  sessionsWorld,
} from './sessions-world';

/** Training sessions (issue 15): every route's 401, 422, 403, 404 (another organisation) and happy path. */
let h: Harness;
let w: SessionsWorld;
beforeAll(async () => {
  h = await createHarness();
  w = await sessionsWorld(h);
});
afterAll(async () => h?.close());

const anon = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  h.app.inject({ method, url, payload });
const view = (res: { json(): unknown }) => (res.json() as { data: TrainingSessionView }).data;

async function created(o: Parameters<typeof sessionBody>[1] = {}) {
  const res = await (await w.as(w.manager.id))('POST', '/api/training-sessions', sessionBody(w, o));
  expect(res.statusCode, res.body).toBe(201);
  return view(res);
}

describe('GET /cancellation-reasons', () => {
  it('401 anonymous; the list for anyone signed in', async () => {
    expect((await anon('GET', '/api/cancellation-reasons')).statusCode).toBe(401);
    const res = await (await w.as(w.learner.id))('GET', '/api/cancellation-reasons');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((r: { name: string }) => r.name)).toContain('Too few delegates');
  });
});

describe('POST /training-sessions', () => {
  it('401, 403 without 9, 422 on the contract and the rules', async () => {
    expect((await anon('POST', '/api/training-sessions', sessionBody(w))).statusCode).toBe(401);
    expect(
      (await (await w.as(w.nobody.id))('POST', '/api/training-sessions', sessionBody(w))).statusCode,
    ).toBe(403);
    const manager = await w.as(w.manager.id);
    const bad = async (body: object, field: string, message: string) => {
      const res = await manager('POST', '/api/training-sessions', body);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors[field]).toEqual([message]);
    };
    await bad({ ...sessionBody(w), maxDelegates: undefined }, 'maxDelegates', 'Enter the most delegates.');
    await bad(sessionBody(w, { contentId: w.elearning.id }), 'contentId', M.notFace2face);
    await bad(sessionBody(w, { contentId: w.otherContent.id }), 'contentId', M.notFace2face);
    await bad(sessionBody(w, { trainerId: w.notTrainer.id }), 'trainerId', M.notATrainer);
    await bad(sessionBody(w, { minDelegates: 7, maxDelegates: 6 }), 'minDelegates', M.minAboveMax);
    await bad(sessionBody(w, { startTime: '16:00', endTime: '09:00' }), 'endTime', M.endBeforeStart);
    await bad(
      sessionBody(w, { additionalDates: [{ date: dayFromToday(11), startTime: '10:00', endTime: '10:00' }] }),
      'additionalDates.0.endTime',
      M.endBeforeStart,
    );
    await bad(sessionBody(w, { grading_method: 'score' }), 'pass_mark', SessionMessages.passMarkRequired);
    await bad(sessionBody(w, { entity_id: w.otherOrg.id }), 'entity_id', SessionMessages.chooseOrganisation);
  });

  it('201: days stored in Europe/London time, a check-in code, the course of the content', async () => {
    const res = await (await w.as(w.creator.id))(
      'POST',
      '/api/training-sessions',
      sessionBody(w, {
        date: '2031-07-01',
        startTime: '09:30',
        endTime: '16:00',
        additionalDates: [{ date: '2031-12-02', startTime: '10:00', endTime: '12:00' }],
        entity_id: w.site.id,
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(M.sessionCreated);
    const s = view(res);
    expect(s.entity.id).toBe(w.site.id);
    expect(s.course.id).toBe(w.f2f.course_id);
    expect(s.dates).toEqual([
      { date: '2031-07-01', startTime: '09:30', endTime: '16:00' },
      { date: '2031-12-02', startTime: '10:00', endTime: '12:00' },
    ]);
    // Summer time (BST, UTC+1) on the first day, GMT on the last.
    expect(s.starts_at).toBe('2031-07-01T08:30:00.000Z');
    expect(s.ends_at).toBe('2031-12-02T12:00:00.000Z');
    expect(s.trainer?.name).toBe('Tia Trainer');
    expect(s.places_free).toBe(6);
    expect(s.status).toBe('scheduled');
    // The creator (9 only) does not mark: no code for them.
    expect(s.check_in_code).toBeNull();
    expect(s.can).toMatchObject({ edit: false, manage_delegates: true, mark: false });
    const row = await h.db
      .selectFrom('training_sessions')
      .select(['check_in_code', 'created_by'])
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(row.check_in_code).toMatch(/^[A-Z0-9]{6}$/);
    expect(row.created_by).toBe(w.creator.id);
  });

  it('a joining link is a web link only (issue 29 §7): 422 in the envelope for any other scheme, on POST and PATCH', async () => {
    const manager = await w.as(w.manager.id);
    const online = (virtual_url: string) =>
      sessionBody(w, { virtual: true, virtual_url, venue: null, room: null });
    for (const bad of [
      'javascript:alert(document.cookie)',
      'data:text/html,<script>alert(1)</script>',
      'ftp://files.example/join',
      'file:///etc/passwd',
      'meet.example/join',
    ]) {
      const res = await manager('POST', '/api/training-sessions', online(bad));
      expect(res.statusCode, bad).toBe(422);
      expect(res.json()).toMatchObject({
        message: expect.any(String),
        errors: { virtual_url: [SESSION_LINK_ERROR] },
      });
    }
    const http = await manager('POST', '/api/training-sessions', online('http://meet.example/room-1'));
    expect(http.statusCode, http.body).toBe(201);
    const s = view(http);
    expect(s.virtual_url).toBe('http://meet.example/room-1');
    const patched = await manager('PATCH', `/api/training-sessions/${s.id}`, {
      virtual_url: 'javascript:void(0)',
    });
    expect(patched.statusCode).toBe(422);
    expect(patched.json().errors.virtual_url).toEqual([SESSION_LINK_ERROR]);
    const https = await manager('PATCH', `/api/training-sessions/${s.id}`, {
      virtual_url: 'https://meet.example/room-2',
    });
    expect(view(https).virtual_url).toBe('https://meet.example/room-2');
  });
});

describe('GET /training-sessions and /training-sessions/{id}', () => {
  it('401; 403 for someone without bookings permissions (unless mine); the scope only', async () => {
    const s = await created({ date: '2032-03-03' });
    expect((await anon('GET', '/api/training-sessions')).statusCode).toBe(401);
    expect((await (await w.as(w.nobody.id))('GET', '/api/training-sessions')).statusCode).toBe(403);
    const list = await (await w.as(w.manager.id))('GET', '/api/training-sessions?per_page=100');
    expect(list.statusCode).toBe(200);
    const ids = list.json().data.map((x: { id: number }) => x.id);
    expect(ids).toContain(s.id);
    expect(ids).not.toContain(w.otherSession.id);
    const outsiderList = await (await w.as(w.outsider.id))('GET', '/api/training-sessions?per_page=100');
    expect(outsiderList.json().data.map((x: { id: number }) => x.id)).not.toContain(s.id);
  });

  it('filters: from/to, content, trainer, status, has_places, search, mine', async () => {
    const a = await created({ date: '2033-01-10', venue: 'Birch Hall' });
    const b = await created({ date: '2033-01-20', trainerId: null, maxDelegates: 1, minDelegates: 0 });
    await placeDelegate(h, b.id, w.learner2);
    const get = async (qs: string, as = w.manager.id) =>
      (await (await w.as(as))('GET', `/api/training-sessions?per_page=100&${qs}`))
        .json()
        .data.map((x: { id: number }) => x.id);
    expect(await get('from=2033-01-01&to=2033-01-15')).toEqual([a.id]);
    expect(await get('from=2033-01-01&to=2033-01-31&has_places=1')).toEqual([a.id]);
    expect(await get('from=2033-01-01&to=2033-01-31&search=birch')).toEqual([a.id]);
    expect(await get(`from=2033-01-01&to=2033-01-31&trainer_id=${w.trainer.id}`)).toEqual([a.id]);
    expect(await get(`from=2033-01-01&to=2033-01-31&content_id=${w.f2f.id}`)).toEqual([a.id, b.id]);
    expect(await get('from=2033-01-01&to=2033-01-31&status=cancelled')).toEqual([]);
    // The trainer has no bookings permission: only `mine`.
    expect((await (await w.as(w.trainer.id))('GET', '/api/training-sessions')).statusCode).toBe(403);
    expect(await get('from=2033-01-01&to=2033-01-31&mine=1', w.trainer.id)).toEqual([a.id]);
  });

  it('GET one: 401, 404 for another organisation and for a learner not on it; the trainer and a delegate see it', async () => {
    const s = await created();
    expect((await anon('GET', `/api/training-sessions/${s.id}`)).statusCode).toBe(401);
    expect((await (await w.as(w.outsider.id))('GET', `/api/training-sessions/${s.id}`)).statusCode).toBe(404);
    expect(
      (await (await w.as(w.manager.id))('GET', `/api/training-sessions/${w.otherSession.id}`)).statusCode,
    ).toBe(404);
    expect((await (await w.as(w.manager.id))('GET', '/api/training-sessions/999999')).statusCode).toBe(404);
    expect((await (await w.as(w.nobody.id))('GET', `/api/training-sessions/${s.id}`)).statusCode).toBe(404);
    const asTrainer = view(await (await w.as(w.trainer.id))('GET', `/api/training-sessions/${s.id}`));
    expect(asTrainer.check_in_code).toMatch(/^[A-Z0-9]{6}$/);
    expect(asTrainer.can).toMatchObject({ edit: false, mark: true });
    // A learner of the organisation may open a session offered to them (available training), without the code.
    const asLearner = view(await (await w.as(w.learner.id))('GET', `/api/training-sessions/${s.id}`));
    expect(asLearner.check_in_code).toBeNull();
    expect(asLearner.can.book).toBe(true);
    expect(asLearner.my_booking).toBeNull();
    const d = await placeDelegate(h, s.id, w.learner);
    const booked = view(await (await w.as(w.learner.id))('GET', `/api/training-sessions/${s.id}`));
    expect(booked.my_booking).toEqual({ id: d.id, status: 'accepted' });
    expect(booked.can.book).toBe(false);
    expect(booked.places_taken).toBe(1);
  });
});

describe('PATCH /training-sessions/{id}', () => {
  it('401, 422, 403 without 11, 404 for another organisation', async () => {
    const s = await created();
    expect((await anon('PATCH', `/api/training-sessions/${s.id}`, { venue: 'x' })).statusCode).toBe(401);
    const manager = await w.as(w.manager.id);
    const res422 = await manager('PATCH', `/api/training-sessions/${s.id}`, { maxDelegates: 0 });
    expect(res422.statusCode).toBe(422);
    expect(
      (await manager('PATCH', `/api/training-sessions/${s.id}`, { minDelegates: 9 })).json().errors
        .minDelegates,
    ).toEqual([M.minAboveMax]);
    expect(
      (await (await w.as(w.creator.id))('PATCH', `/api/training-sessions/${s.id}`, { venue: 'x' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await (await w.as(w.outsider.id))('PATCH', `/api/training-sessions/${s.id}`, { venue: 'x' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await manager('PATCH', `/api/training-sessions/${w.otherSession.id}`, { venue: 'x' })).statusCode,
    ).toBe(404);
  });

  it('one field changes only that field; a change delegates see raises the sequence', async () => {
    const s = await created({ aim: 'Safe moving', area: 'North' });
    const before = await h.db
      .selectFrom('training_sessions')
      .selectAll()
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    const res = await (await w.as(w.manager.id))('PATCH', `/api/training-sessions/${s.id}`, {
      venue: 'Elm Hall',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(M.sessionUpdated);
    const after = view(res);
    expect({ ...after, venue: s.venue, updated_at: s.updated_at }).toEqual({
      ...s,
      check_in_code: after.check_in_code,
    });
    expect(after.venue).toBe('Elm Hall');
    const row = await h.db
      .selectFrom('training_sessions')
      .selectAll()
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(row.sequence).toBe(before.sequence + 1);
    // A field delegates do not see (the minimum) leaves the sequence.
    await (await w.as(w.manager.id))('PATCH', `/api/training-sessions/${s.id}`, { minDelegates: 1 });
    const again = await h.db
      .selectFrom('training_sessions')
      .select(['sequence', 'min_delegates', 'venue'])
      .where('id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(again).toEqual({ sequence: before.sequence + 1, min_delegates: 1, venue: 'Elm Hall' });
  });

  it('new days move starts_at; the maximum cannot go below the places taken', async () => {
    const s = await created({ minDelegates: 0, maxDelegates: 3 });
    await placeDelegate(h, s.id, w.learner);
    await placeDelegate(h, s.id, w.learner2);
    const manager = await w.as(w.manager.id);
    const low = await manager('PATCH', `/api/training-sessions/${s.id}`, { maxDelegates: 1 });
    expect(low.statusCode).toBe(422);
    expect(low.json().errors.maxDelegates).toEqual([M.maxBelowTaken]);
    const res = await manager('PATCH', `/api/training-sessions/${s.id}`, {
      date: '2034-02-01',
      maxDelegates: 4,
    });
    expect(res.statusCode, res.body).toBe(200);
    const v = view(res);
    expect(v.date).toBe('2034-02-01');
    expect(v.startTime).toBe('09:30');
    expect(v.starts_at).toBe('2034-02-01T09:30:00.000Z');
    expect(v.places_free).toBe(2);
  });
});

describe('POST /training-sessions/{id}/cancel', () => {
  it('401, 422, 403, 404; cancels with the reason and releases the places', async () => {
    const s = await created();
    await placeDelegate(h, s.id, w.learner);
    const reason = await h.db
      .selectFrom('cancellation_reasons')
      .select('id')
      .where('name', '=', 'Venue unavailable')
      .executeTakeFirstOrThrow();
    const body = { cancellation_reason_id: reason.id, cancellation_notes: 'Flooded' };
    const url = `/api/training-sessions/${s.id}/cancel`;
    expect((await anon('POST', url, body)).statusCode).toBe(401);
    const manager = await w.as(w.manager.id);
    expect((await manager('POST', url, {})).statusCode).toBe(422);
    expect((await manager('POST', url, { cancellation_reason_id: 99999 })).json().errors).toEqual({
      cancellation_reason_id: [SessionMessages.chooseReason],
    });
    expect((await (await w.as(w.creator.id))('POST', url, body)).statusCode).toBe(403);
    expect((await (await w.as(w.outsider.id))('POST', url, body)).statusCode).toBe(404);
    const res = await manager('POST', url, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(M.sessionCancelled);
    expect(view(res)).toMatchObject({
      status: 'cancelled',
      cancelled: true,
      cancellation_reason: 'Venue unavailable',
      cancellation_notes: 'Flooded',
      places_taken: 0,
    });
    const delegate = await h.db
      .selectFrom('session_delegates')
      .select('status')
      .where('session_id', '=', s.id)
      .executeTakeFirstOrThrow();
    expect(delegate.status).toBe('accepted');
    // Cancelled once is closed: a second cancel or an edit is refused.
    expect((await manager('POST', url, body)).statusCode).toBe(422);
    expect((await manager('PATCH', `/api/training-sessions/${s.id}`, { venue: 'x' })).statusCode).toBe(422);
  });
});

describe('POST /training-sessions/{id}/complete and /incomplete', () => {
  it('401, 403 for staff without 11, 404 outsider; the trainer and 11 may', async () => {
    const s = await created();
    const url = `/api/training-sessions/${s.id}/complete`;
    expect((await anon('POST', url)).statusCode).toBe(401);
    expect((await (await w.as(w.creator.id))('POST', url)).statusCode).toBe(403);
    expect((await (await w.as(w.outsider.id))('POST', url)).statusCode).toBe(404);
    const res = await (await w.as(w.trainer.id))('POST', url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(M.sessionCompleted);
    expect(view(res).status).toBe('completed');
    const inc = await (await w.as(w.manager.id))('POST', `/api/training-sessions/${s.id}/incomplete`);
    expect(inc.json().message).toBe(M.sessionIncomplete);
    expect(view(inc).status).toBe('incomplete');
  });
});

describe('POST /training-sessions/{id}/check-in', () => {
  it('401, 422 on the body, 404 without a booking or outside, wrong code, wrong day, then checked in', async () => {
    const today = await created({ date: londonDate(new Date()), startTime: '00:01', endTime: '23:59' });
    const tomorrow = await created({ date: dayFromToday(1) });
    const d = await placeDelegate(h, today.id, w.learner);
    await placeDelegate(h, tomorrow.id, w.learner);
    const code = (
      await h.db
        .selectFrom('training_sessions')
        .select('check_in_code')
        .where('id', '=', today.id)
        .executeTakeFirstOrThrow()
    ).check_in_code;
    const url = `/api/training-sessions/${today.id}/check-in`;
    expect((await anon('POST', url, { code })).statusCode).toBe(401);
    const learner = await w.as(w.learner.id);
    expect((await learner('POST', url, {})).statusCode).toBe(422);
    expect((await (await w.as(w.learner2.id))('POST', url, { code })).statusCode).toBe(404);
    expect((await (await w.as(w.outsider.id))('POST', url, { code })).statusCode).toBe(404);
    const wrong = await learner('POST', url, { code: code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().message).toBe(M.wrongCheckInCode);
    const otherDay = await learner('POST', `/api/training-sessions/${tomorrow.id}/check-in`, { code });
    expect(otherDay.statusCode).toBe(422);
    expect(otherDay.json().message).toBe(M.checkInClosed);
    const res = await learner('POST', url, { code: code.toLowerCase() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(M.checkedIn);
    expect(res.json().data).toMatchObject({ id: d.id, status: 'accepted' });
    expect(res.json().data.checked_in_at).not.toBeNull();
  });
});

describe('another organisation', () => {
  it('every session route answers 404 for a session outside the scope', async () => {
    const manager = await w.as(w.manager.id);
    const id = w.otherSession.id;
    for (const [method, url, body] of [
      ['GET', `/api/training-sessions/${id}`, undefined],
      ['PATCH', `/api/training-sessions/${id}`, { venue: 'x' }],
      ['POST', `/api/training-sessions/${id}/cancel`, { cancellation_reason_id: 1 }],
      ['POST', `/api/training-sessions/${id}/complete`, undefined],
      ['POST', `/api/training-sessions/${id}/incomplete`, undefined],
      [
        'POST',
        `/api/training-sessions/${id}/attendance`,
        { marks: [{ delegate_id: 1, attendance: 'attended' }] },
      ],
      ['POST', `/api/training-sessions/${id}/check-in`, { code: 'ABCDEF' }],
    ] as const) {
      const res = await manager(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    const row = await h.db
      .selectFrom('training_sessions')
      .select(['status', 'venue'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'scheduled', venue: null });
    expect(insertSession).toBeTypeOf('function');
  });
});
