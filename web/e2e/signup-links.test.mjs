import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BASE,
  bearer,
  checkPage,
  client,
  launch,
  MANAGER,
  mailedLink,
  NARROW,
  newPage,
  signIn,
  toast,
} from './lib.mjs';

/**
 * Issue 18, sign-up links in the browser: the manager (Oakfield House) makes a link in the page and copies it; a new
 * starter opens it on a phone (375 px), signs up, follows the link mailed to them, and lands on their learner dashboard with their Mandatory courses
 * and the "waiting for approval" banner; the manager approves them from the Sign-up links page; a link that no
 * longer works (revoked, the same page as expired) shows the one message. Pages are checked with axe at both widths.
 */
const WIDE = { width: 1280, height: 800 };
const stamp = Date.now().toString(36);
const STARTER = {
  name: `Nia Starter ${stamp}`,
  email: `nia-${stamp}@example.test`,
  password: 'Kettle-Orchard-Lantern-93',
};

/** The confirm link mailed to a new starter. */
const confirmLink = async (email) =>
  (await mailedLink(email, /https?:\/\/\S+\/signUpOnMonday\?confirm=\S+/)).url;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('sign-up links', () => {
  let url;

  it('the manager creates a link in the page and copies it', async () => {
    const { context, page } = await newPage(browser, WIDE);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
    await signIn(page, MANAGER);
    await page.getByRole('link', { name: 'Sign-up links' }).first().click();
    await page.waitForURL(`${BASE}/users/signup-links`);
    await page.getByRole('button', { name: 'New sign-up link' }).click();
    const dialog = page.getByRole('dialog');
    // The home's label names its group when the manager acts as the group ("Oakfield House (Meadowbrook ...)").
    const homeSelect = dialog.getByLabel(/^Home/);
    await homeSelect.locator('option', { hasText: 'Oakfield House' }).first().waitFor({ state: 'attached' });
    const value = await homeSelect
      .locator('option', { hasText: 'Oakfield House' })
      .first()
      .getAttribute('value');
    await homeSelect.selectOption(value);
    await dialog.getByLabel(/^Job role/).selectOption({ label: 'Care Assistant' });
    await dialog.getByLabel(/^User type/).selectOption({ label: 'Learner' });
    await dialog.getByLabel(/^Start date/).fill('2030-01-07');
    await checkPage(page, 'signup-links-new');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await toast(page, 'Sign-up link created');
    const field = page.getByTestId('created-link-url');
    url = await field.inputValue();
    assert.match(url, /\/signUpOnMonday\?token=[\w-]{20,}$/);
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), url);
    await checkPage(page, 'signup-links');
    await page.setViewportSize(NARROW);
    await checkPage(page, 'signup-links');
    await context.close();
  });

  it('a new starter signs up on a phone and lands on the learner dashboard, waiting for approval', async () => {
    const { context, page } = await newPage(browser, NARROW);
    await page.goto(url.replace(/^https?:\/\/[^/]+/, BASE));
    await page.getByRole('heading', { name: 'Join Oakfield House' }).waitFor();
    assert.equal(await page.getByTestId('signup-role').textContent(), 'Care Assistant');
    await checkPage(page, 'signup-page');
    await page.getByLabel(/^Full name/).fill(STARTER.name);
    await page.getByLabel(/^E-mail address/).fill(STARTER.email);
    await page.getByLabel(/^Password/).fill(STARTER.password);
    await page.getByLabel(/^Confirm the password/).fill(STARTER.password);
    await page.getByRole('button', { name: 'Create my account' }).click();
    // The same answer whether or not the address has an account (issue 29 §5): the link mailed to it finishes.
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await checkPage(page, 'signup-check-email');
    const confirmUrl = await confirmLink(STARTER.email);
    await page.goto(`${BASE}${confirmUrl.pathname}${confirmUrl.search}`);
    await page.waitForURL(`${BASE}/learner-dashboard`);
    await page.getByTestId('pending-approval-banner').waitFor();
    // The role's Mandatory training is there from the first minute (compliance rules apply by role).
    await page
      .getByText(/Mandatory/)
      .first()
      .waitFor();
    await checkPage(page, 'signup-learner-dashboard');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal overflow at 375 px (${overflow})`);
    await context.close();
  });

  it('the manager approves the new starter', async () => {
    const { context, page } = await newPage(browser, WIDE);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/users/signup-links`);
    const pending = page.getByTestId('pending-signups');
    await pending.getByText(STARTER.name).first().waitFor();
    await pending.getByRole('button', { name: 'Approve' }).first().click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Approve' }).click();
    await toast(page, 'Sign-up approved');
    await pending.getByText('Nobody is waiting').waitFor();
    await context.close();
  });

  it('a link that no longer works shows one clear message', async () => {
    const api = client(await bearer(MANAGER));
    const home = (await api('GET', '/entities?search=Oakfield&per_page=5')).find(
      (e) => e.slug === 'oakfield-house',
    );
    assert.ok(home, 'Oakfield House');
    const roles = await api('GET', '/entities/oakfield-house/roles?per_page=100');
    const role = roles.find((r) => r.name === 'Care Assistant');
    const link = await api('POST', '/signup-links', {
      entity_id: home.id,
      role_id: role.id,
      start_date: '2030-01-07',
    });
    await api('POST', `/signup-links/${link.id}/revoke`);
    const { context, page } = await newPage(browser, NARROW);
    for (const token of [link.token, 'not-a-real-token']) {
      await page.goto(`${BASE}/signUpOnMonday?token=${token}`);
      await page.getByTestId('signup-invalid').waitFor();
      await page
        .getByText('This sign-up link has expired or is no longer valid. Ask your manager for a new one.')
        .waitFor();
    }
    await checkPage(page, 'signup-invalid');
    await context.close();
  });
});
