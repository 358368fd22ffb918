import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE, checkPage, launch, MANAGER, NARROW, newPage, signIn, toast } from './lib.mjs';

/**
 * Report presets and schedules (issue 5 item 5) on the demo organisation: the home manager (manager@demo.test) sees
 * the seeded presets, saves a new preset with filters, schedules it weekly as PDF, runs it now (the server's job
 * worker picks the run up) and pauses it; both pages are also checked at 375 px.
 */

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('report presets and schedules', () => {
  it('a manager saves a preset and schedules it', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/reports/presets`);
    await page.getByRole('heading', { name: 'Report presets' }).waitFor();
    await page.getByText('Oakfield monthly matrix').waitFor();
    await checkPage(page, 'presets-list');

    await page.getByRole('button', { name: 'Add preset' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Report preset' });
    await dialog.waitFor();
    // Client-side check first.
    await dialog.getByRole('button', { name: 'Create preset' }).click();
    await dialog.getByText('The name field is required.').waitFor();

    await dialog.getByLabel(/^Name/).fill('Weekly expiring – Oakfield');
    await dialog.getByLabel('Report type', { exact: true }).selectOption('matrix');
    await dialog.getByLabel(/^Search (entities|homes)$/).fill('Oakfield');
    await dialog.getByRole('button', { name: 'Add Oakfield House' }).click();
    await dialog.getByRole('button', { name: 'Remove Oakfield House' }).waitFor();
    await dialog.getByLabel('Period', { exact: true }).selectOption('last_week');
    await dialog.getByLabel('New starters', { exact: true }).selectOption('exclude_new_starters');
    await dialog.getByLabel('Expiring', { exact: true }).check();
    await dialog.getByLabel('Expired', { exact: true }).check();
    await checkPage(page, 'presets-form');
    await dialog.getByRole('button', { name: 'Create preset' }).click();
    await toast(page, 'Report preset has been created.');
    const row = page.getByRole('row').filter({ hasText: 'Weekly expiring – Oakfield' });
    await row.getByText('Last week · 1 entity · Exclude new starters').waitFor();

    // Schedule it from its row.
    await row.getByRole('link', { name: 'Schedule Weekly expiring – Oakfield' }).click();
    await page.waitForURL(/\/reports\/schedules/);
    const form = page.getByRole('dialog', { name: 'Report schedule' });
    await form.waitFor();
    await form.getByLabel(/^Recipients/).waitFor();
    assert.match(await form.getByLabel(/^Preset/).inputValue(), /^\d+$/);
    await form.getByLabel('Repeat', { exact: true }).selectOption('weekly');
    await form.getByLabel('On', { exact: true }).selectOption('5');
    await form.getByLabel(/^At/).fill('08:00');
    await form.getByLabel(/^Recipients/).fill('manager@demo.test\nnot-an-address');
    await form.getByLabel('PDF', { exact: true }).check();
    await form.getByRole('button', { name: 'Create schedule' }).click();
    await form.getByText('Each recipient must be a valid e-mail address.').first().waitFor();
    await form.getByLabel(/^Recipients/).fill('manager@demo.test\narea.manager@example.test');
    await form.getByRole('button', { name: 'Create schedule' }).click();
    await toast(page, 'Report schedule has been created.');
    const scheduled = page.getByRole('row').filter({ hasText: 'Weekly expiring – Oakfield' });
    await scheduled.getByText('Every Friday at 08:00').waitFor();
    await checkPage(page, 'schedules-list');

    // Run now: the server's worker takes the run; its outcome (sent, or the recorded reason) shows in the row.
    await scheduled.getByRole('button', { name: 'Run Weekly expiring – Oakfield now' }).click();
    await toast(page, 'The report has been queued');
    await scheduled.getByText(/^(Sent|Failed)$/).waitFor({ timeout: 20_000 });
    await scheduled.getByRole('button', { name: 'Pause Weekly expiring – Oakfield' }).click();
    await scheduled.getByText('Paused').waitFor();
    await checkPage(page, 'schedules-after-run');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('both pages work at 375 px', async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/reports/presets`);
    await page.getByText('Oakfield monthly matrix').waitFor();
    await checkPage(page, 'presets-list-narrow');
    await page.getByRole('button', { name: 'Add preset' }).first().click();
    await page.getByRole('dialog', { name: 'Report preset' }).waitFor();
    await checkPage(page, 'presets-form-narrow');
    await page.getByRole('dialog', { name: 'Report preset' }).getByRole('button', { name: 'Cancel' }).click();

    await page.goto(`${BASE}/reports/schedules`);
    await page.getByRole('heading', { name: 'Report schedules' }).waitFor();
    await page.getByText('Every Monday at 07:00').first().waitFor();
    await checkPage(page, 'schedules-list-narrow');
    // Delete asks first.
    await page
      .getByRole('button', { name: /^Delete schedule of Oakfield monthly matrix/ })
      .first()
      .click();
    await page.getByRole('alertdialog').getByText('nothing more will be sent').waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    const widths = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(widths <= 375, `page is ${widths}px wide at 375`);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
