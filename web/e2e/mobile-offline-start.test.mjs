import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN,
  authorElearningCourse,
  bearer,
  checkPage,
  client,
  launch,
  login,
  MOBILE,
  NARROW,
  newPage,
  toast,
} from './lib.mjs';

/**
 * Issue 31 §1: "Download for offline" was offered only under "Other courses you can take", never for her overdue,
 * required or in-progress courses; now every course of her to-do she can take online has it, and "Download my
 * required training" saves her required ones, overdue first.
 * Issue 31 §3: a carer opens the app with no signal. The start page used to fill with "could not be loaded" and
 * "contact support" toasts although her downloaded courses work offline; now it says she is offline, lists what is
 * saved on the phone (with "Take"), shows who is signed in, raises no error, and turns back into the online page
 * when the signal returns.
 */
const LEARNER = { email: 'learner@demo.test', password: ADMIN.password };
const stamp = Date.now().toString(36);
const COURSE = `Offline start ${stamp}`;
const CONTENT = `Infection control offline ${stamp}`;
const escapeRe = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function authorCourse() {
  const call = client(await bearer(ADMIN, 'e2e offline start'));
  return authorElearningCourse(call, {
    course: COURSE,
    content: CONTENT,
    lesson: 'Hand hygiene',
    topic: { title: 'Wash', html: '<p>Twenty seconds.</p>' },
  });
}

/** Her required courses the mobile build in a browser can take offline, in the to-do's order (required.ts). */
async function requiredToSave() {
  const learner = client(await bearer(LEARNER, 'e2e offline start'));
  const me = await learner('GET', '/auth/user');
  const events = await learner('GET', `/users/${me.uuid}/events`);
  return events.data.filter(
    (e) =>
      e.kind !== 'optional' &&
      !['done', 'pending'].includes(e.state) &&
      e.content_id !== null &&
      e.content_type === 'elearning' &&
      !e.document_id,
  );
}

describe('opening the app offline (mobile build, 375 px)', () => {
  it('shows what is on the phone and says it is offline, with no error toasts, and comes back online', async () => {
    await authorCourse();
    const required = await requiredToSave();
    assert.ok(required.length > 0, 'the demo carer has required e-learning to do');
    const first = required[0];
    const { page, context, errors } = await newPage(browser, NARROW);
    // The shell's start-up may ask for a biometric confirmation (window.confirm in a browser): accept it.
    page.on('dialog', (d) => void d.accept());
    await page.goto(`${MOBILE}/login`);
    await login(page, LEARNER);
    await page.waitForURL(`${MOBILE}/`);
    await page.getByTestId('available-courses').getByText(COURSE).waitFor();
    // The app's service worker (public/offline-sw.js) has taken over: the app opens from it without a network.
    await page.waitForFunction(() => Boolean(navigator.serviceWorker?.controller));

    // §1: her first required course (overdue first) can be downloaded from its row of the to-do.
    const todo = page.getByTestId('learner-todo');
    const firstRow = todo.getByTestId('todo-row').filter({ hasText: first.course.title }).first();
    await firstRow.getByRole('button', { name: `Download ${first.course.title} for offline` }).waitFor();
    const bulk = page.getByTestId('download-required');
    await bulk.getByRole('button', { name: 'Download my required training' }).waitFor();
    await checkPage(page, 'offline-start-online');
    await bulk.getByRole('button', { name: 'Download my required training' }).click();
    await toast(page, 'Your required training is saved on this phone.');
    await bulk.getByText('Your required training is saved on this phone.').waitFor();
    for (const e of required)
      await todo
        .getByTestId('todo-row')
        .filter({ hasText: e.course.title })
        .first()
        .getByRole('link', { name: `Take ${e.course.title} offline` })
        .waitFor();
    assert.deepEqual(await page.getByRole('alert').allInnerTexts(), []);
    await page.getByRole('button', { name: `Download ${CONTENT} for offline` }).click();
    await toast(page, 'Saved for offline use.');
    await page.getByRole('link', { name: `Take ${CONTENT} offline` }).waitFor();
    await page.waitForLoadState('networkidle');

    // The app opened again with no signal (the page loaded once before, as on the phone).
    await context.setOffline(true);
    await page.reload();
    const notice = page.getByTestId('offline-notice');
    await notice
      .getByRole('heading', { name: 'You are offline: showing the training saved on this phone.' })
      .waitFor();
    const saved = page.getByTestId('offline-start-downloads');
    await saved.getByText(CONTENT).waitFor();
    await saved.getByText(COURSE, { exact: false }).waitFor();
    // Her required training is on the phone too.
    for (const e of required)
      await saved
        .getByRole('link', { name: new RegExp(`^Take ${escapeRe(e.course.title)}`) })
        .first()
        .waitFor();
    assert.match(
      (await saved.getByRole('link', { name: `Take ${CONTENT} offline` }).getAttribute('href')) ?? '',
      /^\/offline\/\d+$/,
    );
    // Failed reads would be retried for ~3 s before a toast: wait past that, then nothing has gone wrong on screen.
    await page.waitForTimeout(4000);
    // No broken image in the header: the organisation's logo is the server's, the product's mark stands in for it.
    const broken = await page.evaluate(() =>
      [...document.querySelectorAll('header img')]
        .filter((img) => !img.complete || img.naturalWidth === 0)
        .map((img) => img.getAttribute('src')),
    );
    assert.deepEqual(broken, []);
    await page.locator('header img[src="/favicon.svg"]').waitFor();
    await checkPage(page, 'offline-start');
    assert.deepEqual(await page.getByRole('alert').allInnerTexts(), []);
    const text = await page.locator('body').innerText();
    assert.doesNotMatch(text, /could not be loaded|contact support/i);
    await page.getByTestId('who-am-i').getByText(LEARNER.email).waitFor();

    // The offline copy opens from the start page.
    await saved.getByRole('link', { name: `Take ${CONTENT} offline` }).click();
    await page.getByRole('heading', { name: CONTENT }).waitFor();
    await page.getByText('Twenty seconds.').waitFor();
    await page.goBack();
    await notice.waitFor();

    // The signal comes back: the start page is the online one again, without a reload.
    await context.setOffline(false);
    await page.getByTestId('learner-todo').waitFor();
    await page.getByTestId('available-courses').waitFor();
    assert.equal(await notice.count(), 0);
    assert.equal(await page.getByText('You are offline', { exact: false }).count(), 0);
    await checkPage(page, 'offline-start-back-online');
    assert.deepEqual(await page.getByRole('alert').allInnerTexts(), []);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
