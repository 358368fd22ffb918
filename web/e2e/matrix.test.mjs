import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE, checkPage, launch, MANAGER, newPage, signIn } from './lib.mjs';

/**
 * The compliance matrix (issue 5 item 4) on the demo: the Oakfield House manager opens /reports/matrix, the live
 * connection loads it (progress to 1), sees coloured cells, scrolls the virtualised grid, exports XLSX; at 375 px.
 */

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('compliance matrix', () => {
  it('loads over the websocket, shows coloured cells, scrolls and exports XLSX', async () => {
    const { page } = await newPage(browser);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/reports/matrix`);
    await page.getByTestId('matrix-summary').waitFor({ timeout: 30_000 });
    const grid = page.getByRole('grid');
    const cells = grid.locator('[role="gridcell"][data-status]');
    await cells.first().waitFor();
    const colours = await cells.evaluateAll((els) => [
      ...new Set(els.map((e) => getComputedStyle(e).backgroundColor)),
    ]);
    assert.ok(colours.length >= 2, `expected several traffic-light colours, got ${colours}`);
    const label = await cells.first().getAttribute('aria-label');
    assert.match(label ?? '', /: (In date|Expiring|Expired|Missing)/);
    const colcount = Number(await grid.getAttribute('aria-colcount'));
    assert.ok(colcount > 4);
    await checkPage(page, 'matrix');
    await page.getByRole('region', { name: 'Compliance matrix' }).evaluate((el) => el.scrollBy(300, 400));
    await cells.first().waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export Excel' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^matrix-.*-\d{2}-\d{2}-\d{4}\.xlsx$/);
    await page.goto(`${BASE}/reports/matrix-legacy`);
    await page.getByRole('table').first().waitFor({ timeout: 30_000 });
    await checkPage(page, 'matrix-legacy');
  });

  it('works at 375 px', async () => {
    const { page } = await newPage(browser, { width: 375, height: 740 });
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/reports/matrix`);
    await page.getByTestId('matrix-summary').waitFor({ timeout: 30_000 });
    await page.getByRole('grid').locator('[role="gridcell"][data-status]').first().waitFor();
    await checkPage(page, 'matrix-375');
  });
});
