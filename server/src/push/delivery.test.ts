import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildRole, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse, buildPassedResult } from '../../test/learning-factories';
import { type PushReceivers, startPushReceivers } from '../../test/push-receivers';
import type { PushSettings } from '../config';
import type { Deps } from '../http/context';
import { runDueJobs } from '../jobs/queue';
import { sendMessageOnBehalf } from '../messaging/service';
import { registerAllJobs } from '../register-jobs';

/**
 * Reminders and messages by push (issue 19), through the real job queue, against local FCM and APNs stand-ins
 * (test/push-receivers.ts): a push that reached a phone makes the e-mail unnecessary; a dead token removes the
 * phone; when every push failed, push is not set up, or the user has no phone, the e-mail goes and the ledger says
 * why.
 */
const DAY = 86_400_000;
let h: Harness;
let receivers: PushReceivers;
beforeAll(async () => {
  registerAllJobs();
  [h, receivers] = await Promise.all([createHarness(), startPushReceivers()]);
});
afterAll(async () => {
  await h?.close();
  await receivers?.close();
});

const withPush = (push: PushSettings): Deps => ({ ...h.deps, config: { ...h.deps.config, push } });
let worlds = 0;

/** A learner whose required course expires in 6 days (so the 7-day reminder is due), at a clock of its own. */
async function learnerDueReminder() {
  const org = await buildEntity(h.db, {
    level: 'A',
    settings: { events_reminder: true, expiry_warning: 90 },
  });
  const role = await buildRole(h.db, org.id);
  const course = await buildCourse(h.db, org.id, {
    title: `Moving and handling ${randomUUID().slice(0, 4)}`,
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
  const learner = await buildUser(h.db, { entityId: org.id, roleId: role.id });
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
  return { learner, course, remindAt: new Date(new Date(ur.expires_at as Date).getTime() - 6 * DAY) };
}

async function addPhone(userId: number, platform: 'android' | 'ios', token: string) {
  return h.db
    .insertInto('push_devices')
    .values({ user_id: userId, platform, token, device_name: `${platform} phone` })
    .returning('id')
    .executeTakeFirstOrThrow();
}

const ledger = (userId: number) =>
  h.db.selectFrom('notifications').selectAll().where('user_id', '=', userId).orderBy('id').execute();
const byChannel = async (userId: number, channel: 'email' | 'push' | 'in_app') =>
  (await ledger(userId)).filter((r) => r.channel === channel);
const mailsTo = (email: string) =>
  h.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', email).execute();
const phonesOf = (userId: number) =>
  h.db.selectFrom('push_devices').select('token').where('user_id', '=', userId).orderBy('id').execute();
const receivedBy = (token: string) => receivers.received.filter((r) => r.token === token);

describe('a reminder pushed to the phones', () => {
  it('reaches an Android and an iPhone; the e-mail is not needed and not sent', async () => {
    const { learner, course, remindAt } = await learnerDueReminder();
    const android = `ok-${randomUUID()}`;
    const iphone = `ok-${randomUUID()}`;
    await addPhone(learner.id, 'android', android);
    await addPhone(learner.id, 'ios', iphone);
    await runDueJobs(withPush(receivers.settings), remindAt);

    for (const token of [android, iphone]) {
      expect(receivedBy(token)).toHaveLength(1);
      expect(receivedBy(token)[0]?.title).toContain(course.title);
      expect(receivedBy(token)[0]?.link).toBe('/learner-dashboard');
    }
    const pushes = await byChannel(learner.id, 'push');
    expect(pushes.map((r) => [r.state, r.device_name, r.last_error])).toEqual([
      ['sent', 'android phone', null],
      ['sent', 'ios phone', null],
    ]);
    expect(pushes.every((r) => r.kind === 'expiry_reminder' && r.occasion === '7')).toBe(true);
    expect(await byChannel(learner.id, 'email')).toMatchObject([{ state: 'skipped', fallback: null }]);
    expect(await byChannel(learner.id, 'in_app')).toMatchObject([{ state: 'sent' }]);
    expect(await mailsTo(learner.email)).toEqual([]);
  });

  it('a dead token (FCM UNREGISTERED, APNs 410) removes that phone; a live one still gets it', async () => {
    const { learner, remindAt } = await learnerDueReminder();
    const live = `ok-${randomUUID()}`;
    await addPhone(learner.id, 'android', `dead-${randomUUID()}`);
    await addPhone(learner.id, 'ios', `dead-${randomUUID()}`);
    await addPhone(learner.id, 'ios', live);
    await runDueJobs(withPush(receivers.settings), remindAt);

    expect(await phonesOf(learner.id)).toEqual([{ token: live }]);
    const pushes = await byChannel(learner.id, 'push');
    expect(pushes.map((r) => r.state)).toEqual(['failed', 'failed', 'sent']);
    expect(pushes[0]?.last_error).toMatch(/no longer registered with Firebase/);
    expect(pushes[1]?.last_error).toMatch(/no longer registered with Apple/);
    // The removed phones' rows keep their names.
    expect(pushes.map((r) => r.push_device_id === null)).toEqual([true, true, false]);
    expect(pushes[0]?.device_name).toBe('android phone');
    expect(await byChannel(learner.id, 'email')).toMatchObject([{ state: 'skipped' }]);
  });
});

describe('e-mail as the fallback', () => {
  it('every push failed: each attempt is recorded with its reason, and the e-mail goes saying why', async () => {
    const { learner, remindAt } = await learnerDueReminder();
    await addPhone(learner.id, 'android', `fail-${randomUUID()}`);
    await addPhone(learner.id, 'ios', `fail-${randomUUID()}`);
    await runDueJobs(withPush(receivers.settings), remindAt);

    const pushes = await byChannel(learner.id, 'push');
    expect(pushes.map((r) => r.state)).toEqual(['failed', 'failed']);
    expect(pushes[0]?.last_error).toBe('Firebase did not take the notification (HTTP 503, UNAVAILABLE).');
    expect(pushes[1]?.last_error).toBe(
      'Apple did not take the notification (HTTP 500, InternalServerError).',
    );
    expect(await phonesOf(learner.id)).toHaveLength(2);
    expect(await byChannel(learner.id, 'email')).toMatchObject([{ state: 'sent', fallback: 'push_failed' }]);
    expect(await mailsTo(learner.email)).toHaveLength(1);
  });

  it('a push service that cannot be reached counts as a failed push', async () => {
    const { learner, remindAt } = await learnerDueReminder();
    await addPhone(learner.id, 'ios', `ok-${randomUUID()}`);
    const down = { apns: { ...receivers.settings.apns, host: 'http://127.0.0.1:1' } };
    await runDueJobs(withPush(down), remindAt);
    const [push] = await byChannel(learner.id, 'push');
    expect(push?.state).toBe('failed');
    expect(push?.last_error).toMatch(/^Apple's push service could not be reached/);
    expect(await byChannel(learner.id, 'email')).toMatchObject([{ state: 'sent', fallback: 'push_failed' }]);
  });

  it('push configured but no phone registered: e-mail, "no device"', async () => {
    const { learner, remindAt } = await learnerDueReminder();
    await runDueJobs(withPush(receivers.settings), remindAt);
    expect(await byChannel(learner.id, 'push')).toEqual([]);
    expect(await byChannel(learner.id, 'email')).toMatchObject([{ state: 'sent', fallback: 'no_device' }]);
    expect(await mailsTo(learner.email)).toHaveLength(1);
  });

  it('push not configured: e-mail only, even with a phone registered, and the phone stays', async () => {
    const { learner, remindAt } = await learnerDueReminder();
    const token = `ok-${randomUUID()}`;
    await addPhone(learner.id, 'android', token);
    await runDueJobs(withPush({}), remindAt);
    expect(receivedBy(token)).toEqual([]);
    expect(await byChannel(learner.id, 'push')).toEqual([]);
    expect(await byChannel(learner.id, 'email')).toMatchObject([
      { state: 'sent', fallback: 'push_not_configured' },
    ]);
    expect(await phonesOf(learner.id)).toEqual([{ token }]);
  });

  it('only FCM configured and only an iPhone registered: push is not set up for that phone', async () => {
    const { learner, remindAt } = await learnerDueReminder();
    await addPhone(learner.id, 'ios', `ok-${randomUUID()}`);
    await runDueJobs(withPush({ fcm: receivers.settings.fcm }), remindAt);
    expect(await byChannel(learner.id, 'email')).toMatchObject([
      { state: 'sent', fallback: 'push_not_configured' },
    ]);
  });
});

describe('a message pushed to its recipients', () => {
  it("goes to each recipient's phones (recorded as kind 'message'); recipients without a phone get no push job", async () => {
    const org = await buildEntity(h.db);
    const sender = await buildUser(h.db, { entityId: org.id, name: 'Ana Manager' });
    const withPhone = await buildUser(h.db, { entityId: org.id });
    const without = await buildUser(h.db, { entityId: org.id });
    const token = `ok-${randomUUID()}`;
    await addPhone(withPhone.id, 'android', token);
    const sent = await sendMessageOnBehalf(h.db, {
      senderId: sender.id,
      recipientIds: [withPhone.id, without.id],
      text: 'Please  book your\nfire safety refresher.',
      mail: false,
    });
    const jobs = await h.db.selectFrom('jobs').select('payload').where('name', '=', 'message-push').execute();
    expect(jobs.filter((j) => (j.payload as { message_id: number }).message_id === sent.id)).toHaveLength(1);
    await runDueJobs(withPush(receivers.settings), new Date(Date.now() + 1000));

    expect(receivedBy(token)).toEqual([
      {
        platform: 'android',
        token,
        title: 'Ana Manager sent you a message',
        body: 'Please book your fire safety refresher.',
        link: '/messages',
      },
    ]);
    expect(await ledger(withPhone.id)).toMatchObject([
      {
        kind: 'message',
        subject_key: `message:${sent.id}`,
        channel: 'push',
        state: 'sent',
        entity_id: org.id,
      },
    ]);
    expect(await ledger(without.id)).toEqual([]);
    // The sender did not ask for e-mail: none, whatever the push did.
    expect(await mailsTo(withPhone.email)).toEqual([]);
  });
});
