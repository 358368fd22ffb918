import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';
import { confirmSignUp, makeLink, requestSignUp, signUp, signupWorld } from './fixtures';

/** Sign-up links under concurrency (PostgreSQL only): a link's limit holds, and a sign-up is decided once. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describeRaces('sign-up link races', () => {
  it('8 sign-ups at once through a link for 3: three accounts, five refusals, uses = 3', async () => {
    const w = await signupWorld(h);
    const link = await makeLink(w, { max_uses: 3 });
    const codes = await parallel(8, () => signUp(h, link.token).then((r) => r.statusCode));
    expect(codes.filter((c) => c === 201)).toHaveLength(3);
    expect(codes.filter((c) => c === 404)).toHaveLength(5);
    const row = await h.db
      .selectFrom('signup_links')
      .select('uses')
      .where('id', '=', link.id)
      .executeTakeFirstOrThrow();
    expect(row.uses).toBe(3);
    const users = await h.db
      .selectFrom('users')
      .select('id')
      .where('primary_entity_id', '=', w.home.id)
      .execute();
    expect(users).toHaveLength(3);
  });

  it('4 approvals and 4 rejections of one sign-up at once: one wins, seven get 409', async () => {
    const w = await signupWorld(h);
    const link = await makeLink(w);
    const res = await signUp(h, link.token);
    const signup = await h.db
      .selectFrom('signup_link_signups as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select('s.id')
      .where('u.uuid', '=', res.json().data.user.uuid)
      .executeTakeFirstOrThrow();
    const codes = await parallel(8, (i) =>
      w
        .as('POST', `/api/signup-links/signups/${signup.id}/${i % 2 ? 'approve' : 'reject'}`)
        .then((r) => r.statusCode),
    );
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(7);
  });

  it('the same address signing up 3 times, its 3 links followed at once: one account, the others refused', async () => {
    const w = await signupWorld(h);
    const link = await makeLink(w);
    const email = `twin-${Date.now()}@example.test`;
    const asked = await parallel(3, () => requestSignUp(h, link.token, { email }).then((r) => r.statusCode));
    expect(asked).toEqual([202, 202, 202]);
    const mails = await h.db
      .selectFrom('mail_outbox')
      .select('text_body')
      .where('to_address', '=', email)
      .where('template', '=', 'confirm_signup')
      .execute();
    const tokens = mails.map((m) => decodeURIComponent(/[?&]confirm=([^\s&]+)/.exec(m.text_body)?.[1] ?? ''));
    expect(tokens).toHaveLength(3);
    const codes = await parallel(3, (i) => confirmSignUp(h, tokens[i] ?? '').then((r) => r.statusCode));
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 404)).toHaveLength(2);
    const row = await h.db
      .selectFrom('signup_links')
      .select('uses')
      .where('id', '=', link.id)
      .executeTakeFirstOrThrow();
    expect(row.uses).toBe(1);
  });
});
