import { SignupLinkMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildType, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent } from '../../test/learning-factories';
import { lastMail, mailCount, runJobs } from '../auth/flows-test-support';
import { hashToken } from '../http/tokens';
import { TYPE_ABOVE_YOU } from '../permissions/privilege';
import { registerAllJobs } from '../register-jobs';
import {
  confirmSignUp,
  confirmTokenFor,
  linkBody,
  makeLink,
  nextAddress,
  requestSignUp,
  sessionOf,
  signUp,
  signupWorld,
} from './fixtures';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  registerAllJobs();
});
afterAll(async () => h?.close());

const outsider = async () => clientFor(h.app, h.db, (await buildUser(h.db, { permissions: [3, 86] })).id);

describe('POST /api/signup-links', () => {
  it('401 signed out, 422 bad input, 403 without 3, 404 for another organisation', async () => {
    const w = await signupWorld(h);
    expect(
      (await h.app.inject({ method: 'POST', url: '/api/signup-links', payload: linkBody(w) })).statusCode,
    ).toBe(401);
    const bad = await w.as('POST', '/api/signup-links', {
      entity_id: w.home.id,
      start_date: 'soon',
      expires_in_days: 91,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toMatchObject({
      role_id: ['Choose a job role.'],
      start_date: ['Enter a date.'],
      expires_in_days: ['A link lasts at most 90 days.'],
    });
    const learner = await clientFor(
      h.app,
      h.db,
      (await buildUser(h.db, { entityId: w.home.id, permissions: [21] })).id,
    );
    expect((await learner('POST', '/api/signup-links', linkBody(w))).statusCode).toBe(403);
    expect((await (await outsider())('POST', '/api/signup-links', linkBody(w))).statusCode).toBe(404);
    expect(
      await h.db.selectFrom('signup_links').select('id').where('entity_id', '=', w.home.id).execute(),
    ).toEqual([]);
  });

  it('refuses a group, a role of another organisation and a type carrying more than the manager holds', async () => {
    const w = await signupWorld(h);
    const other = await buildEntity(h.db);
    const strong = await buildType(h.db, w.group.id, { permissions: [3, 46] });
    const res = await w.as('POST', '/api/signup-links', {
      ...linkBody(w, { type_id: strong.id }),
      entity_id: w.group.id,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toMatchObject({ entity_id: [M.notHome], type_id: [TYPE_ABOVE_YOU] });
    const otherRole = await h.db
      .insertInto('entity_roles')
      .values({ entity_id: other.id, name: 'Elsewhere' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const role = await w.as('POST', '/api/signup-links', linkBody(w, { role_id: otherRole.id }));
    expect(role.json().errors.role_id).toBeDefined();
  });

  it('a certificate needs 86 as well (403), and a choice of when (422)', async () => {
    const w = await signupWorld(h);
    const no86 = await clientFor(
      h.app,
      h.db,
      (await buildUser(h.db, { entityId: w.group.id, permissions: [3, 104] })).id,
    );
    expect(
      (
        await no86(
          'POST',
          '/api/signup-links',
          linkBody(w, {
            type_id: null,
            care_certificate_version_id: w.versionId,
            care_certificate_when: 'signup',
          }),
        )
      ).statusCode,
    ).toBe(403);
    const res = await w.as(
      'POST',
      '/api/signup-links',
      linkBody(w, { care_certificate_version_id: w.versionId }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.care_certificate_when).toEqual([M.chooseWhen]);
  });

  it('201: the address is shown once; only the token hash is stored; 14 days by default', async () => {
    const w = await signupWorld(h);
    const res = await w.as('POST', '/api/signup-links', linkBody(w, { max_uses: 3 }));
    expect(res.statusCode).toBe(201);
    const link = res.json().data;
    expect(link.url).toBe(`http://localhost:3000/signUpOnMonday?token=${link.token}`);
    expect(link).toMatchObject({
      status: 'active',
      uses: 0,
      max_uses: 3,
      pending: 0,
      role: { id: w.role.id },
    });
    const row = await h.db
      .selectFrom('signup_links')
      .selectAll()
      .where('id', '=', link.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(link.token));
    expect(JSON.stringify(row)).not.toContain(link.token);
    const days = (new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(14);
  });
});

describe('listing and revoking links', () => {
  it('GET /api/signup-links: 401, 403, 404 for another organisation, the active links of homes in scope', async () => {
    const w = await signupWorld(h);
    const link = await makeLink(w);
    expect((await h.app.inject({ method: 'GET', url: '/api/signup-links' })).statusCode).toBe(401);
    const learner = await clientFor(h.app, h.db, (await buildUser(h.db, { entityId: w.home.id })).id);
    expect((await learner('GET', '/api/signup-links')).statusCode).toBe(403);
    const o = await outsider();
    expect((await o('GET', `/api/signup-links?entity_id=${w.home.id}`)).statusCode).toBe(404);
    expect((await o('GET', '/api/signup-links')).json().data).toEqual([]);
    expect((await o('GET', `/api/signup-links/${link.id}`)).statusCode).toBe(404);
    const list = await w.as('GET', '/api/signup-links?per_page=5');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((l: { id: number }) => l.id)).toEqual([link.id]);
    expect(list.json().meta.total).toBe(1);
    expect((await w.as('GET', '/api/signup-links?per_page=500')).statusCode).toBe(422);
  });

  it('POST /api/signup-links/{id}/revoke: 404 outside, 403 without 3, then the link stops at once; twice is 409', async () => {
    const w = await signupWorld(h);
    const link = await makeLink(w);
    expect((await (await outsider())('POST', `/api/signup-links/${link.id}/revoke`)).statusCode).toBe(404);
    const learner = await clientFor(h.app, h.db, (await buildUser(h.db, { entityId: w.home.id })).id);
    expect((await learner('POST', `/api/signup-links/${link.id}/revoke`)).statusCode).toBe(403);
    expect((await w.as('POST', '/api/signup-links/abc/revoke')).statusCode).toBe(422);
    const res = await w.as('POST', `/api/signup-links/${link.id}/revoke`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: M.revoked, data: { status: 'revoked' } });
    expect((await w.as('POST', `/api/signup-links/${link.id}/revoke`)).statusCode).toBe(409);
    const open = await h.app.inject({
      method: 'POST',
      url: '/api/signup-links/open',
      payload: { token: link.token },
    });
    expect(open.statusCode).toBe(404);
    expect((await signUp(h, link.token)).statusCode).toBe(404);
    expect((await w.as('GET', '/api/signup-links')).json().data).toEqual([]);
    expect((await w.as('GET', '/api/signup-links?show=all')).json().data[0].status).toBe('revoked');
  });
});

describe('the public page', () => {
  it('open: 422 without a token, 404 with one message for unknown, expired and used-up links, else the details', async () => {
    const w = await signupWorld(h);
    const open = (token: unknown) =>
      h.app.inject({ method: 'POST', url: '/api/signup-links/open', payload: { token } });
    expect((await open('')).statusCode).toBe(422);
    const unknown = await open('nope');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(M.invalidLink);
    const link = await makeLink(w, { max_uses: 1 });
    const ok = await open(link.token);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({
      organisation: { name: w.home.name, slug: w.home.slug },
      role: 'Care Assistant',
      start_date: '2030-01-06',
      password_requirements: { min_length: 12 },
    });
    expect((await signUp(h, link.token)).statusCode).toBe(201);
    expect((await open(link.token)).json().message).toBe(M.invalidLink);
    const expiring = await makeLink(w);
    await h.db
      .updateTable('signup_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expiring.id)
      .execute();
    expect((await open(expiring.token)).json().message).toBe(M.invalidLink);
    expect((await signUp(h, expiring.token)).statusCode).toBe(404);
  });

  it('sign-up: 422 for the password rules and a confirmation that differs; nothing is made', async () => {
    const w = await signupWorld(h);
    const link = await makeLink(w);
    const short = await signUp(h, link.token, { password: 'short' });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.password[0]).toBe('The password must be at least 12 characters.');
    const differ = await signUp(h, link.token, { confirm: 'Something-else-entirely-1' });
    expect(differ.json().errors.password_confirmation).toEqual([M.passwordsDiffer]);
    const bad = await signUp(h, link.token, { email: 'not-an-address', name: '' });
    expect(Object.keys(bad.json().errors).sort()).toEqual(['email', 'name']);
    expect(
      (
        await h.db
          .selectFrom('signup_links')
          .select('uses')
          .where('id', '=', link.id)
          .executeTakeFirstOrThrow()
      ).uses,
    ).toBe(0);
  });

  it('sign-up, then its confirm link: 201 signs the new starter in, in the home with the role, type and start date, pending approval', async () => {
    const w = await signupWorld(h);
    const link = await makeLink(w, {
      care_certificate_version_id: w.versionId,
      care_certificate_when: 'signup',
    });
    const res = await signUp(h, link.token, { email: 'Nia.New@Example.test', name: 'Nia New' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: M.signedUp,
      data: { pending: true, user: { name: 'Nia New' } },
    });
    const user = await h.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'nia.new@example.test')
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      primary_entity_id: w.home.id,
      role_id: w.role.id,
      type_id: w.type.id,
      start_date: '2030-01-06',
    });
    const signup = await h.db
      .selectFrom('signup_link_signups')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(signup.status).toBe('pending');
    const certs = await h.db
      .selectFrom('care_certificates')
      .select('version_id')
      .where('user_id', '=', user.id)
      .execute();
    expect(certs).toEqual([{ version_id: w.versionId }]);
    // The session works: the banner's own status, and the auth user.
    const session = sessionOf(res);
    const mine = await h.app.inject({ method: 'GET', url: '/api/signup-links/mine', ...session });
    expect(mine.json().data).toEqual({
      status: 'pending',
      organisation: w.home.name,
      start_date: '2030-01-06',
    });
    const me = await h.app.inject({ method: 'GET', url: '/api/auth/user', ...session });
    expect(me.json().data.uuid).toBe(user.uuid);
    const link2 = (await w.as('GET', `/api/signup-links/${link.id}`)).json().data;
    expect(link2).toMatchObject({ uses: 1, pending: 1 });
  });

  it('an address that has an account: 202 as registration answers, the owner is e-mailed, nothing is made', async () => {
    const w = await signupWorld(h);
    const link = await makeLink(w);
    const existing = await buildUser(h.db);
    const res = await signUp(h, link.token, { email: existing.email.toUpperCase() });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: M.checkEmail });
    expect(res.cookies).toEqual([]);
    expect(await lastMail(h, existing.email, 'registration_attempt')).toBeDefined();
    expect(
      (
        await h.db
          .selectFrom('signup_links')
          .select('uses')
          .where('id', '=', link.id)
          .executeTakeFirstOrThrow()
      ).uses,
    ).toBe(0);
  });

  it('answers a new address exactly as one that has an account (issue 29 §5); the account waits for its link', async () => {
    const w = await signupWorld(h);
    const link = await makeLink(w);
    const existing = await buildUser(h.db);
    const fresh = `fresh-${Date.now()}@example.test`;
    const taken = await requestSignUp(h, link.token, { email: existing.email });
    const created = await requestSignUp(h, link.token, { email: fresh });
    for (const res of [taken, created]) {
      expect(res.statusCode).toBe(202);
      expect(res.json()).toEqual({ message: M.checkEmail });
      expect(res.cookies).toEqual([]);
    }
    expect(created.body).toBe(taken.body);
    // Nothing is made and no use is spent until the new address's link is followed.
    expect(await h.db.selectFrom('users').select('id').where('email', '=', fresh).execute()).toEqual([]);
    const uses = async () =>
      (
        await h.db
          .selectFrom('signup_links')
          .select('uses')
          .where('id', '=', link.id)
          .executeTakeFirstOrThrow()
      ).uses;
    expect(await uses()).toBe(0);
    expect(await lastMail(h, existing.email, 'registration_attempt')).toBeDefined();
    expect(await lastMail(h, existing.email, 'confirm_signup')).toBeUndefined();
    const confirm = await confirmTokenFor(h, fresh);
    expect(confirm).toBeTruthy();

    const made = await confirmSignUp(h, confirm ?? '');
    expect(made.statusCode).toBe(201);
    expect(made.json().data.user.email).toBe(fresh);
    expect(await uses()).toBe(1);
    const user = await h.db
      .selectFrom('users')
      .select('email_verified_at')
      .where('email', '=', fresh)
      .executeTakeFirstOrThrow();
    expect(user.email_verified_at).not.toBeNull(); // the link proved the address
    // The link works once; a made-up one, or one whose sign-up link was revoked meanwhile, is the dead-link answer.
    expect((await confirmSignUp(h, confirm ?? '')).statusCode).toBe(404);
    expect((await confirmSignUp(h, 'not-a-confirm-token')).json().message).toBe(M.invalidLink);
    const other = `other-${Date.now()}@example.test`;
    expect((await requestSignUp(h, link.token, { email: other })).statusCode).toBe(202);
    await w.as('POST', `/api/signup-links/${link.id}/revoke`);
    expect((await confirmSignUp(h, (await confirmTokenFor(h, other)) ?? '')).statusCode).toBe(404);
    expect(await h.db.selectFrom('users').select('id').where('email', '=', other).execute()).toEqual([]);
  });

  it('429 after too many sign-ups from one address', async () => {
    const w = await signupWorld(h);
    const link = await makeLink(w);
    const ip = nextAddress();
    const codes: number[] = [];
    for (let i = 0; i < 21; i++)
      codes.push((await signUp(h, link.token, { ip, password: 'short' })).statusCode);
    expect(codes.slice(0, 20).every((c) => c === 422)).toBe(true);
    const last = await signUp(h, link.token, { ip });
    expect(last.statusCode).toBe(429);
    expect(last.json().message).toMatch(/^Too many sign-ups/);
  });

  it('GET /api/signup-links/mine: 401 signed out, null for an account not made by a link', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/signup-links/mine' })).statusCode).toBe(401);
    const someone = await clientFor(h.app, h.db, (await buildUser(h.db)).id);
    expect((await someone('GET', '/api/signup-links/mine')).json().data).toBeNull();
  });
});

describe('approving and rejecting', () => {
  async function pendingSignup(extra: Record<string, unknown> = {}) {
    const w = await signupWorld(h);
    const link = await makeLink(w, extra);
    const res = await signUp(h, link.token);
    const userId = (
      await h.db
        .selectFrom('users')
        .select('id')
        .where('uuid', '=', res.json().data.user.uuid)
        .executeTakeFirstOrThrow()
    ).id;
    const signup = await h.db
      .selectFrom('signup_link_signups')
      .select('id')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return { w, link, userId, signupId: signup.id, session: sessionOf(res) };
  }

  it('GET /api/signup-links/signups: 401, 403, outsiders see none, the manager sees the pending one', async () => {
    const { w, signupId } = await pendingSignup();
    expect((await h.app.inject({ method: 'GET', url: '/api/signup-links/signups' })).statusCode).toBe(401);
    const learner = await clientFor(h.app, h.db, (await buildUser(h.db, { entityId: w.home.id })).id);
    expect((await learner('GET', '/api/signup-links/signups')).statusCode).toBe(403);
    expect((await (await outsider())('GET', '/api/signup-links/signups')).json().data).toEqual([]);
    const list = await w.as('GET', '/api/signup-links/signups');
    expect(list.json().data.map((s: { id: number }) => s.id)).toEqual([signupId]);
    expect((await w.as('GET', '/api/signup-links/signups?status=maybe')).statusCode).toBe(422);
  });

  it('approve: 401, 403, 404 outside, then approved with the certificate on approval; a second decision is 409', async () => {
    const { w, signupId, userId, session } = await pendingSignup({
      care_certificate_version_id: (
        await h.db
          .selectFrom('care_certificate_versions')
          .select('id')
          .orderBy('id')
          .executeTakeFirstOrThrow()
      ).id,
      care_certificate_when: 'approval',
    });
    const url = `/api/signup-links/signups/${signupId}/approve`;
    expect((await h.app.inject({ method: 'POST', url })).statusCode).toBe(401);
    const learner = await clientFor(h.app, h.db, (await buildUser(h.db, { entityId: w.home.id })).id);
    expect((await learner('POST', url)).statusCode).toBe(403);
    expect((await (await outsider())('POST', url)).statusCode).toBe(404);
    expect(
      await h.db.selectFrom('care_certificates').select('id').where('user_id', '=', userId).execute(),
    ).toEqual([]);
    const res = await w.as('POST', url);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: M.approved,
      data: { status: 'approved', decided_by: { id: w.manager.id } },
    });
    expect(
      await h.db.selectFrom('care_certificates').select('id').where('user_id', '=', userId).execute(),
    ).toHaveLength(1);
    expect((await w.as('POST', url)).statusCode).toBe(409);
    expect((await w.as('POST', `/api/signup-links/signups/${signupId}/reject`)).statusCode).toBe(409);
    const mine = await h.app.inject({ method: 'GET', url: '/api/signup-links/mine', ...session });
    expect(mine.json().data.status).toBe('approved');
  });

  it('reject removes an account that has done nothing', async () => {
    const { w, signupId, userId } = await pendingSignup();
    const url = `/api/signup-links/signups/${signupId}/reject`;
    expect((await (await outsider())('POST', url)).statusCode).toBe(404);
    const res = await w.as('POST', url);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: M.rejectedRemoved,
      data: { status: 'rejected', account: 'removed', user: null },
    });
    expect(await h.db.selectFrom('users').select('id').where('id', '=', userId).execute()).toEqual([]);
  });

  it('reject keeps an account with training records, deactivated: no password, no sessions', async () => {
    const { w, signupId, userId, session } = await pendingSignup();
    const content = await buildContent(h.db, w.group.id);
    await h.db
      .insertInto('attempts')
      .values({
        user_id: userId,
        content_id: content.id,
        course_id: content.course_id,
        progress: '{}',
        cmi: '{}',
      })
      .execute();
    const res = await w.as('POST', `/api/signup-links/signups/${signupId}/reject`);
    expect(res.json()).toMatchObject({ message: M.rejectedDeactivated, data: { account: 'deactivated' } });
    const user = await h.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(user.password_hash).toBeNull();
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', ...session })).statusCode).toBe(401);
    // "Forgot password" does not open it again: the same answer as for anyone, and no reset link is sent.
    const { email } = await h.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const forgot = await h.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email },
    });
    expect(forgot.statusCode).toBe(200);
    await runJobs(h);
    expect(await mailCount(h, email, 'reset_password')).toBe(0);
  });
});
