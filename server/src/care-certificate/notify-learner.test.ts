import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { runDueJobs } from '../jobs/queue';
import { registerAllJobs } from '../register-jobs';
import {
  buildCertificate,
  buildObservation,
  buildPeople,
  buildVersion,
  type TestVersion,
} from './approval-world';

/** The person hears (bell and e-mail) when a standard is approved or returned, and when the certificate is complete. */
let h: Harness;
let v: TestVersion;
beforeAll(async () => {
  h = await createHarness();
  v = await buildVersion(h.db);
});
afterAll(async () => h?.close());

const as = (userId: number) => clientFor(h.app, h.db, userId);

async function world() {
  const people = await buildPeople(h.db);
  const cert = await buildCertificate(h.db, { userId: people.learner.id, versionId: v.id });
  await buildObservation(h.db, {
    certificateId: cert.id,
    criterionIds: [v.criteria['1a'], v.criteria['1b'], v.criteria['2a']],
  });
  const url = (standard: number, action: string) =>
    `/api/care-certificates/${cert.uuid}/standards/${v.standards[standard]}/${action}`;
  return { ...people, cert, url };
}

const noticesOf = (userId: number) =>
  h.db
    .selectFrom('notifications')
    .select(['id', 'channel', 'state', 'title', 'body', 'link'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'care_certificate')
    .orderBy('id')
    .execute();

describe('notices to the person of decisions on their certificate', () => {
  it('approve: an in-app notice, and an e-mail once the delivery job runs', async () => {
    const { url, cert, learner, approver } = await world();
    const res = await (await as(approver.id))('POST', url(1, 'approve'));
    expect(res.statusCode, res.body).toBe(200);
    const notices = await noticesOf(learner.id);
    expect(notices.map((n) => [n.channel, n.state])).toEqual([
      ['in_app', 'sent'],
      ['email', 'pending'],
    ]);
    expect(notices[0]).toMatchObject({
      title: 'Standard 1: Understand your role is approved',
      body: 'Ava Approver approved Standard 1: Understand your role of your certificate.',
      link: `/care-certificate/${cert.uuid}`,
    });
    expect(notices[0]?.title).not.toMatch(/Care Certificate/);
    // The approver is not told of their own decision.
    expect(await noticesOf(approver.id)).toEqual([]);
    registerAllJobs();
    await runDueJobs(h.deps, new Date());
    const mail = await h.db
      .selectFrom('mail_outbox')
      .select(['subject', 'template', 'text_body'])
      .where('to_address', '=', learner.email)
      .execute();
    expect(mail).toEqual([
      expect.objectContaining({
        subject: 'Standard 1: Understand your role is approved',
        template: 'notification_care_certificate',
      }),
    ]);
    expect(mail[0]?.text_body).toContain(`/care-certificate/${cert.uuid}`);
    expect(mail[0]?.text_body).toContain('about your own certificate');
    const email = notices.find((n) => n.channel === 'email');
    const sent = await h.db
      .selectFrom('notifications')
      .select('state')
      .where('id', '=', email?.id as number)
      .executeTakeFirstOrThrow();
    expect(sent.state).toBe('sent');
  });

  it('return: the notice carries the reasons', async () => {
    const { url, learner, approver } = await world();
    expect((await (await as(learner.id))('POST', url(1, 'submit'))).statusCode).toBe(200);
    expect(await noticesOf(learner.id)).toEqual([]);
    const res = await (await as(approver.id))('POST', url(1, 'reject'), {
      reasons: 'Add a second observation.',
    });
    expect(res.statusCode, res.body).toBe(200);
    const notices = await noticesOf(learner.id);
    expect(notices.map((n) => n.channel)).toEqual(['in_app', 'email']);
    expect(notices[0]?.title).toBe('Standard 1: Understand your role was returned');
    expect(notices[0]?.body).toContain('Add a second observation.');
    expect(notices[0]?.body).toContain('Ava Approver returned Standard 1: Understand your role');
  });

  it('the last standard: one "complete" notice instead of its approval notice', async () => {
    const { url, learner, manager } = await world();
    const m = await as(manager.id);
    expect((await m('POST', url(1, 'approve'))).statusCode).toBe(200);
    const last = await m('POST', url(2, 'approve'));
    expect(last.json().data.status).toBe('complete');
    const inApp = (await noticesOf(learner.id)).filter((n) => n.channel === 'in_app');
    expect(inApp.map((n) => n.title)).toEqual([
      'Standard 1: Understand your role is approved',
      'Your certificate is complete',
    ]);
    expect(inApp[1]?.body).toContain('Standard 2: Duty of care');
    expect((await noticesOf(learner.id)).filter((n) => n.channel === 'email')).toHaveLength(2);
  });

  it('no notice when the person approves their own certificate', async () => {
    const { manager } = await buildPeople(h.db);
    const cert = await buildCertificate(h.db, { userId: manager.id, versionId: v.id });
    await buildObservation(h.db, {
      certificateId: cert.id,
      criterionIds: [v.criteria['1a'], v.criteria['1b']],
    });
    const res = await (await as(manager.id))(
      'POST',
      `/api/care-certificates/${cert.uuid}/standards/${v.standards[1]}/approve`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await noticesOf(manager.id)).toEqual([]);
  });
});
