import { ResultsMessages } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCourse } from '../../test/content-factories';
import { buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { runDueJobs } from '../jobs/queue';
import { registerAllJobs } from '../register-jobs';

/**
 * An exemption says why and may end (issue 28 item 6): the one-click exemption (PATCH
 * /users/{id}/compliance-courses/{courseId}) and POST /results/exempt need a reason and refuse an end date that is not
 * after today; after the end date the course is required again (computed from the date, before any job runs), and
 * the reminder job tells the learner ahead of it.
 */
const DAY = 86_400_000;
let h: Harness;
type Call = Awaited<ReturnType<typeof clientFor>>;

beforeAll(async () => {
  registerAllJobs();
  h = await createHarness();
});
afterAll(async () => h?.close());

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** An organisation sending reminders, a carer whose role requires a course, a manager with 43, 24 and 26. */
async function world() {
  const org = await buildEntity(h.db, {
    level: 'A',
    settings: { events_reminder: true, expiry_warning: 30 },
  });
  const role = await buildRole(h.db, org.id);
  const course = await buildCourse(h.db, org.id, {
    title: `Moving and handling ${org.slug}`,
    published: true,
  });
  await h.db
    .insertInto('compliance_rules')
    .values({
      entity_id: org.id,
      role_id: role.id,
      course_id: course.id,
      type: 'primary',
      validity_months: 12,
    })
    .execute();
  const carer = await buildUser(h.db, { entityId: org.id, roleId: role.id, startDate: '2020-01-01' });
  const m = await buildUser(h.db, { entityId: org.id, permissions: [43, 24, 26, 25] });
  const manager: Call = await clientFor(h.app, h.db, m.id);
  const url = `/api/users/${carer.uuid}/compliance-courses/${course.id}`;
  const row = async () =>
    (await manager('GET', `/api/users/${carer.uuid}/compliance-courses`)).json().data[0] as {
      status: string;
      exempt: boolean;
      exemption: { reason: string | null; end_date: string | null } | null;
    };
  return { org, course, carer, manager, url, row };
}

describe('one-click exemption (PATCH /users/{id}/compliance-courses/{courseId})', () => {
  it('needs a reason (422 without) and an end date after today (422 for today or the past)', async () => {
    const w = await world();
    const none = await w.manager('PATCH', w.url, { exempt: true });
    expect(none.statusCode, none.body).toBe(422);
    expect(none.json().errors).toEqual({ notes: [ResultsMessages.reasonRequired] });
    const blank = await w.manager('PATCH', w.url, { exempt: true, notes: '   ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().errors.notes).toEqual([ResultsMessages.reasonRequired]);
    for (const end of [isoDay(new Date()), isoDay(new Date(Date.now() - 3 * DAY))]) {
      const past = await w.manager('PATCH', w.url, { exempt: true, notes: 'Agency nurse', end_date: end });
      expect(past.statusCode, end).toBe(422);
      expect(past.json().errors).toEqual({ end_date: [ResultsMessages.endNotFuture] });
    }
    // Nothing was recorded by the refused calls.
    expect((await w.row()).exempt).toBe(false);
    // Lifting needs no reason.
    expect((await w.manager('PATCH', w.url, { exempt: false })).statusCode).toBe(200);
  });

  it('records the reason and the end date, shown in the course row and the exemptions list', async () => {
    const w = await world();
    const end = isoDay(new Date(Date.now() + 20 * DAY));
    const res = await w.manager('PATCH', w.url, { exempt: true, notes: 'Agency nurse', end_date: end });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      status: 'exempt',
      exempt: true,
      exemption: { reason: 'Agency nurse', end_date: end },
    });
    const list = (await w.manager('GET', `/api/results/exempt?user_id=${w.carer.id}`)).json().data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ notes: 'Agency nurse', expires_at: `${end}T00:00:00.000Z` });
  });

  it('after the end date the course is required again, from the date alone (no job has run)', async () => {
    const w = await world();
    const end = isoDay(new Date(Date.now() + 2 * DAY));
    expect(
      (await w.manager('PATCH', w.url, { exempt: true, notes: 'Short contract', end_date: end })).statusCode,
    ).toBe(200);
    expect((await w.row()).status).toBe('exempt');
    const real = h.deps.clock;
    h.deps.clock = () => new Date(Date.now() + 3 * DAY);
    try {
      const after = await w.row();
      // Not exempt, not compliant: the requirement applies again, and with no other result it is missing (issue 28
      // §6: an ended exemption counts for nothing); the row still says which exemption ended.
      expect(after.status).toBe('missing');
      expect(after.exempt).toBe(false);
      expect(after.exemption).toEqual({ reason: 'Short contract', end_date: end });
      // Exempting again records a new exemption (an ended one excuses nobody).
      const again = await w.manager('PATCH', w.url, { exempt: true, notes: 'Extended contract' });
      expect(again.json().data).toMatchObject({
        status: 'exempt',
        exemption: { reason: 'Extended contract', end_date: null },
      });
    } finally {
      h.deps.clock = real;
    }
  });

  it('the reminder job tells the learner that the exemption ends, once per occasion', async () => {
    const w = await world();
    const end = isoDay(new Date(Date.now() + 10 * DAY));
    expect(
      (await w.manager('PATCH', w.url, { exempt: true, notes: 'Agency nurse', end_date: end })).statusCode,
    ).toBe(200);
    const endsAt = new Date(`${end}T00:00:00Z`);
    await runDueJobs(h.deps, new Date(endsAt.getTime() - 6 * DAY));
    await runDueJobs(h.deps, new Date(endsAt.getTime() - 6 * DAY + 3_600_000));
    const rows = await h.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', w.carer.id)
      .where('kind', '=', 'expiry_reminder')
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.channel, r.occasion])).toEqual([
      ['in_app', '7'],
      ['email', '7'],
    ]);
    expect(rows[0]?.title).toBe(`Your exemption from ${w.course.title} ends in 7 days`);
    expect(rows[0]?.course_id).toBe(w.course.id);
  });
});

describe('POST /results/exempt', () => {
  it('needs a reason and an end date after today; an edit may not clear the reason', async () => {
    const w = await world();
    const body = { user_id: w.carer.id, course_id: w.course.id };
    const none = await w.manager('POST', '/api/results/exempt', body);
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.notes).toEqual([ResultsMessages.reasonRequired]);
    const past = await w.manager('POST', '/api/results/exempt', {
      ...body,
      notes: 'Agency nurse',
      start_date: '2024-01-01',
      end_date: isoDay(new Date(Date.now() - DAY)),
    });
    expect(past.statusCode).toBe(422);
    expect(past.json().errors).toEqual({ end_date: [ResultsMessages.endNotFuture] });
    const made = await w.manager('POST', '/api/results/exempt', {
      ...body,
      notes: 'Agency nurse',
      start_date: '2024-01-01',
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data.id;
    const cleared = await w.manager('PATCH', `/api/results/exempt/${id}`, { notes: '' });
    expect(cleared.statusCode).toBe(422);
    expect(cleared.json().errors.notes).toEqual([ResultsMessages.reasonRequired]);
    // An ended exemption can still be edited (its reason) with its stored end date sent back as it is.
    const ended = isoDay(new Date(Date.now() - 2 * DAY));
    await h.db
      .updateTable('results')
      .set({ expires_at: new Date(`${ended}T00:00:00Z`) })
      .where('id', '=', id)
      .execute();
    const edit = await w.manager('PATCH', `/api/results/exempt/${id}`, { notes: 'Agency', end_date: ended });
    expect(edit.statusCode, edit.body).toBe(200);
    const moved = await w.manager('PATCH', `/api/results/exempt/${id}`, {
      end_date: isoDay(new Date(Date.now() - DAY)),
    });
    expect(moved.json().errors).toEqual({ end_date: [ResultsMessages.endNotFuture] });
  });
});
