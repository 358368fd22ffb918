import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiGet, BASE, checkPage, launch, NARROW, newPage, signIn, toast } from './lib.mjs';

/**
 * Entity content screens (issue 4): /entities/{slug}/courses (entity courses and content, updateMultiple),
 * /entities/{slug}/course-categories and /entities/{slug}/certificate-branding, on the demo organisation
 * (server/src/demo/catalogue.ts makes three catalogue courses available to Meadowbrook, one switched off).
 */
// A 1×1 PNG: the certificate logo must be a PNG or JPEG (the PDF prints it).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

const readEnabled = async (page, kind, title) => {
  const { body } = await apiGet(page, `/entities/meadowbrook/${kind}?search=${encodeURIComponent(title)}`);
  return body.data.find((r) => r.title === title)?.enabled;
};
/**
 * What the server holds, read until it settles on `expected` (a switch flips on screen before its save
 * answers, and an earlier toast can still be showing) or 10 s pass; returns the last value read.
 */
const enabledOf = async (page, kind, title, expected) => {
  const until = Date.now() + 10_000;
  let value = await readEnabled(page, kind, title);
  while (value !== expected && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 200));
    value = await readEnabled(page, kind, title);
  }
  return value;
};

describe('entity courses and content', () => {
  it('the admin switches one course, then switches two together (updateMultiple)', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/entities/meadowbrook`);
    await page.getByRole('link', { name: 'Courses and content' }).click();
    await page.waitForURL(`${BASE}/entities/meadowbrook/courses`);
    await page.getByRole('heading', { level: 1, name: 'Courses and content' }).waitFor();
    const row = (title) => page.getByRole('row').filter({ hasText: title });
    await row('Equality and Diversity').waitFor();
    await checkPage(page, 'entity-courses');

    const eAndD = page.getByRole('switch', {
      name: 'Equality and Diversity available at Meadowbrook Care Group',
    });
    assert.equal(await eAndD.getAttribute('aria-checked'), 'false', 'seeded switched off');
    await eAndD.click();
    await toast(page, 'Successfully updated.');
    await page.waitForFunction(
      () =>
        document
          .querySelector('[aria-label="Equality and Diversity available at Meadowbrook Care Group"]')
          ?.getAttribute('aria-checked') === 'true',
    );
    assert.equal(await enabledOf(page, 'courses', 'Equality and Diversity', true), true);

    await page.getByRole('checkbox', { name: 'Select Dementia Awareness' }).check();
    await page.getByRole('checkbox', { name: 'Select Information Governance' }).check();
    const bar = page.getByRole('region', { name: 'Change the selected courses' });
    await bar.getByText('2 selected').waitFor();
    await checkPage(page, 'entity-courses-selected');
    await bar.getByRole('button', { name: 'Switch off' }).click();
    await toast(page, 'Successfully updated.');
    await bar.waitFor({ state: 'detached' });
    assert.equal(await enabledOf(page, 'courses', 'Dementia Awareness', false), false);
    assert.equal(await enabledOf(page, 'courses', 'Information Governance', false), false);

    // Back on, so the demo stays as seeded for the learner flows.
    await page.getByRole('checkbox', { name: /Select every course/ }).check();
    await page
      .getByRole('region', { name: 'Change the selected courses' })
      .getByRole('button', { name: 'Switch on' })
      .click();
    // The switch-off toast may still be showing: the selection bar leaving is what marks this save as done.
    await page.getByRole('region', { name: 'Change the selected courses' }).waitFor({ state: 'detached' });
    await toast(page, 'Successfully updated.');
    assert.equal(await enabledOf(page, 'courses', 'Dementia Awareness', true), true);
    await eAndD.click(); // and Equality and Diversity off again, as seeded
    await page.waitForFunction(
      () =>
        document
          .querySelector('[aria-label="Equality and Diversity available at Meadowbrook Care Group"]')
          ?.getAttribute('aria-checked') === 'false',
    );
    assert.equal(await enabledOf(page, 'courses', 'Equality and Diversity', false), false);

    await page.getByRole('tab', { name: 'Content' }).click();
    await row('Dementia Awareness e-learning').waitFor();
    await checkPage(page, 'entity-content');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('renders at 375 px', async () => {
    const { page, context } = await newPage(browser, NARROW);
    await signIn(page);
    await page.goto(`${BASE}/entities/meadowbrook/courses`);
    await page.getByRole('row').filter({ hasText: 'Dementia Awareness' }).waitFor();
    await checkPage(page, 'entity-courses');
    await context.close();
  });
});

describe('course categories', () => {
  it('creates, renames and deletes (with a confirm) a category of Meadowbrook', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/entities/meadowbrook`);
    await page.getByRole('link', { name: 'Course categories' }).click();
    await page.getByRole('heading', { level: 1, name: 'Course categories' }).waitFor();
    await page.getByRole('cell', { name: 'Mandatory training', exact: true }).waitFor();
    await checkPage(page, 'course-categories');

    const name = `E2E category ${Date.now().toString(36)}`;
    await page.getByRole('button', { name: 'Add category' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add category' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByRole('button', { name: 'Add category' }).click();
    await toast(page, 'Category has been created.');
    const row = page.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    const { body } = await apiGet(
      page,
      `/course-categories?search=${encodeURIComponent(name)}&actingAs=meadowbrook`,
    );
    const meadowbrook = await apiGet(page, '/entities/meadowbrook');
    assert.equal(body.data[0]?.entity_id, meadowbrook.body.data.id, 'the category belongs to Meadowbrook');

    await row.getByRole('button', { name: `Rename ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit category' });
    await edit.getByLabel('Name').fill(`${name} renamed`);
    await edit.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Category has been updated.');
    const renamed = page.getByRole('row').filter({ hasText: `${name} renamed` });
    await renamed.waitFor();
    await renamed.getByRole('button', { name: `Delete ${name} renamed` }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByRole('button', { name: 'Delete' }).waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Category has been deleted.');
    await renamed.waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('renders at 375 px', async () => {
    const { page, context } = await newPage(browser, NARROW);
    await signIn(page);
    await page.goto(`${BASE}/entities/meadowbrook/course-categories`);
    // At 375 px the row actions sit in the first cell, under the name.
    await page.getByRole('cell', { name: /^Mandatory training\b/ }).waitFor();
    await checkPage(page, 'course-categories');
    await context.close();
  });
});

describe('certificate branding', () => {
  it('shows a live preview, refuses a bad colour beside the field, uploads a logo and saves', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page);
    await page.goto(`${BASE}/entities/meadowbrook`);
    await page.getByRole('link', { name: 'Certificate branding' }).click();
    await page.getByRole('heading', { level: 1, name: 'Certificate branding' }).waitFor();
    const title = page.getByLabel('Certificate title');
    assert.equal(await title.inputValue(), 'Certificate of Achievement', 'the demo branding');
    await checkPage(page, 'certificate-branding');

    await title.fill('Certificate of Training');
    await page.getByTestId('preview-title').filter({ hasText: 'Certificate of Training' }).waitFor();
    const accent = page.getByRole('textbox', { name: 'Accent colour', exact: true });
    await accent.fill('green');
    await page.getByRole('button', { name: 'Save certificate branding' }).click();
    await page.getByText('The colour must be a hex colour like #1f2937.').waitFor();
    await accent.fill('#1d4ed8');
    await page.getByLabel('Signatory name').fill('Dr Helen Carter');

    await page
      .getByLabel('Upload logo')
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await toast(page, 'Image has been uploaded.');
    await page.getByRole('img', { name: 'Current certificate logo' }).waitFor();
    await page.getByRole('button', { name: 'Save certificate branding' }).click();
    await toast(page, 'Certificate branding has been updated.');
    await checkPage(page, 'certificate-branding-saved');

    const saved = await apiGet(page, '/entities/meadowbrook/certificate-branding');
    assert.equal(saved.status, 200);
    assert.equal(saved.body.data.title, 'Certificate of Training');
    assert.equal(saved.body.data.accent_colour, '#1d4ed8');
    assert.equal(saved.body.data.signatory_name, 'Dr Helen Carter');
    assert.ok(saved.body.data.logo_file_id, 'the logo is saved');
    assert.match(saved.body.data.logo_url, /^\/api\/files\//);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('renders at 375 px', async () => {
    const { page, context } = await newPage(browser, NARROW);
    await signIn(page);
    await page.goto(`${BASE}/entities/meadowbrook/certificate-branding`);
    await page.getByTestId('certificate-preview').waitFor();
    await checkPage(page, 'certificate-branding');
    await context.close();
  });
});
