import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN, BASE, bearer, checkPage, client, launch, MANAGER, NARROW, newPage, signIn } from './lib.mjs';

/**
 * Issue 13, activity and search: the administrator opens Active users from the menu and sees themself online now and
 * the sign-in chart; searches "oak" and opens Oakfield House; the home manager sees a carer's account activity.
 */
const LEARNER = { email: 'learner@demo.test', password: ADMIN.password };

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('active users', () => {
  it('the admin opens Active users from the menu: themself online now, and the sign-in chart', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Active users' }).click();
    await page.waitForURL(`${BASE}/active-users`);
    await page.getByTestId('signin-metrics').waitFor();
    const me = page.getByRole('row').filter({ hasText: 'Alex Morgan' });
    await me.getByText('Online now').waitFor();
    assert.match(await me.innerText(), /Chrome on Linux/);
    // Today by hour: 24 hours, and the admin's own sign-in counted.
    const figures = page.getByTestId('signin-metrics');
    assert.ok(Number(await figures.locator('dd').first().innerText()) >= 1);
    assert.equal(await figures.locator('table tbody tr').count(), 24);
    await checkPage(page, 'active-users');
    await page.getByRole('button', { name: '12 months' }).click();
    await page.waitForURL(/range=12m/);
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid=signin-metrics] table tbody tr').length === 12,
    );
    // Search by name: only matching people.
    await page.getByLabel('Search active users').fill('zzz-nobody');
    await page.getByText('Nobody matches').first().waitFor();
    await page.getByLabel('Search active users').fill('Alex');
    await me.waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('at 375 px the active users page reads as cards', async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    await signIn(page);
    await page.goto(`${BASE}/active-users`);
    await page.getByTestId('signin-metrics').waitFor();
    await page.getByRole('list', { name: 'Active users' }).getByText('Online now').first().waitFor();
    await checkPage(page, 'active-users');
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('system search', () => {
  it('the admin searches "oak" and opens Oakfield House from the results', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/system/search`);
    await page.getByLabel('Search for').fill('oak');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/\/system\/search\?q=oak/);
    const homes = page.getByTestId('search-entities');
    await homes.getByRole('link', { name: /Oakfield House/ }).waitFor();
    // Every kind the admin may search is counted, the homes ranked (Oakfield House starts with "oak").
    assert.match(
      await page.getByTestId('search-summary').innerText(),
      /People \d+ · Homes \d+ · Courses \d+ · Training records \d+/,
    );
    assert.match(await homes.getByRole('link').first().innerText(), /^Oakfield House/);
    await checkPage(page, 'system-search');
    await homes.getByRole('link', { name: /Oakfield House/ }).click();
    await page.waitForURL(`${BASE}/entities/oakfield-house`);
    await page.getByRole('heading', { name: 'Oakfield House', level: 1 }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('at 375 px the results stay readable', async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    await signIn(page);
    await page.goto(`${BASE}/system/search?q=oak`);
    await page.getByTestId('search-entities').waitFor();
    await checkPage(page, 'system-search');
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('account activity', () => {
  it("the home manager sees a carer's sign-ins on the carer's page", async () => {
    // The carer signs in on the app, so their account has something to show.
    await bearer(LEARNER, 'Casey phone');
    const admin = client(await bearer(ADMIN, 'e2e activity'));
    const [casey] = await admin('GET', '/users?search=Casey%20Lee&deep=1');
    assert.ok(casey, 'Casey Lee in the demo');
    for (const viewport of [undefined, NARROW]) {
      const { page, context, errors } = await newPage(browser, viewport);
      await signIn(page, MANAGER);
      await page.goto(`${BASE}/users/${casey.uuid}`);
      const card = page.getByTestId('account-activity');
      await card.getByText('Signed in').first().waitFor();
      assert.match(await card.innerText(), /Mobile app/);
      await card.scrollIntoViewIfNeeded();
      await checkPage(page, 'account-activity');
      assert.deepEqual(errors, []);
      await context.close();
    }
  });
});
