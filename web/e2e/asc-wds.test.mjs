import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { ADMIN, BASE, bearer, checkPage, client, launch, NARROW, newPage, signIn, toast } from './lib.mjs';

/**
 * Issue 37 §1, the ASC-WDS training export in the browser: the demo's Oakfield House staff get employee numbers (a
 * people import, the way the page tells a manager), then the manager of the export maps a course to its ASC-WDS
 * category from the page's suggestion, sets the home's workplace ID on its settings page through the page's link, and
 * downloads the file: its header is ASC-WDS's, its rows carry the workplace ID. Screenshotted and checked with axe at
 * 1280 and 375 px, without horizontal overflow at 375.
 */
const STAMP = Date.now().toString(36);
const HOME = 'oakfield-house';
const LOCAL_ID = `OAK${STAMP}`.slice(0, 20).toUpperCase();

let browser;
let api;
let token;
before(async () => {
  browser = await launch();
  token = await bearer(ADMIN, 'e2e-asc-wds');
  api = client(token);
});
after(async () => {
  await browser?.close();
});

async function noOverflow(page) {
  const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(over <= 0, `the page overflows by ${over}px at ${page.viewportSize()?.width}px`);
}

/** Imports a people file through the importer's API and waits until it is applied. */
async function importPeople(csv) {
  const form = new FormData();
  form.append('kind', 'users');
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'employee-numbers.csv');
  const plan = await api('POST', '/importer/imports', form);
  await api('POST', `/importer/imports/${plan.uuid}/apply`);
  for (let i = 0; i < 120; i++) {
    const run = await api('GET', `/importer/imports/${plan.uuid}`);
    if (run.import.status === 'applied') return run;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the people import was not applied');
}

describe('ASC-WDS training export', () => {
  it('maps a category, sets the workplace ID through the link, and downloads the ASC-WDS file', async () => {
    const first = await api('GET', `/entities/${HOME}/asc-wds/training?since=all`);
    assert.ok(first.missing_id.length > 0, 'the demo staff have no employee numbers yet');
    await importPeople(
      [
        'name,email,employee_number',
        ...first.missing_id.map((p, i) => `${p.name},${p.email},W${i + 1}-${STAMP}`),
      ].join('\n'),
    );

    const { page, errors } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/reports/asc-wds?home=${HOME}&since=all`);
    await page.getByRole('heading', { name: 'ASC-WDS training export' }).waitFor();
    await page.getByRole('link', { name: 'Set it on the settings page' }).waitFor();
    await checkPage(page, 'asc-wds-unset');

    // A course without a category: its suggestion (or the first category) saved from its row; then the rest of the
    // suggestions at once.
    const list = page.getByRole('list', { name: 'Course categories' });
    const row = list.locator('li').filter({ hasText: 'No category' }).first();
    const select = row.getByRole('combobox');
    if (!(await select.inputValue())) await select.selectOption({ index: 1 });
    await row.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'The ASC-WDS category has been saved.');
    await page.getByRole('button', { name: /^Use the \d+ suggested categor/ }).click();
    await toast(page, 'been saved.');

    // The workplace ID, on the home's settings page, through the page's link.
    await page.getByRole('link', { name: 'Set it on the settings page' }).click();
    await page.waitForURL(/\/entities\/oakfield-house\/update/);
    const card = page.getByTestId('asc-wds');
    await card.getByLabel('Workplace ID (LOCALESTID)').fill(LOCAL_ID);
    await card.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'The ASC-WDS workplace ID has been saved.');
    await checkPage(page, 'asc-wds-settings');
    await card.getByRole('link', { name: 'ASC-WDS training export' }).click();
    await page.getByTestId('local-id').filter({ hasText: LOCAL_ID }).waitFor();
    await page.getByLabel('Records').selectOption('all');
    await page
      .getByRole('table', { name: 'Training records in the file' })
      .locator('tbody tr td')
      .first()
      .waitFor();
    // Read in one step in the page: a refetch may replace the count between a wait and a read (CI saw 0 once).
    const counted = await page.waitForFunction(() => {
      const m = /^(\d+) records?$/.exec(document.querySelector('[data-testid="to-send"]')?.textContent ?? '');
      return m && Number(m[1]) > 0 ? Number(m[1]) : null;
    });
    const sending = await counted.jsonValue();
    assert.ok(sending > 0, 'records to send');
    await checkPage(page, 'asc-wds-ready');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the file' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^asc-wds-training-oakfield-house-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n');
    assert.equal(
      lines[0],
      'LOCALESTID,UNIQUEWORKERID,CATEGORY,TRAININGNAME,ACCREDITED,WHODELIVERED,PROVIDERNAME,HOWDELIVERED,VALIDITY,DATECOMPLETED,EXPIRYDATE,NOTES',
    );
    assert.equal(lines.length, sending + 1);
    for (const line of lines.slice(1)) {
      assert.ok(line.startsWith(`${LOCAL_ID},W`), line);
      assert.match(line, /,\d{2}\/\d{2}\/\d{4},/);
    }
    // Recorded: "since the last export" now has nothing to send.
    await page.getByLabel('Records').selectOption('last');
    await page.getByText('Nothing has changed since the last export.').waitFor();

    await page.setViewportSize(NARROW);
    await page.getByLabel('Records').selectOption('all');
    await page.getByRole('table', { name: 'Training records in the file' }).waitFor();
    await checkPage(page, 'asc-wds-ready');
    await noOverflow(page);
    assert.deepEqual(errors, []);
  });
});
