import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE, bearer, checkPage, client, launch, MANAGER, newPage, signIn } from './lib.mjs';

/**
 * The compliance matrix (issue 5 item 4) on the demo: the Oakfield House manager opens /reports/matrix, the live
 * connection loads it (progress to 1), sees coloured cells, scrolls the virtualised grid, exports XLSX; at 375 px.
 * An exemption (issue 10 §4) is its own status: the cell says Exempt and the legend lists it. A stream cut by a
 * server restart says so and loads again (issue 12 §3).
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

  it('shows an exemption as Exempt, in words, and lists it in the legend', async () => {
    // The demo's exemptions in the manager's matrix, from the same data the page gets (JSON form of the report).
    const api = client(await bearer(MANAGER));
    const data = await api('POST', '/reports/matrix', { directFormat: 'json' });
    const exempt = data.cells.find((c) => c.status === 'exempt');
    assert.ok(exempt, 'the demo has an exemption in the Oakfield House matrix');
    // Where it is in the grid: users in id order, courses by title (MatrixGrid.orderedCourses).
    const row = [...data.users].sort((a, b) => a.id - b.id).findIndex((u) => u.id === exempt.user_id);
    const courses = [...data.courses].sort((a, b) => a.title.localeCompare(b.title) || a.id - b.id);
    const column = courses.findIndex((c) => c.id === exempt.course_id);
    const course = courses[column];

    const { page } = await newPage(browser);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/reports/matrix`);
    await page.getByTestId('matrix-summary').waitFor({ timeout: 30_000 });
    const legend = page.getByRole('list', { name: 'Legend' });
    assert.deepEqual(await legend.getByRole('listitem').allTextContents(), [
      'In date',
      'Expiring',
      'Expired',
      'Missing',
      'Exempt',
    ]);
    // Bring the cell into the virtualised window (rows of 36 px, columns of 44 px).
    await page
      .getByRole('region', { name: 'Compliance matrix' })
      .evaluate((el, [x, y]) => el.scrollTo(x, y), [Math.max(0, column - 2) * 44, Math.max(0, row - 2) * 36]);
    const title = course.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const cell = page.getByRole('gridcell', { name: new RegExp(`^${title}: Exempt, since `) }).first();
    await cell.waitFor({ timeout: 10_000 });
    assert.equal((await cell.textContent())?.trim(), 'Exempt');
    assert.equal(await cell.getAttribute('data-status'), 'exempt');
    const colours = await page
      .locator('[role="gridcell"][data-status]')
      .evaluateAll((els) =>
        Object.fromEntries(
          els.map((e) => [e.getAttribute('data-status'), getComputedStyle(e).backgroundColor]),
        ),
      );
    assert.equal(colours.exempt, 'rgb(147, 197, 253)');
    assert.notEqual(colours.exempt, colours.in_date);
    await checkPage(page, 'matrix-exempt');
  });

  it('a stream cut by a server restart (1012) says so, reconnects and loads the whole matrix again', async () => {
    // issue 12 §3: between the page and the server, the first connection is closed with 1012 right after the cells
    // (before the aggregates and progress 1: a half matrix); the next is held until the notice has been seen.
    const { page, errors } = await newPage(browser);
    await signIn(page, MANAGER);
    let connections = 0;
    let release = () => {};
    const held = new Promise((resolve) => {
      release = resolve;
    });
    await page.routeWebSocket(/\/api\/ws/, async (ws) => {
      connections++;
      if (connections === 1) {
        const server = ws.connectToServer();
        server.onMessage((message) => {
          ws.send(message);
          if (String(message).includes('"kind":"matrix_cells"')) {
            ws.close({ code: 1012, reason: 'The server is restarting' });
            server.close();
          }
        });
        return;
      }
      await held;
      ws.connectToServer();
    });
    await page.goto(`${BASE}/reports/matrix`);
    const status = page.getByRole('status').filter({ hasText: 'The server is restarting' });
    await status.waitFor({ timeout: 30_000 });
    assert.equal((await status.textContent())?.trim(), 'The server is restarting — reconnecting…');
    assert.equal(await page.getByTestId('matrix-summary').count(), 0);
    release();
    await page.getByTestId('matrix-summary').waitFor({ timeout: 30_000 });
    await status.waitFor({ state: 'detached', timeout: 10_000 });
    await page.getByRole('grid').locator('[role="gridcell"][data-status]').first().waitFor();
    assert.ok(connections >= 2);
    assert.deepEqual(errors, []);
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
