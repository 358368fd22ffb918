import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN,
  apiGet,
  BASE,
  bearer,
  checkAtBothWidths,
  checkPage,
  client,
  launch,
  MANAGER,
  NARROW,
  newPage,
  PDF_HELVETICA,
  rectanglePdf,
  signIn,
  toast,
  WIDE,
} from './lib.mjs';

/**
 * Issue 17, documents and libraries in the browser: a manager creates a library, uploads a PDF with a check
 * question and makes it Mandatory for the Care Assistant role at Oakfield House; the learner (a care assistant there)
 * sees it in their to-do on a phone (375 px), opens it (pdf.js draws the page on a canvas), is refused a wrong answer,
 * acknowledges; the manager publishes version 2 with a note; the learner is asked again and sees what changed.
 * Every page is screenshotted and checked with axe at 1280 and 375 px. The document and library are deleted at the
 * end, so the demo learner's to-do is as it was for the files run after this one.
 */
const LEARNER = { email: 'learner@demo.test', password: ADMIN.password };
const stamp = Date.now().toString(36);
const LIBRARY = `Policies ${stamp}`;
const TITLE = `Safeguarding policy ${stamp}`;
const QUESTION = 'Who do you tell first about a safeguarding concern?';
const RIGHT = 'The person in charge';
const WRONG = 'Nobody';
const NOTE = 'Section 3 now names the safeguarding lead.';
const WORDS = 'Tell the person in charge first.';

let browser;
let cleanUp = async () => {};
before(async () => {
  browser = await launch();
});
after(async () => {
  await cleanUp().catch((e) => console.error(`[e2e] documents clean-up: ${e.message}`));
  await browser?.close();
});

/**
 * Issue 31 §5, reading a policy on a phone: the page fits the width; Zoom in (twice) draws it larger in its own
 * sideways-scrolling region while the app does not scroll sideways; + - 0 work from the keyboard in that region;
 * nothing blocks pinch zoom; the words are a text layer (selectable, read by screen readers). Screenshots of the
 * zoomed page; back to Fit to width at the end.
 */
async function assertZoomAndText(page, name) {
  const viewer = page.getByTestId('pdf-viewer');
  const fit = viewer.getByRole('button', { name: 'Fit to width' });
  const zoom = viewer.getByTestId('pdf-zoom');
  const region = viewer.getByTestId('pdf-pages');
  const canvasWidth = () =>
    page.evaluate(
      () => document.querySelector('[data-testid=pdf-viewer] canvas').getBoundingClientRect().width,
    );
  const fitted = await zoom.innerText();
  const before = await canvasWidth();
  assert.equal(await fit.getAttribute('aria-pressed'), 'true', 'the page fits the width at first');

  // The words are text over the drawing, in a page named for screen readers, and can be selected.
  const pageGroup = viewer.getByRole('group', { name: `${TITLE}, page 1 of 1` });
  await pageGroup.locator('.textLayer').getByText(WORDS).waitFor();
  assert.notEqual(
    await pageGroup
      .locator('.textLayer span')
      .first()
      .evaluate((el) => getComputedStyle(el).userSelect),
    'none',
  );

  // Nothing stops the browser's own pinch zoom.
  const viewport = await page.locator('meta[name=viewport]').getAttribute('content');
  assert.doesNotMatch(viewport, /user-scalable\s*=\s*(no|0)|maximum-scale\s*=\s*1(\.0)?\b/);
  const touch = await viewer.evaluate((root) =>
    [root, ...root.querySelectorAll('*')].map((el) => getComputedStyle(el).touchAction),
  );
  assert.ok(!touch.includes('none'), `no touch-action: none in the viewer (${[...new Set(touch)]})`);

  // Zoom in twice (the second from the keyboard on the button).
  await viewer.getByRole('button', { name: 'Zoom in' }).click();
  await viewer.getByRole('button', { name: 'Zoom in' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(
    (w) => document.querySelector('[data-testid=pdf-viewer] canvas').getBoundingClientRect().width > w * 1.3,
    before,
  );
  assert.notEqual(await zoom.innerText(), fitted);
  assert.equal(await fit.getAttribute('aria-pressed'), 'false');
  assert.ok(
    await region.evaluate((el) => el.scrollWidth > el.clientWidth),
    'the zoomed page scrolls sideways',
  );
  const docWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(docWidth <= page.viewportSize().width, `the app does not scroll sideways (${docWidth})`);
  await pageGroup.locator('.textLayer').getByText(WORDS).waitFor();
  await checkPage(page, `${name}-zoomed`);

  // In the page region: 0 fits the width again, + zooms in, - zooms out.
  await region.focus();
  await page.keyboard.press('0');
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid=pdf-viewer] [aria-pressed=true]')?.textContent === 'Fit to width',
  );
  await page.keyboard.type('+');
  await page.waitForFunction(
    (f) => document.querySelector('[data-testid=pdf-zoom]').textContent !== f,
    fitted,
  );
  await page.keyboard.press('-');
  await page.keyboard.press('0');
  await page.waitForFunction((w) => {
    const c = document.querySelector('[data-testid=pdf-viewer] canvas');
    return Math.abs(c.getBoundingClientRect().width - w) < 2;
  }, before);
  assert.equal(await zoom.innerText(), fitted);
  assert.ok(Math.abs((await canvasWidth()) - before) < 2);
}

/** The first page of the PDF is drawn: a canvas with pixels that are not blank. */
async function assertPdfDrawn(page) {
  const canvas = page.locator('[data-testid=pdf-viewer] canvas').first();
  await canvas.waitFor();
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-testid=pdf-viewer] canvas');
    if (!c?.width || !c.height) return false;
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let dark = 0;
    for (let i = 0; i < data.length; i += 4 * 97) if (data[i] < 128 && data[i + 3] > 0) dark += 1;
    return dark > 50;
  });
  const box = await canvas.boundingBox();
  const width = page.viewportSize().width;
  assert.ok(box && box.width <= width, `the page fits the width (${box?.width} of ${width})`);
}

describe('documents: upload, require, read and acknowledge, new version', () => {
  it('takes a policy from upload to an acknowledgement, and asks again after a new version', async () => {
    const manager = client(await bearer(MANAGER, 'e2e documents'));
    const learnerName = (await client(await bearer(LEARNER, 'e2e documents'))('GET', '/auth/user')).name;

    // 1. The manager adds a library (1280 px).
    const m = await newPage(browser, WIDE);
    await signIn(m.page, MANAGER);
    await m.page.goto(`${BASE}/libraries`);
    await m.page.getByTestId('libraries-list').waitFor();
    await m.page.getByRole('button', { name: 'Add a library' }).first().click();
    const libraryDialog = m.page.getByRole('dialog', { name: 'Add a library' });
    await libraryDialog.getByLabel(/^Name/).fill(LIBRARY);
    await checkPage(m.page, 'documents-add-library');
    await libraryDialog.getByRole('button', { name: 'Add library' }).click();
    await toast(m.page, 'Library created.');
    await m.page.getByRole('link', { name: LIBRARY }).waitFor();
    await checkAtBothWidths(m.page, 'documents-libraries');

    // 2. It uploads the PDF with a check question; a wrong file is refused before sending.
    await m.page.getByRole('link', { name: LIBRARY }).click();
    await m.page.getByRole('heading', { name: LIBRARY, level: 1 }).waitFor();
    await m.page.getByText('No documents yet').waitFor();
    await checkAtBothWidths(m.page, 'documents-library-empty');
    await m.page.getByRole('button', { name: 'Upload a document' }).first().click();
    const upload = m.page.getByRole('dialog', { name: 'Upload a document' });
    await upload.getByLabel(/^Title/).fill(TITLE);
    await upload.getByLabel(/^File/).setInputFiles({
      name: 'policy.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('<html><script>alert(1)</script></html>'),
    });
    await upload.getByText('Upload a PDF, an office document or an image.').waitFor();
    await upload.getByLabel(/^File/).setInputFiles({
      name: 'safeguarding.pdf',
      mimeType: 'application/pdf',
      buffer: rectanglePdf(
        `0.1 0.3 0.8 rg 60 600 475 160 re f 0.2 0.2 0.2 rg 60 100 475 400 re f BT /F1 14 Tf 60 560 Td (${WORDS}) Tj ET`,
        PDF_HELVETICA,
      ),
    });
    await upload.getByLabel(/Ask a short question/).check();
    await upload.getByLabel(/^Question/).fill(QUESTION);
    await upload.getByLabel('Answer 1', { exact: true }).fill(WRONG);
    await upload.getByLabel('Answer 2', { exact: true }).fill(RIGHT);
    await upload.getByLabel('Answer 2 is the right answer').check();
    await checkPage(m.page, 'documents-upload');
    await upload.getByRole('button', { name: 'Upload' }).click();
    await toast(m.page, 'Document added.');
    const link = m.page.getByRole('link', { name: TITLE });
    await link.waitFor();
    await checkAtBothWidths(m.page, 'documents-library');
    const documentId = Number((await link.getAttribute('href')).split('/').pop());
    const libraryId = Number(new URL(m.page.url()).pathname.split('/').pop());
    cleanUp = async () => {
      await manager('DELETE', `/documents/${documentId}`);
      await manager('DELETE', `/libraries/${libraryId}`);
    };

    // 3. It makes the document Mandatory for care assistants at Oakfield House.
    await link.click();
    await m.page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
    await assertPdfDrawn(m.page);
    await assertZoomAndText(m.page, 'documents-pdf');
    const requirements = m.page.getByTestId('requirements');
    const home = (await apiGet(m.page, '/auth/user')).body.data.primary_entity;
    assert.equal(home.name, 'Oakfield House');
    await requirements.getByRole('combobox').first().selectOption(home.slug);
    await requirements.getByLabel('Care Assistant', { exact: true }).check();
    // Issue 33 §4: those who must read it have 14 days before they are out of date.
    await requirements.getByLabel('Days to read it').fill('14');
    await requirements.getByRole('button', { name: 'Save job roles' }).click();
    await toast(m.page, 'Saved: these job roles must read this document.');
    await requirements
      .getByRole('list', { name: 'Job roles that must read it' })
      .getByText(/Care Assistant/)
      .waitFor();
    await checkAtBothWidths(m.page, 'documents-document-manager');

    // 4. The learner sees it in their to-do on a phone, opens it, is refused a wrong answer, acknowledges.
    const l = await newPage(browser, NARROW);
    await signIn(l.page, LEARNER);
    const row = l.page.getByTestId('learner-todo').getByTestId('todo-row').filter({ hasText: TITLE });
    await row.getByText('Read it and confirm you have understood it.').waitFor();
    await checkPage(l.page, 'documents-learner-todo');
    await row.getByRole('link', { name: `Read ${TITLE}` }).click();
    await l.page.waitForURL(`${BASE}/document/${documentId}`);
    await assertPdfDrawn(l.page);
    await assertZoomAndText(l.page, 'documents-learner-pdf');
    const panel = l.page.getByTestId('ack-panel');
    await panel.getByLabel(WRONG).check();
    await panel.getByLabel(/^Your name/).fill(learnerName);
    await checkPage(l.page, 'documents-learner-document');
    await panel.getByRole('button', { name: 'I have read and understood version 1' }).click();
    await panel.getByText('That is not the right answer: read the document again.').first().waitFor();
    await panel.getByLabel(RIGHT).check();
    await panel.getByRole('button', { name: 'I have read and understood version 1' }).click();
    await toast(l.page, 'Thank you: your acknowledgement is recorded.');
    const receipt = l.page.getByTestId('ack-receipt');
    await receipt.getByText('You have read and understood version 1.').waitFor();
    assert.match(await receipt.textContent(), new RegExp(learnerName));
    await checkAtBothWidths(l.page, 'documents-learner-receipt');

    // 5. The manager publishes version 2 with what changed.
    await m.page.reload();
    await m.page.getByRole('button', { name: 'Upload a new version' }).click();
    const next = m.page.getByRole('dialog', { name: 'Upload a new version' });
    await next.getByLabel(/^File/).setInputFiles({
      name: 'safeguarding-v2.pdf',
      mimeType: 'application/pdf',
      buffer: rectanglePdf('0.8 0.2 0.1 rg 60 600 475 160 re f 0.2 0.2 0.2 rg 60 100 475 400 re f'),
    });
    await next.getByLabel(/^What changed/).fill(NOTE);
    await next.getByRole('button', { name: 'Publish new version' }).click();
    await next.getByText('Confirm that staff will be asked to read it again.').waitFor();
    await next.getByLabel(/will be asked to read and acknowledge it again/).check();
    await checkPage(m.page, 'documents-new-version');
    await next.getByRole('button', { name: 'Publish new version' }).click();
    await toast(m.page, 'New version published: staff will be asked to read it again.');
    const history = m.page.getByTestId('history');
    await history.getByText('Version 2 (current)').waitFor();
    await history.getByText(NOTE).waitFor();
    const acks = m.page.getByTestId('acknowledgements');
    await acks.getByText(learnerName).first().waitFor();
    // Issue 33 §4: the manager reminds those who have not read version 2 (the learner among them), once a day each.
    await acks.getByRole('button', { name: 'Remind those who have not read it' }).click();
    await m.page
      .getByRole('status')
      .filter({ hasText: /Reminder sent to \d+ (person|people) who have not read it\./ })
      .first()
      .waitFor();
    await checkAtBothWidths(m.page, 'documents-document-v2-manager');
    await acks.getByRole('button', { name: 'Remind those who have not read it' }).click();
    await toast(m.page, 'Nobody to remind: everyone has read it, or was reminded today.');

    // 6. The learner is asked again, with what changed above the document, and has the manager's reminder.
    const inbox = await apiGet(l.page, '/notifications');
    assert.ok(
      inbox.body.data.some((n) => n.kind === 'document_reminder' && n.title === `Please read ${TITLE}`),
      'the reminder is in the learner’s notifications',
    );
    await l.page.goto(`${BASE}/`);
    const again = l.page.getByTestId('learner-todo').getByTestId('todo-row').filter({ hasText: TITLE });
    await again.getByText('A new version was published: read it again and acknowledge it.').waitFor();
    await l.page.getByTestId('policies-to-read').getByText(NOTE, { exact: false }).waitFor();
    await checkPage(l.page, 'documents-learner-todo-again');
    await again.getByRole('link', { name: `Read ${TITLE}` }).click();
    await l.page.waitForURL(`${BASE}/document/${documentId}`);
    await l.page.getByTestId('what-changed').getByText(NOTE).waitFor();
    await l.page.getByRole('button', { name: 'I have read and understood version 2' }).waitFor();
    await assertPdfDrawn(l.page);
    await checkAtBothWidths(l.page, 'documents-learner-asked-again');

    assert.deepEqual(m.errors, []);
    assert.deepEqual(l.errors, []);
    await m.context.close();
    await l.context.close();
  });
});
