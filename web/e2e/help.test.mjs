import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN, BASE, checkPage, launch, login, MANAGER, NARROW, newPage, signIn, toast } from './lib.mjs';

/**
 * The help widget (issue 14) on the demo data: the manager opens Help on the matrix and sees the matrix article (not
 * the dashboard's), reads it, and sends a question to support; signed out, /login's Help shows its article and no
 * Contact support (issue 38 §3); the super admin adds an article, sees it on its page
 * and deletes it again; the help desk's customer view signs a support agent in and shows a customer.
 */

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function openHelp(page) {
  await page.getByTestId('help-button').click();
  const panel = page.getByRole('dialog', { name: 'Help' });
  await panel.waitFor();
  return panel;
}

describe('help widget', () => {
  for (const viewport of [undefined, NARROW]) {
    const width = viewport?.width ?? 1280;
    it(`shows the route's articles, opens one and contacts support (${width} px)`, async () => {
      const { page, context, errors } = await newPage(browser, viewport);
      await signIn(page, MANAGER);
      await page.goto(`${BASE}/reports/matrix`);
      await page.getByRole('heading', { level: 1, name: 'Compliance matrix' }).waitFor();
      const panel = await openHelp(page);
      const forPage = panel.getByRole('list', { name: 'Help for this page' });
      await forPage.getByRole('button', { name: 'Reading the compliance matrix' }).waitFor();
      assert.equal(await forPage.getByRole('button', { name: 'Your manager dashboard' }).count(), 0);
      await checkPage(page, 'help-panel');

      await forPage.getByRole('button', { name: 'Reading the compliance matrix' }).click();
      const article = page.getByRole('dialog', { name: 'Reading the compliance matrix' });
      await article.getByRole('heading', { name: 'What the cells mean' }).waitFor();
      const link = await article.getByRole('link', { name: 'Show me on this page' }).getAttribute('href');
      assert.equal(link, `${BASE}/reports/matrix#matrix`);
      await checkPage(page, 'help-article');

      await article.getByRole('button', { name: 'Contact support' }).click();
      const contact = page.getByRole('dialog', { name: 'Contact support' });
      await contact.getByRole('button', { name: 'Send to support' }).click();
      await contact.getByText('Write your question.').waitFor();
      await contact.getByLabel(/^Your question/).fill('How do I export only the night staff?');
      await contact.getByRole('button', { name: 'Send to support' }).click();
      await contact
        .getByTestId('help-sent')
        .getByText('Your question has been sent to support. We will reply by e-mail.')
        .waitFor();
      await checkPage(page, 'help-sent');
      await page.keyboard.press('Escape');
      await page.getByTestId('help-button').waitFor();
      assert.equal(await page.getByTestId('help-panel').count(), 0);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }

  for (const viewport of [undefined, NARROW]) {
    const width = viewport?.width ?? 1280;
    it(`signed out, /login's Help shows its articles and no Contact support (${width} px)`, async () => {
      const { page, context, errors } = await newPage(browser, viewport);
      await page.goto(`${BASE}/login`);
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      const panel = await openHelp(page);
      const forPage = panel.getByRole('list', { name: 'Help for this page' });
      await forPage.getByRole('button', { name: 'Signing in and keeping your account safe' }).waitFor();
      assert.equal(await forPage.getByRole('button', { name: 'Reading the compliance matrix' }).count(), 0);
      assert.equal(await panel.getByRole('button', { name: 'Contact support' }).count(), 0);
      await checkPage(page, 'help-signed-out');
      await forPage.getByRole('button', { name: 'Signing in and keeping your account safe' }).click();
      const article = page.getByRole('dialog', { name: 'Signing in and keeping your account safe' });
      await article.getByRole('heading', { name: 'Sessions and devices' }).waitFor();
      assert.equal(await article.getByRole('button', { name: 'Contact support' }).count(), 0);
      await page.keyboard.press('Escape');
      // The error pages have it too.
      await page.goto(`${BASE}/404?resource=page`);
      await page.getByRole('heading', { level: 1, name: "We couldn't find that page" }).waitFor();
      await page.getByTestId('help-button').waitFor();
      assert.deepEqual(errors, []);
      await context.close();
    });
  }

  it('a super admin adds an article, sees it on its route, and deletes it', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page, ADMIN);
    await page.getByRole('link', { name: 'Help articles' }).click();
    await page.waitForURL(`${BASE}/help-articles`);
    const table = page.getByRole('table', { name: 'Help articles' });
    await table.getByText('Reading the compliance matrix').waitFor();
    await checkPage(page, 'help-articles');

    await page.getByRole('button', { name: 'Add article' }).first().click();
    const form = page.getByRole('form', { name: 'Add a help article' });
    await form.getByLabel(/^Title/).fill('Tags in a nutshell');
    await form.getByLabel(/^URL pattern/).fill('^/entities/\\*/tags$');
    await form.getByLabel(/^Try a page/).fill('/entities/*/tags');
    await form.getByTestId('try-result').getByText('Shown on /entities/*/tags').waitFor();
    await form.getByLabel(/^Try a page/).fill('/entities/*/roles');
    await form.getByTestId('try-result').getByText('Not shown on /entities/*/roles').waitFor();
    await form.getByLabel(/^Body/).fill('A tag groups staff.\n\n- Add a tag\n- Link people to it');
    await checkPage(page, 'help-articles-form');
    await form.getByRole('button', { name: 'Add article' }).click();
    await toast(page, 'Help article has been created.');
    await table.getByText('Tags in a nutshell').waitFor();

    await page.goto(`${BASE}/entities/oakfield-house/tags`);
    await page.getByRole('heading', { level: 1, name: 'Tags' }).waitFor();
    const panel = await openHelp(page);
    await panel.getByRole('button', { name: 'Tags in a nutshell' }).click();
    await page.getByRole('dialog', { name: 'Tags in a nutshell' }).getByText('Link people to it').waitFor();
    await page.keyboard.press('Escape');

    await page.goto(`${BASE}/help-articles`);
    await page.getByRole('button', { name: 'Delete Tags in a nutshell' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Help article has been deleted.');
    await table.getByText('Tags in a nutshell').waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('the management page works at 375 px', async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    await signIn(page, ADMIN);
    await page.goto(`${BASE}/help-articles`);
    await page
      .getByRole('table', { name: 'Help articles' })
      .getByText('Reading the compliance matrix')
      .waitFor();
    await checkPage(page, 'help-articles');
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('help desk', () => {
  for (const viewport of [undefined, NARROW]) {
    const width = viewport?.width ?? 1280;
    it(`signs a support agent in and shows the customer (${width} px)`, async () => {
      const { page, context, errors } = await newPage(browser, viewport);
      await page.goto(`${BASE}/helpscout-app?email=learner%40demo.test`);
      await page.waitForURL(/\/helpscout-auth\?redirect=/);
      await page.getByRole('heading', { name: 'Help desk sign-in' }).waitFor();
      await checkPage(page, 'helpscout-auth');
      await login(page, ADMIN);
      await page.waitForURL(`${BASE}/helpscout-app?email=learner%40demo.test`);
      const customer = page.getByTestId('helpscout-customer');
      await customer.getByText('learner@demo.test').waitFor();
      await customer.getByRole('heading', { name: 'Compliance' }).waitFor();
      await customer.getByRole('heading', { name: 'Recent account activity' }).waitFor();
      await customer.getByText('Oakfield House').first().waitFor();
      await checkPage(page, 'helpscout-app');
      assert.deepEqual(errors, []);
      await context.close();
    });
  }

  it('refuses an agent who is not a super admin', async () => {
    const { page, context, errors } = await newPage(browser);
    await page.goto(`${BASE}/helpscout-auth`);
    await login(page, MANAGER);
    await page.getByText('Only support agents can use the help desk view.').waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });
});
