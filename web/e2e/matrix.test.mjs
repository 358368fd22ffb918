import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BASE,
  bearer,
  checkPage,
  client,
  launch,
  login,
  MANAGER,
  MOBILE,
  NARROW,
  newPage,
  signIn,
} from './lib.mjs';

/**
 * The compliance matrix (issue 5 item 4) on the demo: the Oakfield House manager opens /reports/matrix, the live
 * connection loads it (progress to 1), sees coloured cells, scrolls the virtualised grid, exports XLSX, filters to the
 * exempt people and exports again (issue 33 §5: the files hold only them, the filter named); at 375 px.
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
  it('loads over the websocket, shows coloured cells, scrolls, and exports what the filtered screen shows', async () => {
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

    // Issue 33 §5: exports follow the screen (same page, no second sign-in). Filtered to the exempt people, the XLSX
    // and the PDF hold only them, in the screen's order, and name the filter in their header.
    const api = client(await bearer(MANAGER));
    const data = await api('POST', '/reports/matrix', { directFormat: 'json' });
    const exemptIds = new Set(
      data.cells.filter((c) => c.type !== 'none' && c.status === 'exempt').map((c) => c.user_id),
    );
    const expected = data.users.filter((u) => exemptIds.has(u.id)).map((u) => u.name);
    assert.ok(expected.length > 0, 'the demo has exempt people in the manager matrix');
    assert.ok(expected.length < data.users.length);

    await page.getByLabel('Show', { exact: true }).selectOption({ label: 'Exempt' });
    await page
      .getByTestId('matrix-shown')
      .filter({ hasText: `Showing ${expected.length} of ${data.users.length} people.` })
      .waitFor();

    const [xlsx] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export Excel' }).click(),
    ]);
    const { readFile } = await import('node:fs/promises');
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await readFile(await xlsx.path()));
    const ws = wb.worksheets[0];
    // Title, filters, generated; the column headers on row 4; then one row per person.
    assert.match(String(ws.getRow(2).getCell(1).value), /Show: Exempt/);
    assert.equal(ws.getRow(4).getCell(1).value, 'User');
    const people = [];
    ws.eachRow((row, n) => {
      if (n > 4) people.push(String(row.getCell(1).value));
    });
    const byName = (a, b) => a.localeCompare(b, 'en-GB', { sensitivity: 'base', numeric: true });
    assert.deepEqual(people, [...expected].sort(byName));

    const [pdf] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export PDF' }).click(),
    ]);
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await getDocument({
      data: new Uint8Array(await readFile(await pdf.path())),
      isEvalSupported: false,
      verbosity: 0,
    }).promise;
    const text = (await (await doc.getPage(1)).getTextContent()).items.map((i) => i.str).join(' ');
    await doc.destroy();
    assert.match(text, /Show: Exempt/);
    assert.match(text, new RegExp(`${expected.length} (person|people)`));
    const other = data.users.find((u) => !exemptIds.has(u.id) && !expected.includes(u.name));
    for (const name of expected) assert.ok(text.includes(name), `${name} is in the PDF`);
    assert.ok(!text.includes(other.name), `${other.name} (not exempt) is not in the PDF`);

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
    // Where it is in the grid: courses by title (MatrixGrid.orderedCourses).
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
      'In date: done; the date is when it expires',
      'Expiring soon: still in date, expires within the warning period',
      'Expired: the date shown has passed',
      'Missing: required but not done',
      'Due by (date): required, not done yet; not out of date until then',
      'Exempt: excused; counts as compliant',
      'Blank: not required for their role',
    ]);
    // A new starter's course not done yet reads "Due by <date>" in its cell (issue 33 §4), as on their own page.
    const dueCell = page
      .getByRole('gridcell', { name: /: Due by \d\d\/\d\d\/\d{4} \(not done yet\)$/ })
      .first();
    await dueCell.waitFor({ timeout: 15_000 });
    assert.match((await dueCell.textContent()) ?? '', /^Due by\d\d\/\d\d\/\d{4}$/);
    // The person alone in the grid (search), then the cell brought into the virtualised window (columns of 80 px).
    const person = data.users.find((u) => u.id === exempt.user_id);
    await page.getByLabel('Search people', { exact: true }).fill(person.name);
    await page
      .getByTestId('matrix-shown')
      .filter({ hasText: /^Showing \d+ of/ })
      .waitFor();
    assert.ok(row >= 0);
    await page
      .getByRole('region', { name: 'Compliance matrix' })
      .evaluate((el, x) => el.scrollTo(x, 0), Math.max(0, column - 2) * 80);
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

  it('searches, shows "expired or missing only", and Tab then Enter on a cell opens the person at that course', async () => {
    const { page, errors } = await newPage(browser);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/reports/matrix`);
    await page.getByTestId('matrix-summary').waitFor({ timeout: 30_000 });
    const grid = page.getByRole('grid');
    const rowNames = () => grid.getByRole('rowheader').allTextContents();
    const all = await page.getByTestId('matrix-shown').textContent();
    const total = Number(/(\d+) people/.exec(all ?? '')?.[1]);
    assert.ok(total > 10, all);
    // Sorted by name.
    const first = await rowNames();
    assert.deepEqual(
      first,
      [...first].sort((a, b) => a.localeCompare(b, 'en-GB', { sensitivity: 'base' })),
    );
    // Search: only the people whose name has it.
    const word = first[0].split(' ')[0];
    await page.getByLabel('Search people', { exact: true }).fill(word);
    await page
      .getByTestId('matrix-shown')
      .filter({ hasText: `of ${total} people` })
      .waitFor();
    for (const n of await rowNames()) assert.ok(n.toLowerCase().includes(word.toLowerCase()), n);
    await page.getByLabel('Search people', { exact: true }).fill('');
    // Expired or missing only: every row shown has an expired or missing cell, fewer rows than everyone.
    await page.getByLabel('Show', { exact: true }).selectOption('gaps');
    const shown = page.getByTestId('matrix-shown').filter({ hasText: /^Showing \d+ of/ });
    await shown.waitFor();
    const gaps = Number(/Showing (\d+)/.exec((await shown.textContent()) ?? '')?.[1]);
    assert.ok(gaps > 0 && gaps < total, `${gaps} of ${total}`);
    // Sort by score, lowest first: the scores shown rise.
    await page.getByLabel('Sort by', { exact: true }).selectOption('score_asc');
    await page.waitForTimeout(200);
    const scores = await grid.locator('[role="row"]').evaluateAll((rows) =>
      rows
        .map((r) => r.querySelectorAll('[role="gridcell"]')[2]?.textContent ?? '')
        .filter(Boolean)
        .map((t) => Number.parseInt(t, 10)),
    );
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => a - b),
    );
    // Keyboard: Tab from the sort box into the grid, arrows to a cell with a status, Enter opens the person's record.
    await page.getByLabel('Sort by', { exact: true }).focus();
    let role = '';
    for (let i = 0; i < 10 && role !== 'gridcell' && role !== 'columnheader'; i++) {
      await page.keyboard.press('Tab');
      role = await page.evaluate(() => document.activeElement?.getAttribute('role') ?? '');
    }
    assert.equal(role, 'gridcell');
    for (let i = 0; i < 12; i++) {
      if (await page.evaluate(() => document.activeElement?.hasAttribute('data-status'))) break;
      await page.keyboard.press('ArrowRight');
    }
    const label = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    // A never-done course due by a date ahead says so (issue 33 §4): "<course>: Due by 21/02/2027 (not done yet)".
    assert.match(label ?? '', /: (In date|Expiring|Expired|Missing|Exempt|Due by \d\d\/\d\d\/\d{4})/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/users\/\d+#course-\d+$/);
    const anchor = new URL(page.url()).hash.slice(1);
    const target = page.locator(`[id="${anchor}"]`);
    await target.waitFor({ timeout: 15_000 });
    assert.equal(await target.getAttribute('data-highlighted'), 'true');
    assert.ok(label?.startsWith((await target.locator('span').first().textContent())?.trim() ?? '-'));
    assert.deepEqual(errors, []);
  });

  it('exports a PDF titled with the home it is filtered to', async () => {
    const { page } = await newPage(browser);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/reports/matrix`);
    await page.getByTestId('matrix-summary').waitFor({ timeout: 30_000 });
    const homeSelect = page
      .locator('select')
      .filter({ has: page.locator('option', { hasText: 'Oakfield House' }) });
    await homeSelect.selectOption({ label: 'Oakfield House' });
    await page.getByTestId('matrix-summary').waitFor({ timeout: 30_000 });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export PDF' }).click(),
    ]);
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(await download.path());
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 })
      .promise;
    const first = await (await doc.getPage(1)).getTextContent();
    const text = first.items.map((i) => i.str).join(' ');
    await doc.destroy();
    assert.match(text, /Compliance matrix · Oakfield House/);
    assert.doesNotMatch(text, /Compliance matrix · Meadowbrook/);
    assert.match(text, /Generated \d\d\/\d\d\/\d{4} \d\d:\d\d/);
  });

  it('works at 375 px', async () => {
    const { page } = await newPage(browser, { width: 375, height: 740 });
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/reports/matrix`);
    await page.getByTestId('matrix-summary').waitFor({ timeout: 30_000 });
    await page.getByRole('grid').locator('[role="gridcell"][data-status]').first().waitFor();
    await checkPage(page, 'matrix-375');
  });

  // Issue 31 §4: the mobile build has no cookie; its socket authenticates with the bearer `auth` message, sent with the
  // subscribe right behind it. It said "The matrix is too large to show here" before.
  it('loads in the mobile build at 375 px over a bearer-authenticated socket', async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    page.on('dialog', (d) => void d.accept());
    const sent = [];
    page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(JSON.parse(String(f.payload)).type)));
    await page.goto(`${MOBILE}/login`);
    await login(page, MANAGER);
    await page.waitForURL(`${MOBILE}/`);
    await page.goto(`${MOBILE}/reports/matrix`);
    await page.getByTestId('matrix-summary').waitFor({ timeout: 30_000 });
    await page.getByRole('grid').locator('[role="gridcell"][data-status]').first().waitFor();
    assert.deepEqual(sent.slice(0, 2), ['auth', 'subscribe']);
    assert.deepEqual(
      await context.cookies(MOBILE).then((c) => c.map((x) => x.name).filter((n) => /session/i.test(n))),
      [],
    );
    await checkPage(page, 'matrix-mobile-375');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
