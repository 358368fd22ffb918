import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN, checkPage, launch, login, MANAGER, MOBILE, NARROW, newPage } from './lib.mjs';

/**
 * The mobile build's start-up (spec 1 §4, issue 19): the token in secure storage (the plugin's web implementation
 * keeps it under its own prefixed key), the 'Sign In' fingerprint prompt (simulated with a confirm dialog), logout
 * when it is declined, and the shared tablet.
 */
const SECURE_TOKEN = 'capacitor-storage_token';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function signInOnMobile(page, who = ADMIN) {
  await page.goto(`${MOBILE}/login`);
  await login(page, who);
  await page.waitForURL(`${MOBILE}/`);
  await page.getByTestId('who-am-i').waitFor();
}

const stored = (page, key) => page.evaluate((k) => localStorage.getItem(k), key);

describe('mobile start-up with the secure token', () => {
  it("reload asks 'Sign In'; accepting goes on to the dashboard with the bearer token", async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    await signInOnMobile(page);
    assert.equal(await stored(page, 'token'), null, 'no token under localStorage "token"');
    const token = await stored(page, SECURE_TOKEN);
    assert.ok(token && token.length > 20, 'the token is in secure storage');

    const events = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname.startsWith('/api/'))
        events.push(['request', url.pathname, req.headers().authorization]);
    });
    page.on('dialog', async (dialog) => {
      events.push(['dialog', dialog.message()]);
      await dialog.accept();
    });
    await page.reload();
    await page.getByTestId('who-am-i').waitFor();
    await page.waitForLoadState('networkidle');
    const dialogs = events.filter(([kind]) => kind === 'dialog');
    assert.deepEqual(dialogs, [['dialog', 'Sign In']], 'one prompt, titled Sign In');
    const me = events.findIndex(([kind, path]) => kind === 'request' && path === '/api/auth/user');
    assert.ok(me > events.indexOf(dialogs[0]), 'the session is refreshed only once the prompt is answered');
    assert.equal(events[me][2], `Bearer ${token}`);
    const early = events.slice(0, events.indexOf(dialogs[0])).filter(([, , authorization]) => authorization);
    assert.deepEqual(early, [], 'nothing is asked with the token before the prompt is answered');
    assert.equal(await stored(page, 'token'), null);
    await checkPage(page, 'mobile-startup-dashboard');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('a declined prompt logs out: login page in plain words, token gone and refused by the API', async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    await signInOnMobile(page);
    const token = await stored(page, SECURE_TOKEN);
    const dialogs = [];
    page.on('dialog', async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });
    await page.reload();
    await page.waitForURL(/\/login/);
    await page.getByText('Sign in again to continue.').waitFor();
    assert.equal(dialogs[0], 'Sign In');
    assert.equal(await stored(page, SECURE_TOKEN), null, 'token removed from secure storage');
    assert.equal(await stored(page, 'token'), null);
    assert.equal(await stored(page, 'authUser'), null);
    const status = await page.evaluate(
      async (t) =>
        await fetch('/api/auth/user', { headers: { Authorization: `Bearer ${t}` } }).then(async (r) => {
          await r.text();
          return r.status;
        }),
      token,
    );
    assert.equal(status, 401, 'the server revoked the token');
    await checkPage(page, 'mobile-startup-signed-out');
    // A fresh sign-in with the password does not prompt.
    const asked = dialogs.length;
    await login(page);
    await page.waitForURL(`${MOBILE}/`);
    await page.getByTestId('who-am-i').waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(dialogs.length, asked, 'no prompt after a password sign-in');
    assert.deepEqual(errors, []);
    await context.close();
  });
});

async function joinTablet(page, pin, screenshot) {
  // The dialog's own element has no box (its panel is fixed): wait on what it shows.
  const dialog = page.getByRole('dialog', { name: 'Join this tablet' });
  const field = dialog.getByLabel('Your tablet PIN');
  await field.waitFor();
  if (screenshot) await checkPage(page, screenshot);
  await field.fill(pin);
  await dialog.getByLabel('The same PIN again').fill(pin);
  await dialog.getByRole('button', { name: 'Join this tablet' }).click();
  await field.waitFor({ state: 'detached' });
}

async function switchUser(page) {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Switch user' }).click();
  await page.getByRole('heading', { name: 'Who is signing in?' }).waitFor();
}

async function unlock(page, who, pin) {
  await page.getByRole('button', { name: new RegExp(who.email) }).click();
  await page.getByLabel('Tablet PIN').fill(pin);
  await page.getByRole('button', { name: 'Continue' }).click();
}

async function signedInAs(page, who) {
  await page.waitForURL(`${MOBILE}/`);
  const card = page.getByTestId('who-am-i');
  await card.filter({ hasText: who.email }).waitFor();
}

describe('shared tablet', () => {
  it('two people join with PINs, switch without logging out, each sees their own account', async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    await page.goto(`${MOBILE}/login`);
    await page.getByRole('switch', { name: 'Shared tablet' }).click();
    await login(page, ADMIN);
    await joinTablet(page, '1357', 'tablet-join');
    await signedInAs(page, ADMIN);

    await switchUser(page);
    await checkPage(page, 'tablet-list-one');
    // Nobody's data behind the list: the page cache went with the admin.
    assert.equal(await stored(page, 'authUser'), null);
    await page.getByRole('button', { name: 'Someone else' }).click();
    await login(page, MANAGER);
    await joinTablet(page, '2468');
    await signedInAs(page, MANAGER);
    const managerToken = await stored(page, SECURE_TOKEN);

    await switchUser(page);
    const people = page.getByRole('list', { name: 'People on this tablet' });
    await people.getByText(ADMIN.email).waitFor();
    await people.getByText(MANAGER.email).waitFor();
    await checkPage(page, 'tablet-list');

    await page.getByRole('button', { name: new RegExp(ADMIN.email) }).click();
    await page.getByLabel('Tablet PIN').fill('2468');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'That PIN is not right. Try again. 4 tries left.' })
      .waitFor();
    await checkPage(page, 'tablet-pin-wrong');
    await page.getByLabel('Tablet PIN').fill('1357');
    await page.getByRole('button', { name: 'Continue' }).click();
    await signedInAs(page, ADMIN);
    assert.doesNotMatch(await page.getByTestId('who-am-i').textContent(), new RegExp(MANAGER.email));

    // The manager was not logged out by the switch: their token still works.
    const status = await page.evaluate(
      async (t) =>
        await fetch('/api/auth/user', { headers: { Authorization: `Bearer ${t}` } }).then(async (r) => {
          await r.text();
          return r.status;
        }),
      managerToken,
    );
    assert.equal(status, 200);

    // From the keyboard: the person's button, then the PIN and Enter.
    await switchUser(page);
    await page.getByRole('button', { name: new RegExp(MANAGER.email) }).focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('Tablet PIN').focus();
    await page.keyboard.type('2468');
    await page.keyboard.press('Enter');
    await signedInAs(page, MANAGER);
    assert.equal(await stored(page, 'token'), null);

    // Restarting the app on a shared tablet goes to the list, with no fingerprint prompt for the last person.
    const dialogs = [];
    page.on('dialog', async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Who is signing in?' }).waitFor();
    assert.deepEqual(dialogs, []);
    await page.setViewportSize({ width: 1280, height: 800 });
    await checkPage(page, 'tablet-list');
    await page.setViewportSize(NARROW);
    await unlock(page, MANAGER, '2468');
    await signedInAs(page, MANAGER);

    // Remove the admin from the tablet (asked first); the manager stays.
    await switchUser(page);
    await people
      .getByRole('listitem')
      .filter({ hasText: ADMIN.email })
      .getByRole('button', { name: /^Remove .* from this tablet$/ })
      .click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await people.getByText(ADMIN.email).waitFor({ state: 'detached' });
    await people.getByText(MANAGER.email).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });
});
