import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN, BASE, checkPage, launch, NARROW, newPage, signIn, toast } from './lib.mjs';

/**
 * Issue 17, the content designer in the browser: an author (admin@demo.test) designs two pages of several blocks,
 * moves a block with the keyboard buttons, previews the design at 375 and 1280 px, saves and publishes it to a new
 * course; the learner learner@demo.test (in the admin's organisation, so the new published course is offered on her
 * start page, as in learning.test.mjs) plays both pages, passes the quiz made from the question block, and the
 * result (course complete) appears.
 */
const LEARNER = { email: 'learner@demo.test', password: ADMIN.password };
const stamp = Date.now().toString(36);
const TITLE = `Safer hoisting ${stamp}`;
const COURSE = `Hoisting course ${stamp}`;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** The blocks of the page being edited, in order, by their headings ("1. Heading"). */
async function blockOrder(page) {
  return page.getByTestId('design-block').locator('h3').allInnerTexts();
}

describe('content designer', () => {
  it('designs, reorders, previews at 375 and 1280 px, publishes; a learner plays it and passes', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/content-designer`);
    await page.getByRole('heading', { name: 'Content designer', level: 1 }).waitFor();
    await checkPage(page, 'designer-list');
    await page.getByRole('link', { name: 'New design' }).click();
    await page.waitForURL(`${BASE}/content-designer/create`);

    // Page 1: heading, text, callout; the callout is moved above the text with the keyboard button.
    await page.getByLabel('Design title').fill(TITLE);
    await page.getByLabel('Page title').fill('Before you start');
    await page.getByRole('button', { name: 'Heading', exact: true }).click();
    await page.getByLabel('Heading', { exact: true }).fill('Check the sling');
    await page.getByRole('button', { name: 'Text', exact: true }).click();
    await page.getByLabel('Text', { exact: true }).fill('Look for <strong>fraying</strong> before each use.');
    await page.getByRole('button', { name: 'Callout', exact: true }).click();
    await page.getByLabel('Callout text', { exact: true }).fill('Two people for every hoist.');
    assert.deepEqual(await blockOrder(page), ['1. Heading', '2. Text', '3. Callout']);
    await page.getByRole('button', { name: 'Move up block 3' }).click();
    assert.deepEqual(await blockOrder(page), ['1. Heading', '2. Callout', '3. Text']);

    // Page 2: a video link and a question.
    await page.getByRole('button', { name: 'Add a page' }).click();
    await page.getByLabel('Page title').fill('Check yourself');
    await page.getByRole('button', { name: 'Video link', exact: true }).click();
    await page
      .getByLabel('Video link (YouTube or Vimeo)')
      .fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    await page.getByLabel('Video title').fill('A safe transfer');
    await page.getByRole('button', { name: 'Question', exact: true }).click();
    await page.getByLabel('Question', { exact: true }).fill('How many people does a hoist need?');
    await page.getByLabel('Answer 1', { exact: true }).fill('Two');
    await page.getByLabel('Answer 2', { exact: true }).fill('One');
    await page.getByText('Unsaved changes').waitFor();

    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/content-designer\/\d+$/);
    await toast(page, 'Design created.');
    await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
    await page.getByRole('button', { name: /1\. Before you start/ }).click();
    assert.deepEqual(await blockOrder(page), ['1. Heading', '2. Callout', '3. Text'], 'the order was saved');
    await checkPage(page, 'designer-editor');
    // At 375 px the side navigation is a drawer, closed when a page opens: reload at that width.
    await page.setViewportSize(NARROW);
    await page.reload();
    await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
    await checkPage(page, 'designer-editor');

    // The preview draws the server's sanitised HTML with the player's styles, in a frame of each width.
    await page.getByRole('button', { name: 'Preview at 375 px' }).click();
    const preview = page.getByTestId('design-preview');
    await preview.getByRole('heading', { name: 'Check the sling' }).waitFor();
    await preview.getByText('Two people for every hoist.').waitFor();
    assert.equal(await preview.locator('strong', { hasText: 'fraying' }).count(), 1);
    await checkPage(page, 'designer-preview');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Preview at 1280 px' }).click();
    await preview.getByRole('region', { name: 'Preview at 1280 pixels wide' }).waitFor();
    await preview.getByRole('button', { name: 'Next' }).click();
    await preview.getByRole('link', { name: /A safe transfer/ }).waitFor();
    await checkPage(page, 'designer-preview');
    await page.getByRole('button', { name: 'Edit', exact: true }).click();

    // Publish to a new course; the editor then links the published content.
    await page.getByRole('button', { name: 'Publish' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('New course title').fill(COURSE);
    await checkPage(page, 'designer-publish');
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await toast(page, 'Published: learners can now take it.');
    await page.getByRole('link', { name: 'Open the published content' }).waitFor();
    await page.goto(`${BASE}/content-designer`);
    await page.getByTestId('designs').getByRole('link', { name: TITLE, exact: true }).waitFor();
    await page.getByTestId('designs').getByText('Published', { exact: true }).first().waitFor();
    assert.deepEqual(errors, []);
    await context.close();

    // The learner plays it: both pages, then the quiz, to a passed result.
    const learner = await newPage(browser, NARROW);
    const lp = learner.page;
    await signIn(lp, LEARNER);
    const available = lp.getByTestId('available-courses');
    await available.getByText(COURSE).waitFor();
    await available.getByRole('button', { name: `Start ${TITLE}` }).click();
    await lp.waitForURL(/\/attempt\/\d+$/);
    const body = lp.getByTestId('topic-body');
    await body.getByRole('heading', { name: 'Check the sling' }).waitFor();
    await checkPage(lp, 'designer-played-topic');
    await lp.getByRole('button', { name: 'Mark complete' }).click();
    await body.getByRole('link', { name: /A safe transfer/ }).waitFor();
    await lp.getByRole('button', { name: 'Mark complete' }).click();
    await lp.getByRole('button', { name: 'Start the quiz' }).click();
    await lp.getByRole('radio', { name: 'Two' }).check();
    await lp.getByRole('button', { name: 'Send answers' }).click();
    await lp
      .getByTestId('quiz-outcome')
      .getByText(/Passed: 100%/)
      .waitFor();
    await lp.getByTestId('completion').waitFor();
    await lp
      .getByTestId('player-announcement')
      .getByText(/Course complete/)
      .waitFor();
    await checkPage(lp, 'designer-played-complete');
    await lp.goto(`${BASE}/`);
    await lp.getByTestId('completed-courses').getByText(COURSE).waitFor();
    assert.deepEqual(learner.errors, []);
    await learner.context.close();
  });
});
