import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN, BASE, bearer, checkPage, client, launch, NARROW, newPage, signIn } from './lib.mjs';

/**
 * Issue 13, the carer's page: at 375 px Casey Lee (learner@demo.test, care assistant at Oakfield House) reads her
 * overdue mandatory course first, in words ("Overdue", "Expired on <date>"), with its date in the organisation's
 * format, and one tap opens it; Resume brings her back to the same attempt. /learner-dashboard loads when her
 * organisation has the new-dashboards feature and sends her to / when it has not.
 */

const LEARNER = { email: 'learner@demo.test', password: ADMIN.password };
const ddmmyyyy = (iso) =>
  new Intl.DateTimeFormat('en-GB', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'Europe/London',
  }).format(new Date(iso));

let browser;
let learner;
let me;
before(async () => {
  browser = await launch();
  learner = client(await bearer(LEARNER, 'e2e learner dashboard'));
  me = await learner('GET', '/auth/user');
});
after(async () => {
  await browser?.close();
});

/**
 * Issue 31 §6, her menu and her account, at 375 then 1280 px: the menu holds one start page (not My events and the
 * learner dashboard side by side) and no Tasks in progress (nor the header's clock: she can start no task); My account
 * in the user menu shows her details in words (no permission names), links to what she may change and offers no
 * Edit, and shows her training history; her own /users page and its Edit lead to it instead of a 403.
 */
async function assertMenuAndAccount(page) {
  for (const size of [NARROW, { width: 1280, height: 800 }]) {
    await page.setViewportSize(size);
    await page.goto(`${BASE}/`);
    await page.getByTestId('who-am-i').waitFor();
    const narrow = size.width < 768;
    if (narrow) await page.getByRole('button', { name: 'Open navigation' }).click();
    const nav = page.locator('#side-nav');
    await nav.getByRole('link', { name: 'My events' }).waitFor();
    const labels = (await nav.getByRole('link').allInnerTexts()).map((l) => l.trim());
    assert.ok(!labels.includes('Learner dashboard'), `one start page in her menu: ${labels}`);
    assert.ok(!labels.includes('Tasks in progress'), `no Tasks in progress: ${labels}`);
    assert.equal(await page.getByTestId('tasks-badge').count(), 0, 'no tasks clock in the header');
    await checkPage(page, 'learner-menu');
    if (narrow) await page.keyboard.press('Escape');

    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'My account' }).click();
    await page.waitForURL(`${BASE}/account`);
    const details = page.getByTestId('account-details');
    await details.getByText(me.email).waitFor();
    const text = await details.innerText();
    for (const words of [me.name, me.primary_entity.name, me.a_entity.name, me.role?.name ?? 'No job role'])
      assert.ok(text.includes(words), `My account shows ${words}: ${text}`);
    const main = await page.locator('main').innerText();
    assert.doesNotMatch(main, /permission|self update|learner dashboard/i, 'no permission names');
    const changes = page.getByTestId('account-changes');
    assert.equal(
      await changes.getByRole('link', { name: 'Change your password' }).getAttribute('href'),
      '/update-password',
    );
    await changes.getByRole('link', { name: 'Choose your reminders' }).waitFor();
    await changes.getByRole('link', { name: 'Sessions and devices' }).waitFor();
    assert.equal(await page.locator('main').getByRole('link', { name: /^Edit/ }).count(), 0, 'no Edit');
    await page.getByTestId('training-history').getByTestId('history-row').first().waitFor();
    // The e-mail change asks for her password (opened, not sent: the demo account stays as it is).
    await changes.getByRole('button', { name: 'Change your e-mail' }).click();
    await changes.getByLabel(/^Your password/).waitFor();
    await checkPage(page, 'my-account');
    await changes.getByRole('button', { name: 'Cancel' }).click();
  }
  // Her own record's address and its Edit lead to My account, not to /403.
  await page.goto(`${BASE}/users/${me.uuid}`);
  await page.waitForURL(`${BASE}/account`);
  await page.goto(`${BASE}/users/update/${me.uuid}`);
  await page.waitForURL(`${BASE}/account`);
  await page.getByTestId('account-details').waitFor();
  await page.setViewportSize(NARROW);
}

describe('the carer’s to-do (/) and the learner dashboard', () => {
  it('at 375 px the overdue mandatory course comes first, in words with its date, and Start/Resume opens it', async () => {
    const events = await learner('GET', `/users/${me.uuid}/events`);
    const first = events.data[0];
    assert.ok(first, 'the demo learner has courses to do');
    assert.equal(first.kind, 'mandatory', 'the first course is mandatory');
    assert.equal(first.state, 'overdue', 'the first course is overdue');
    assert.ok(events.counts.overdue >= 1);

    const { page, context, errors } = await newPage(browser, NARROW);
    await signIn(page, LEARNER);
    const todo = page.getByTestId('learner-todo');
    await todo.waitFor();
    assert.equal(
      (await page.getByTestId('count-overdue').innerText()).replace(/\s+/g, ' ').trim(),
      `${events.counts.overdue} Overdue`,
    );
    const row = todo.getByTestId('todo-row').first();
    const text = (await row.innerText()).replace(/\s+/g, ' ');
    assert.ok(text.startsWith(first.course.title), `the first row is ${first.course.title}: ${text}`);
    assert.match(text, /\bOverdue\b/);
    assert.match(text, /\bMandatory\b/);
    assert.ok(text.includes(`Expired on ${ddmmyyyy(first.due_date)}`), `the expiry date in words: ${text}`);
    await checkPage(page, 'learner-todo');

    // The overdue count leads to the list.
    await page.getByTestId('count-overdue').click();
    await page.waitForURL(/#todo-overdue$/);

    // One tap opens the course (Retake when done before, Start when never, Resume when open).
    const action = row.getByRole('button', { name: new RegExp(`^(Start|Retake) ${first.course.title}$`) });
    const resumeLink = row.getByRole('link', { name: `Resume ${first.course.title}` });
    if ((await resumeLink.count()) > 0) await resumeLink.click();
    else await action.click();
    await page.waitForURL(/\/c?attempt\/\d+$/);
    const attemptUrl = page.url();

    // Back on /, the same course now offers Resume, which opens the same attempt.
    await page.goto(`${BASE}/`);
    const again = page.getByTestId('learner-todo').getByTestId('todo-row').first();
    await again.getByRole('link', { name: `Resume ${first.course.title}` }).click();
    await page.waitForURL(attemptUrl);

    // The training history is on the page.
    await page.goto(`${BASE}/`);
    await page.getByTestId('training-history').getByTestId('history-row').first().waitFor();

    await assertMenuAndAccount(page);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('/learner-dashboard loads with the new-dashboards feature and sends to / without it', async () => {
    const admin = client(await bearer(ADMIN, 'e2e learner dashboard admin'));
    const orgId = me.a_entity.id;
    const original = (await admin('GET', `/entities/${orgId}`)).can_see_new_dashboards;
    try {
      await admin('PATCH', `/entities/${orgId}`, { can_see_new_dashboards: true });
      const wide = await newPage(browser);
      await signIn(wide.page, LEARNER);
      await wide.page.goto(`${BASE}/learner-dashboard`);
      await wide.page.getByTestId('learner-todo').waitFor();
      await wide.page.getByTestId('training-history').waitFor();
      assert.equal(new URL(wide.page.url()).pathname, '/learner-dashboard');
      await checkPage(wide.page, 'learner-dashboard');
      await wide.page.setViewportSize(NARROW);
      await checkPage(wide.page, 'learner-dashboard');
      assert.deepEqual(wide.errors, []);
      await wide.context.close();

      await admin('PATCH', `/entities/${orgId}`, { can_see_new_dashboards: false });
      const without = await newPage(browser, NARROW);
      await signIn(without.page, LEARNER);
      await without.page.goto(`${BASE}/learner-dashboard`);
      await without.page.waitForURL(`${BASE}/`);
      await without.page.getByTestId('learner-todo').waitFor();
      assert.deepEqual(without.errors, []);
      await without.context.close();
    } finally {
      await admin('PATCH', `/entities/${orgId}`, { can_see_new_dashboards: original });
    }
  });

  it('at 375 px the carer adds her own training record (date, certificate) and sees it awaiting approval', async () => {
    const courses = await learner('GET', '/results/courses?self=1&per_page=1');
    const course = courses[0];
    assert.ok(course, 'the learner has courses she may record for herself');
    const now = new Date();
    const pad = (n) => String(n).padStart(2, '0');
    const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;

    const { page, context, errors } = await newPage(browser, NARROW);
    let created;
    try {
      await signIn(page, LEARNER);
      await page.getByTestId('training-history').getByTestId('add-training-record').click();
      await page.waitForURL(/\/results\/historical\/create\?self=1$/);
      await page.getByRole('heading', { name: 'Add training record' }).waitFor();
      assert.equal(await page.getByLabel('Training record for').inputValue(), `${me.name} (you)`);
      assert.equal(await page.getByRole('combobox', { name: /^User/ }).count(), 0, 'no user picker');
      await checkPage(page, 'add-training-record-self');

      await page.getByRole('combobox', { name: /^Course/ }).fill(course.title.slice(0, 12));
      await page
        .getByRole('option', { name: new RegExp(course.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) })
        .first()
        .click();
      await page.getByLabel(/^Completed date/).fill(today);
      await page.getByLabel('Evidence file').setInputFiles({
        name: 'previous-employer-certificate.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n', 'latin1'),
      });
      const saved = page.waitForResponse(
        (r) => r.url().endsWith('/api/results/historical/create') && r.request().method() === 'POST',
      );
      // The history's pages as the server answers them. The dashboard first shows the page it had cached (stale
      // since the record was sent) and fetches it again: decide by the answers, never by what is on screen
      // before the fresh page arrives (turning the page then skipped the one holding the record).
      const historyPage = (n) =>
        page.waitForResponse(
          (r) =>
            r.request().method() === 'GET' &&
            /\/api\/users\/[^/]+\/results\?/.test(r.url()) &&
            new RegExp(`[?&]page=${n}(&|$)`).test(r.url()),
        );
      const freshFirstPage = historyPage(1);
      await page.getByRole('button', { name: 'Send for approval' }).click();
      const res = await saved;
      assert.equal(res.status(), 201, await res.text());
      created = (await res.json()).data;
      assert.equal(created.status, 'pending');
      await page.waitForURL(`${BASE}/`);
      await page
        .getByRole('status')
        .filter({ hasText: 'has been sent to your manager and awaits their approval' })
        .first()
        .waitFor();

      const row = page
        .getByTestId('training-history')
        .getByTestId('history-row')
        .filter({ hasText: course.title })
        .filter({ hasText: 'Awaiting approval' })
        .first();
      // Newest completion first: results the suite recorded later today come before this one (completed at the
      // day's start), so turn the history's pages until the server's answer holds it.
      const history = page.getByTestId('training-history');
      const holdsRecord = async (response) =>
        ((await response.json()).data ?? []).some((r) => r.id === created.id);
      let found = await holdsRecord(await freshFirstPage);
      for (let shown = 1; !found && shown < 20; shown += 1) {
        const next = history.getByRole('button', { name: 'Next' });
        await next.waitFor();
        assert.equal(await next.isDisabled(), false, 'the record is on none of the history pages');
        const turned = historyPage(shown + 1);
        await next.click();
        found = await holdsRecord(await turned);
        await history.locator(`[aria-current="page"][aria-label="Page ${shown + 1}"]`).waitFor();
      }
      await row.waitFor();
      const text = (await row.innerText()).replace(/\s+/g, ' ');
      assert.ok(text.includes(`Completed ${ddmmyyyy(`${today}T12:00:00Z`)}`), text);
      assert.ok(text.includes('previous-employer-certificate.pdf'), text);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
      if (created) {
        const admin = client(await bearer(ADMIN, 'e2e learner dashboard cleanup'));
        await admin('DELETE', `/results/pending/${created.id}`);
      }
    }
  });
});
