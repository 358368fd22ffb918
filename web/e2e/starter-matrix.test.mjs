import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  apiGet,
  BASE,
  checkPage,
  confirmAndSignIn,
  launch,
  NARROW,
  newPage,
  registerOrganisation,
  toast,
} from './lib.mjs';

/**
 * The starter training matrix (issue 37 §2) end to end: a new organisation registers, its administrator signs in and
 * the start page offers the starter matrix; the preview shows the care roles registration made kept and the courses
 * to add; Apply (after a confirmation) adds them, the preview then has nothing left to add, and a care assistant's
 * courses are on the job role. The confirm link is read from the outbox (lib.mjs mailedLink).
 */
let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('the starter training matrix for a new organisation', () => {
  it('is offered at first sign-in, previewed, applied once, and then has nothing to add', async () => {
    const { page, context, errors } = await newPage(browser);
    const stamp = Date.now();
    const email = `owner-${stamp}@larchfield.test`;
    const password = 'Larchfield-Start-42';
    await registerOrganisation(page, {
      name: 'Lara Owner',
      organisation: `Larchfield Care ${stamp}`,
      email,
      password,
    });
    await page.getByText(/start from the care sector’s common core and mandatory training/).waitFor();
    await confirmAndSignIn(page, { email, password });

    // First run: the start page offers it.
    const offer = page.getByTestId('starter-matrix-offer');
    await offer.waitFor();
    await checkPage(page, 'starter-matrix-offer');
    await offer.getByRole('link', { name: 'Preview the starter matrix' }).click();
    await page.getByRole('heading', { level: 1, name: 'Starter training matrix' }).waitFor();
    const summary = page.getByTestId('starter-summary');
    assert.match(await summary.textContent(), /Applying adds 19 courses, 0 job roles and \d+ course rules/);
    // Registration's job roles are kept under their own names.
    const roles = page.locator('section', { has: page.getByRole('heading', { name: 'Job roles' }) });
    for (const name of ['Care Assistant', 'Senior Carer', 'Nurse', 'Home Manager', 'Cook', 'Housekeeper'])
      await roles.locator('strong', { hasText: new RegExp(`^${name}$`) }).waitFor();
    const table = page.getByRole('table');
    const header = await table.getByRole('columnheader').allInnerTexts();
    assert.deepEqual(header.slice(0, 3), ['Course', 'Refresh', 'Care Assistant']);
    const dementia = table.getByRole('row', { name: /Dementia awareness/ });
    await dementia.getByText('Not set').waitFor();
    await checkPage(page, 'starter-matrix-preview');
    await page.setViewportSize(NARROW);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Starter training matrix' }).waitFor();
    await checkPage(page, 'starter-matrix-preview');
    // The course-by-role table scrolls inside its card; the page itself does not scroll sideways.
    const wide = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
      over: [...document.querySelectorAll('body *')]
        .filter(
          (el) =>
            el.getBoundingClientRect().right > window.innerWidth + 1 &&
            !el.closest('[aria-label="Courses by job role"] table'),
        )
        .slice(0, 8)
        .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
    }));
    assert.ok(wide.scroll <= wide.inner, `no sideways scroll at 375 px: ${JSON.stringify(wide)}`);
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Apply' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(/adds 19 courses, 0 job roles and \d+ course rules/).waitFor();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await toast(page, 'Starter training matrix applied: 19 courses, 0 job roles and');
    await summary.filter({ hasText: 'already has everything in the starter training matrix' }).waitFor();
    assert.ok(await page.getByRole('button', { name: 'Apply' }).isDisabled(), 'nothing left to apply');
    await checkPage(page, 'starter-matrix-applied');

    // The care assistant's courses are on the job role; the start page no longer offers the matrix.
    const preview = await apiGet(page, page.url().replace(/^.*\/entities\//, '/entities/'));
    assert.equal(preview.status, 200);
    assert.deepEqual(preview.body.data.to_create, { courses: 0, roles: 0, rules: 0 });
    const careRole = preview.body.data.roles.find((r) => r.key === 'care-worker').existing;
    const slug = preview.body.data.entity.slug;
    const rules = await apiGet(page, `/compliance/${slug}/role/${careRole.id}?per_page=50`);
    const titles = rules.body.data.map((r) => r.course.title);
    for (const title of [
      'Fire safety',
      'Moving and handling',
      'Safeguarding adults',
      'Learning disability and autism',
    ])
      assert.ok(titles.includes(title), `${title} in ${titles.join(', ')}`);
    await page.goto(`${BASE}/`);
    await page.getByTestId('who-am-i').waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(await page.getByTestId('starter-matrix-offer').count(), 0);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
