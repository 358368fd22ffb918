import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE, checkPage, launch, MANAGER, NARROW, newPage, signIn } from './lib.mjs';

/**
 * The manager's day (issue 13): the Oakfield House manager signs in, clicks "Manager dashboard" in the menu and sees
 * by name who at their home is out of date — two clicks — and each name opens that person's page; at 375 px too.
 * The administrator's management dashboard ranks the group's homes, and a home's link opens its manager dashboard.
 */

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The menu entry, through the phone's menu button when the side navigation is folded away. */
async function openFromMenu(page, label) {
  const toggle = page.getByRole('button', { name: 'Open navigation' });
  if (await toggle.isVisible()) await toggle.click();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: label, exact: true })
    .click();
}

async function managerJourney(viewport, suffix) {
  const { page, context, errors } = await newPage(browser, viewport);
  await signIn(page, MANAGER);
  await openFromMenu(page, 'Manager dashboard');
  await page.waitForURL(/\/manager-dashboard/);
  const entity = page.getByTestId('dashboard-entity');
  await entity.filter({ hasText: 'Oakfield House' }).waitFor();
  const outOfDate = page.locator('#out-of-date');
  const first = outOfDate.getByRole('link').first();
  await first.waitFor();
  const name = (await first.innerText()).trim();
  assert.ok(name.length > 0, 'an out-of-date person is named');
  // Each person is listed with the course that is out of date, in words.
  assert.match(await outOfDate.innerText(), /Never done|Expired on \d{2}\/\d{2}\/\d{4}/);
  // The expiring tabs and the figures are there too.
  await page.getByRole('tab', { name: /30 days/ }).waitFor();
  await checkPage(page, `manager-dashboard${suffix}`);

  await first.click();
  await page.waitForURL(/\/users\/[0-9a-f-]{36}$/);
  await page.getByRole('heading', { name, exact: true }).first().waitFor();
  assert.deepEqual(errors, []);
  await context.close();
}

describe('manager dashboard', () => {
  it("names the home's out-of-date staff within two clicks of signing in, each a link to the person", async () => {
    await managerJourney(undefined, '');
  });

  it('does the same at 375 px', async () => {
    await managerJourney(NARROW, '-narrow');
  });
});

describe('management dashboard', () => {
  it("ranks the group's homes; a home's link opens its manager dashboard", async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await openFromMenu(page, 'Management dashboard');
    await page.waitForURL(/\/management-dashboard/);
    const ranked = page.getByRole('table', { name: /ranked|lowest score first/i });
    await ranked.waitFor();
    const rows = ranked.getByRole('row');
    // Header plus the three demo homes.
    await ranked.getByRole('link', { name: 'Oakfield House' }).waitFor();
    assert.equal(await rows.count(), 4);
    await page.getByRole('heading', { name: 'Worst courses' }).waitFor();
    await page.getByRole('heading', { name: 'Expiries in the next 12 months' }).waitFor();
    await checkPage(page, 'management-dashboard');

    await ranked.getByRole('link', { name: 'Oakfield House' }).click();
    await page.waitForURL(/\/manager-dashboard\?entity=\d+/);
    await page.getByTestId('dashboard-entity').filter({ hasText: 'Oakfield House' }).waitFor();
    await page.locator('#out-of-date').getByRole('link').first().waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('reads at 375 px', async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    await signIn(page);
    await page.goto(`${BASE}/management-dashboard`);
    await page
      .getByRole('table', { name: /lowest score first/i })
      .getByRole('link')
      .first()
      .waitFor();
    await checkPage(page, 'management-dashboard-narrow');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
