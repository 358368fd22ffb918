import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE, checkPage, launch, MANAGER, NARROW, newPage, signIn, toast } from './lib.mjs';

/**
 * Issue 18, tasks in progress in the browser: the manager asks for the compliance matrix by e-mail; the header's
 * count shows the running task at once; /tasks-in-progress shows it go to done (the server's worker runs the job)
 * with its file to download; the count goes back to 0; the task is dismissed after a confirmation. The page is
 * screenshotted and checked with axe at 1280 and 375 px, with no horizontal overflow on the phone.
 */
let browser;
before(async () => {
  browser = await launch();
});
after(async () => browser?.close());

const badge = (page, n) => page.getByRole('link', { name: `Tasks in progress: ${n}` });

describe('tasks in progress', () => {
  it('an e-mailed matrix becomes a task: counted in the header, done with a download, then dismissed', async () => {
    const { page, errors } = await newPage(browser);
    await signIn(page, MANAGER);
    await badge(page, 0).waitFor();

    await page.goto(`${BASE}/reports/matrix`);
    await page.getByRole('button', { name: 'E-mail me the report' }).click();
    await toast(page, 'matrix');
    await badge(page, 1).waitFor({ timeout: 5000 });

    await badge(page, 1).click();
    await page.waitForURL(`${BASE}/tasks-in-progress`);
    await page.getByRole('heading', { name: 'Tasks in progress' }).waitFor();
    const task = page.getByTestId('task').filter({ hasText: 'Compliance matrix (XLSX) by e-mail' });
    await task.waitFor();
    // The worker polls every 2 s; the page polls while the task runs.
    await page.getByTestId('task').and(page.locator('[data-status=done]')).waitFor({ timeout: 30_000 });
    assert.match(await task.innerText(), /Done/);
    assert.match(await task.innerText(), /E-mailed to manager@demo\.test/);
    await badge(page, 0).waitFor({ timeout: 20_000 });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      task.getByRole('button', { name: /^Download .*\.xlsx$/ }).click(),
    ]);
    assert.match(download.suggestedFilename(), /\.xlsx$/);

    await checkPage(page, 'tasks-in-progress');
    await page.setViewportSize(NARROW);
    // The width change leaves the side navigation open over the page: close it as a phone user would.
    const closeNav = page.getByRole('button', { name: 'Close navigation' });
    if (await closeNav.isVisible()) await closeNav.click();
    await checkPage(page, 'tasks-in-progress');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the phone`);

    // Back on a wide screen (the side navigation opened by the width change covers a phone's page).
    await page.setViewportSize({ width: 1280, height: 800 });
    await task.getByRole('button', { name: 'Dismiss' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByRole('button', { name: 'Dismiss' }).click();
    await toast(page, 'Task dismissed.');
    await page.getByText('No tasks yet').waitFor();
    assert.deepEqual(errors, []);
  });
});
