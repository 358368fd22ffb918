import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiGet, BASE, checkPage, launch, MANAGER, NARROW, newPage, signIn, toast } from './lib.mjs';

/**
 * Compliance rules (issue 5 items 2, 3): a home manager adds a Mandatory course with 12 months to a job role,
 * answers the existing-results question, changes the validity to 24 months and applies it to previous results,
 * and sees the learner's expiry date move by a year. Also the dashboard compliance widget (202 → poll → score), the
 * pathways placeholder, and every page at 375 px.
 */

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The Information Governance row of Casey Lee's compliance courses, as the user page shows it (or null). */
async function caseyRow(page, uuid, present = true) {
  await page.goto(`${BASE}/users/${uuid}`);
  const section = page.getByTestId('user-compliance-courses');
  await section.getByRole('row').nth(1).waitFor();
  const row = section.getByRole('row').filter({ hasText: 'Information Governance' });
  if (present) await row.first().waitFor();
  if ((await row.count()) === 0) return null;
  return (await row.first().innerText()).replace(/\s+/g, ' ');
}
const yearOf = (text) =>
  Number(text.match(/(\d{4})\s*$/)?.[1] ?? text.match(/\b(\d{4})\b(?!.*\b\d{4}\b)/)?.[1]);

describe('compliance', () => {
  it('a manager adds a Mandatory course to a role, then re-dates previous results with a new validity', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page, MANAGER);

    // Dashboard widget: 202 while computing, polled every 5 s, then the score in its band colour.
    await page.getByTestId('compliance-widget').waitFor();
    const score = page.getByTestId('compliance-score');
    await score.waitFor({ timeout: 20_000 });
    assert.match(await score.innerText(), /^\d+%$/);
    assert.ok(['green', 'amber', 'red'].includes(await score.getAttribute('data-band')));
    await checkPage(page, 'compliance-widget');

    const users = await apiGet(page, '/users?search=Casey&per_page=5');
    const casey = users.body.data.find((u) => u.name === 'Casey Lee');
    assert.ok(casey, 'Casey Lee is listed');
    assert.equal(await caseyRow(page, casey.uuid, false), null, 'Information Governance is not required yet');
    await checkPage(page, 'user-compliance-courses');

    // Roles page → the Care Assistant's courses.
    await page.goto(`${BASE}/entities/oakfield-house/roles/`);
    await page.getByRole('link', { name: 'Courses of Care Assistant' }).click();
    await page.waitForURL(/\/entities\/oakfield-house\/role\/\d+\/courses$/);
    const coursesUrl = page.url();
    await page
      .getByRole('row')
      .filter({ hasText: 'Fire Safety' })
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(async (e) => {
        await page.screenshot({ path: '/tmp/compliance-failure.png', fullPage: true });
        console.log('URL', page.url(), (await page.locator('main').innerText()).slice(0, 800));
        throw e;
      });
    assert.match(
      await page.getByRole('row').filter({ hasText: 'Fire Safety' }).first().innerText(),
      /Inherited/,
    );
    await checkPage(page, 'role-courses');

    // Add Information Governance, Mandatory, 12 months: people already passed it, so the page asks.
    await page.getByRole('combobox', { name: /^Course/ }).selectOption({ label: 'Information Governance' });
    await page.getByRole('combobox', { name: /^Type/ }).selectOption({ label: 'Mandatory' });
    await page.getByLabel(/^Validity/).fill('12');
    await page.getByRole('button', { name: 'Add course' }).click();
    const dialog = page.getByRole('dialog', { name: 'Existing results' });
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /existing results? (is|are) recorded/);
    await checkPage(page, 'compliance-existing-results');
    await dialog.getByRole('button', { name: 'Apply to previous results' }).click();
    await toast(page, 'Compliance has been updated.');
    await dialog.waitFor({ state: 'hidden' });
    const igRow = page.getByRole('row').filter({ hasText: 'Information Governance' });
    await igRow.waitFor();
    assert.match(await igRow.innerText(), /Mandatory/);
    assert.match(await igRow.innerText(), /1 year/);

    const at12 = await caseyRow(page, casey.uuid);
    assert.ok(at12, 'now required');
    assert.match(at12, /In date|Expiring/);
    const year12 = yearOf(at12);

    // Change the validity to 24 months and apply it to previous results: the expiry moves a year on.
    await page.goto(coursesUrl);
    await page
      .getByRole('row')
      .filter({ hasText: 'Information Governance' })
      .getByRole('link', { name: 'Edit Information Governance' })
      .click();
    await page.waitForURL(/\/update\/role\/\d+\/course\/\d+\/compliance$/);
    const updateUrl = page.url();
    const validity = page.getByLabel(/^Validity/);
    await validity.waitFor();
    assert.equal(await validity.inputValue(), '12');
    await checkPage(page, 'compliance-update');
    await validity.fill('24');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const again = page.getByRole('dialog', { name: 'Existing results' });
    await again.waitFor();
    await again.getByRole('button', { name: 'Apply to previous results' }).click();
    await toast(page, 'Compliance has been updated.');
    await again.waitFor({ state: 'hidden' });
    await page.getByTestId('compliance-current').filter({ hasText: '2 years' }).waitFor();

    const at24 = await caseyRow(page, casey.uuid);
    assert.equal(yearOf(at24), year12 + 1, `expiry moved a year: ${at12} → ${at24}`);

    // The job role's pathways page (issue 17; e2e/pathways.test.mjs drives it): its list or its empty state.
    await page.goto(coursesUrl.replace(/courses$/, 'pathways'));
    await page.getByRole('heading', { name: /: pathways$/ }).waitFor();
    await page
      .getByTestId('role-pathways')
      .filter({ hasText: /No pathways for this job role|through this job role/ })
      .waitFor();
    await checkPage(page, 'role-pathways');

    // 375 px.
    const narrow = await newPage(browser, NARROW);
    await signIn(narrow.page, MANAGER);
    await narrow.page.goto(coursesUrl);
    await narrow.page.getByRole('row').filter({ hasText: 'Information Governance' }).first().waitFor();
    await checkPage(narrow.page, 'role-courses');
    await narrow.page.goto(page.url().replace(/pathways$/, 'pathways'));
    await narrow.page
      .getByTestId('role-pathways')
      .filter({ hasText: /No pathways for this job role|through this job role/ })
      .waitFor();
    await checkPage(narrow.page, 'role-pathways');
    await narrow.page.goto(updateUrl);
    await narrow.page.getByLabel(/^Validity/).waitFor();
    await checkPage(narrow.page, 'compliance-update');
    await narrow.page.goto(`${BASE}/`);
    await narrow.page.getByTestId('compliance-score').waitFor({ timeout: 20_000 });
    await checkPage(narrow.page, 'compliance-widget');
    await narrow.context.close();

    assert.deepEqual(errors, []);
    await context.close();
  });
});
