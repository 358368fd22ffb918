import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN,
  BASE,
  bearer,
  checkPage,
  client,
  launch,
  MANAGER,
  NARROW,
  newPage,
  rectanglePdf,
  signIn,
  toast,
} from './lib.mjs';

/**
 * Issue 17, pathways in the browser. Fixtures through the API: an online course (a topic and a one-question quiz)
 * and, in a library of the manager's, a PDF policy. Then in the browser: the pathway is built in the editor of a
 * course, the document and a sign-off, steps in order; it is given to the Care Assistant job role of Oakfield House;
 * the learner (a care assistant there) opens it on a phone (375 px), starts and completes the course, reads and
 * acknowledges the document; the manager signs the sign-off step off; the pathway is completed and its result is in
 * the learner's training records. Last, an edit of the sign-off makes version 2 with the choice "Must do it again",
 * and the history shows it. Pages are screenshotted and checked with axe at 1280 and 375 px.
 *
 * Who builds: the contract gives creating pathways to 27/28 (add/edit courses), which the demo Manager type does not
 * hold, so the admin builds and edits the pathway (owned by the learner's home, Oakfield House); the manager there
 * (24/26/43) gives it out and signs it off.
 */
const LEARNER = { email: 'learner@demo.test', password: ADMIN.password };
const WIDE = { width: 1280, height: 800 };
const stamp = Date.now().toString(36);
const COURSE = `Infection control ${stamp}`;
const CONTENT = `Hand hygiene ${stamp}`;
const LIBRARY = `Policies ${stamp}`;
const DOCUMENT = `Infection policy ${stamp}`;
const PATHWAY = `Care assistant induction ${stamp}`;
const COMPETENCE = 'Hand washing observed';
const COMPETENCE_2 = 'Hand washing observed on two shifts';

let browser;
let cleanUp = async () => {};
before(async () => {
  browser = await launch();
});
after(async () => {
  await cleanUp().catch((e) => console.error(`[e2e] pathways clean-up: ${e.message}`));
  await browser?.close();
});

/** Screenshots and axe at both widths, back at the width the page had. */
async function checkBoth(page, name) {
  const size = page.viewportSize();
  for (const viewport of [WIDE, NARROW]) {
    await page.setViewportSize(viewport);
    await checkPage(page, name);
  }
  await page.setViewportSize(size);
}

/** The course (topic + quiz) and, in a new library of the manager's, the policy PDF. */
async function fixtures(admin, manager) {
  const course = await admin('POST', '/courses', { title: COURSE, published: true });
  const content = await admin('POST', '/content', {
    course_id: course.id,
    type: 'elearning',
    title: CONTENT,
    published: true,
    estimated_duration: 10,
  });
  const lesson = await admin('POST', '/lessons', { title: 'Clean hands' });
  const topic = await admin('POST', '/topics', {
    title: 'When to wash',
    body_html: '<p>Before and after care.</p>',
  });
  await admin('POST', `/lessons/${lesson.id}/topics`, { action: 'add', topic_id: topic.id });
  await admin('POST', `/content/${content.id}/lessons`, { action: 'add', lesson_id: lesson.id });
  const quiz = await admin('POST', '/quizzes', {
    title: 'Hygiene check',
    published: true,
    pass_mark: 100,
    questions: [
      {
        text: 'When do you wash your hands?',
        answers: [
          { text: 'Before and after care', is_correct: true },
          { text: 'Once a day', is_correct: false },
        ],
      },
    ],
  });
  await admin('POST', `/content/${content.id}/quizzes`, { action: 'add', quiz_id: quiz.id });
  const library = await manager('POST', '/libraries', { name: LIBRARY });
  const form = new FormData();
  form.append('title', DOCUMENT);
  form.append('file', new Blob([rectanglePdf()], { type: 'application/pdf' }), 'infection.pdf');
  const document = await manager('POST', `/libraries/${library.id}/documents`, form);
  return { course, content, topic, quiz, library, document };
}

/** Chooses an option of a searchable picker (type, then click the option). */
async function pick(scope, label, text) {
  const input = scope.getByRole('combobox', { name: label });
  await input.fill(text);
  await scope
    .page()
    .getByRole('option', { name: new RegExp(text) })
    .first()
    .click();
}

/** The learner completes the course from its attempt page: the player, or the API where the player cannot load. */
async function completeCourse(page, f, t) {
  await page.waitForURL(/\/attempt\/\d+$/);
  const attemptId = Number(new URL(page.url()).pathname.split('/').pop());
  const structure = await page.evaluate(
    async (id) =>
      await fetch(`/api/attempts/${id}/structure`, { headers: { Accept: 'application/json' } }).then(
        async (r) => {
          await r.text();
          return r.status;
        },
      ),
    attemptId,
  );
  if (structure === 200) {
    await page.getByTestId('topic-body').getByText('Before and after care.').waitFor();
    await page.getByRole('button', { name: 'Mark complete' }).click();
    await page.getByRole('button', { name: 'Start the quiz' }).click();
    await page.getByRole('radio', { name: 'Before and after care' }).check();
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.getByTestId('completion').waitFor();
    return;
  }
  t.diagnostic(
    `GET /api/attempts/${attemptId}/structure answered ${structure}: the course is finished through the API.`,
  );
  const learner = client(await bearer(LEARNER, 'e2e pathways'));
  const attempt = await learner('GET', `/attempts/${attemptId}`);
  await learner('PATCH', `/attempts/${attemptId}`, {
    version: attempt.version,
    completed_topic_id: f.topic.id,
  });
  const sheet = await learner('POST', '/quizzes/take', { attempt_id: attemptId, quiz_id: f.quiz.id });
  const question = sheet.questions[0];
  const right = question.answers.find((a) => a.text === 'Before and after care');
  const outcome = await learner('POST', '/quizzes/take', {
    quiz_attempt_id: sheet.quiz_attempt_id,
    responses: { [question.id]: [right.id] },
  });
  assert.equal(outcome.passed, true);
}

describe('pathways: build, give to a job role, complete, sign off, new version', () => {
  it('takes a pathway of a course, a document and a sign-off from the editor to a completed result', async (t) => {
    const admin = client(await bearer(ADMIN, 'e2e pathways'));
    const manager = client(await bearer(MANAGER, 'e2e pathways'));
    const learnerApi = client(await bearer(LEARNER, 'e2e pathways'));
    const me = await learnerApi('GET', '/auth/user');
    const f = await fixtures(admin, manager);
    let pathwayId = 0;
    cleanUp = async () => {
      if (pathwayId) await admin('DELETE', `/pathways/${pathwayId}`);
      await manager('DELETE', `/documents/${f.document.id}`);
      await manager('DELETE', `/libraries/${f.library.id}`);
    };

    // 1. The pathway is built in the editor (1280 px): a course, the document, a sign-off; steps in order.
    const a = await newPage(browser, WIDE);
    await signIn(a.page, ADMIN);
    await a.page.goto(`${BASE}/pathways`);
    await a.page.getByTestId('pathways-list').waitFor();
    await a.page.getByRole('link', { name: 'Add a pathway' }).first().click();
    await a.page.waitForURL(`${BASE}/pathways/create`);
    // Owned by the learner's home, so its manager sees and gives it out.
    await a.page
      .getByRole('region', { name: 'About the pathway' })
      .getByRole('combobox')
      .selectOption(me.primary_entity.slug);
    await a.page.getByLabel(/^Title/).fill(PATHWAY);
    await a.page.getByRole('switch', { name: 'Steps in order' }).click();
    // Saving with nothing chosen shows the errors by field.
    await a.page.getByRole('button', { name: 'Add a course' }).click();
    await a.page.getByRole('button', { name: 'Create the pathway' }).click();
    await a.page.getByText('Choose a course.').waitFor();
    const steps = a.page.getByTestId('pathway-step');
    await pick(steps.nth(0), 'Course', COURSE);
    // The corrected field's error goes.
    await a.page.getByText('Choose a course.').waitFor({ state: 'detached' });
    await a.page.getByRole('button', { name: 'Add a sign-off' }).click();
    await steps
      .nth(1)
      .getByLabel(/Competence to sign off/)
      .fill(COMPETENCE);
    await a.page.getByRole('button', { name: 'Add a document' }).click();
    await steps
      .nth(2)
      .getByLabel('Library')
      .selectOption({ label: `${LIBRARY} (${f.library.entity.name})` });
    await pick(steps.nth(2), 'Document', DOCUMENT);
    // The document goes before the sign-off, by keyboard.
    await a.page.getByRole('button', { name: 'Move step 3 up' }).focus();
    await a.page.keyboard.press('Enter');
    await steps.nth(1).getByText('Step 2: Document to read').waitFor();
    await checkBoth(a.page, 'pathways-editor');
    await a.page.getByRole('button', { name: 'Create the pathway' }).click();
    await toast(a.page, 'Pathway created.');
    await a.page.getByRole('heading', { name: PATHWAY, level: 1 }).waitFor();
    pathwayId = Number(new URL(a.page.url()).pathname.split('/').pop());
    assert.ok(pathwayId > 0);

    // 2. The manager gives it to the Care Assistant job role of Oakfield House (the learner's).
    const m = await newPage(browser, WIDE);
    await signIn(m.page, MANAGER);
    await m.page.goto(`${BASE}/pathways/${pathwayId}`);
    const roles = m.page.getByTestId('pathway-roles');
    await roles.getByText('No job roles yet').waitFor();
    await roles.getByRole('button', { name: 'Add a job role' }).click();
    const roleDialog = m.page.getByRole('dialog', { name: 'Add a job role' });
    await roleDialog.getByRole('combobox').first().selectOption(me.primary_entity.slug);
    await roleDialog.getByLabel(/^Job role/).selectOption({ label: 'Care Assistant' });
    await checkPage(m.page, 'pathways-add-role');
    await roleDialog.getByRole('button', { name: 'Add' }).click();
    await toast(m.page, 'Pathway allocated to the job role.');
    await roles.getByText('Care Assistant').waitFor();
    const people = m.page.getByTestId('pathway-people');
    await people.getByRole('button', { name: me.name, exact: true }).waitFor();
    await checkBoth(m.page, 'pathways-pathway-manager');

    // 3. The learner, on a phone: the pathway in "My pathways", the course to start, the document locked.
    const l = await newPage(browser, NARROW);
    await signIn(l.page, LEARNER);
    await l.page.goto(`${BASE}/pathways`);
    await l.page.getByTestId('my-pathways').getByRole('link', { name: PATHWAY }).click();
    const panel = l.page.getByTestId('allocation-panel');
    await panel.getByText('Opens once step 1').waitFor();
    await checkPage(l.page, 'pathways-learner-start');
    await panel.getByRole('button', { name: `Start ${COURSE}` }).click();
    await completeCourse(l.page, f, t);

    // 4. Back on the pathway the course is done and the document opens; the learner acknowledges it.
    await l.page.goto(`${BASE}/pathways/${pathwayId}`);
    await panel.getByRole('link', { name: 'Read and acknowledge' }).click();
    await l.page.waitForURL(`${BASE}/document/${f.document.id}`);
    const ack = l.page.getByTestId('ack-panel');
    await ack.getByLabel(/^Your name/).fill(me.name);
    await ack.getByRole('button', { name: 'I have read and understood version 1' }).click();
    await toast(l.page, 'Thank you: your acknowledgement is recorded.');
    await l.page.goto(`${BASE}/pathways/${pathwayId}`);
    await panel.getByText('Waiting for a manager or assessor to sign this off.').waitFor();
    await checkPage(l.page, 'pathways-learner-waiting');

    // 5. The manager signs the competence off from the person's allocation.
    await m.page.reload();
    await people.getByRole('button', { name: me.name, exact: true }).click();
    const allocation = m.page.getByTestId('allocation-panel');
    await allocation.getByRole('button', { name: `Sign off: ${COMPETENCE}` }).click();
    const signOff = m.page.getByRole('dialog', { name: `Sign off: ${COMPETENCE}` });
    await signOff.getByLabel(/^Note/).fill('Observed before and after personal care.');
    await checkPage(m.page, 'pathways-sign-off');
    await signOff.getByRole('button', { name: 'Sign off' }).click();
    await toast(m.page, 'Step signed off.');
    await allocation.getByText('Completed', { exact: true }).first().waitFor();
    await checkBoth(m.page, 'pathways-allocation-completed');

    // 6. The pathway result is in the learner's records, and their page says completed.
    const results = await learnerApi('GET', `/users/${me.uuid}/results?per_page=100`);
    const pathway = await admin('GET', `/pathways/${pathwayId}`);
    assert.ok(
      results.some((r) => (r.course?.id ?? r.course_id) === pathway.course_id && r.passed),
      'a passed pathway result is recorded',
    );
    await l.page.goto(`${BASE}/pathways`);
    await l.page.getByTestId('my-pathways').getByText('Completed', { exact: true }).first().waitFor();
    await checkPage(l.page, 'pathways-learner-completed');

    // 7. An edit of the sign-off makes version 2, with "Must do it again" for it.
    await a.page.goto(`${BASE}/pathways/update/${pathwayId}`);
    const competence = a.page.getByLabel(/Competence to sign off/);
    await competence.fill(COMPETENCE_2);
    await a.page.getByRole('button', { name: 'Save changes' }).click();
    const choices = a.page.getByRole('dialog', { name: 'Save as a new version' });
    const change = choices.getByRole('group', { name: new RegExp(COMPETENCE_2) });
    await change.getByRole('radio', { name: /Must do it again/ }).check();
    await choices.getByLabel(/^Change note/).fill('Two observed shifts from now on.');
    await checkBoth(a.page, 'pathways-version-choices');
    await choices.getByRole('button', { name: 'Save the new version' }).click();
    await toast(a.page, 'Pathway updated: a new version was made.');
    const versions = a.page.getByTestId('pathway-versions');
    await versions.getByText('Two observed shifts from now on.').waitFor();
    await versions.getByText(/must do it again/).waitFor();
    await versions.getByRole('button', { name: 'View steps' }).first().click();
    await versions.getByText(COMPETENCE, { exact: true }).waitFor();
    await checkBoth(a.page, 'pathways-versions');

    // The job role page lists it too.
    await m.page.goto(
      `${BASE}/entities/${me.primary_entity.slug}/role/${pathway.role_allocations[0].role.id}/pathways`,
    );
    await m.page.getByTestId('role-pathways').getByRole('link', { name: PATHWAY }).waitFor();
    await checkBoth(m.page, 'pathways-role-page');

    assert.deepEqual(a.errors, []);
    assert.deepEqual(m.errors, []);
    assert.deepEqual(l.errors, []);
    for (const p of [a, m, l]) await p.context.close();
  });
});
