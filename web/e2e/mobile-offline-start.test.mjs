import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN, bearer, checkPage, client, launch, login, MOBILE, NARROW, newPage, toast } from './lib.mjs';

/**
 * Issue 31 §3: a carer opens the app with no signal. The start page used to fill with "could not be loaded" and
 * "contact support" toasts although her downloaded courses work offline; now it says she is offline, lists what is
 * saved on the phone (with "Take"), shows who is signed in, raises no error, and turns back into the online page
 * when the signal returns.
 */
const LEARNER = { email: 'learner@demo.test', password: ADMIN.password };
const stamp = Date.now().toString(36);
const COURSE = `Offline start ${stamp}`;
const CONTENT = `Infection control offline ${stamp}`;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function authorCourse() {
  const call = client(await bearer(ADMIN, 'e2e offline start'));
  const course = await call('POST', '/courses', { title: COURSE, published: true });
  const content = await call('POST', '/content', {
    course_id: course.id,
    type: 'elearning',
    title: CONTENT,
    published: true,
  });
  const lesson = await call('POST', '/lessons', { title: 'Hand hygiene' });
  const topic = await call('POST', '/topics', { title: 'Wash', body_html: '<p>Twenty seconds.</p>' });
  await call('POST', `/lessons/${lesson.id}/topics`, { action: 'add', topic_id: topic.id });
  await call('POST', `/content/${content.id}/lessons`, { action: 'add', lesson_id: lesson.id });
  return { course, content };
}

describe('opening the app offline (mobile build, 375 px)', () => {
  it('shows what is on the phone and says it is offline, with no error toasts, and comes back online', async () => {
    await authorCourse();
    const { page, context, errors } = await newPage(browser, NARROW);
    // The shell's start-up may ask for a biometric confirmation (window.confirm in a browser): accept it.
    page.on('dialog', (d) => void d.accept());
    await page.goto(`${MOBILE}/login`);
    await login(page, LEARNER);
    await page.waitForURL(`${MOBILE}/`);
    await page.getByTestId('available-courses').getByText(COURSE).waitFor();
    // The app's service worker (public/offline-sw.js) has taken over: the app opens from it without a network.
    await page.waitForFunction(() => Boolean(navigator.serviceWorker?.controller));
    await page.getByRole('button', { name: `Download ${CONTENT} for offline` }).click();
    await toast(page, 'Saved for offline use.');
    await page.getByRole('link', { name: `Take ${CONTENT} offline` }).waitFor();
    await page.waitForLoadState('networkidle');

    // The app opened again with no signal (the page loaded once before, as on the phone).
    await context.setOffline(true);
    await page.reload();
    const notice = page.getByTestId('offline-notice');
    await notice.getByRole('heading', { name: 'You are offline' }).waitFor();
    const saved = page.getByTestId('offline-start-downloads');
    await saved.getByText(CONTENT).waitFor();
    await saved.getByText(COURSE, { exact: false }).waitFor();
    assert.match(
      (await saved.getByRole('link', { name: `Take ${CONTENT} offline` }).getAttribute('href')) ?? '',
      /^\/offline\/\d+$/,
    );
    // Failed reads would be retried for ~3 s before a toast: wait past that, then nothing has gone wrong on screen.
    await page.waitForTimeout(4000);
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
