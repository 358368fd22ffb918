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
} from './lib.mjs';

/**
 * Issue 31 §2, a dropped signal must not lose quiz answers: in the mobile build at 375 px, a course taken online
 * (not downloaded) goes on through the attempt outbox. A step whose answer is lost on the way back is resent with
 * its client id and recorded once; the quiz is answered and sent with the network cut, the page says the answers
 * are saved on the phone, a reload without a network shows the attempt from the phone (not "Error loading course
 * attempt"), and when the network returns the outbox sends them and the server records the pass once.
 */
const LEARNER = { email: 'learner@demo.test', password: ADMIN.password };
const stamp = Date.now().toString(36);
const COURSE = `Outbox course ${stamp}`;
const CONTENT = `Safe moving ${stamp}`;
const SAVED = 'Saved on this phone, will send when you are back online.';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function authorCourse() {
  const call = client(await bearer(ADMIN, 'e2e outbox'));
  const made = await authorElearningCourse(call, {
    course: COURSE,
    content: CONTENT,
    lesson: 'Before you move someone',
    topic: { title: 'Check the route', html: '<p>Clear the way <strong>before</strong> you start.</p>' },
    quiz: {
      title: 'Route check',
      question: 'When do you clear the route?',
      right: 'Before the move',
      wrong: 'Halfway through',
    },
  });
  return { ...made, call };
}

describe('the attempt outbox (mobile build)', () => {
  it('keeps answers sent without a network, shows them after an offline reload, and records them once', async () => {
    const { course, content, call: admin } = await authorCourse();
    const learner = client(await bearer(LEARNER, 'e2e outbox check'));
    const me = await learner('GET', '/auth/user');
    const attempt = await learner('POST', `/users/${me.id}/attempts`, { content_id: content.id });

    const { page, context, errors } = await newPage(browser, NARROW);
    page.on('dialog', (d) => void d.accept());
    await page.goto(`${MOBILE}/login`);
    await login(page, LEARNER);
    await page.waitForURL(`${MOBILE}/`);
    // The app's service worker keeps the app itself, so a reload without a network starts it (public/offline-sw.js).
    await page.waitForFunction(() => Boolean(navigator.serviceWorker?.controller));

    await page.goto(`${MOBILE}/attempt/${attempt.id}`);
    await page.getByRole('heading', { name: 'Check the route' }).waitFor();

    // The step reaches the server but its answer is lost on the way back: the page keeps it on the phone, the
    // outbox sends it again (same client id) and the server records it once.
    const patches = [];
    let dropped = false;
    await page.route(`**/api/attempts/${attempt.id}`, async (route) => {
      if (route.request().method() !== 'PATCH') return route.fallback();
      patches.push(JSON.parse(route.request().postData() ?? '{}'));
      if (dropped) return route.fallback();
      dropped = true;
      await route.fetch();
      await route.abort('connectionreset');
    });
    await page.getByRole('button', { name: 'Mark complete' }).click();
    await page.getByRole('heading', { name: 'Route check' }).waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid="saved-locally"]'), null, {
      timeout: 30_000,
    });
    assert.ok(patches.length >= 2, 'the outbox sent the step again');
    assert.equal(new Set(patches.map((p) => p.client_id)).size, 1, 'every send carried the same client id');
    const afterStep = await learner('GET', `/attempts/${attempt.id}`);
    assert.equal(afterStep.progress.completed_topic_ids.length, 1);
    assert.equal(afterStep.version, attempt.version + 1, 'the step was recorded once');
    await page.unroute(`**/api/attempts/${attempt.id}`);

    await page.getByRole('button', { name: 'Start the quiz' }).click();
    await page.getByLabel('Before the move').waitFor();

    // The signal drops: the answers are kept on the phone.
    await context.setOffline(true);
    await page.getByLabel('Before the move').check();
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.getByTestId('quiz-saved-locally').getByText(SAVED).waitFor();
    await checkPage(page, 'attempt-answers-saved-on-phone');

    // Closed and opened again without a network: the attempt from the phone, with the answers kept.
    await page.reload();
    await page.getByRole('heading', { name: CONTENT }).waitFor();
    assert.equal(await page.getByText('Error loading course attempt').count(), 0);
    await page.getByTestId('saved-locally').getByText(SAVED).waitFor();
    // It opens on the learner's last position (the topic); the quiz is the next step.
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('quiz-saved-locally').getByText(SAVED).waitFor();
    assert.equal(await page.getByLabel('Before the move').isChecked(), true);
    await checkPage(page, 'attempt-offline-reload');

    const waiting = await learner('GET', `/attempts/${attempt.id}`);
    assert.equal(waiting.status, 'in_progress', 'nothing reached the server while offline');

    // The signal returns: the outbox sends the answers, the server marks them (pass mark 100) once.
    await context.setOffline(false);
    await page.getByTestId('quiz-outcome').getByText('Passed: 100%').waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid="saved-locally"]'));
    const done = await learner('GET', `/attempts/${attempt.id}`);
    assert.equal(done.status, 'passed');
    assert.equal(done.score, 100);
    const attempts = await learner('GET', `/users/${me.id}/attempts?content_id=${content.id}`);
    assert.equal(attempts.length, 1);
    const results = await admin('GET', `/users/${me.id}/results?course_id=${course.id}`);
    assert.equal(results.length, 1, 'one result recorded for the course');
    assert.equal(results[0].passed, true);
    await checkPage(page, 'attempt-outbox-sent');

    await page.setViewportSize({ width: 1280, height: 800 });
    await checkPage(page, 'attempt-outbox-sent');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
