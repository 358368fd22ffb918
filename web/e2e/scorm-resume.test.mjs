import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ADMIN, BASE, bearer, client, launch, newPage, publishScorm, scoFrame, signIn } from './lib.mjs';

/**
 * Issue 28 item 4: a carer's place in a package is kept. The golf examples (SCORM 1.2 and 2004, real packages in
 * ../shared/acceptance/packages) bookmark each page (cmi.core.lesson_location / cmi.location) without committing,
 * and ask "resume where you left off?" with window.confirm when launched again. The learner goes through three pages,
 * leaves by the app's own menu (not the player's Close button), opens the attempt again, answers the package's
 * question, and is on the fourth page.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const PACKAGES = path.resolve(here, '../../../shared/acceptance/packages');
const LEARNER = { email: 'learner@demo.test', password: ADMIN.password };
const stamp = Date.now().toString(36);
const RESUME_QUESTION = 'Would you like to resume from where you previously left off?';

let browser;
let admin;
let learner;
let me;
before(async () => {
  browser = await launch();
  admin = client(await bearer(ADMIN, 'e2e scorm resume'));
  learner = client(await bearer(LEARNER, 'e2e scorm resume'));
  me = await learner('GET', '/auth/user');
});
after(async () => {
  await browser?.close();
});

/** The bookmark the server holds for the attempt's (only) SCO, in either version's element. */
async function savedBookmark(attemptId) {
  const attempt = await learner('GET', `/attempts/${attemptId}`);
  const sco = Object.values(attempt.cmi.items ?? {})[0];
  return sco?.cmi?.core?.lesson_location ?? sco?.cmi?.location ?? null;
}

/** The golf launch page's content frame: which page of its pageArray it shows. */
const shownPage = (sco) => sco.locator('#contentFrame').getAttribute('src');

describe('a SCORM package left by the app menu resumes where the learner was', () => {
  for (const file of [
    'moodle-scorm12-singlescobasic.zip',
    'moodle-scorm2004-RuntimeBasicCalls_SCORM20043rdEdition.zip',
  ])
    it(`${file}: three pages, the app menu, back: the package asks and opens the fourth page`, async () => {
      const { content } = await publishScorm(admin, {
        course: `Resume ${file} ${stamp}`,
        title: `${file} (resume)`,
        bytes: readFileSync(path.join(PACKAGES, file)),
        file,
      });
      const attempt = await learner('POST', `/users/${me.id}/attempts`, { content_id: content.id });
      const { context, page, errors } = await newPage(browser, { width: 1400, height: 1000 });
      const dialogs = [];
      // The learner answers the package's own question: yes, resume.
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void (d.message() === RESUME_QUESTION ? d.accept() : d.dismiss());
      });
      try {
        await signIn(page, LEARNER);
        await page.goto(`${BASE}/attempt/${attempt.id}`);
        let sco = scoFrame(page);
        await sco.locator('#butNext').waitFor();
        assert.equal(await shownPage(sco), '../Playing/Playing.html');
        for (let i = 0; i < 3; i++) await sco.locator('#butNext').click();
        assert.equal(await shownPage(sco), '../Playing/OtherScoring.html');

        // Leave by the app's menu, not the player's Close button.
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link').first().click();
        await page.waitForURL((url) => !url.pathname.startsWith('/attempt/'));
        let bookmark = null;
        for (let i = 0; i < 50 && bookmark !== '3'; i++) {
          bookmark = await savedBookmark(attempt.id);
          if (bookmark !== '3') await new Promise((r) => setTimeout(r, 200));
        }
        assert.equal(bookmark, '3', 'the page the learner was on is saved');
        assert.deepEqual(dialogs, [], 'nothing was asked on the way out');

        await page.goto(`${BASE}/attempt/${attempt.id}`);
        sco = scoFrame(page);
        await sco.locator('#butNext').waitFor();
        await sco.locator('#contentFrame[src="../Playing/OtherScoring.html"]').waitFor();
        assert.deepEqual(dialogs, [RESUME_QUESTION], 'the package asked, and was answered');
        assert.ok(await sco.locator('#butPrevious').isEnabled(), 'not on the first page');
        const open = await learner('GET', `/attempts/${attempt.id}`);
        assert.equal(open.status, 'in_progress');
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
});
