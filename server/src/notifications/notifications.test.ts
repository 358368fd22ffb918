import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildRole, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse, buildPassedResult } from '../../test/learning-factories';
import type { Deps } from '../http/context';
import { runDueJobs } from '../jobs/queue';
import type { Mailer } from '../mail/mailer';
import { registerAllJobs } from '../register-jobs';
import { DELIVERY_ATTEMPTS } from './jobs';
import { isoWeek } from './messages';
import { quietHoursEnd } from './quiet-hours';

/**
 * Reminders and the delivery ledger (issue 14), through the real job queue on a fixed clock: the reminder job is
 * the recurring 'send-reminders' slot that runDueJobs enqueues, e-mails go through 'deliver-notification'.
 */
const DAY = 86_400_000;
const HOUR = 3_600_000;
let h: Harness;

beforeAll(async () => {
  registerAllJobs();
  h = await createHarness();
});
afterAll(async () => h?.close());

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);
/** Wednesday noon (UTC) of `d`'s ISO week: an hour later is still the same week, whatever day and hour the suite runs. */
function midWeek(d: Date): Date {
  const day = d.getUTCDay() || 7;
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 3 - day, 12));
}
/** Each world's expiry is 400 days from the others': the hourly reminder slots of two tests never meet. */
let worlds = 0;

/** An organisation (reminders on unless said), a learner with a passed 12-month course, and its expiry. */
async function learnerWithExpiry(settings: Record<string, unknown> = {}, permissions: number[] = []) {
  const org = await buildEntity(h.db, {
    level: 'A',
    settings: { events_reminder: true, expiry_warning: 90, ...settings },
  });
  const role = await buildRole(h.db, org.id);
  const course = await buildCourse(h.db, org.id, { title: `Fire safety ${randomUUID().slice(0, 4)}` });
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
  const learner = await buildUser(h.db, { entityId: org.id, roleId: role.id, permissions });
  // 12 months after completion; the job then runs on clocks set around that expiry.
  worlds += 1;
  await buildPassedResult(h.db, {
    userId: learner.id,
    entityId: org.id,
    courseId: course.id,
    completedAt: new Date(Date.now() - worlds * 400 * DAY),
  });
  const ur = await h.db
    .selectFrom('user_requirements')
    .select('expires_at')
    .where('user_id', '=', learner.id)
    .where('course_id', '=', course.id)
    .executeTakeFirstOrThrow();
  return { org, role, course, learner, expiresAt: new Date(ur.expires_at as Date) };
}

const ledger = (userId: number) =>
  h.db.selectFrom('notifications').selectAll().where('user_id', '=', userId).orderBy('id').execute();
const mailsTo = (email: string) =>
  h.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', email).orderBy('id').execute();

describe('expiry reminders', () => {
  it('sends each of 90, 60, 30, 7 days and the expiry day once, in-app and by e-mail, however often the job runs', async () => {
    const { learner, expiresAt } = await learnerWithExpiry();
    const times = [89, 59, 29, 6].map((d) => at(expiresAt, -d * DAY)).concat([at(expiresAt, HOUR)]);
    for (const t of times) {
      await runDueJobs(h.deps, t);
      await runDueJobs(h.deps, at(t, HOUR)); // the next hourly slot: the same occasion is due, nothing new
      await runDueJobs(h.deps, at(t, 2 * HOUR));
    }
    const rows = await ledger(learner.id);
    const occasions = (channel: string) => rows.filter((r) => r.channel === channel).map((r) => r.occasion);
    expect(occasions('in_app')).toEqual(['90', '60', '30', '7', '0']);
    expect(occasions('email')).toEqual(['90', '60', '30', '7', '0']);
    expect(
      rows.filter((r) => r.channel === 'email').every((r) => r.state === 'sent' && r.attempts === 1),
    ).toBe(true);
    const mails = await mailsTo(learner.email);
    expect(mails).toHaveLength(5);
    expect(mails[0]?.subject).toMatch(/expires in 90 days$/);
    expect(mails[4]?.subject).toMatch(/expires today$/);
    expect(mails[0]?.text_body).toContain('http://localhost:3000/learner-dashboard');
  });

  it('a first run close to the expiry sends only the most urgent reminder due, not the ones it missed', async () => {
    const { learner, expiresAt } = await learnerWithExpiry();
    await runDueJobs(h.deps, at(expiresAt, -5 * DAY));
    expect((await ledger(learner.id)).map((r) => r.occasion)).toEqual(['7', '7']);
    // Long expired: no reminder at all (the day after expiry has passed).
    const old = await learnerWithExpiry();
    await runDueJobs(h.deps, at(old.expiresAt, 2 * DAY));
    expect(await ledger(old.learner.id)).toEqual([]);
  });

  it('respects expiry_warning: 90 and 60 only when the warning window reaches that far', async () => {
    const { learner, expiresAt } = await learnerWithExpiry({ expiry_warning: 30 });
    for (const d of [89, 59, 29]) await runDueJobs(h.deps, at(expiresAt, -d * DAY));
    expect((await ledger(learner.id)).filter((r) => r.channel === 'email').map((r) => r.occasion)).toEqual([
      '30',
    ]);
  });

  it('optional reminders follow the learner’s preferences; 7 days and the expiry day cannot be turned off', async () => {
    const { learner, expiresAt } = await learnerWithExpiry({}, [127]);
    const headers = await bearer(h.db, learner.id);
    const res = await h.app.inject({
      method: 'PATCH',
      url: `/api/users/${learner.id}`,
      headers,
      payload: { user_preferences: { notify_expiry_90: false, notify_expiry_30: false } },
    });
    expect(res.statusCode).toBe(200);
    for (const d of [89, 59, 29, 6]) await runDueJobs(h.deps, at(expiresAt, -d * DAY));
    await runDueJobs(h.deps, at(expiresAt, HOUR));
    const email = (await ledger(learner.id)).filter((r) => r.channel === 'email').map((r) => r.occasion);
    expect(email).toEqual(['60', '7', '0']);
  });

  it('events_reminder off sends none', async () => {
    const { learner, expiresAt } = await learnerWithExpiry({ events_reminder: false });
    for (const d of [89, 59, 29, 6]) await runDueJobs(h.deps, at(expiresAt, -d * DAY));
    await runDueJobs(h.deps, at(expiresAt, HOUR));
    expect(await ledger(learner.id)).toEqual([]);
    expect(await mailsTo(learner.email)).toEqual([]);
  });
});

describe('quiet hours', () => {
  it('finds the end of a window across midnight in UK time, summer and winter', () => {
    expect(quietHoursEnd(new Date('2030-01-15T23:30:00Z'), '22:00', '07:00')?.toISOString()).toBe(
      '2030-01-16T07:00:00.000Z',
    );
    // British Summer Time: 07:00 in London is 06:00 UTC.
    expect(quietHoursEnd(new Date('2030-07-15T02:10:00Z'), '22:00', '07:00')?.toISOString()).toBe(
      '2030-07-15T06:00:00.000Z',
    );
    expect(quietHoursEnd(new Date('2030-01-15T12:00:00Z'), '22:00', '07:00')).toBeNull();
    expect(quietHoursEnd(new Date('2030-01-15T12:00:00Z'), '12:00', '13:30')?.toISOString()).toBe(
      '2030-01-15T13:30:00.000Z',
    );
    expect(quietHoursEnd(new Date('2030-01-15T23:30:00Z'), null, '07:00')).toBeNull();
  });

  it('holds e-mails due inside them until they end; in-app ones are not held', async () => {
    const { learner, expiresAt, org } = await learnerWithExpiry({
      quiet_hours_start: '22:00',
      quiet_hours_end: '07:00',
    });
    // 23:30 UK time on a day 29 days before expiry (the 30-day reminder is due).
    const day = at(expiresAt, -29 * DAY);
    const night = quietNight(day);
    await runDueJobs(h.deps, night.start);
    let rows = await ledger(learner.id);
    const email = () => rows.find((r) => r.channel === 'email');
    expect(rows.find((r) => r.channel === 'in_app')?.state).toBe('sent');
    expect(email()?.state).toBe('held');
    expect(email()?.next_attempt_at?.toISOString()).toBe(night.end.toISOString());
    await runDueJobs(h.deps, at(night.end, -HOUR));
    expect(await mailsTo(learner.email)).toHaveLength(0);
    await runDueJobs(h.deps, night.end);
    rows = await ledger(learner.id);
    expect(email()?.state).toBe('sent');
    expect(email()?.sent_at?.toISOString()).toBe(night.end.toISOString());
    expect(await mailsTo(learner.email)).toHaveLength(1);
    expect(org.id).toBeGreaterThan(0);
  });
});

/** 23:30 and the next 07:00 in London around `day` (whatever the season). */
function quietNight(day: Date) {
  const date = day.toISOString().slice(0, 10);
  for (const offset of [0, 1]) {
    const start = new Date(`${date}T${String(23 - offset).padStart(2, '0')}:30:00Z`);
    const end = quietHoursEnd(start, '22:00', '07:00');
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/London',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(start);
    if (local === '23:30' && end) return { start, end };
  }
  throw new Error('no night found');
}

describe('a mail server that fails', () => {
  it('is retried with backoff, each attempt recorded on the ledger row, then the row is failed', async () => {
    const { learner, expiresAt } = await learnerWithExpiry();
    let calls = 0;
    const failing: Mailer = {
      ...h.deps.mailer,
      delivers: true,
      async deliver() {
        calls += 1;
        throw new Error('connect ECONNREFUSED 127.0.0.1:25');
      },
    };
    const deps: Deps = { ...h.deps, mailer: failing };
    let t = at(expiresAt, -6 * DAY);
    await runDueJobs(deps, t);
    const emailRow = async () => (await ledger(learner.id)).find((r) => r.channel === 'email');
    let row = await emailRow();
    expect(row).toMatchObject({ state: 'pending', attempts: 1 });
    expect(row?.last_error).toContain('ECONNREFUSED');
    const waits: number[] = [];
    for (let attempt = 2; attempt <= DELIVERY_ATTEMPTS; attempt++) {
      const next = row?.next_attempt_at as Date;
      waits.push(next.getTime() - t.getTime());
      // Not before its time.
      await runDueJobs(deps, at(next, -1000));
      expect((await emailRow())?.attempts).toBe(attempt - 1);
      t = next;
      await runDueJobs(deps, t);
      row = await emailRow();
      expect(row?.attempts).toBe(attempt);
    }
    expect(waits).toEqual([60_000, 240_000, 960_000, 3_840_000]);
    expect(row).toMatchObject({ state: 'failed', attempts: DELIVERY_ATTEMPTS, next_attempt_at: null });
    expect(row?.last_error).toMatch(/^The mail server did not take the message/);
    expect(calls).toBe(DELIVERY_ATTEMPTS);
    // The recorded message stays in the outbox (one, however many attempts).
    expect(await mailsTo(learner.email)).toHaveLength(1);
    await runDueJobs(deps, at(t, DAY));
    expect(calls).toBe(DELIVERY_ATTEMPTS);
  });
});

describe('weekly digest', () => {
  it('goes once per ISO week to each manager of the homes, with a link to the manager dashboard', async () => {
    const { org, learner, expiresAt } = await learnerWithExpiry();
    const home = await buildEntity(h.db, {
      level: 'B',
      parentId: org.id,
      settings: { events_reminder: true },
    });
    const manager = await buildUser(h.db, { entityId: org.id, permissions: [105], name: 'Mia Manager' });
    const optedOut = await buildUser(h.db, { entityId: org.id, permissions: [105] });
    await h.db
      .updateTable('users')
      .set({ user_preferences: JSON.stringify({ notify_manager_digest: false }) })
      .where('id', '=', optedOut.id)
      .execute();
    const notManager = await buildUser(h.db, { entityId: home.id });
    // Two runs an hour apart in one ISO week (a Sunday 23:30 start once gave a second week's digest).
    const t = midWeek(at(expiresAt, -20 * DAY));
    await runDueJobs(h.deps, t);
    await runDueJobs(h.deps, at(t, HOUR));
    const digests = (await ledger(manager.id)).filter((r) => r.kind === 'manager_digest');
    expect(digests.map((r) => [r.channel, r.occasion])).toEqual([
      ['in_app', isoWeek(t)],
      ['email', isoWeek(t)],
    ]);
    expect(digests[0]?.body).toContain(learner.name);
    expect(digests[0]?.title).toBe('Weekly digest: 1 person expiring, 0 people out of date');
    const mail = (await mailsTo(manager.email)).at(-1);
    expect(mail?.text_body).toContain('http://localhost:3000/manager-dashboard');
    expect(await ledger(optedOut.id)).toEqual([]);
    expect(await ledger(notManager.id)).toEqual([]);
    // The next week: one more.
    await runDueJobs(h.deps, at(t, 7 * DAY));
    expect(
      (await ledger(manager.id)).filter((r) => r.kind === 'manager_digest' && r.channel === 'email'),
    ).toHaveLength(2);
  });
});

describe('REST', () => {
  async function withNotifications() {
    const w = await learnerWithExpiry();
    const t = at(w.expiresAt, -6 * DAY);
    await runDueJobs(h.deps, at(w.expiresAt, -29 * DAY));
    await runDueJobs(h.deps, t);
    const headers = await bearer(h.db, w.learner.id);
    return { ...w, headers };
  }
  const call = (
    method: 'GET' | 'PATCH' | 'DELETE' | 'POST',
    url: string,
    headers?: Record<string, string>,
    payload?: object,
  ) => h.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  it('401 without a session', async () => {
    for (const [method, url] of [
      ['GET', '/api/notifications'],
      ['PATCH', '/api/notifications/1'],
      ['DELETE', '/api/notifications/1'],
      ['POST', '/api/notifications/read-all'],
      ['GET', '/api/users/1/notifications'],
    ] as const)
      expect(
        (await call(method, url, undefined, method === 'PATCH' ? { read: true } : undefined)).statusCode,
      ).toBe(401);
  });

  it('lists the caller’s own, newest first, with the unread count; read, unread, dismiss, read-all', async () => {
    const { headers } = await withNotifications();
    let res = await call('GET', '/api/notifications', headers);
    expect(res.statusCode).toBe(200);
    let body = res.json();
    expect(body.data.map((n: { title: string }) => n.title.replace(/^.* expires/, 'expires'))).toEqual([
      'expires in 7 days',
      'expires in 30 days',
    ]);
    expect(body.unread_count).toBe(2);
    expect(body.meta.total).toBe(2);
    const [newest, older] = body.data;
    expect(newest.link).toBe('/learner-dashboard');

    res = await call('PATCH', `/api/notifications/${newest.id}`, headers, { read: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      data: { id: newest.id, read: true },
      message: 'Notification updated.',
    });
    expect((await call('GET', '/api/notifications', headers)).json().unread_count).toBe(1);
    expect((await call('GET', '/api/notifications?unread=true', headers)).json().data).toHaveLength(1);
    res = await call('PATCH', `/api/notifications/${newest.id}`, headers, { read: false });
    expect(res.json().data.read).toBe(false);

    res = await call('DELETE', `/api/notifications/${older.id}`, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Notification dismissed.');
    body = (await call('GET', '/api/notifications', headers)).json();
    expect(body.data.map((n: { id: number }) => n.id)).toEqual([newest.id]);
    // A dismissed one is gone for its recipient: 404 on a second dismiss.
    expect((await call('DELETE', `/api/notifications/${older.id}`, headers)).statusCode).toBe(404);

    res = await call('POST', '/api/notifications/read-all', headers);
    expect(res.json()).toMatchObject({ message: 'All notifications marked as read.', data: { updated: 1 } });
    expect((await call('GET', '/api/notifications', headers)).json().unread_count).toBe(0);
  });

  it('422 for a bad body or id', async () => {
    const { headers } = await withNotifications();
    const res = await call('PATCH', '/api/notifications/1', headers, { read: 'yes' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.read).toBeDefined();
    expect((await call('PATCH', '/api/notifications/abc', headers, { read: true })).statusCode).toBe(422);
  });

  it('404 for someone else’s notification, which stays as it was', async () => {
    const a = await withNotifications();
    const b = await withNotifications();
    const theirs = (await call('GET', '/api/notifications', b.headers)).json().data[0];
    expect(
      (await call('PATCH', `/api/notifications/${theirs.id}`, a.headers, { read: true })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/api/notifications/${theirs.id}`, a.headers)).statusCode).toBe(404);
    expect((await call('PATCH', '/api/notifications/99999999', a.headers, { read: true })).statusCode).toBe(
      404,
    );
    const after = (await call('GET', '/api/notifications', b.headers)).json();
    expect(after.unread_count).toBe(2);
  });

  it('the ledger of a user: their manager sees every channel and state; 403 without permission; 404 outside', async () => {
    const { org, learner, headers } = await withNotifications();
    const manager = await buildUser(h.db, { entityId: org.id, permissions: [105] });
    const colleague = await buildUser(h.db, { entityId: org.id, permissions: [] });
    const outsider = await buildUser(h.db, { permissions: [105, 24] });
    const url = `/api/users/${learner.uuid}/notifications`;
    const res = await call('GET', url, await bearer(h.db, manager.id));
    expect(res.statusCode).toBe(200);
    const data = res.json().data as {
      channel: string;
      state: string;
      occasion: string;
      course: { title: string };
    }[];
    expect(data.map((d) => [d.occasion, d.channel, d.state])).toEqual([
      ['7', 'email', 'sent'],
      ['7', 'in_app', 'sent'],
      ['30', 'email', 'sent'],
      ['30', 'in_app', 'sent'],
    ]);
    expect(data[0]?.course.title).toMatch(/^Fire safety/);
    expect((await call('GET', url, headers)).statusCode).toBe(200); // their own
    expect((await call('GET', url, await bearer(h.db, colleague.id))).statusCode).toBe(403);
    expect((await call('GET', url, await bearer(h.db, outsider.id))).statusCode).toBe(404);
    expect((await call('GET', '/api/users/not-a-user/notifications', headers)).statusCode).toBe(404);
  });
});
