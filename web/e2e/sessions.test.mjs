import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE, checkPage, launch, mailedLink, NARROW, newPage, signIn, toast, VERIFY_LINK } from './lib.mjs';

/**
 * "Sessions and devices" (issue 11 §10) end to end: a user signed in on two browsers and the mobile app sees all
 * them from the account menu, this browser marked; signs the phone out (keyboard only, after a confirmation), then
 * everything else; the other browser and the phone are refused at once. Its own account (registered here), so
 * signing out "everywhere else" touches no other test's sessions.
 */
const PASSWORD = 'Sessions-Harbour-Lantern-93';

let browser;
let who;
before(async () => {
  browser = await launch();
  const stamp = Date.now();
  who = { email: `sessions-${stamp}@willowbank.test`, password: PASSWORD };
  // spec 1 §2 /register/{plan}: a cookieless JSON call is accepted (the mobile shell's way).
  const res = await fetch(`${BASE}/api/register/free`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      name: 'Sam Sessions',
      email: who.email,
      organisation: `Willowbank Care ${stamp}`,
      password: PASSWORD,
      password_confirmation: PASSWORD,
    }),
  });
  assert.equal(res.status, 202, await res.text());
  // The sign-up waits for its address (issue 11 §8): follow the confirm link from the outbox, as its owner would.
  const { url } = await mailedLink(who.email, VERIFY_LINK);
  const token = decodeURIComponent(url.pathname.split('/').pop());
  await fetch(`${BASE}/api/auth/verify-email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ token }),
  }).then((r) => assert.equal(r.status, 200));
});

after(async () => {
  await browser?.close();
});

async function phoneLogin(deviceName) {
  const res = await fetch(`${BASE}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ email: who.email, password: who.password, device_name: deviceName }),
  });
  assert.equal(res.status, 200);
  return (await res.json()).data.token;
}

const statusWithToken = async (token) =>
  (
    await fetch(`${BASE}/api/auth/user`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    })
  ).status;

const statusIn = (page) =>
  page.evaluate(
    async () =>
      await fetch('/api/auth/user', { headers: { Accept: 'application/json' } }).then(async (r) => {
        await r.text();
        return r.status;
      }),
  );

describe('sessions and devices', () => {
  it('lists where the user is signed in and signs others out after a confirmation', async () => {
    const other = await newPage(browser);
    await signIn(other.page, who);
    const phone = await phoneLogin('Pixel 8 Pro');

    const { page, context, errors } = await newPage(browser);
    await signIn(page, who);
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Sessions and devices' }).click();
    await page.waitForURL(`${BASE}/account/sessions`);
    await page.getByRole('heading', { level: 1, name: 'Sessions and devices' }).waitFor();
    // This browser, the other one and the phone (registering signs nobody in: the address is confirmed first).
    const rows = page.getByTestId('session-row');
    await rows.nth(2).waitFor();
    assert.equal(await rows.count(), 3);
    const thisDevice = page.getByRole('region', { name: 'This device' });
    assert.match(await thisDevice.innerText(), /Chrome on Linux/);
    assert.match(await thisDevice.innerText(), /This device/);
    await page.getByText('Pixel 8 Pro').waitFor();
    await checkPage(page, 'sessions');

    // Keyboard only: focus the phone's Sign out, open the confirmation, confirm.
    const phoneButton = page.getByRole('button', { name: /^Sign out Pixel 8 Pro/ });
    await phoneButton.focus();
    await page.keyboard.press('Enter');
    // (The dialog's own box is empty, its panel is fixed: wait on what it shows.)
    const dialog = page.getByRole('alertdialog', { name: 'Sign out this session?' });
    const title = dialog.getByText('Sign out this session?');
    await title.waitFor();
    assert.match(await dialog.innerText(), /Pixel 8 Pro/);
    await page.keyboard.press('Escape');
    await title.waitFor({ state: 'detached' });
    assert.equal(await statusWithToken(phone), 200, 'cancelling ends nothing');
    await phoneButton.focus();
    await page.keyboard.press('Enter');
    await title.waitFor();
    await dialog.getByRole('button', { name: 'Sign out' }).focus();
    await page.keyboard.press('Enter');
    await toast(page, 'Session has been ended.');
    await page.getByText('Pixel 8 Pro').waitFor({ state: 'detached' });
    assert.equal(await statusWithToken(phone), 401, 'the phone is signed out');
    assert.equal(await statusIn(other.page), 200, 'the other browser is not');

    // Everything else: the other browser is refused at once; this one stays.
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    const all = page.getByRole('alertdialog', { name: 'Sign out everywhere else?' });
    await all.getByRole('button', { name: 'Sign out all others' }).click();
    await toast(page, 'Your other sessions and devices have been signed out.');
    await page.getByText('No other sessions or devices').waitFor();
    assert.equal(await statusIn(other.page), 401, 'the other browser is signed out');
    assert.equal(await statusIn(page), 200, 'this browser stays signed in');
    await checkPage(page, 'sessions-empty');
    assert.deepEqual(errors, []);
    await context.close();
    await other.context.close();
  });

  it('is usable on a narrow screen', async () => {
    const phone = await phoneLogin('iPhone 15');
    const { page, context, errors } = await newPage(browser, NARROW);
    await signIn(page, who);
    await page.goto(`${BASE}/account/sessions`);
    await page.getByText('iPhone 15').waitFor();
    const button = page.getByRole('button', { name: /^Sign out iPhone 15/ });
    const box = await button.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= NARROW.width, 'the Sign out button fits the screen');
    await checkPage(page, 'sessions-narrow');
    assert.deepEqual(errors, []);
    await context.close();
    assert.equal(await statusWithToken(phone), 200);
  });
});
