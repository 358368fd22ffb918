import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE, checkPage, launch, NARROW, newPage, signIn, toast } from './lib.mjs';

/**
 * Issue 18, personal access tokens in the browser: the admin creates a token allowed only "search users" in the page,
 * copies it from the one-time panel (the clipboard), and the test calls the API with it: a route it may use answers
 * 200, one it may not 403. The admin revokes it in the page (after the confirmation), and the same call is then 401.
 * The page is screenshotted and checked with axe at 1280 and 375 px, without horizontal overflow at 375.
 */
const NAME = `Rota sync ${Date.now().toString(36)}`;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const callApi = (token, path) =>
  fetch(`${BASE}/api${path}`, { headers: { accept: 'application/json', authorization: `Bearer ${token}` } });

async function noOverflow(page) {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(over <= 0, `the page overflows by ${over}px at ${page.viewportSize()?.width}px`);
}

describe('personal access tokens', () => {
  it('creates a token limited to what it was given, shown once, and revokes it at once', async () => {
    const { context, page, errors } = await newPage(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
    await signIn(page);
    await page.getByRole('link', { name: 'Access tokens' }).first().click();
    await page.waitForURL(`${BASE}/personal-access-tokens`);
    await page.getByRole('heading', { name: 'Personal access tokens' }).waitFor();
    await checkPage(page, 'tokens');

    await page.getByRole('button', { name: 'Create token' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill(NAME);
    // Nothing chosen: the message is by the field, and nothing is created.
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await dialog.getByText('Choose at least one permission.').waitFor();
    await dialog.getByLabel('Search permissions').fill('search users');
    await dialog.getByLabel('Search users').check();
    await dialog.getByText(/At most \d+ days from today/).waitFor();
    await checkPage(page, 'tokens-create');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await toast(page, 'Token created');

    const panel = page.getByTestId('new-token');
    await panel.getByText('You will not see it again').waitFor();
    const shown = (await page.getByTestId('new-token-value').textContent())?.trim() ?? '';
    assert.match(shown, /^ccpat_[A-Za-z0-9_-]{49}$/);
    await panel.getByRole('button', { name: 'Copy', exact: true }).click();
    await panel.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    const token = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(token, shown);

    assert.equal((await callApi(token, '/users')).status, 200);
    assert.equal((await callApi(token, '/roles/stats')).status, 403);

    await checkPage(page, 'tokens-created');
    await page.setViewportSize(NARROW);
    await checkPage(page, 'tokens-created');
    await noOverflow(page);
    // Back to the wide layout to act: at 375 px the side navigation may be open over the page.
    await page.setViewportSize({ width: 1280, height: 800 });
    await panel.getByRole('button', { name: 'I have copied it' }).click();
    await panel.waitFor({ state: 'detached' });
    // Listed, without its secret, and it was used just now.
    const list = page.getByTestId('tokens-list');
    await list.getByText(NAME).waitFor();
    assert.ok(!(await list.textContent())?.includes(token));

    await list.getByRole('button', { name: `Revoke ${NAME}` }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('will stop working at once').waitFor();
    await confirm.getByRole('button', { name: 'Revoke token' }).click();
    await toast(page, 'Token revoked');
    assert.equal((await callApi(token, '/users')).status, 401);
    await list.getByRole('cell', { name: 'Revoked', exact: true }).waitFor();
    await checkPage(page, 'tokens-revoked');
    await page.setViewportSize(NARROW);
    await checkPage(page, 'tokens-revoked');
    await noOverflow(page);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
