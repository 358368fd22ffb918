import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiGet, BASE, checkPage, launch, NARROW, newPage, signIn } from './lib.mjs';

/**
 * Content creator (issue 4 "Authoring"): admin@demo.test creates a course, an e-learning content in it, a lesson
 * with a topic and a quiz with two questions, attaches them, and publishes. Every page is screenshotted and
 * checked with axe, at desktop width and (lists and forms) at 375 px. Titles are unique per run.
 */
const RUN = Date.now();
const T = {
  course: `E2E course ${RUN}`,
  content: `E2E e-learning ${RUN}`,
  lesson: `E2E lesson ${RUN}`,
  topic: `E2E topic ${RUN}`,
  quiz: `E2E quiz ${RUN}`,
};

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Waits for the success notice; if it does not come, fails with the alerts on the page (the refusal). */
async function toast(page, text) {
  try {
    await page.getByRole('status').filter({ hasText: text }).first().waitFor({ timeout: 15_000 });
  } catch {
    const alerts = await page.getByRole('alert').allInnerTexts();
    assert.fail(`expected "${text}"; alerts on the page: ${JSON.stringify(alerts)}`);
  }
}

/**
 * In-app navigation (keeps the session's stores). Pages load lazily and the old page stays until the new one is
 * in, so wait for the new page's heading before touching its fields.
 */
async function go(page, path, heading) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForURL(`${BASE}${path}`);
  if (heading) await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor();
}

const idFrom = (url) => Number(new URL(url).pathname.split('/').pop());

describe('content creator', () => {
  it('authors a published course with e-learning content, a lesson with a topic, and a quiz', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);

    // Hub from the side navigation.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Content creator', exact: true })
      .click();
    await page.waitForURL(`${BASE}/content-creator`);
    await page.getByRole('heading', { level: 1, name: 'Content creator' }).waitFor();
    await checkPage(page, 'cc-hub');

    // Course: create with an inline new category, then publish.
    await page.getByRole('link', { name: /^Courses/ }).click();
    await page.waitForURL(`${BASE}/content-creator/courses`);
    await page.getByRole('table', { name: 'Courses' }).waitFor();
    await checkPage(page, 'cc-courses');
    await page.getByRole('link', { name: 'Add course' }).first().click();
    await page.waitForURL(`${BASE}/content-creator/courses/create`);
    await checkPage(page, 'cc-course-create');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('form', { name: 'Course' }).getByText('The title field is required.').waitFor();
    await page.getByLabel(/^Title/).fill(T.course);
    await page.getByLabel('Short title').fill(`C${RUN}`.slice(0, 12));
    await page.getByRole('button', { name: 'Add a category' }).click();
    await page.getByLabel('New category name').fill(`E2E category ${RUN}`);
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await toast(page, 'Category has been created.');
    await page.waitForFunction(
      (name) => document.querySelector('select option:checked')?.textContent === name,
      `E2E category ${RUN}`,
    );
    await page.getByRole('button', { name: 'Create' }).click();
    await toast(page, 'Course has been created.');
    await page.waitForURL(/\/content-creator\/courses\/update\/\d+$/);
    await page.getByRole('heading', { level: 1, name: T.course, exact: true }).waitFor();
    const courseId = idFrom(page.url());
    await page.getByRole('switch', { name: 'Published' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Course has been updated.');
    await checkPage(page, 'cc-course-update');

    // Topic.
    await go(page, '/content-creator/topics/create', 'Add a topic');
    await page.getByLabel(/^Title/).fill(T.topic);
    await page
      .getByLabel('Body (HTML)')
      .fill('<h2>Why</h2><p>Clean <strong>hands</strong> save lives.</p><script>window.x=1</script>');
    const preview = page.getByRole('region', { name: 'Body preview' });
    await preview.getByRole('heading', { name: 'Why' }).waitFor();
    assert.equal(await preview.locator('script').count(), 0, 'the preview never renders a script');
    await page.getByLabel('Skippable').check();
    await page.getByRole('button', { name: 'Add a resource' }).click();
    await page.getByLabel('Resource 1 title').fill('NHS guide');
    await page.getByLabel('Resource 1 address').fill('not a url');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.locator('#main, main').getByText(/url/i).first().waitFor();
    await page.getByLabel('Resource 1 address').fill('https://www.nhs.uk/');
    await page.getByRole('button', { name: 'Create' }).click();
    await toast(page, 'Topic has been created.');
    await page.waitForURL(/\/content-creator\/topics\/update\/\d+$/);
    await page.getByRole('heading', { level: 1, name: T.topic, exact: true }).waitFor();
    const topicId = idFrom(page.url());
    await checkPage(page, 'cc-topic-update');

    // Lesson with the topic.
    await go(page, '/content-creator/lessons/create', 'Add a lesson');
    await checkPage(page, 'cc-lesson-create');
    await page.getByLabel(/^Title/).fill(T.lesson);
    await page.getByRole('button', { name: 'Create' }).click();
    await toast(page, 'Lesson has been created.');
    await page.waitForURL(/\/content-creator\/lessons\/update\/\d+$/);
    await page.getByRole('heading', { level: 1, name: T.lesson, exact: true }).waitFor();
    const lessonId = idFrom(page.url());
    await page.getByLabel('Add a topic').selectOption({ label: T.topic });
    await page.getByRole('button', { name: 'Add topic' }).click();
    await toast(page, 'Topic has been added.');
    await page.getByRole('link', { name: T.topic }).waitFor();
    await checkPage(page, 'cc-lesson-update');

    // Quiz with two questions, re-ordered.
    await go(page, '/content-creator/quizzes/create', 'Add a quiz');
    await page.getByLabel(/^Title/).fill(T.quiz);
    for (const [i, q] of [
      ['When should you wash your hands?', 'Before and after care', 'Only at the end of a shift'],
      ['How long should hand washing take?', 'At least 20 seconds', '5 seconds'],
    ].entries()) {
      await page.getByRole('button', { name: 'Add a question' }).click();
      await page.getByLabel(`Question ${i + 1} text`).fill(q[0]);
      await page.getByLabel(`Question ${i + 1}, answer 1`).fill(q[1]);
      await page.getByLabel(`Question ${i + 1}, answer 2`).fill(q[2]);
      await page.getByLabel(`Answer 1 of question ${i + 1} is correct`).check();
    }
    await page.getByRole('switch', { name: 'Published' }).click();
    await checkPage(page, 'cc-quiz-create');
    await page.getByRole('button', { name: 'Create' }).click();
    await toast(page, 'Quiz has been created.');
    await page.waitForURL(/\/content-creator\/quizzes\/update\/\d+$/);
    await page.getByRole('heading', { level: 1, name: T.quiz, exact: true }).waitFor();
    const quizId = idFrom(page.url());
    await page.getByRole('button', { name: 'Move question 2 up' }).click();
    await toast(page, 'Question has been re-ordered.');
    const quiz = await apiGet(page, `/quizzes/${quizId}`);
    assert.deepEqual(
      [...quiz.body.data.questions].sort((a, b) => a.position - b.position).map((q) => q.text),
      ['How long should hand washing take?', 'When should you wash your hands?'],
    );
    await checkPage(page, 'cc-quiz-update');

    // E-learning content in the course, from the course page.
    await go(page, `/content-creator/courses/update/${courseId}`, T.course);
    await page.getByRole('link', { name: 'Add e-learning' }).click();
    await page.waitForURL(/\/content-creator\/content\/elearning\/create\?course_id=\d+$/);
    await page.getByRole('heading', { level: 1, name: 'Add e-learning content' }).waitFor();
    await page.getByLabel(/^Title/).fill(T.content);
    // The course comes chosen from ?course_id= once the course options have loaded.
    await page
      .getByLabel(/^Course/)
      .locator('option:checked', { hasText: T.course })
      .waitFor({ state: 'attached' });
    await page.getByLabel('Aims').fill('Know when and how to wash hands.');
    await page.getByLabel('Estimated duration (minutes)').fill('25');
    await page.getByLabel('CPD accredited').check();
    await checkPage(page, 'cc-content-create');
    await page.getByRole('button', { name: 'Create' }).click();
    await toast(page, 'Content has been created.');
    await page.waitForURL(/\/content-creator\/content\/elearning\/update\/\d+$/);
    await page.getByRole('heading', { level: 1, name: T.content, exact: true }).waitFor();
    const contentId = idFrom(page.url());
    await page.getByLabel('Add a lesson').selectOption({ label: T.lesson });
    await page.getByRole('button', { name: 'Add lesson' }).click();
    await toast(page, 'Lesson has been added.');
    await page.getByLabel('Add a quiz').selectOption({ label: T.quiz });
    await page.getByRole('button', { name: 'Add quiz' }).click();
    await toast(page, 'Quiz has been added.');
    await page.getByRole('switch', { name: 'Published' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'Content has been updated.');
    await checkPage(page, 'cc-content-update');

    const content = (await apiGet(page, `/content/${contentId}`)).body.data;
    assert.equal(content.published, true);
    assert.equal(content.course_id, courseId);
    assert.equal(content.cpd_accredited, true);
    assert.deepEqual(
      content.lessons.map((l) => l.id),
      [lessonId],
    );
    assert.deepEqual(
      content.quizzes.map((q) => q.id),
      [quizId],
    );
    const lesson = (await apiGet(page, `/lessons/${lessonId}`)).body.data;
    assert.deepEqual(
      lesson.topics.map((t) => t.id),
      [topicId],
    );
    const course = (await apiGet(page, `/courses/${courseId}`)).body.data;
    assert.equal(course.published, true);
    assert.equal(course.category.name, `E2E category ${RUN}`);

    // The list shows it, filtered by search.
    await go(
      page,
      `/content-creator/content/elearning?search=${encodeURIComponent(T.content)}`,
      'E-learning content',
    );
    await page.getByRole('link', { name: T.content, exact: true }).waitFor();
    await checkPage(page, 'cc-elearning-list');
    for (const [p, heading] of [
      ['lessons', 'Lessons'],
      ['topics', 'Topics'],
      ['quizzes', 'Quizzes'],
      ['h5ps', 'H5P items'],
    ]) {
      await go(page, `/content-creator/${p}`, heading);
      await page.getByRole('table').waitFor();
      await checkPage(page, `cc-${p}`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('deletes behind a confirm and returns to the list', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await go(page, '/content-creator/lessons/create', 'Add a lesson');
    await page.getByLabel(/^Title/).fill(`E2E doomed lesson ${RUN}`);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/content-creator\/lessons\/update\/\d+$/);
    const id = idFrom(page.url());
    await page.getByRole('button', { name: 'Delete lesson' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Delete this lesson?').waitFor();
    await checkPage(page, 'cc-delete-confirm');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Lesson has been deleted.');
    await page.waitForURL(`${BASE}/content-creator/lessons`);
    assert.equal((await apiGet(page, `/lessons/${id}`)).status, 404);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('opens the platform catalogue lessons and topics while acting as the organisation (issue 10 §5)', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    // Without acting-as the super admin sees every lesson; the demo catalogue's are the platform's (entity_id null).
    const platformOf = async (kind) =>
      (await apiGet(page, `/${kind}?per_page=100`)).body.data.find((item) => item.entity_id === null);
    const lesson = await platformOf('lessons');
    const topic = await platformOf('topics');
    assert.ok(lesson && topic, 'the demo catalogue has a platform lesson and topic');
    // The web sends actingAs (the a_entity by default) with every request: the pages must still load.
    await go(page, `/content-creator/lessons/update/${lesson.id}`, lesson.title);
    await page.getByLabel(/^Title/).waitFor();
    await go(page, `/content-creator/topics/update/${topic.id}`, topic.title);
    await page.getByLabel(/^Title/).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('lists and forms fit a 375 px screen', async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    await signIn(page);
    for (const [path, name, heading] of [
      ['/content-creator', 'cc-hub', 'Content creator'],
      ['/content-creator/courses', 'cc-courses', 'Courses'],
      ['/content-creator/content/elearning', 'cc-elearning-list', 'E-learning content'],
      ['/content-creator/content/scorm', 'cc-scorm-list', 'SCORM content'],
      ['/content-creator/courses/create', 'cc-course-create', 'Add a course'],
      ['/content-creator/content/elearning/create', 'cc-content-create', 'Add e-learning content'],
      ['/content-creator/topics/create', 'cc-topic-create', 'Add a topic'],
      ['/content-creator/quizzes/create', 'cc-quiz-create', 'Add a quiz'],
    ]) {
      await go(page, path, heading);
      if (path.endsWith('/quizzes/create'))
        await page.getByRole('button', { name: 'Add a question' }).click();
      await checkPage(page, name);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${path} scrolls sideways by ${overflow}px at 375 px`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
});
