import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN, BASE, bearer, checkPage, client, h5pFrame, launch, login, newPage, zip } from './lib.mjs';

/**
 * Issue 4 item 2, H5P results: an admin authors an e-learning content whose only topic holds an H5P item uploaded
 * as a real .h5p built here; the learner opens the attempt, the vendored H5P core runs the item's library in its
 * iframe, the item reports an xAPI `completed` statement with a score through H5P's own triggerXAPIScored, the
 * player (players/H5PPlayer.tsx) hears it on H5P.externalDispatcher and records it (PATCH /attempts/{id} with
 * `h5p`), and the attempt is passed with an e-learning result.
 */
const LEARNER = { email: 'learner@demo.test', password: ADMIN.password };
const stamp = Date.now().toString(36);
const COURSE = `H5P course ${stamp}`;
const CONTENT = `Hand hygiene interactive ${stamp}`;

/**
 * A small but real H5P content type: an H5P.EventDispatcher whose button reports a scored `completed` statement
 * (4 of 5, success) through H5P core's triggerXAPIScored, exactly as shipped content types do.
 */
const LIBRARY = `H5P.E2EScored = (function ($) {
  function Scored(params, contentId) {
    H5P.EventDispatcher.call(this);
    this.params = params;
    this.contentId = contentId;
  }
  Scored.prototype = Object.create(H5P.EventDispatcher.prototype);
  Scored.prototype.constructor = Scored;
  Scored.prototype.attach = function ($container) {
    var self = this;
    var button = $('<button type="button" class="e2e-finish"></button>').text(self.params.label);
    button.on('click', function () {
      self.triggerXAPIScored(4, 5, 'completed', true, true);
      $container.append($('<p class="e2e-done"></p>').text('Activity finished'));
    });
    $container.append($('<p></p>').text(self.params.question), button);
  };
  return Scored;
})(H5P.jQuery);`;

const H5P_PACKAGE = zip([
  [
    'h5p.json',
    JSON.stringify({
      title: 'Hand hygiene check',
      language: 'en',
      mainLibrary: 'H5P.E2EScored',
      embedTypes: ['iframe'],
      preloadedDependencies: [{ machineName: 'H5P.E2EScored', majorVersion: 1, minorVersion: 0 }],
    }),
  ],
  [
    'content/content.json',
    JSON.stringify({ question: 'How long should you rub your hands?', label: 'Finish activity' }),
  ],
  [
    'H5P.E2EScored-1.0/library.json',
    JSON.stringify({
      title: 'E2E Scored',
      machineName: 'H5P.E2EScored',
      majorVersion: 1,
      minorVersion: 0,
      patchVersion: 0,
      runnable: 1,
      preloadedJs: [{ path: 'scored.js' }],
    }),
  ],
  ['H5P.E2EScored-1.0/scored.js', LIBRARY],
]);

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('H5P results: an xAPI completed statement finishes the attempt', () => {
  it('records the H5P item’s score and success on the attempt and writes an e-learning result', async () => {
    const admin = client(await bearer(ADMIN, 'e2e h5p'));
    const course = await admin('POST', '/courses', { title: COURSE, published: true });
    const content = await admin('POST', '/content', {
      course_id: course.id,
      type: 'elearning',
      title: CONTENT,
      published: true,
    });
    const item = await admin('POST', '/h5ps', { title: `Hand hygiene check ${stamp}` });
    const form = new FormData();
    form.append('package', new Blob([H5P_PACKAGE]), 'hand-hygiene.h5p');
    const pkg = await admin('POST', `/h5ps/${item.id}/package`, form);
    assert.equal(pkg.main_library, 'H5P.E2EScored 1.0');
    const topic = await admin('POST', '/topics', {
      title: 'Try it yourself',
      body_html: '<p>Answer the question in the activity below.</p>',
      h5p_id: item.id,
    });
    const lesson = await admin('POST', '/lessons', { title: `Hand hygiene ${stamp}` });
    await admin('POST', `/lessons/${lesson.id}/topics`, { action: 'add', topic_id: topic.id });
    await admin('POST', `/content/${content.id}/lessons`, { action: 'add', lesson_id: lesson.id });

    const learner = client(await bearer(LEARNER, 'e2e h5p'));
    const me = await learner('GET', '/auth/user');
    const attempt = await learner('POST', `/users/${me.id}/attempts`, { content_id: content.id });
    assert.equal(attempt.status, 'in_progress');

    const { page, errors } = await newPage(browser);
    await page.goto(`${BASE}/login`);
    await login(page, LEARNER);
    await page.waitForURL(`${BASE}/`);
    await page.goto(`${BASE}/attempt/${attempt.id}`);
    await page.getByRole('heading', { name: 'Try it yourself' }).waitFor();
    const frame = h5pFrame(page);
    await frame.getByText('How long should you rub your hands?').waitFor();
    await checkPage(page, 'h5p-player');

    // The real recording path: the item's own script → H5P core → H5P.externalDispatcher → PATCH /attempts/{id}.
    const patch = page.waitForResponse(
      (r) => r.url().endsWith(`/api/attempts/${attempt.id}`) && r.request().method() === 'PATCH',
    );
    await frame.getByRole('button', { name: 'Finish activity' }).click();
    const sent = await patch;
    assert.equal(sent.status(), 200);
    const body = sent.request().postDataJSON();
    assert.deepEqual(body.h5p, {
      topic_id: topic.id,
      h5p_id: item.id,
      score_scaled: 0.8,
      success: true,
      completion: true,
    });
    await page.getByText('Your result has been recorded: passed (80%).').waitFor();

    const current = await learner('GET', `/attempts/${attempt.id}`);
    assert.equal(current.status, 'passed');
    assert.equal(current.score, 80);
    assert.ok(current.result_id, 'the attempt has a result');
    assert.equal(current.progress.h5p_results[String(topic.id)].success, true);
    const listed = await learner('GET', `/users/${me.id}/attempts?content_id=${content.id}`);
    assert.equal(listed[0]?.result_id, current.result_id);
    await page.getByRole('heading', { name: 'Well done — you have completed this course' }).waitFor();
    await checkPage(page, 'h5p-player-finished');
    assert.deepEqual(errors, []);
  });
});
