import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN,
  BASE,
  checkPage,
  confirmAndSignIn,
  launch,
  login,
  mailedLink,
  newPage,
  registerOrganisation,
} from './lib.mjs';

/**
 * The authentication pages end to end against the real server: forgot → e-mail → reset, register, verify the
 * e-mail, the forced password change (compromised password with 'enforce_change'), and logout.
 * Mail is read from the outbox (GET /api/mail/outbox, super admin; lib.mjs mailedLink).
 */
const DEMO_PASSWORD = 'demo-Password1';
const LEARNER = { email: 'learner@demo.test', password: DEMO_PASSWORD };

let browser;
let adminToken;
before(async () => {
  browser = await launch();
  adminToken = await apiLogin(ADMIN);
});
after(async () => {
  await browser?.close();
});

async function api(method, path, { token = adminToken, body } = {}) {
  const res = await fetch(`${BASE}/api${path}`, {
    method,
    headers: {
      Accept: 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(data)}`);
  return data;
}

async function apiLogin({ email, password }) {
  const res = await api('POST', '/auth/login', {
    token: null,
    body: { email, password, device_name: 'e2e auth-flows' },
  });
  return res.data.token;
}

async function lastMailId(to) {
  const res = await api('GET', `/mail/outbox?to=${encodeURIComponent(to)}`);
  return res.data[0]?.id ?? 0;
}

const RESET_LINK = /https?:\/\/\S+\/reset-password\/[^\s?]+\?email=\S+/;

async function errorLines(page) {
  const alert = page.getByRole('alert').first();
  await alert.waitFor();
  return (await alert.getByRole('listitem').allInnerTexts()).map((t) => t.replace(/^–\s*/, '').trim());
}

async function fill(page, fields) {
  for (const [label, value] of Object.entries(fields))
    await page.getByLabel(new RegExp(`^${label}`)).fill(value);
}

describe('forgotten password → e-mail → reset → sign in', () => {
  it('resets the learner password from the mailed link, listing every failing rule first', async () => {
    const { page, context, errors } = await newPage(browser);
    const before = await lastMailId(LEARNER.email);
    await page.goto(`${BASE}/login`);
    await page.getByRole('link', { name: 'Forgotten your password?' }).click();
    await page.waitForURL(`${BASE}/forgot-password`);
    // The title is set once the lazily loaded page renders, a moment after the URL changes.
    await page.waitForFunction(() => document.title === 'Forgotten password | CareCompliance');
    await checkPage(page, 'forgot-password');
    await fill(page, { 'E-mail address': LEARNER.email });
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    const status = page.getByRole('status').filter({ hasText: 'password reset link' });
    await status.waitFor();
    assert.equal(
      await status.textContent(),
      'If that e-mail address is registered, we have e-mailed a password reset link.',
    );
    await checkPage(page, 'forgot-password-sent');

    const { url } = await mailedLink(LEARNER.email, RESET_LINK, { newerThan: before });
    await page.goto(`${BASE}${url.pathname}${url.search}`);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    assert.equal(await page.getByLabel(/^E-mail address/).inputValue(), LEARNER.email, 'e-mail from ?email=');
    await checkPage(page, 'reset-password');

    // A weak password: the server returns every failing rule; each is its own line.
    await fill(page, { 'New password': 'password', 'Confirm the new password': 'password' });
    await page.getByRole('button', { name: 'Set the new password' }).click();
    const lines = await errorLines(page);
    for (const rule of [
      'The password must be at least 12 characters.',
      'This password has appeared in a data breach. Please choose a different password.',
    ]) {
      assert.ok(lines.includes(rule), `"${rule}" listed in ${JSON.stringify(lines)}`);
    }
    assert.ok(lines.length >= 2);
    assert.equal(await page.getByLabel(/^New password/).getAttribute('aria-invalid'), 'true');
    await checkPage(page, 'reset-password-rules');

    const fresh = 'Learner-New-Pass-42';
    await fill(page, { 'New password': fresh, 'Confirm the new password': fresh });
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password has been reset.' }).waitFor();
    await checkPage(page, 'reset-password-done');

    // The link is spent: opening it again and submitting says so, with a way to ask for a new one.
    await page.goto(`${BASE}${url.pathname}${url.search}`);
    await fill(page, { 'New password': fresh, 'Confirm the new password': fresh });
    await page.getByRole('button', { name: 'Set the new password' }).click();
    const dead = page.getByRole('alert').first();
    await dead.waitFor();
    assert.match(await dead.textContent(), /invalid or has expired/);
    assert.ok(await dead.getByRole('link', { name: 'Request a new reset link' }).isVisible());
    await checkPage(page, 'reset-password-dead-link');

    await page.goto(`${BASE}/login`);
    await login(page, { email: LEARNER.email, password: DEMO_PASSWORD });
    await page.getByRole('alert').first().waitFor();
    assert.match(
      await page.getByRole('alert').first().textContent(),
      /credentials/i,
      'the old password is gone',
    );
    await login(page, { email: LEARNER.email, password: fresh });
    await page.waitForURL(`${BASE}/`);
    assert.match(await page.getByTestId('who-am-i').textContent(), /learner@demo\.test/);

    // Put the demo password back through /update-password (the learner holds permission 44).
    await page.goto(`${BASE}/update-password`);
    await page.getByRole('heading', { name: 'Change your password' }).waitFor();
    assert.equal(await page.getByText(/must be changed/).count(), 0, 'not a forced change');
    await checkPage(page, 'update-password');
    await fill(page, {
      'Current password': fresh,
      'New password': DEMO_PASSWORD,
      'Confirm the new password': DEMO_PASSWORD,
    });
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL(`${BASE}/`);
    await page.getByText('Your password has been updated.').waitFor();
    assert.deepEqual(errors, []);
    await context.close();
    assert.ok(await apiLogin(LEARNER), 'the demo password works again');
  });
});

describe('register a new organisation', () => {
  it('registers on /register/free, confirms the address from the mail, signs in, logs out', async () => {
    const { page, context, errors } = await newPage(browser);
    const stamp = Date.now();
    const email = `owner-${stamp}@rosewood.test`;
    const password = 'Rosewood-Start-42';
    await page.goto(`${BASE}/register/free`);
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.waitForFunction(() => document.title === 'Create an account | CareCompliance');
    assert.ok(await page.getByText('Free plan').isVisible(), 'the plan is shown');
    assert.ok(
      await page.getByText(/^At least 12 characters/).isVisible(),
      'the password rule in plain words',
    );
    await checkPage(page, 'register');

    // A breached password: a new organisation refuses it, with every failing rule listed.
    await fill(page, {
      'Your name': 'Rosa Owner',
      'Organisation name': `Rosewood Care ${stamp}`,
      'E-mail address': email,
      Password: 'password',
      'Confirm the password': 'password',
    });
    await page.getByRole('button', { name: 'Create the account' }).click();
    const lines = await errorLines(page);
    assert.ok(
      lines.some((l) => /data breach/.test(l)),
      JSON.stringify(lines),
    );
    assert.ok(lines.includes('The password must be at least 12 characters.'));
    await checkPage(page, 'register-errors');

    // The e-mail of an existing account: the same answer as a new one (no account enumeration); its owner is mailed.
    await fill(page, {
      'E-mail address': ADMIN.email,
      Password: password,
      'Confirm the password': password,
    });
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    const takenAnswer = await page.getByRole('status').textContent();
    await mailedLink(ADMIN.email, /https?:\/\/\S+\/forgot-password/);

    await registerOrganisation(page, {
      name: 'Rosa Owner',
      organisation: `Rosewood Care ${stamp}`,
      email,
      password,
    });
    assert.equal(await page.getByRole('status').textContent(), takenAnswer, 'the same words for both');
    await checkPage(page, 'register-check-email');

    // The mailed link creates the organisation; then the new administrator signs in, verified already.
    const url = await confirmAndSignIn(page, { email, password }, () => checkPage(page, 'verify-email-done'));
    const who = page.getByTestId('who-am-i');
    assert.match(await who.textContent(), new RegExp(email.replace(/[.]/g, '\\.')));
    assert.doesNotMatch(await who.textContent(), /Not verified/);
    await checkPage(page, 'register-dashboard');

    // A spent link: the server's error.
    await page.goto(`${BASE}${url.pathname}`);
    const spent = page.getByRole('alert').first();
    await spent.waitFor();
    assert.match(await spent.textContent(), /invalid or has expired/);
    await checkPage(page, 'verify-email-spent');

    // Logout returns to /login; protected pages need login again.
    await page.goto(`${BASE}/`);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(/\/login/);
    for (const path of ['/update-password', '/request/verify-email', '/']) {
      await page.goto(`${BASE}${path}`);
      await page.waitForURL(`${BASE}/login?redirect=${encodeURIComponent(path)}`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('forced password change (compromised password, enforce_change)', () => {
  // A breached password can no longer be set through any route (issue 11 §7: refused whatever the entity's
  // setting), and this suite reaches the server only through its API, so it cannot plant the legacy password this
  // needs. The forced change stays covered by server/src/auth/flows.test.ts ("flags the account when the entity
  // enforces a change") and password-gate.test.ts, and the guard by web/src/auth/auth-pages.test.tsx.
  it.skip('sends the user to /update-password after login and from every page until changed', async () => {
    const me = await api('GET', '/auth/user');
    const entityId = me.data.primary_entity.id;
    const entity = (await api('GET', `/entities/${entityId}`)).data;
    const original = entity.compromised_passwords;
    const email = `breached-${Date.now()}@demo.test`;
    try {
      // A person whose password is on the breached list, created while the check is off; then it is switched on.
      await api('PATCH', `/entities/${entityId}`, { body: { compromised_passwords: 'off' } });
      await api('POST', '/users', {
        body: {
          name: 'Bea Breached',
          email,
          primary_entity_id: entityId,
          password: 'Password1',
          send_welcome_email: false,
        },
      });
      await api('PATCH', `/entities/${entityId}`, { body: { compromised_passwords: 'enforce_change' } });

      const { page, context, errors } = await newPage(browser);
      await page.goto(`${BASE}/users`);
      await page.waitForURL(/\/login\?redirect=%2Fusers/);
      await login(page, { email, password: 'Password1' });
      await page.waitForURL(`${BASE}/update-password?redirect=%2Fusers`);
      await page.getByText('Your password has expired or must be changed before you can continue.').waitFor();
      assert.ok(await page.getByRole('button', { name: 'Sign out' }).isVisible());
      await checkPage(page, 'update-password-forced');

      // Any protected page comes back here.
      await page.goto(`${BASE}/entities`);
      await page.waitForURL(`${BASE}/update-password?redirect=%2Fentities`);

      await fill(page, {
        'Current password': 'Password1',
        'New password': 'password',
        'Confirm the new password': 'password',
      });
      await page.getByRole('button', { name: 'Change password' }).click();
      const lines = await errorLines(page);
      assert.ok(
        lines.some((l) => /data breach/.test(l)),
        JSON.stringify(lines),
      );
      await checkPage(page, 'update-password-forced-rules');

      // A full reload of / still lands here (start-up reads the flag from GET /api/auth/user).
      await page.goto(`${BASE}/`);
      await page.waitForURL(`${BASE}/update-password?redirect=%2F`);
      await fill(page, {
        'Current password': 'Password1',
        'New password': 'Bea-Fresh-Start-42',
        'Confirm the new password': 'Bea-Fresh-Start-42',
      });
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.waitForURL(`${BASE}/`);
      await page.getByTestId('who-am-i').waitFor();
      const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('authUser') ?? 'null'));
      assert.equal(stored?.password_change_required, false);
      await page.reload();
      await page.getByTestId('who-am-i').waitFor();
      assert.equal(page.url(), `${BASE}/`, 'free to move once changed');
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await api('PATCH', `/entities/${entityId}`, { body: { compromised_passwords: original } });
    }
  });
});

describe('auth pages at 375 px', () => {
  it('every auth page is usable on a narrow screen', async () => {
    const { page, context, errors } = await newPage(browser, { width: 375, height: 740 });
    await page.goto(`${BASE}/register/standard`);
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await checkPage(page, 'register');
    await page.goto(`${BASE}/forgot-password`);
    await page.getByRole('heading', { name: 'Forgotten your password?' }).waitFor();
    await checkPage(page, 'forgot-password');
    await page.goto(`${BASE}/reset-password/not-a-real-token?email=learner%40demo.test`);
    await fill(page, { 'New password': 'short', 'Confirm the new password': 'short' });
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByRole('alert').first().waitFor();
    await checkPage(page, 'reset-password-error');
    await page.goto(`${BASE}/verify-email/not-a-real-token`);
    await page.getByRole('alert').first().waitFor();
    await checkPage(page, 'verify-email-error');

    await page.goto(`${BASE}/login`);
    await login(page);
    await page.waitForURL(`${BASE}/`);
    await page.goto(`${BASE}/update-password`);
    await page.getByRole('heading', { name: 'Change your password' }).waitFor();
    await checkPage(page, 'update-password');
    // Keyboard: the first field takes focus by Tab order after the page's links.
    await page.getByLabel(/^Current password/).focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'password');
    await page.goto(`${BASE}/request/verify-email`);
    await page.getByRole('heading', { name: 'Verify your e-mail address' }).waitFor();
    await checkPage(page, 'request-verify-email');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
