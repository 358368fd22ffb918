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
 * Issue 19, offline learning on the mobile build at 375 px: the learner downloads an e-learning course while online,
 * the network goes (the browser's network emulation), she takes it from the device (topic read, quiz answered), sees
 * it queued, the network comes back, the queue syncs on its own and the server has graded and recorded the attempt.
 *
 * Packages (SCORM, H5P) are not taken offline in a browser: Chromium does not route a sandboxed, opaque-origin
 * frame's requests through a service worker (src/native/offline/files.ts); the shell plays them from its files.
 */
const LEARNER = { email: 'learner@demo.test', password: ADMIN.password };
const stamp = Date.now().toString(36);
const COURSE = `Offline moving ${stamp}`;
const CONTENT = `Moving and handling offline ${stamp}`;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Course → e-learning content → lesson with one topic → quiz of one question, published by the admin. */
async function authorCourse() {
  const call = client(await bearer(ADMIN, 'e2e offline'));
  return authorElearningCourse(call, {
    course: COURSE,
    content: CONTENT,
    lesson: 'Before you lift',
    topic: {
      title: 'Plan the move',
      html: '<p>Check the route is clear <strong>before</strong> you start.</p>',
    },
    quiz: {
      title: 'Moving check',
      question: 'When do you check the route?',
      right: 'Before the move',
      wrong: 'Halfway through',
    },
  });
}

describe('offline learning (mobile build)', () => {
  it('downloads a course, takes it offline, queues the attempt and syncs it when back online', async () => {
    const { content } = await authorCourse();
    const { page, context, errors } = await newPage(browser, NARROW);
    // The shell's start-up may ask for a biometric confirmation (window.confirm in a browser): accept it.
    page.on('dialog', (d) => void d.accept());
    await page.goto(`${MOBILE}/login`);
    await login(page, LEARNER);
    await page.waitForURL(`${MOBILE}/`);
    await page.getByTestId('available-courses').getByText(COURSE).waitFor();
    // The app's service worker (public/offline-sw.js) has taken over the page: what it loads from now on is kept.
    await page.waitForFunction(() => Boolean(navigator.serviceWorker?.controller));

    await page.getByRole('button', { name: `Download ${CONTENT} for offline` }).click();
    await toast(page, 'Saved for offline use.');
    const take = page.getByRole('link', { name: `Take ${CONTENT} offline` });
    await take.waitFor();
    await checkPage(page, 'offline-start-page');

    await context.setOffline(true);
    await take.click();
    await page.waitForURL(`${MOBILE}/offline/${content.id}`);
    await page.getByRole('heading', { name: CONTENT }).waitFor();
    await page.getByText('Check the route is clear').waitFor();
    // The copy holds no correct answers: the page says the server marks them.
    await page.getByText('Your answers are marked when they reach the server.').waitFor();
    await checkPage(page, 'offline-player');
    await page.getByLabel('I have read "Plan the move"').check();
    await page.getByLabel('Before the move').check();
    // Closed and opened again without a network (the app from its service worker): the answers were kept.
    await page.reload();
    await page.getByRole('heading', { name: CONTENT }).waitFor();
    assert.equal(await page.getByLabel('I have read "Plan the move"').isChecked(), true);
    assert.equal(await page.getByLabel('Before the move').isChecked(), true);
    await page.getByRole('button', { name: 'Finish and save' }).click();
    await page.getByText('Saved on this device. It will be sent when you are back online.').waitFor();

    await page.getByRole('link', { name: 'Back to offline learning' }).click();
    await page.waitForURL(`${MOBILE}/offline`);
    const banner = page.getByTestId('offline-sync');
    await banner.getByText('1 attempt waiting to sync').waitFor();
    await banner.getByText('You are offline.').waitFor();
    await page.getByTestId('offline-queue').getByText(CONTENT).waitFor();
    await checkPage(page, 'offline-queued');

    // Removing the course from the device (still offline) asks first and keeps the attempt waiting to sync.
    await page.getByRole('button', { name: `Remove ${CONTENT} from this device` }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('attempts waiting to sync are never deleted', { exact: false }).waitFor();
    await checkPage(page, 'offline-remove-confirm');
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await page.getByTestId('offline-downloads').getByText('Nothing saved yet').waitFor();
    await page.getByTestId('offline-queue').getByText(CONTENT).waitFor();
    await banner.getByText('1 attempt waiting to sync').waitFor();

    const learner = client(await bearer(LEARNER, 'e2e offline check'));
    const me = await learner('GET', '/auth/user');
    const before = await learner('GET', `/users/${me.id}/attempts?content_id=${content.id}`);
    assert.equal(before.length, 0, 'nothing reached the server while offline');

    // Back online: the `online` event syncs the queue without a click.
    await context.setOffline(false);
    await banner.getByText('Synced').waitFor();
    await page.getByTestId('offline-synced').getByText('Passed. Your record is updated.').waitFor();
    assert.equal(await page.getByTestId('offline-queue').count(), 0);
    await checkPage(page, 'offline-synced');

    const attempts = await learner('GET', `/users/${me.id}/attempts?content_id=${content.id}`);
    assert.equal(attempts.length, 1);
    assert.equal(attempts[0].status, 'passed');
    const compliant = await learner('GET', `/users/${me.id}/compliant-courses?per_page=100`);
    assert.ok(
      compliant.some((c) => c.title === COURSE),
      'the synced pass is a recorded result: the course is among her completed courses',
    );

    await page.setViewportSize({ width: 1280, height: 800 });
    await checkPage(page, 'offline-synced');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
