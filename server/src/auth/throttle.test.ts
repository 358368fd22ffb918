import { CSRF_COOKIE, Messages } from '@cc/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildUser, TEST_PASSWORD } from '../../test/factories';
import { cookiesOf, createHarness, type Harness, type TestApp } from '../../test/harness';
import { buildApp } from '../app';
import { registerAllJobs } from '../register-jobs';
import { browser, lastMail, linkIn, mailCount, runJobs } from './flows-test-support';
import { DEVICE_COOKIE } from './known-devices';
import { ACCOUNT_RULE, accountKey, WINDOW_MS } from './throttle';

/**
 * Sign-in throttling (issue 11 §5, ASVS 2.2.1): per account and per client address with growing delays, ~100
 * failures an hour per account, never holding back the owner on a known device or after a password reset; the
 * client address is the peer's unless a configured proxy forwards it.
 */
let h: Harness;
let now = new Date('2026-03-02T09:00:00Z');
const advance = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
};
let n = 0;
/** A client address of its own for each test, so the per-address counter of one test never reaches another. */
const freshAddress = () => `198.51.100.${++n}`;

beforeAll(async () => {
  h = await createHarness();
  registerAllJobs();
  h.deps.clock = () => now;
});
afterAll(async () => h?.close());
beforeEach(() => advance(2 * 60 * 60)); // every test starts after the windows of the one before have ended

/** A browser at `address` (the TCP peer): csrf cookie, then POST /login; `jar` carries a device cookie if given. */
async function login(
  app: TestApp,
  email: string,
  password: string,
  o: { address: string; jar?: Record<string, string>; forwardedFor?: string },
) {
  const csrf = await app.inject({
    method: 'GET',
    url: '/sanctum/csrf-cookie',
    remoteAddress: o.address,
    cookies: o.jar,
  });
  const jar = { ...o.jar, ...cookiesOf(csrf) };
  const res = await app.inject({
    method: 'POST',
    url: '/login',
    remoteAddress: o.address,
    cookies: jar,
    headers: {
      'x-xsrf-token': jar[CSRF_COOKIE],
      ...(o.forwardedFor ? { 'x-forwarded-for': o.forwardedFor } : {}),
    },
    payload: { email, password },
  });
  return { res, jar: { ...jar, ...cookiesOf(res) } };
}

const waitOf = (message: string) => Number(message.match(/in (\d+) seconds/)?.[1]);

describe('per client address', () => {
  it('a spoofed X-Forwarded-For does not reset the per-address limit', async () => {
    const address = freshAddress();
    // Ten accounts, ten made-up forwarded addresses: all one client, which then has to wait.
    for (let i = 0; i < 10; i++) {
      const { res } = await login(h.app, `nobody-${i}@spray.test`, 'Wrong-password-1', {
        address,
        forwardedFor: `203.0.113.${i}`,
      });
      expect(res.statusCode).toBe(422);
    }
    const { res } = await login(h.app, 'nobody-10@spray.test', 'Wrong-password-1', {
      address,
      forwardedFor: '203.0.113.99',
    });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toBe(Messages.tooManyAttempts.replace(':seconds', '1'));
  });

  it('with TRUST_PROXY naming the proxy, its X-Forwarded-For is the client address', async () => {
    const proxy = freshAddress();
    const app = await buildApp({ ...h.deps, config: { ...h.deps.config, trustProxy: [proxy] } });
    await app.ready();
    try {
      for (let i = 0; i < 12; i++) {
        const { res } = await login(app, `nobody-${i}@proxied.test`, 'Wrong-password-1', {
          address: proxy,
          forwardedFor: `192.0.2.${i}`,
        });
        expect(res.statusCode).toBe(422);
      }
      // A caller that is not the proxy cannot choose its address that way.
      const direct = freshAddress();
      for (let i = 0; i < 10; i++)
        await login(app, `x-${i}@direct.test`, 'Wrong-password-1', {
          address: direct,
          forwardedFor: `192.0.2.${i}`,
        });
      const { res } = await login(app, 'x-10@direct.test', 'Wrong-password-1', {
        address: direct,
        forwardedFor: '192.0.2.200',
      });
      expect(res.statusCode).toBe(429);
    } finally {
      await app.close();
    }
  });
});

describe('per account', () => {
  it('delays grow with each failure: 3 free, then 1 s, 2 s, 4 s', async () => {
    const user = await buildUser(h.db);
    const address = freshAddress();
    const attempt = () => login(h.app, user.email, 'Wrong-password-1', { address });
    for (let i = 0; i < 3; i++) expect((await attempt()).res.statusCode).toBe(422);
    for (const wait of [1, 2, 4]) {
      const refused = (await attempt()).res;
      expect(refused.statusCode).toBe(429);
      expect(waitOf(refused.json().message)).toBe(wait);
      advance(wait - 1);
      expect((await attempt()).res.statusCode).toBe(429); // a second early is still too early
      advance(1);
      expect((await attempt()).res.statusCode).toBe(422);
    }
    // Refused attempts are not counted: six failures, not twelve.
    const row = await h.db
      .selectFrom('auth_throttles')
      .select('failures')
      .where('key', '=', accountKey(user.email))
      .executeTakeFirstOrThrow();
    expect(row.failures).toBe(6);
  });

  it('an account without a user is held back the same way (the answers never tell)', async () => {
    const address = freshAddress();
    for (let i = 0; i < 3; i++)
      expect((await login(h.app, 'ghost@nowhere.test', 'Wrong-password-1', { address })).res.statusCode).toBe(
        422,
      );
    expect((await login(h.app, 'ghost@nowhere.test', 'Wrong-password-1', { address })).res.statusCode).toBe(
      429,
    );
  });

  it('the owner signs in on a known device while an attacker hammers the account', async () => {
    const user = await buildUser(h.db);
    const owner = await login(h.app, user.email, TEST_PASSWORD, { address: freshAddress() });
    expect(owner.res.statusCode).toBe(200);
    const device = owner.res.cookies.find((c) => c.name === DEVICE_COOKIE);
    expect(device).toMatchObject({ httpOnly: true, path: '/' });
    expect(device?.maxAge).toBeGreaterThan(300 * 24 * 60 * 60);

    // The attacker, from many addresses: after three failures every further try is refused.
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push(
        (await login(h.app, user.email, `guess-${i}-password`, { address: freshAddress() })).res.statusCode,
      );
    expect(statuses).toEqual([422, 422, 422, 429, 429, 429, 429, 429]);
    // Even the right password from a browser that never signed in as the user waits.
    expect((await login(h.app, user.email, TEST_PASSWORD, { address: freshAddress() })).res.statusCode).toBe(
      429,
    );

    // The owner's browser, same moment, signs in.
    const again = await login(h.app, user.email, TEST_PASSWORD, {
      address: freshAddress(),
      jar: { [DEVICE_COOKIE]: device?.value ?? '' },
    });
    expect(again.res.statusCode).toBe(200);
    const me = await h.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      cookies: browser(again.jar).cookies(),
    });
    expect(me.json().data.id).toBe(user.id);
    // A device cookie known for someone else does not count for this account.
    const other = await buildUser(h.db);
    const theirs = await login(h.app, other.email, TEST_PASSWORD, { address: freshAddress() });
    const borrowed = theirs.res.cookies.find((c) => c.name === DEVICE_COOKIE)?.value ?? '';
    expect(
      (
        await login(h.app, user.email, TEST_PASSWORD, {
          address: freshAddress(),
          jar: { [DEVICE_COOKIE]: borrowed },
        })
      ).res.statusCode,
    ).toBe(429);
  });

  it("the mobile app's device_token makes it a known device too", async () => {
    const user = await buildUser(h.db);
    const mobile = (payload: Record<string, unknown>) =>
      h.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: freshAddress(),
        payload: { email: user.email, device_name: 'Google Pixel 8', ...payload },
      });
    const first = await mobile({ password: TEST_PASSWORD });
    expect(first.statusCode).toBe(200);
    const deviceToken = first.json().data.device_token as string;
    expect(deviceToken.length).toBeGreaterThan(30);
    for (let i = 0; i < 5; i++) await mobile({ password: `guess-${i}-password` });
    expect((await mobile({ password: TEST_PASSWORD })).statusCode).toBe(429);
    const known = await mobile({ password: TEST_PASSWORD, device_token: deviceToken });
    expect(known.statusCode).toBe(200);
    const stored = await h.db
      .selectFrom('known_devices')
      .select('name')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(stored.name).toBe('Google Pixel 8');
  });

  it('a known device is throttled on its own, so a stolen device cookie is no free pass', async () => {
    const user = await buildUser(h.db);
    const owner = await login(h.app, user.email, TEST_PASSWORD, { address: freshAddress() });
    const jar = { [DEVICE_COOKIE]: owner.jar[DEVICE_COOKIE] };
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (await login(h.app, user.email, `guess-${i}-password`, { address: freshAddress(), jar })).res
          .statusCode,
      );
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429, 429]);
  });

  it('after ~100 failures in an hour only known devices sign in, until the window ends', async () => {
    const user = await buildUser(h.db);
    const owner = await login(h.app, user.email, TEST_PASSWORD, { address: freshAddress() });
    // An hour's worth of failures, spread out so the delays have passed: the hourly limit alone decides.
    await h.db
      .insertInto('auth_throttles')
      .values({
        key: accountKey(user.email),
        failures: ACCOUNT_RULE.perHour,
        window_started_at: new Date(now.getTime() - 50 * 60_000),
        last_failure_at: new Date(now.getTime() - 5 * 60_000),
      })
      .execute();
    const refused = (await login(h.app, user.email, TEST_PASSWORD, { address: freshAddress() })).res;
    expect(refused.statusCode).toBe(429);
    expect(waitOf(refused.json().message)).toBe(10 * 60);
    const known = await login(h.app, user.email, TEST_PASSWORD, {
      address: freshAddress(),
      jar: { [DEVICE_COOKIE]: owner.jar[DEVICE_COOKIE] },
    });
    expect(known.res.statusCode).toBe(200);
    advance(WINDOW_MS / 1000);
    expect((await login(h.app, user.email, TEST_PASSWORD, { address: freshAddress() })).res.statusCode).toBe(
      200,
    );
  });

  it('a successful password reset clears the account counter', async () => {
    const user = await buildUser(h.db);
    for (let i = 0; i < 6; i++)
      await login(h.app, user.email, `guess-${i}-password`, { address: freshAddress() });
    expect((await login(h.app, user.email, TEST_PASSWORD, { address: freshAddress() })).res.statusCode).toBe(
      429,
    );

    await h.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: user.email } });
    await runJobs(h);
    const link = linkIn((await lastMail(h, user.email, 'reset_password'))?.text_body ?? '', 'reset-password');
    const reset = await h.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: {
        token: link.token,
        email: user.email,
        password: 'Brand-New-Lantern-8',
        password_confirmation: 'Brand-New-Lantern-8',
      },
    });
    expect(reset.statusCode).toBe(200);
    expect(
      (await login(h.app, user.email, 'Brand-New-Lantern-8', { address: freshAddress() })).res.statusCode,
    ).toBe(200);
  });
});

/**
 * Issue 29 §8: about one request a minute kept a victim out of any new device (15 x 429, 1 x 200 over 200 s with the
 * right password). Failures from an address hold that address back; failures against an account hold back the
 * account's new devices only; the owner gets in on a known device, signed in they can still give their password,
 * and from any browser through the link the lock mails them.
 */
describe('an account under attack (issue 29 §8)', () => {
  const unlock = (token: string, jar: Record<string, string> = {}) =>
    h.app.inject({
      method: 'POST',
      url: '/api/auth/unlock-sign-in',
      remoteAddress: freshAddress(),
      cookies: jar,
      payload: { token },
    });

  it("an attacker's request a minute holds back neither a known device, nor a browser with the unlock link", async () => {
    const user = await buildUser(h.db);
    const home = freshAddress();
    const known = await login(h.app, user.email, TEST_PASSWORD, { address: home });
    expect(known.res.statusCode).toBe(200);
    const knownJar = { [DEVICE_COOKIE]: known.jar[DEVICE_COOKIE] ?? '' };
    const attacker = freshAddress();

    // Twelve minutes of one wrong password a minute from the attacker's address; the owner tries half-way through
    // each minute: on the known device, and on a new browser from another address.
    const attacks: number[] = [];
    const fromNew: { statusCode: number; message: string }[] = [];
    for (let minute = 0; minute < 12; minute++) {
      attacks.push(
        (await login(h.app, user.email, `guess-${minute}-password`, { address: attacker })).res.statusCode,
      );
      advance(30);
      const onKnown = await login(h.app, user.email, TEST_PASSWORD, { address: home, jar: knownJar });
      expect(onKnown.res.statusCode).toBe(200);
      const onNew = (await login(h.app, user.email, TEST_PASSWORD, { address: freshAddress() })).res;
      fromNew.push({ statusCode: onNew.statusCode, message: onNew.json().message });
      advance(30);
    }
    // Every guess was checked (and failed), so the account's new devices stay held back: from the eighth failure on,
    // the delay outlasts the half minute (2^5 = 32 s, then 60 s).
    expect(attacks).toEqual(Array(12).fill(422));
    expect(fromNew.slice(7).map((r) => r.statusCode)).toEqual(Array(5).fill(429));
    expect(fromNew.at(-1)?.message).toBe(Messages.signInLocked.replace(':seconds', '30'));

    // ...and is mailed the way in, once however many refusals asked for it.
    await runJobs(h);
    expect(await mailCount(h, user.email, 'sign_in_locked')).toBe(1);
    const link = linkIn((await lastMail(h, user.email, 'sign_in_locked'))?.text_body ?? '', 'unlock-sign-in');
    const laptop = freshAddress();
    const opened = await unlock(link.token);
    expect(opened.statusCode).toBe(200);
    expect(opened.json().message).toBe(Messages.signInUnlocked);
    const laptopJar = cookiesOf(opened);
    expect(laptopJar[DEVICE_COOKIE]).toBeTruthy();
    // The attacker carries on; the owner signs in from that browser, from any address, with the right password.
    expect((await login(h.app, user.email, 'guess-13-password', { address: attacker })).res.statusCode).toBe(
      422,
    );
    advance(5);
    const inAgain = await login(h.app, user.email, TEST_PASSWORD, { address: laptop, jar: laptopJar });
    expect(inAgain.res.statusCode).toBe(200);
    const me = await h.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      cookies: browser(inAgain.jar).cookies(),
    });
    expect(me.json().data.id).toBe(user.id);
    // The link works once.
    expect((await unlock(link.token)).statusCode).toBe(422);

    // Signed in on the known device, the owner can still give their password (to change it, or end sessions).
    const session = browser(known.jar);
    const confirm = await h.app.inject({
      method: 'POST',
      url: '/api/auth/confirm-password',
      remoteAddress: home,
      cookies: session.cookies(),
      headers: session.headers(),
      payload: { password: TEST_PASSWORD },
    });
    expect(confirm.statusCode).toBe(200);

    // The attacker's own address is held back, whatever account it tries next (13 failures: 2^3 s after the last);
    // another address is not.
    const other = await buildUser(h.db);
    const spray = (await login(h.app, other.email, 'Wrong-password-1', { address: attacker })).res;
    expect(spray.statusCode).toBe(429);
    expect(spray.json().message).toBe(Messages.tooManyAttempts.replace(':seconds', '3'));
    expect((await login(h.app, other.email, TEST_PASSWORD, { address: freshAddress() })).res.statusCode).toBe(
      200,
    );
  });

  it('the unlock link: only for its own account, nothing mailed for an unknown address, dead after an e-mail change', async () => {
    const user = await buildUser(h.db);
    const stranger = await buildUser(h.db);
    for (const email of [user.email, stranger.email, 'ghost@nowhere.test'])
      for (let i = 0; i < 4; i++)
        await login(h.app, email, `guess-${i}-password`, { address: freshAddress() });
    await runJobs(h);
    expect(await mailCount(h, 'ghost@nowhere.test', 'sign_in_locked')).toBe(0);
    const link = linkIn((await lastMail(h, user.email, 'sign_in_locked'))?.text_body ?? '', 'unlock-sign-in');
    const opened = await unlock(link.token);
    expect(opened.statusCode).toBe(200);
    // The browser is a known device of that account only.
    const jar = cookiesOf(opened);
    expect(
      (await login(h.app, stranger.email, TEST_PASSWORD, { address: freshAddress(), jar })).res.statusCode,
    ).toBe(429);
    expect(
      (await login(h.app, user.email, TEST_PASSWORD, { address: freshAddress(), jar })).res.statusCode,
    ).toBe(200);
    // A made-up link, or one mailed to an address the account no longer has, is refused.
    expect((await unlock('not-a-real-link')).statusCode).toBe(422);
    const second = linkIn(
      (await lastMail(h, stranger.email, 'sign_in_locked'))?.text_body ?? '',
      'unlock-sign-in',
    );
    await h.db
      .updateTable('users')
      .set({ email: `moved-${stranger.id}@example.test` })
      .where('id', '=', stranger.id)
      .execute();
    const dead = await unlock(second.token);
    expect(dead.statusCode).toBe(422);
    expect(dead.json().errors.token).toEqual([Messages.invalidUnlockToken]);
  });
});
