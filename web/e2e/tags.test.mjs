import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiGet, BASE, checkPage, launch, MANAGER, NARROW, newPage, signIn, toast } from './lib.mjs';

/**
 * Tags on the demo organisation: the Oakfield House manager creates a tag, tags a colleague (the demo learner), and
 * sees the tag with its figures in the compliance report's drill-down by tag (13 and 97).
 */

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('tags', () => {
  it('are created and filled on the organisation page, and reported in the drill-down by tag', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/entities/oakfield-house`);
    await page.getByRole('link', { name: 'Tags' }).click();
    await page.waitForURL(`${BASE}/entities/oakfield-house/tags`);
    const tags = page.getByRole('table', { name: 'Tags' });
    // The demo seed's tag is there already.
    await tags.getByText('Night shift', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add tag' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Name/).fill('Bank staff');
    await dialog.getByRole('button', { name: 'Add tag' }).click();
    await toast(page, 'Tag has been created.');
    await tags.getByText('Bank staff', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Users of Bank staff' }).click();
    const panel = page.getByRole('region', { name: 'Users tagged Bank staff' });
    await panel.getByText('Nobody has this tag yet').waitFor();
    await panel.getByRole('combobox', { name: /Add a user/ }).fill('Casey');
    await page
      .getByRole('option', { name: /Casey Lee/ })
      .first()
      .click();
    await panel.getByRole('button', { name: 'Add user' }).click();
    await toast(page, 'Users have been added to the tag.');
    await panel.getByRole('link', { name: 'Casey Lee' }).waitFor();
    const row = tags.getByRole('row').filter({ hasText: 'Bank staff' });
    await row.getByRole('cell', { name: '1', exact: true }).waitFor();
    await checkPage(page, 'tags');

    const listed = await apiGet(page, '/entities/oakfield-house/tags?search=Bank');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.data.map((t) => [t.name, t.users_count]),
      [['Bank staff', 1]],
    );

    await page.goto(`${BASE}/reports/compliance`);
    await page.getByRole('button', { name: 'By tag' }).click();
    const drill = page.getByTestId('drill-down');
    // The manager acts as the care group by default (permission 19), so the report's root is the group.
    const byTag = drill.getByRole('table', { name: /^Tags in / });
    await byTag.waitFor({ timeout: 20_000 });
    await byTag.getByRole('row').filter({ hasText: 'Bank staff' }).getByRole('meter').waitFor();
    await byTag.getByRole('button', { name: 'Staff tagged Bank staff' }).click();
    const staff = drill.getByRole('table', { name: /^Staff tagged Bank staff in / });
    await staff.getByText('Casey Lee').waitFor({ timeout: 20_000 });
    await checkPage(page, 'reports-drill-by-tag');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('works at 375 px', async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/entities/oakfield-house/tags`);
    await page.getByRole('button', { name: 'Users of Night shift' }).click();
    await page.getByRole('region', { name: 'Users tagged Night shift' }).getByRole('link').first().waitFor();
    await checkPage(page, 'tags-375');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
