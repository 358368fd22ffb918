import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
  signIn,
  toast,
} from './lib.mjs';

/**
 * The Care Certificate's administration pages (issue 16): the report with its filters and an XLSX download (a
 * manager), a historical certificate recorded with an evidence file then edited (PATCH of one field) and its file
 * removed after a confirm (a super admin), a criterion of the standards edited in place (a super admin), and the
 * settings page. Every page is checked with axe at 1280 and 375 px; the screenshots are also copied to
 * /work/notes/shots/admin/ when that folder's parent exists (E2E_SHOTS overrides).
 */

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
  const shots = process.env.E2E_SHOTS ?? '/work/notes/shots/admin';
  const from = path.join(process.env.E2E_ARTIFACTS ?? '', 'screenshots');
  try {
    mkdirSync(shots, { recursive: true });
    for (const f of readdirSync(from))
      if (/care-cert/.test(f)) copyFileSync(path.join(from, f), path.join(shots, f));
  } catch {
    // no notes folder: the artifacts keep them
  }
});

/** A tiny valid PDF as evidence. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj ' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

async function learnerId() {
  const api = client(await bearer(ADMIN));
  const users = await api('GET', '/users?search=Casey&deep=1');
  return users[0].id;
}

describe('care certificate report', () => {
  it('a manager filters the report and downloads it as XLSX, at 1280 and 375', async () => {
    // A certificate to show: the learner starts the default version (ignore "already assigned" on a rerun).
    const token = await bearer(MANAGER);
    const versions = await client(token)('GET', '/care-certificate-versions');
    const version = versions.find((v) => v.is_default) ?? versions[0];
    await fetch(`${BASE}/api/care-certificates`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ user_id: await learnerId(), version_id: version.id }),
    });

    const { context, page, errors } = await newPage(browser);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/reports/care-certificate`);
    await page.getByRole('heading', { level: 1, name: 'Care Certificate report' }).waitFor();
    await page.getByRole('link', { name: 'Casey Lee' }).waitFor();
    assert.ok(
      await page
        .getByRole('img', { name: /^Standard 1: / })
        .first()
        .isVisible(),
    );
    await checkPage(page, 'care-cert-report');

    // The filters live in the address (a navigation: the box changes state when the router has moved, so click,
    // then wait for the address and the request).
    const requested = page.waitForRequest((r) => r.url().includes('includeOutstanding=0'));
    await page.getByRole('checkbox', { name: 'Outstanding' }).click();
    await requested;
    await page.waitForURL(/includeOutstanding=0/);
    await page.reload();
    assert.equal(
      await page.getByRole('checkbox', { name: 'Outstanding' }).isChecked(),
      false,
      'kept on reload',
    );
    await page.getByRole('checkbox', { name: 'Outstanding' }).click();
    await page.waitForURL((u) => !u.search.includes('includeOutstanding'));
    await page.getByRole('link', { name: 'Casey Lee' }).waitFor();

    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export XLSX' }).click();
    const file = await downloaded;
    assert.match(file.suggestedFilename(), /\.xlsx$/);
    const bytes = readFileSync(await file.path());
    assert.equal(bytes.subarray(0, 2).toString(), 'PK', 'an XLSX is a zip');

    await page.getByRole('button', { name: 'By standard' }).click();
    await page.getByRole('table', { name: 'Certificates by standard' }).waitFor();
    await checkPage(page, 'care-cert-report-standards');
    assert.deepEqual(errors, []);
    await context.close();

    const narrow = await newPage(browser, NARROW);
    await signIn(narrow.page, MANAGER);
    await narrow.page.goto(`${BASE}/reports/care-certificate`);
    await narrow.page.getByRole('link', { name: 'Casey Lee' }).waitFor();
    const width = await narrow.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 375, `no sideways scroll at 375 px (${width})`);
    await checkPage(narrow.page, 'care-cert-report');
    assert.deepEqual(narrow.errors, []);
    await narrow.context.close();
  });
});

describe('historical care certificates', () => {
  for (const viewport of [undefined, NARROW]) {
    const w = viewport?.width ?? 1280;
    it(`a super admin records one with a file, edits it and removes the file (${w} px)`, async () => {
      const { context, page, errors } = await newPage(browser, viewport);
      await signIn(page, ADMIN);
      await page.goto(`${BASE}/care-certificate/historical`);
      await page.getByRole('heading', { level: 1, name: /Historical/ }).waitFor();
      await checkPage(page, 'care-cert-historical');
      await page.getByRole('button', { name: 'Record a historical certificate' }).click();
      const form = page.getByRole('form', { name: 'Record a historical certificate' });
      await form.getByRole('searchbox', { name: 'Search people' }).fill('Casey');
      await form.getByRole('button', { name: /Casey Lee/ }).click();
      await form.getByLabel(/^Version/).selectOption({ index: 1 });
      await form.getByLabel(/^Provider/).fill(`Brightwell Training ${w}`);
      await form.getByLabel(/^Completed on/).fill('2025-06-30');
      await form
        .getByLabel('Evidence files')
        .setInputFiles({ name: 'certificate.pdf', mimeType: 'application/pdf', buffer: PDF });
      await checkPage(page, 'care-cert-historical-form');
      await form.getByRole('button', { name: 'Save certificate' }).click();
      await page.waitForURL(/\/care-certificate\/historical\/update\//);
      await page.getByRole('button', { name: 'certificate.pdf', exact: true }).waitFor();
      await checkPage(page, 'care-cert-historical-edit');

      const patched = page.waitForRequest((r) => r.method() === 'PATCH');
      await page.getByLabel(/^Provider/).fill(`Elsewhere Care Academy ${w}`);
      await page.getByRole('button', { name: 'Save changes' }).click();
      assert.deepEqual((await patched).postDataJSON(), { provider: `Elsewhere Care Academy ${w}` });
      await toast(page, 'Historical certificate saved.');

      await page.getByRole('button', { name: 'Remove certificate.pdf' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
      await toast(page, 'Evidence removed.');
      await page.getByText('No files yet').waitFor();

      await page.goto(`${BASE}/care-certificate/historical`);
      await page
        .getByText(`Elsewhere Care Academy ${w}`)
        .or(page.getByText('Casey Lee').first())
        .first()
        .waitFor();
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});

describe('standards and settings', () => {
  for (const viewport of [undefined, NARROW]) {
    const w = viewport?.width ?? 1280;
    it(`a super admin edits a criterion in place; the settings page shows where values come from (${w} px)`, async () => {
      const { context, page, errors } = await newPage(browser, viewport);
      await signIn(page, ADMIN);
      await page.goto(`${BASE}/care-certificate/standards`);
      await page.getByRole('heading', { level: 1, name: 'Care Certificate standards' }).waitFor();
      await page.getByTestId('standard').first().waitFor();
      await checkPage(page, 'care-cert-standards');
      // The first standard that has criteria (the seeded tree may leave some standards without any yet).
      await page
        .getByTestId('standard')
        .filter({ hasNotText: /(^|\D)0 criteria/ })
        .first()
        .locator('summary')
        .click();
      const edit = page.getByRole('button', { name: /^Edit criterion / }).first();
      const name = (await edit.textContent())?.replace(/^Edit\s*/, '').trim();
      await edit.click();
      const form = page.getByRole('form', { name: `Edit ${name}` });
      const text = form.getByLabel(/^Criterion/);
      const before = await text.inputValue();
      await text.fill(`${before.replace(/ \(checked\)$/, '')} (checked)`);
      const patched = page.waitForRequest(
        (r) => r.method() === 'PATCH' && r.url().includes('/care-certificate-criteria/'),
      );
      await form.getByRole('button', { name: 'Save' }).click();
      assert.match((await patched).postDataJSON().text, /\(checked\)$/);
      await toast(page, 'Standards updated.');
      await checkPage(page, 'care-cert-standards-open');

      await page.goto(`${BASE}/care-certificate/settings`);
      await page.getByTestId('inherited').waitFor();
      await checkPage(page, 'care-cert-settings');
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});

describe('criteria import (issue 32 §2)', () => {
  for (const viewport of [undefined, NARROW]) {
    const w = viewport?.width ?? 1280;
    it(`a super admin sees what is missing, previews a file, is shown every refused row, and applies it (${w} px)`, async () => {
      // A copy of 2025 (the built-in version stays as the other tests read it).
      const api = client(await bearer(ADMIN));
      const versions = await api('GET', '/care-certificate-versions');
      const v2025 = versions.find((v) => v.code === '2025');
      const copy = await api('POST', '/care-certificate-versions', {
        code: `imp-${w}-${Date.now() % 100000}`,
        title: `Import test ${w}`,
        copy_from_id: v2025.id,
      });
      const dir = tmpdir();
      const bad = path.join(dir, `criteria-bad-${w}.csv`);
      writeFileSync(
        bad,
        'code,outcome,wording,kind\n17.1a,17.1,No such standard,knowledge\n16.1a,16.1,Wording,both\n',
      );
      const good = path.join(dir, `criteria-good-${w}.csv`);
      writeFileSync(
        good,
        'code,outcome,wording,kind\n16.1a,16.1,Wording of 16.1a,knowledge\n16.1b,16.1,Demonstrate 16.1b,observed\n',
      );

      const { context, page, errors } = await newPage(browser, viewport);
      await signIn(page, ADMIN);
      await page.goto(`${BASE}/care-certificate/standards?version=${copy.id}`);
      const missing = page.getByText(/standards have no criteria yet/);
      await missing.waitFor();
      assert.match(await missing.textContent(), /Standard 16/);
      // (A copy has no official source of its own: the built-in versions link Skills for Care's pages.)
      await page.getByText('Standard 16: Awareness of learning disability and autism').first().waitFor();

      await page.getByLabel('File', { exact: true }).setInputFiles(bad);
      await page.getByRole('button', { name: 'Preview' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'Nothing was imported' });
      await alert.waitFor();
      assert.match(await alert.textContent(), /Row 2: version imp-\d+-\d+ has no Standard 17/);
      assert.match(await alert.textContent(), /Row 3: enter knowledge or observed/);
      await checkPage(page, 'care-cert-import-refused');

      await page.getByLabel('File', { exact: true }).setInputFiles(good);
      await page.getByRole('button', { name: 'Preview' }).click();
      await page.getByText('Nothing is changed until you apply it').waitFor();
      await checkPage(page, 'care-cert-import-preview');
      const before = await api('GET', `/care-certificate-versions/${copy.id}`);
      assert.equal(before.criteria_count, copy.criteria_count);
      await page.getByRole('button', { name: 'Apply 2 changes' }).click();
      await toast(page, 'Criteria imported.');
      const after = await api('GET', `/care-certificate-versions/${copy.id}`);
      assert.equal(after.criteria_count, copy.criteria_count + 2);
      const gaps = await api('GET', `/care-certificate-versions/${copy.id}/gaps`);
      assert.ok(!gaps.standards_without_criteria.includes(16));
      assert.deepEqual(errors, []);
      await context.close();
      await api('DELETE', `/care-certificate-versions/${copy.id}`);
    });
  }
});
