import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { type SmtpReceiver, startSmtpReceiver } from '../../test/smtp-receiver';
import { runDueJobs } from '../jobs/queue';
import { registerAllJobs } from '../register-jobs';
import { DELIVER_MAIL, queueMail } from './jobs';

/**
 * Issue 30 §4: mail caused by a request goes through the job queue. The request records it (and its delivery job) in
 * its own transaction and never talks to the SMTP server; the job delivers it after the commit and the queue retries
 * a failure. Here the SMTP server is a real one on a local port that can be silent (takes the connection, never
 * answers), refuse (drops each connection) or answer (a minimal SMTP dialogue, keeping what it received).
 */
let h: Harness;
let smtp: SmtpReceiver;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  h = await createHarness({ smtp: { host: '127.0.0.1', port: smtp.port, secure: false } });
  registerAllJobs();
});
afterAll(async () => {
  await h?.close();
  smtp?.server.close();
});

const mailTo = (to: string) =>
  h.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).orderBy('id').execute();

const deliveryJobs = () =>
  h.db
    .selectFrom('jobs')
    .select(['id', 'status', 'attempts', 'run_at', 'last_error', 'payload'])
    .where('name', '=', DELIVER_MAIL)
    .orderBy('id')
    .execute();

describe('mail caused by a request goes through the job queue (issue 30 §4)', () => {
  it('a user created while the SMTP server is silent answers at once; the job delivers the welcome mail, retried after a failure', async () => {
    const org = await buildEntity(h.db);
    const admin = await buildUser(h.db, { entityId: org.id, permissions: [3, 18, 21] });
    const headers = await bearer(h.db, admin.id);
    const email = 'new.starter@example.test';

    smtp.mode = 'silent';
    const started = performance.now();
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/users',
      headers,
      payload: { name: 'New Starter', email },
    });
    const ms = performance.now() - started;
    expect(res.statusCode, res.body).toBe(201);
    // It waited for the SMTP server's greeting (30 s) before it answered; now it never talks to it.
    expect(ms).toBeLessThan(15_000);

    const [mail] = await mailTo(email);
    expect(mail).toMatchObject({ template: 'welcome', transport: 'smtp', sent_at: null, error: null });
    const [job] = await deliveryJobs();
    expect(job).toMatchObject({ status: 'queued', attempts: 0, payload: { mail_id: mail?.id } });

    // The first attempt meets a server that drops the connection: recorded, and queued again with a backoff.
    smtp.mode = 'refuse';
    const now = h.deps.clock();
    await runDueJobs(h.deps, now);
    const [failed] = await deliveryJobs();
    expect(failed).toMatchObject({ status: 'queued', attempts: 1 });
    expect(failed?.last_error).toBe('The SMTP server did not take the message (see the outbox).');
    expect(new Date(failed?.run_at as Date).getTime()).toBeGreaterThan(now.getTime());
    expect((await mailTo(email))[0]?.error).toBeTruthy();
    expect(smtp.received).toEqual([]);

    // Its retry, once the server answers, delivers it: once, with the set-your-password link.
    smtp.mode = 'answer';
    await runDueJobs(h.deps, new Date(new Date(failed?.run_at as Date).getTime() + 1000));
    const [sent] = await mailTo(email);
    expect(sent?.sent_at).not.toBeNull();
    expect(sent?.error).toBeNull();
    expect((await deliveryJobs())[0]).toMatchObject({ status: 'done', attempts: 2 });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toMatch(new RegExp(`^To: ${email.replace('.', '\\.')}`, 'm'));
    expect(smtp.received[0]).toContain('/reset-password/');
    // Delivered is delivered: another run sends nothing more.
    await runDueJobs(h.deps, new Date(Date.now() + 3_600_000));
    expect(smtp.received).toHaveLength(1);
  }, 60_000);

  it('a verify link asked for while the SMTP server is silent answers at once, and is delivered by its job', async () => {
    const user = await buildUser(h.db, { verified: false, email: 'unverified@example.test' });
    smtp.mode = 'silent';
    const started = performance.now();
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/auth/${user.uuid}/verification-send`,
      headers: await bearer(h.db, user.id),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect((await mailTo(user.email))[0]).toMatchObject({ template: 'verify_email', sent_at: null });

    smtp.mode = 'answer';
    const before = smtp.received.length;
    await runDueJobs(h.deps);
    expect((await mailTo(user.email))[0]?.sent_at).not.toBeNull();
    expect(smtp.received.slice(before).join('\n')).toContain('/verify-email/');
  }, 60_000);

  it('a change that rolls back sends nothing: no outbox row, no delivery job', async () => {
    const jobsBefore = (await deliveryJobs()).length;
    await expect(
      h.db.transaction().execute(async (trx) => {
        await queueMail(h.deps, trx, {
          to: 'rolled.back@example.test',
          subject: 'Never',
          text: 'never sent',
          template: 'welcome',
        });
        throw new Error('the change failed after its mail was queued');
      }),
    ).rejects.toThrow('the change failed');
    expect(await mailTo('rolled.back@example.test')).toEqual([]);
    expect(await deliveryJobs()).toHaveLength(jobsBefore);
    smtp.mode = 'answer';
    const before = smtp.received.length;
    await runDueJobs(h.deps);
    expect(smtp.received.length).toBe(before);
  });
});
