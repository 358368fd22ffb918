import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN,
  apiGet,
  BASE,
  bearer,
  checkPage,
  client,
  launch,
  login,
  MANAGER,
  NARROW,
  newPage,
  pdfText,
  toast,
} from './lib.mjs';

/**
 * Issue 16 "Done when", the browser flow: a manager assigns the 2025 version to a new starter; the learner completes
 * an e-learning course linked to Standard 9's criteria on a phone (375 px); an assessor records an observation on a
 * phone; the manager approves standards and downloads the certificate's PDF, read back as text.
 *
 * Setup through the API (bearer tokens), as the product does it:
 * - the 2025 version's seeded data has criteria for Standard 9 only (the others could not be confirmed from Skills
 *   for Care's documents), so a super admin adds one criterion to each other standard through the standards editor
 *   (POST /care-certificate-standards/{id}/outcomes, POST /care-certificate-outcomes/{id}/criteria);
 * - a course (one topic, one quiz) is mapped to Standard 9's knowledge criteria (PUT
 *   /courses/{id}/care-certificate-criteria); its "Demonstrate …" criteria need an observation;
 * - the other standards' criteria get evidence files through the API and are approved through the API; Standard 9
 *   is selected and approved in the browser.
 */
const PASSWORD = ADMIN.password;
const stamp = Date.now().toString(36);
const STARTER = { name: `Nia Newstart ${stamp}`, email: `nia.${stamp}@demo.test`, password: PASSWORD };
const COURSE = `Dementia awareness ${stamp}`;
const CONTENT = `Understanding dementia ${stamp}`;
const ASSESSOR = { email: 'assessor@demo.test', password: PASSWORD };
const WIDE = { width: 1280, height: 800 };
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const criteriaOf = (standard) => standard.outcomes.flatMap((o) => o.criteria);

/** The 2025 version with a criterion on every standard; the new starter; the course mapped to Standard 9. */
async function setUp() {
  const admin = client(await bearer(ADMIN, 'e2e care certificate'));
  const manager = client(await bearer(MANAGER, 'e2e care certificate'));
  const home = (await manager('GET', '/auth/user')).primary_entity;

  const versions = await admin('GET', '/care-certificate-versions');
  const summary = versions.find((v) => v.code === '2025');
  assert.ok(summary, 'the 2025 version is seeded');
  let version = await admin('GET', `/care-certificate-versions/${summary.id}`);
  for (const standard of version.standards) {
    if (criteriaOf(standard).length) continue;
    // The editor answers with the version's whole tree (VersionView): the new outcome is found in it.
    const tree = await admin('POST', `/care-certificate-standards/${standard.id}/outcomes`, {
      code: `${standard.number}.1`,
      title: `Outcome for Standard ${standard.number}`,
    });
    const outcome = tree.standards
      .find((s) => s.id === standard.id)
      .outcomes.find((o) => o.code === `${standard.number}.1`);
    await admin('POST', `/care-certificate-outcomes/${outcome.id}/criteria`, {
      code: `${standard.number}.1a`,
      text: `Describe what Standard ${standard.number} asks of you (e2e ${stamp})`,
    });
  }
  version = await admin('GET', `/care-certificate-versions/${summary.id}`);
  const nine = version.standards.find((s) => s.number === 9);
  assert.ok(criteriaOf(nine).length, 'Standard 9 has seeded criteria');

  await admin('POST', '/users', {
    name: STARTER.name,
    email: STARTER.email,
    primary_entity_id: home.id,
    password: STARTER.password,
    send_welcome_email: false,
  });

  // The course: one topic and a quiz, mapped to Standard 9's knowledge criteria.
  const course = await admin('POST', '/courses', { title: COURSE, published: true });
  const content = await admin('POST', '/content', {
    course_id: course.id,
    type: 'elearning',
    title: CONTENT,
    published: true,
    estimated_duration: 15,
  });
  const lesson = await admin('POST', '/lessons', { title: 'Living with dementia' });
  const topic = await admin('POST', '/topics', {
    title: 'What dementia is',
    body_html: '<p>Dementia is a group of conditions that affect memory, thinking and behaviour.</p>',
  });
  await admin('POST', `/lessons/${lesson.id}/topics`, { action: 'add', topic_id: topic.id });
  await admin('POST', `/content/${content.id}/lessons`, { action: 'add', lesson_id: lesson.id });
  const quiz = await admin('POST', '/quizzes', {
    title: 'Dementia check',
    published: true,
    pass_mark: 100,
    questions: [
      {
        text: 'Does dementia affect memory?',
        answers: [
          { text: 'Yes', is_correct: true },
          { text: 'No', is_correct: false },
        ],
      },
    ],
  });
  await admin('POST', `/content/${content.id}/quizzes`, { action: 'add', quiz_id: quiz.id });
  // The "Demonstrate …" criteria need an observation; the seeded Standard 9 has none, so its last criterion is left
  // to the observation and the course evidences the others.
  let observed = criteriaOf(nine).filter((c) => c.requires_observation);
  if (!observed.length) observed = criteriaOf(nine).slice(-1);
  const knowledge = criteriaOf(nine).filter((c) => !observed.some((o) => o.id === c.id));
  await admin('PUT', `/courses/${course.id}/care-certificate-criteria`, {
    criterion_ids: knowledge.map((c) => c.id),
  });
  return { admin, manager, version, nine, knowledge, observed, topic, quiz };
}

async function signInAs(page, who) {
  await page.goto(`${BASE}/login`);
  await login(page, who);
  await page.waitForURL(`${BASE}/`);
  await page.getByTestId('who-am-i').waitFor();
}

/** The learner takes the course from their start page (the player, or the API where the player cannot load it). */
async function completeCourse(page, setup) {
  const available = page.getByTestId('available-courses');
  await available.getByText(COURSE).waitFor();
  await available.getByRole('button', { name: `Start ${CONTENT}` }).click();
  await page.waitForURL(/\/attempt\/\d+$/);
  const attemptId = Number(new URL(page.url()).pathname.split('/').pop());
  await page.getByRole('heading', { name: CONTENT, level: 1 }).waitFor();
  const structure = await apiGet(page, `/attempts/${attemptId}/structure`);
  if (structure.status === 200) {
    await page.getByRole('button', { name: 'Mark complete' }).click();
    await page.getByRole('button', { name: 'Start the quiz' }).click();
    await page.getByRole('radio', { name: 'Yes' }).check();
    await page.getByRole('button', { name: 'Send answers' }).click();
    await page.getByTestId('completion').waitFor();
    await checkPage(page, 'cc-learner-course-complete');
    return;
  }
  // As learning.test.mjs: without a learner-readable structure the steps go through the API.
  const learner = client(await bearer(STARTER, 'e2e care certificate'));
  const attempt = await learner('GET', `/attempts/${attemptId}`);
  await learner('PATCH', `/attempts/${attemptId}`, {
    version: attempt.version,
    completed_topic_id: setup.topic.id,
  });
  const sheet = await learner('POST', '/quizzes/take', { attempt_id: attemptId, quiz_id: setup.quiz.id });
  const question = sheet.questions[0];
  const right = question.answers.find((a) => a.text === 'Yes');
  const outcome = await learner('POST', '/quizzes/take', {
    quiz_attempt_id: sheet.quiz_attempt_id,
    responses: { [question.id]: [right.id] },
  });
  assert.equal(outcome.passed, true);
}

describe('care certificate: assign, evidence, observe, approve, download', () => {
  it('takes a new starter from assignment to a downloaded certificate', async (t) => {
    const setup = await setUp();
    const { manager, version, nine, knowledge, observed } = setup;

    // 1. The manager assigns the 2025 version to the new starter (1280 px).
    const m = await newPage(browser, WIDE);
    await signInAs(m.page, MANAGER);
    await m.page.goto(`${BASE}/care-certificate`);
    const list = m.page.getByTestId('certificates-list');
    await list.waitFor();
    await checkPage(m.page, 'cc-manager-list');
    await list.getByRole('button', { name: 'Assign' }).first().click();
    const dialog = m.page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: /Person/ }).fill(STARTER.name);
    await m.page.getByRole('option', { name: new RegExp(STARTER.name) }).click();
    await dialog.getByLabel(/Version/).selectOption(String(version.id));
    await checkPage(m.page, 'cc-assign-dialog');
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await toast(m.page, 'Certificate assigned.');
    await list.getByRole('link', { name: STARTER.name }).waitFor();
    const mine = (await apiGet(m.page, `/care-certificates?search=${encodeURIComponent(STARTER.name)}`)).body
      .data;
    assert.equal(mine.length, 1);
    const uuid = mine[0].uuid;
    assert.equal(mine[0].version.code, '2025');

    // 2. The learner, on a phone, completes the mapped course; Standard 9's knowledge criteria are evidenced.
    const l = await newPage(browser, NARROW);
    await signInAs(l.page, STARTER);
    await completeCourse(l.page, setup);
    await l.page.goto(`${BASE}/care-certificate`);
    const card = l.page.getByTestId('my-certificate');
    await card.waitFor();
    await card.getByRole('button', { name: /Standard 9:/ }).click();
    for (const c of knowledge)
      await card
        .getByTestId(`criterion-${c.code}`)
        .getByText(`Training: ${COURSE}`, { exact: false })
        .waitFor();
    await checkPage(l.page, 'cc-learner-progress');
    await l.page.setViewportSize(WIDE);
    await checkPage(l.page, 'cc-learner-progress');
    await l.page.setViewportSize(NARROW);

    // 3. An assessor records an observation of Standard 9's "Demonstrate" criteria on a phone.
    const a = await newPage(browser, NARROW);
    let assessor = ASSESSOR;
    const tryAssessor = await fetch(`${BASE}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ ...ASSESSOR, device_name: 'e2e probe' }),
    });
    if (tryAssessor.status !== 200) {
      t.diagnostic('assessor@demo.test is not in the demo data: the manager (89) records the observation.');
      assessor = MANAGER;
    }
    await signInAs(a.page, assessor);
    await a.page.goto(`${BASE}/care-certificate/${uuid}`);
    await a.page.getByTestId('observations').getByRole('button', { name: 'Record an observation' }).click();
    const form = a.page.getByRole('dialog');
    await form.getByLabel(/Place/).fill('Rose unit lounge');
    await form.getByLabel(/Shift/).selectOption('early');
    await form
      .getByLabel(/What was observed/)
      .fill('Supported a resident living with dementia through breakfast, offering choices and reassurance.');
    await form.getByLabel('Competent', { exact: true }).check();
    await form.getByLabel('Standard', { exact: true }).selectOption(String(nine.id));
    for (const c of observed) await form.getByLabel(new RegExp(`^${literal(c.code)} `)).check();
    await checkPage(a.page, 'cc-observation-phone');
    await form.getByRole('button', { name: 'Save observation' }).click();
    await toast(a.page, 'Observation saved.');
    await a.page.getByTestId('observations').getByText('Rose unit lounge', { exact: false }).waitFor();
    await checkPage(a.page, 'cc-certificate-phone');

    // 4. The learner, on the phone, uploads a workbook page for Standard 1 and links the course's record to
    // Standard 2 (a result linked by hand).
    const one = version.standards.find((s) => s.number === 1);
    const two = version.standards.find((s) => s.number === 2);
    await l.page.goto(`${BASE}/care-certificate/${uuid}`);
    await l.page
      .getByTestId('standards')
      .getByRole('button', { name: /Standard 1:/ })
      .click();
    // Her own certificate speaks to her (issue 32 §4).
    await l.page
      .getByTestId('standard-1')
      .getByRole('button', { name: 'Upload a photo or a note for this' })
      .click();
    const upload = l.page.getByRole('dialog');
    await upload
      .getByLabel(/^File/)
      .setInputFiles({ name: 'workbook-1.pdf', mimeType: 'application/pdf', buffer: PDF });
    await upload.getByLabel('Description').fill('Workbook, Standard 1');
    await upload.getByRole('button', { name: 'Upload' }).click();
    await upload.getByText('Choose at least one criterion.').waitFor();
    for (const c of criteriaOf(one)) await upload.getByLabel(new RegExp(`^${literal(c.code)} `)).check();
    await checkPage(l.page, 'cc-evidence-phone');
    await upload.getByRole('button', { name: 'Upload' }).click();
    await toast(l.page, 'Evidence added.');
    await l.page.getByTestId('evidence-files').getByRole('link', { name: 'workbook-1.pdf' }).waitFor();

    await l.page.getByRole('button', { name: 'Link a training record' }).click();
    const link = l.page.getByRole('dialog');
    await link.getByLabel(/Training record/).selectOption({ index: 1 });
    await link.getByLabel('Standard', { exact: true }).selectOption(String(two.id));
    for (const c of criteriaOf(two)) await link.getByLabel(new RegExp(`^${literal(c.code)} `)).check();
    await link.getByRole('button', { name: 'Link record' }).click();
    await toast(l.page, 'Evidence added.');
    await l.page
      .getByTestId('standards')
      .getByRole('button', { name: /Standard 2:/ })
      .click();
    // Several of Standard 2's knowledge criteria are evidenced by the same course: any of them shows it.
    await l.page
      .getByTestId('standard-2')
      .getByText(`Training: ${COURSE}`, { exact: false })
      .first()
      .waitFor();

    // 5. Evidence for the other standards, and their approval, through the API (the manager holds 86 and 93).
    for (const standard of version.standards) {
      // Standards 1 and 2 too: the criteria added since (issue 32) have none of the evidence given above.
      if (standard.number === 9) continue;
      const form = new FormData();
      form.append('description', `Workbook, Standard ${standard.number}`);
      form.append('criterion_ids', JSON.stringify(criteriaOf(standard).map((c) => c.id)));
      form.append('file', new Blob([PDF], { type: 'application/pdf' }), `workbook-${standard.number}.pdf`);
      await manager('POST', `/care-certificates/${uuid}/evidence`, form);
      // Its "Demonstrate …" criteria need an assessor's observation besides (the manager holds 89).
      const demonstrate = criteriaOf(standard).filter((c) => c.requires_observation);
      if (demonstrate.length)
        await manager('POST', `/care-certificates/${uuid}/observations`, {
          observed_at: new Date().toISOString(),
          place: 'Rose unit',
          shift: 'early',
          observed: `Observed in practice, Standard ${standard.number}.`,
          outcome: 'competent',
          criterion_ids: demonstrate.map((c) => c.id),
        });
    }
    for (const standard of version.standards) {
      if (standard.number === 9) continue;
      await manager('POST', `/care-certificates/${uuid}/standards/${standard.id}/approve`);
    }

    // 6. The learner selects Standard 9 for approval; the manager returns it with reasons once, the learner selects
    // it again, and the manager approves it in the browser and downloads the PDF.
    const select = async () => {
      await l.page.goto(`${BASE}/care-certificate/${uuid}`);
      await l.page
        .getByTestId('standards')
        .getByRole('button', { name: /Standard 9:/ })
        .click();
      await l.page
        .getByTestId('standard-9')
        .getByRole('button', { name: 'Send Standard 9 to your assessor' })
        .click();
      await toast(l.page, 'Standard selected for approval.');
    };
    await select();
    await m.page.goto(`${BASE}/care-certificate/${uuid}`);
    await m.page
      .getByTestId('standards')
      .getByRole('button', { name: /Standard 9:/ })
      .click();
    await m.page.getByTestId('standard-9').getByRole('button', { name: 'Return with reasons' }).click();
    const reject = m.page.getByRole('dialog');
    await reject
      .getByLabel(/Reasons/)
      .fill('Please add the date of the observation to your reflective account.');
    await reject.getByRole('button', { name: 'Return with reasons' }).click();
    await toast(m.page, 'Standard returned with reasons.');
    await l.page.reload();
    await l.page
      .getByTestId('standards')
      .getByRole('button', { name: /Standard 9:/ })
      .click();
    await l.page
      .getByTestId('standard-9')
      .getByText(/Returned with reasons: Please add the date/)
      .waitFor();
    await checkPage(l.page, 'cc-returned-phone');
    await select();

    await m.page.goto(`${BASE}/care-certificate?awaiting=1`);
    await list.getByRole('link', { name: STARTER.name }).click();
    await m.page.waitForURL(`${BASE}/care-certificate/${uuid}`);
    await m.page
      .getByTestId('standards')
      .getByRole('button', { name: /Standard 9:/ })
      .click();
    await checkPage(m.page, 'cc-certificate-awaiting');
    await m.page.getByTestId('standard-9').getByRole('button', { name: 'Approve Standard 9' }).click();
    await toast(m.page, 'Standard approved.');
    const download = m.page.getByRole('button', { name: 'Download certificate' });
    await download.waitFor();
    await checkPage(m.page, 'cc-certificate-complete');
    const [file] = await Promise.all([m.page.waitForEvent('download'), download.click()]);
    assert.match(file.suggestedFilename(), /\.pdf$/);
    const bytes = await readFile(await file.path());
    assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
    const text = await pdfText(bytes);
    assert.ok(text.includes(STARTER.name), `the certificate names ${STARTER.name}`);
    assert.match(text, /Care Certificate/);
    assert.match(text, /Awareness of mental health/i);
    await m.page.setViewportSize(NARROW);
    await checkPage(m.page, 'cc-certificate-complete');

    for (const x of [m, l, a]) {
      assert.deepEqual(x.errors, []);
      await x.context.close();
    }
  });
});

describe('care certificate: observations on a phone', () => {
  it('records, edits, deletes, approves and corrects an observation (an approved one is never changed in place)', async () => {
    const admin = client(await bearer(ADMIN, 'e2e care certificate observations'));
    const manager = client(await bearer(MANAGER, 'e2e care certificate observations'));
    const home = (await manager('GET', '/auth/user')).primary_entity;
    const person = { name: `Omar Observed ${stamp}`, email: `omar.${stamp}@demo.test` };
    const user = await admin('POST', '/users', {
      ...person,
      primary_entity_id: home.id,
      password: PASSWORD,
      send_welcome_email: false,
    });
    const versions = await manager('GET', '/care-certificate-versions');
    const v2025 = versions.find((v) => v.code === '2025');
    const cert = await manager('POST', '/care-certificates', { user_id: user.id, version_id: v2025.id });
    const tree = await manager('GET', `/care-certificate-versions/${v2025.id}`);
    const [first, second] = criteriaOf(tree.standards.find((s) => s.number === 9));

    // The super admin passes every check (89 record and edit, 90 delete, 93 approve).
    const { page, context, errors } = await newPage(browser, NARROW);
    await signInAs(page, ADMIN);
    await page.goto(`${BASE}/care-certificate/${cert.uuid}`);
    const card = page.getByTestId('observations');
    const record = async (place, criterion) => {
      await card.getByRole('button', { name: 'Record an observation' }).click();
      const form = page.getByRole('dialog');
      await form.getByLabel(/Place/).fill(place);
      await form.getByLabel(/Shift/).selectOption('late');
      await form.getByLabel(/What was observed/).fill(`Observed at ${place}.`);
      await form.getByLabel('Competent', { exact: true }).check();
      await form
        .getByLabel('Standard', { exact: true })
        .selectOption(String(tree.standards.find((s) => s.number === 9).id));
      await form.getByLabel(new RegExp(`^${literal(criterion.code)} `)).check();
      await form.getByRole('button', { name: 'Save observation' }).click();
      await toast(page, 'Observation saved.');
      await card.getByText(`Observed at ${place}.`).waitFor();
    };
    await record('Lilac unit', first);
    await record('Garden room', second);

    // Edit the first (only the changed field is sent), delete the second after a confirmation.
    const lilac = card.getByRole('listitem').filter({ hasText: 'Observed at Lilac unit.' });
    await lilac.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog');
    await edit.getByLabel(/Place/).fill('Lilac unit dining room');
    await edit.getByRole('button', { name: 'Save observation' }).click();
    await toast(page, 'Observation saved.');
    await card
      .getByText(/Lilac unit dining room/)
      .first()
      .waitFor();
    const garden = card.getByRole('listitem').filter({ hasText: 'Observed at Garden room.' });
    await garden.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Observation deleted.');
    await card.getByText('Observed at Garden room.').waitFor({ state: 'detached' });

    // Approve it: no Edit or Delete any more, only Correct; the correction supersedes it (struck through).
    const approved = card.getByRole('listitem').filter({ hasText: 'Observed at Lilac unit.' });
    await approved.getByRole('button', { name: 'Approve' }).click();
    await toast(page, 'Observation approved.');
    await approved.getByRole('button', { name: 'Correct' }).waitFor();
    assert.equal(await approved.getByRole('button', { name: 'Edit' }).count(), 0);
    assert.equal(await approved.getByRole('button', { name: 'Delete' }).count(), 0);
    await approved.getByRole('button', { name: 'Correct' }).click();
    const correct = page.getByRole('dialog');
    await correct.getByLabel(/Reason for the correction/).fill('The shift was an early one.');
    await correct.getByLabel(/Shift/).selectOption('early');
    await correct.getByRole('button', { name: 'Save the correction' }).click();
    await toast(page, 'Observation saved.');
    await card.getByText('Superseded by a correction').waitFor();
    await card.getByText(/Reason: The shift was an early one\./).waitFor();
    await checkPage(page, 'cc-observations-corrected');

    const view = await manager('GET', `/care-certificates/${cert.uuid}`);
    const old = view.observations.find((o) => o.superseded_by_id !== null);
    assert.equal(old.place, 'Lilac unit dining room', 'the approved observation is unchanged');
    assert.equal(old.shift, 'late');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
