import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN, BASE, bearer, checkPage, client, launch, NARROW, newPage, signIn, toast } from './lib.mjs';

/**
 * Issue 18, the importer in the browser: the admin uploads a people CSV (two new people, one row with an error), sees
 * the plan, applies it and the two people exist; the same file again plans nothing to change; undoing the first
 * import removes the two people; the error is resolved with a note. The page is screenshotted and checked with axe at
 * 1280 and 375 px, without horizontal overflow at 375.
 */
const STAMP = Date.now().toString(36);
const FILE_NAME = `new-starters-${STAMP}.csv`;
const PEOPLE = [
  ['Amy Importer', `amy-${STAMP}@example.test`],
  ['Ben Importer', `ben-${STAMP}@example.test`],
];
const CSV = [
  'name,email,employee_number,organisation,job_role,user_type,start_date',
  ...PEOPLE.map(([name, email]) => `${name},${email},,,,,2024-03-04`),
  `Bad Date,bad-${STAMP}@example.test,,,,,31/02/2024`,
].join('\n');

let browser;
let api;
before(async () => {
  browser = await launch();
  api = client(await bearer(ADMIN, 'e2e-importer'));
});
after(async () => {
  await browser?.close();
});

async function noOverflow(page) {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(over <= 0, `the page overflows by ${over}px at ${page.viewportSize()?.width}px`);
}

/** How many of the two imported people exist (searched through the API by e-mail). */
async function existing() {
  let n = 0;
  for (const [, email] of PEOPLE) {
    const found = await api('GET', `/users?search=${encodeURIComponent(email)}&deep=1`);
    n += found.filter((u) => u.email === email).length;
  }
  return n;
}

async function count(run, label) {
  const cell = run.getByTestId('import-counts').locator('div').filter({ hasText: label });
  return Number((await cell.locator('dd').textContent())?.trim());
}

async function upload(page) {
  await page.getByRole('button', { name: 'New import' }).click();
  const form = page.getByRole('form', { name: 'New import' });
  await form.getByLabel('What does the file hold?').selectOption('users');
  await form
    .getByLabel('CSV file (up to 50 MB)')
    .setInputFiles({ name: FILE_NAME, mimeType: 'text/csv', buffer: Buffer.from(CSV) });
  await form.getByRole('button', { name: 'Check the file' }).click();
  await toast(page, 'The file has been checked');
  const run = page.getByTestId('import-run');
  await run.getByRole('heading', { name: FILE_NAME }).waitFor();
  await page.waitForURL(/import=[0-9a-f-]{36}/);
  return { run, uuid: new URL(page.url()).searchParams.get('import') };
}

describe('importer', () => {
  it('plans, applies, finds nothing to change the second time, undoes, and resolves an error', async () => {
    const { page, errors } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/importer/logs`);
    await page.getByRole('heading', { name: 'Importer logs' }).waitFor();
    await checkPage(page, 'importer');

    const first = await upload(page);
    assert.equal(await count(first.run, 'To create'), 2);
    assert.equal(await count(first.run, 'With errors'), 1);
    await first.run.getByText(`Row 2: ${PEOPLE[0][0]} <${PEOPLE[0][1]}>`).waitFor();
    await first.run.getByRole('cell', { name: /start date:/i }).waitFor();
    await checkPage(page, 'importer-planned');
    await page.setViewportSize(NARROW);
    await checkPage(page, 'importer-planned');
    await noOverflow(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.equal(await existing(), 0);

    await first.run.getByRole('button', { name: 'Apply' }).click();
    await toast(page, 'The import is being applied.');
    await first.run.getByText('Applied', { exact: true }).waitFor({ timeout: 30_000 });
    await first.run.getByText('Applied: 2 created, 0 updated.').waitFor();
    assert.equal(await existing(), 2);
    await checkPage(page, 'importer-applied');

    // The same file again: both people are there already, so there is nothing to apply.
    await first.run.getByRole('button', { name: 'Close' }).click();
    const second = await upload(page);
    assert.notEqual(second.uuid, first.uuid);
    assert.equal(await count(second.run, 'To create'), 0);
    assert.equal(await count(second.run, 'Unchanged'), 2);
    assert.equal(await count(second.run, 'With errors'), 1);
    const nothing = second.run.getByRole('button', { name: 'Nothing to change' });
    assert.ok(await nothing.isDisabled());
    // Both runs are in the log.
    const list = page.getByTestId('imports-list');
    assert.equal(await list.getByRole('button', { name: FILE_NAME }).count(), 2);

    // Undo the first import: the two people it created are removed (they never signed in).
    await page.goto(`${BASE}/importer/logs?import=${first.uuid}`);
    const run = page.getByTestId('import-run');
    await run.getByRole('button', { name: 'Undo this import' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('People it created are removed').waitFor();
    await confirm.getByRole('button', { name: 'Undo the import' }).click();
    await toast(page, 'The import is being undone.');
    await run.getByText('Undone', { exact: true }).waitFor({ timeout: 30_000 });
    assert.equal(await existing(), 0);

    // Resolve the error row with a note: an empty note is refused by the field.
    await run.getByRole('button', { name: 'Resolve the error of row 4' }).click();
    const resolve = page.getByRole('form', { name: 'Resolve row 4' });
    await resolve.getByRole('button', { name: 'Mark as resolved' }).click();
    await resolve.getByText('Enter a note saying how the error was resolved.').waitFor();
    await resolve.getByLabel('How was row 4 resolved?').fill('Asked the home for the right start date.');
    await resolve.getByRole('button', { name: 'Mark as resolved' }).click();
    await toast(page, 'The error has been marked as resolved.');
    await run.getByText(/Resolved by .+: Asked the home for the right start date\./).waitFor();
    assert.equal(await run.getByRole('button', { name: 'Resolve the error of row 4' }).count(), 0);
    await checkPage(page, 'importer-resolved');
    await page.setViewportSize(NARROW);
    await checkPage(page, 'importer-resolved');
    await noOverflow(page);
    assert.deepEqual(errors, []);

    // A phone from the start (the side navigation closed): the run and the log fit 375 px.
    const phone = await newPage(browser, NARROW);
    await signIn(phone.page);
    await phone.page.goto(`${BASE}/importer/logs?import=${first.uuid}`);
    await phone.page.getByTestId('import-run').getByText('Undone', { exact: true }).waitFor();
    await checkPage(phone.page, 'importer-phone');
    await noOverflow(phone.page);
    assert.deepEqual(phone.errors, []);
  });
});
