import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { lastMail, linkIn, runJobs } from '../auth/flows-test-support';
import { runDueJobs } from '../jobs/queue';
import { registerAllJobs } from '../register-jobs';
import { queueMail } from './jobs';
import { createMailer, outboxMessageId } from './mailer';
import { MASKED, maskLinks } from './mask-links';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  registerAllJobs();
});
afterAll(async () => h?.close());

describe('GET /api/mail/outbox', () => {
  it('is for super admins only, newest first, filtered by recipient', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/mail/outbox' })).statusCode).toBe(401);
    const manager = await buildUser(h.db, { permissions: [1, 2, 3, 18, 21] });
    expect(
      (
        await h.app.inject({
          method: 'GET',
          url: '/api/mail/outbox',
          headers: await bearer(h.db, manager.id),
        })
      ).statusCode,
    ).toBe(403);

    await queueMail(h.deps, h.db, { to: 'a@example.test', subject: 'First', text: 'one', template: 't' });
    await queueMail(h.deps, h.db, { to: 'b@example.test', subject: 'Second', text: 'two', template: 't' });
    const admin = await buildUser(h.db, { superAdmin: true });
    const headers = await bearer(h.db, admin.id);
    const all = await h.app.inject({ method: 'GET', url: '/api/mail/outbox', headers });
    expect(all.statusCode).toBe(200);
    expect(all.json().data.map((m: { subject: string }) => m.subject)).toEqual(['Second', 'First']);
    const one = await h.app.inject({ method: 'GET', url: '/api/mail/outbox?to=A@example.test', headers });
    expect(one.json().data).toHaveLength(1);
    expect(one.json().meta.total).toBe(1);
    const bad = await h.app.inject({ method: 'GET', url: '/api/mail/outbox?per_page=1000', headers });
    expect(bad.statusCode).toBe(422);
  });
});

describe('the outbox view masks the secrets of links (issue 11 §11)', () => {
  it('shows a reset link without its token, while the mail sent keeps the working link', async () => {
    const user = await buildUser(h.db, { email: 'forgetful@example.test' });
    const forgot = await h.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: user.email },
    });
    expect(forgot.statusCode, forgot.body).toBeLessThan(300);
    await runJobs(h);
    const stored = await lastMail(h, user.email, 'reset_password');
    const { token } = linkIn(stored?.text_body ?? '', 'reset-password');
    expect(token.length).toBeGreaterThan(20);

    const admin = await buildUser(h.db, { superAdmin: true });
    const res = await h.app.inject({
      method: 'GET',
      url: `/api/mail/outbox?to=${user.email}`,
      headers: await bearer(h.db, admin.id),
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(token);
    expect(res.body).not.toContain(encodeURIComponent(token));
    const [mail] = res.json().data;
    expect(mail.text_body).toContain(`/reset-password/${MASKED}?email=forgetful%40example.test`);
    expect(mail.html_body).toContain(`/reset-password/${MASKED}?email=forgetful%40example.test`);
  });

  it('masks token-like path segments and secret query values in text and HTML, keeping the rest', () => {
    const token = 'q3V9xYz_Ab-12cdEFgh34ijKLmn56opQRst78uvWX90yz';
    expect(maskLinks(`Open https://app.example.test/verify-email/${token} now`)).toBe(
      `Open https://app.example.test/verify-email/${MASKED} now`,
    );
    expect(maskLinks('https://app.example.test/invite?email=a%40b.test&token=short1&next=/home')).toBe(
      `https://app.example.test/invite?email=a%40b.test&token=${MASKED}&next=/home`,
    );
    expect(maskLinks('<a href="https://app.example.test/accept?id=7&#38;signature=abc">x</a>')).toBe(
      `<a href="https://app.example.test/accept?id=7&#38;signature=${MASKED}">x</a>`,
    );
    // Readable addresses stay as they are: a slug, the host, a short id.
    const plain = 'https://training-for-care-2024.example.test/courses/fire-safety-awareness-level/12';
    expect(maskLinks(plain)).toBe(plain);
    expect(maskLinks(null)).toBeNull();
  });
});

describe('delivery is at least once, with one Message-ID (issue 30 §8)', () => {
  it('sends the outbox id as the Message-ID, the same on a second delivery of the same message', async () => {
    const sent: string[] = [];
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const send = transport.sendMail.bind(transport);
    transport.sendMail = (async (mail: Parameters<typeof send>[0]) => {
      const info = await send(mail);
      sent.push(String((info as unknown as { message: Buffer }).message));
      return info;
    }) as typeof transport.sendMail;
    const mailer = createMailer(
      h.db,
      { smtp: undefined, mailFrom: 'Training <noreply@care.example.test>' },
      transport,
    );
    const deps = { ...h.deps, mailer };
    const [id] = (await queueMail(deps, h.db, {
      to: 'c@example.test',
      subject: 'Hello',
      text: 'hi',
      template: 't',
    })) as [number];
    await runDueJobs(deps); // its delivery job
    expect(sent).toHaveLength(1);
    // A retry after a crash that came between the SMTP server's acceptance and our record of it: sent_at is unset.
    await h.db.updateTable('mail_outbox').set({ sent_at: null }).where('id', '=', id).execute();
    expect(await mailer.deliver(id)).toBe(true);
    const ids = sent.map((raw) => /^Message-ID: (.+)$/im.exec(raw)?.[1]?.trim());
    const row = await h.db
      .selectFrom('mail_outbox')
      .select('created_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(ids).toEqual([
      outboxMessageId(id, new Date(row.created_at), 'noreply@care.example.test'),
      outboxMessageId(id, new Date(row.created_at), 'noreply@care.example.test'),
    ]);
    expect(ids[0]).toMatch(new RegExp(`^<outbox-${id}\\.\\d+@care\\.example\\.test>$`));
  });
});
