import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  ADMIN,
  BASE,
  bearer,
  checkPage,
  client,
  launch,
  newPage,
  openScormItem,
  publishScorm,
  scoFrame,
  signIn,
} from './lib.mjs';

/**
 * Issue 10 item 1, the SCORM side: every real SCORM package in ../shared/acceptance/packages (written by others, see
 * SOURCES.md) is uploaded, played in Chromium by a learner who answers correctly, then again by one who answers
 * wrongly, and the verdict and score the server recorded are read back through the API (the attempt and its result).
 * The content inside the package's frames is really driven: the golf examples' pages and knowledge checks, the
 * multi-SCO package's 18 SCOs through the table of contents, the SCORM debugger's own controls.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const PACKAGES = path.resolve(here, '../../../shared/acceptance/packages');
const LEARNER = { email: 'learner@demo.test', password: ADMIN.password };
const stamp = Date.now().toString(36);

let browser;
let admin;
let learner;
let me;
before(async () => {
  browser = await launch();
  admin = client(await bearer(ADMIN, 'e2e acceptance scorm'));
  learner = client(await bearer(LEARNER, 'e2e acceptance scorm'));
  me = await learner('GET', '/auth/user');
});
after(async () => {
  await browser?.close();
});

/** A fresh published SCORM content with the package, and the learner's attempt of it. */
async function prepare(file, run) {
  const { content, pkg } = await publishScorm(admin, {
    course: `Acceptance ${file} ${run} ${stamp}`,
    title: `${file} (${run})`,
    bytes: readFileSync(path.join(PACKAGES, file)),
    file,
  });
  const attempt = await learner('POST', `/users/${me.id}/attempts`, { content_id: content.id });
  return { pkg, attempt };
}

/** The learner's page on the attempt; every alert / confirm a package raises is recorded (and dismissed). */
async function play(attempt) {
  const { context, page, errors } = await newPage(browser, { width: 1400, height: 1000 });
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await signIn(page, LEARNER);
  await page.goto(`${BASE}/attempt/${attempt.id}`);
  const sco = scoFrame(page);
  return { context, page, errors, dialogs, sco };
}

/** Polls the attempt until it is finished (or the time is up), then reads its result as recorded. */
async function recorded(attemptId, until = (a) => a.status !== 'in_progress') {
  let attempt;
  for (let i = 0; i < 75; i++) {
    attempt = await learner('GET', `/attempts/${attemptId}`);
    if (until(attempt)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const result = attempt.result_id ? await admin('GET', `/results/${attempt.result_id}`) : null;
  return { attempt, result };
}

/** The golf examples' knowledge check: every question answered from its right (or a wrong) answer. */
async function answerGolfQuiz(frame, right) {
  await frame.getByRole('button', { name: 'Submit Answers' }).waitFor();
  const questions = frame.locator('div.question');
  const count = await questions.count();
  assert.ok(count > 0, 'the knowledge check shows its questions');
  for (let i = 0; i < count; i++) {
    const q = questions.nth(i);
    const numeric = q.locator('input[type=text]');
    if (await numeric.count()) {
      // The numeric answer is printed beside its field, "(18)"; a wrong answer is any other number.
      const answer = (await q.locator('.correctAnswer').innerText()).match(/\((\d+)\)/)?.[1];
      assert.ok(answer !== undefined, 'numeric question shows its answer');
      await numeric.fill(right ? answer : String(Number(answer) + 7));
      await numeric.dispatchEvent('change');
    } else {
      await q
        .locator(right ? '.correctAnswer input' : '.answer input')
        .first()
        .check();
    }
  }
  await frame.getByRole('button', { name: 'Submit Answers' }).click();
  return count;
}

/** The golf "basic run-time calls" SCO: page through with Next, take the check on the last page, Exit. */
async function playGolfSingleSco(sco, page, right) {
  await sco.locator('#butNext').waitFor();
  // Next until the last page (the knowledge check) disables it.
  for (let i = 0; i < 30 && (await sco.locator('#butNext').isEnabled()); i++)
    await sco.locator('#butNext').click();
  await answerGolfQuiz(sco.frameLocator('#contentFrame'), right);
  await sco
    .frameLocator('#contentFrame')
    .getByText(/^Score: \d+$/)
    .waitFor();
  await sco.locator('#butExit').click();
  await page.getByText('This attempt is finished.', { exact: true }).waitFor();
}

/** The multi-SCO golf package: every item of the table of contents in turn, each quiz answered, then closed. */
async function playEveryScoOfTheContents(page, right) {
  const toc = page.getByRole('navigation', { name: 'Package contents' });
  const items = toc.getByRole('button');
  await items.first().waitFor();
  const count = await items.count();
  assert.equal(count, 18, 'the table of contents lists the 18 SCOs');
  if (right) await checkPage(page, 'scorm-contents');
  let quizzes = 0;
  for (let i = 0; i < count; i++) {
    const sco = await openScormItem(page, items.nth(i));
    if ((await items.nth(i).innerText()).includes('Quiz')) {
      await answerGolfQuiz(sco, right);
      quizzes++;
    } else await sco.locator('h1').first().waitFor();
  }
  assert.equal(quizzes, 4);
  // Leaving the last SCO open keeps the attempt open: 17 of 18 are done.
  await page.getByTestId('scorm-progress').getByText('17 of 18 done').waitFor();
  const open = await learner('GET', `/attempts/${(await page.url()).split('/').pop()}`);
  assert.equal(open.status, 'in_progress');
  await page.getByRole('button', { name: 'Close this part' }).click();
  await page.getByText('This attempt is finished.', { exact: true }).waitFor();
  await page.getByTestId('scorm-progress').getByText('18 of 18 done').waitFor();
}

/** The SCORM debugger (complexscorm): per SCO, set lesson status and score with its own controls, commit. */
async function playDebugger(page, verdicts) {
  const toc = page.getByRole('navigation', { name: 'Package contents' });
  const items = toc.getByRole('button');
  await items.first().waitFor();
  const count = await items.count();
  assert.equal(count, 7, '6 SCOs and an asset are shown (the invisible SCO is not)');
  let s = 0;
  for (let i = 0; i < count; i++) {
    const item = items.nth(i);
    const title = await item.innerText();
    const sco = await openScormItem(page, item);
    await sco.getByRole('heading', { name: 'SCORM 1.2 debugger package' }).waitFor();
    if (title.includes('asset')) {
      await item.getByText('Completed').waitFor(); // an asset is done once opened
      continue;
    }
    const [status, score] = verdicts[s++];
    await sco.getByRole('tab', { name: 'Common operations' }).click();
    await sco.locator('#set-lesson-status-button').click();
    await sco.locator('#set-lesson-status-menu').getByText(status, { exact: true }).click();
    await sco.locator('#set-score-button').click();
    await sco.locator('#set-score-menu').getByText(score, { exact: true }).click();
    await sco.locator('#commit-common').click();
    await item.getByText(status === 'passed' ? 'Passed' : 'Failed').waitFor();
  }
  assert.equal(s, 6);
  await page.getByText('This attempt is finished.', { exact: true }).waitFor();
}

/**
 * What right and wrong answers are for each package, and what must be recorded. Packages without an assessment
 * (the multi-SCO golf package reports no quiz results to the LMS: its SCOs only initialise and finish) are completed
 * once every SCO was opened, whatever the answers; "wrong" for the SCORM debugger is a failed SCO.
 */
const SCENARIOS = {
  'moodle-scorm12-singlescobasic.zip': {
    right: { play: (sco, page) => playGolfSingleSco(sco, page, true), status: 'passed', score: 100 },
    wrong: { play: (sco, page) => playGolfSingleSco(sco, page, false), status: 'failed', score: 0 },
  },
  'moodle-scorm2004-RuntimeBasicCalls_SCORM20043rdEdition.zip': {
    right: { play: (sco, page) => playGolfSingleSco(sco, page, true), status: 'passed', score: 100 },
    wrong: { play: (sco, page) => playGolfSingleSco(sco, page, false), status: 'failed', score: 0 },
  },
  'moodle-scorm12-RuntimeMinimumCalls_SCORM12.zip': {
    right: {
      play: (_sco, page) => playEveryScoOfTheContents(page, true),
      status: 'completed',
      score: null,
    },
    wrong: {
      play: (_sco, page) => playEveryScoOfTheContents(page, false),
      status: 'completed',
      score: null,
    },
  },
  'moodle-scorm12-complexscorm.zip': {
    // Every SCO passed with 8 of 10: 80 %.
    right: {
      play: (_sco, page) => playDebugger(page, Array(6).fill(['passed', '8'])),
      status: 'passed',
      score: 80,
    },
    // One SCO failed with 3 of 10: the content is failed; the score is the mean, (5 × 80 + 30) / 6.
    wrong: {
      play: (_sco, page) => playDebugger(page, [...Array(5).fill(['passed', '8']), ['failed', '3']]),
      status: 'failed',
      score: 71.67,
    },
  },
};

describe('real SCORM packages: right and wrong answers record the right verdict and score', () => {
  const zips = readdirSync(PACKAGES).filter((f) => f.endsWith('.zip'));

  it('knows what right and wrong answers are for every SCORM package there', () => {
    assert.deepEqual([...zips].sort(), Object.keys(SCENARIOS).sort());
  });

  for (const file of zips)
    for (const run of ['right', 'wrong'])
      it(`${file}: ${run} answers`, async () => {
        const scenario = SCENARIOS[file]?.[run];
        assert.ok(scenario, `a scenario for ${file}`);
        const { attempt } = await prepare(file, run);
        const { context, page, errors, dialogs, sco } = await play(attempt);
        try {
          await scenario.play(sco, page);
          const { attempt: done, result } = await recorded(attempt.id);
          assert.equal(done.status, scenario.status, `${file} ${run}: verdict`);
          assert.equal(done.score, scenario.score, `${file} ${run}: score`);
          assert.ok(result, 'a result is recorded');
          assert.equal(result.type, 'scorm');
          assert.equal(result.passed, scenario.status !== 'failed');
          assert.equal(result.score === null ? null : Number(result.score), scenario.score);
          assert.deepEqual(dialogs, [], 'the package raised no alert');
          assert.deepEqual(errors, []);
        } finally {
          await context.close();
        }
      });
});
