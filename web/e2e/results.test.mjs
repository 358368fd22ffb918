import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE, checkPage, launch, NARROW, newPage, signIn, toast } from './lib.mjs';

/**
 * Results of every kind (issue 5 item 1) on the demo organisation: an admin adds a historical result with evidence,
 * an exemption, approves a pending result (seeded: submitted by learner@demo.test) and bulk-adds a face-to-face
 * event; every page is also checked at 375 px.
 */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Types into a server-side picker and chooses the first option matching `option`. */
async function pick(page, label, text, option) {
  const box = page.getByRole('combobox', { name: label });
  await box.click();
  await box.fill(text);
  await page.getByRole('option', { name: option }).first().click();
}

describe('results administration', () => {
  it('adds a historical result with evidence, then edits it', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/results/historical/create`);
    await page.getByRole('heading', { name: 'Add a historical result' }).waitFor();
    await checkPage(page, 'results-historical-create');
    // Client-side checks first.
    await page.getByRole('button', { name: 'Add result' }).click();
    await page.getByText('Choose the user.').waitFor();

    await pick(page, 'User', 'Casey', /Casey Lee/);
    await pick(page, 'Course', 'Dementia', /Dementia Awareness/);
    await page.getByLabel('Completed date').fill('2024-03-15');
    await page.getByLabel('Score (%)').fill('92');
    await page.getByLabel('Notes').fill('Certificate from a previous employer.');
    await page
      .getByLabel('Evidence file')
      .setInputFiles({ name: 'certificate.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Add result' }).click();
    await page.waitForURL(/\/results\/historical\/update\/\d+$/);
    await toast(page, 'Historical result has been created.');
    await page.getByRole('link', { name: 'certificate.png' }).waitFor();
    assert.equal(await page.getByLabel('Score (%)').inputValue(), '92');
    await checkPage(page, 'results-historical-update');

    await page.getByLabel('Score (%)').fill('95');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Historical result has been updated.');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('adds an exemption and lists it', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/results/exempt/create`);
    await page.getByRole('heading', { name: 'Add an exemption' }).waitFor();
    await pick(page, 'User', 'Priya', /Priya Shah/);
    await pick(page, 'Course', 'Information', /Information Governance/);
    await page.getByLabel('Reason').fill('Registered nurse: covered by professional registration.');
    await checkPage(page, 'results-exempt-create');
    await page.getByRole('button', { name: 'Add exemption' }).click();
    await page.waitForURL(`${BASE}/results/exempt`);
    await toast(page, 'Exemption has been created.');
    const row = page.getByRole('row').filter({ hasText: 'Priya Shah' });
    await row.waitFor();
    await checkPage(page, 'results-exempt-list');
    // Edit from the list.
    await row.getByRole('link', { name: /Edit the exemption of Priya Shah/ }).click();
    await page.waitForURL(/\/results\/exempt\/update\/\d+$/);
    await page.getByLabel('End date').fill('2031-01-31');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`${BASE}/results/exempt`);
    await page.getByRole('row').filter({ hasText: 'Priya Shah' }).filter({ hasText: '31/01/2031' }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('approves a pending result', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/results/pending/historical`);
    await page.getByRole('heading', { name: 'Pending historical results' }).waitFor();
    const rows = page.getByRole('row').filter({ hasText: 'Casey Lee' });
    await rows.first().waitFor();
    const before = await rows.count();
    assert.ok(before >= 1, 'the demo has pending results');
    await checkPage(page, 'results-pending');
    await rows
      .first()
      .getByRole('button', { name: /Approve the result of Casey Lee/ })
      .click();
    await toast(page, 'Result has been approved.');
    await page.waitForFunction(
      (n) =>
        [...document.querySelectorAll('tr')].filter((r) => r.textContent?.includes('Casey Lee')).length ===
        n - 1,
      before,
    );
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('bulk-adds a face-to-face event for two users and shows it in the history', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/users/bulk-add-events`);
    await page.getByRole('heading', { name: 'Bulk add events' }).waitFor();
    await pick(page, 'Add a user', 'Casey', /Casey Lee/);
    await pick(page, 'Add a user', 'Priya', /Priya Shah/);
    await page.getByText('2 users chosen.').waitFor();
    await pick(page, 'Course', 'Dementia', /Dementia Awareness/);
    await page.getByLabel('Date').fill('2024-06-20');
    await checkPage(page, 'results-bulk-add');
    await page.getByRole('button', { name: 'Add events for 2 users' }).click();
    await page.waitForURL(`${BASE}/users/bulk-add-events-history`);
    await toast(page, 'Events have been added.');
    const row = page.getByRole('row').filter({ hasText: 'Dementia Awareness' });
    await row.first().waitFor();
    assert.match(await row.first().innerText(), /2/);
    await checkPage(page, 'results-bulk-history');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('works at 375 px', async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    await signIn(page);
    for (const [path, heading, name] of [
      ['/results/exempt', 'Exemptions', 'results-exempt-list'],
      ['/results/pending/historical', 'Pending historical results', 'results-pending'],
      ['/results/historical/create', 'Add a historical result', 'results-historical-create'],
      ['/users/bulk-add-events', 'Bulk add events', 'results-bulk-add'],
      ['/users/bulk-add-events-history', 'Bulk add event history', 'results-bulk-history'],
    ]) {
      await page.goto(`${BASE}${path}`);
      await page.getByRole('heading', { name: heading, exact: true }).waitFor();
      await checkPage(page, name);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `${path} does not scroll sideways (${overflow}px)`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
});
