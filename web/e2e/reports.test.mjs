import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BASE, checkPage, launch, MANAGER, NARROW, newPage, signIn } from './lib.mjs';

/**
 * Reports (issue 5 item 5) on the demo organisation: the Oakfield House manager opens the compliance report, drills
 * into a home down to its staff, exports XLSX and PDF; the certificate report downloads a zip of certificates.
 */

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function downloadOf(page, click) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const stream = await download.createReadStream();
  const chunks = [];
  for await (const c of stream) chunks.push(c);
  return { name: download.suggestedFilename(), bytes: Buffer.concat(chunks) };
}

describe('compliance report', () => {
  it('shows each home with a score, drills into a home down to its staff, and exports XLSX and PDF', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/reports/compliance`);
    const table = page.getByRole('table', { name: 'Compliance by organisation' });
    await table.getByText('Oakfield House', { exact: true }).waitFor();
    await page.getByTestId('trend').getByRole('img').waitFor();
    await checkPage(page, 'reports-compliance');

    // Drill: the home's row → its roles → the staff of a role.
    await table.getByRole('button', { name: 'Drill down into Oakfield House' }).click();
    const drill = page.getByTestId('drill-down');
    await drill.getByRole('table', { name: /Organisations in Oakfield House/ }).waitFor({ timeout: 20_000 });
    await drill.getByRole('button', { name: /Roles of Oakfield House/ }).click();
    const roles = drill.getByRole('table', { name: /Roles in Oakfield House/ });
    await roles.waitFor({ timeout: 20_000 });
    await roles
      .getByRole('button', { name: /Staff with role/ })
      .first()
      .click();
    await drill.getByRole('table', { name: /staff in Oakfield House/ }).waitFor({ timeout: 20_000 });
    await checkPage(page, 'reports-compliance-drill');

    const xlsx = await downloadOf(page, () => page.getByRole('button', { name: 'Export XLSX' }).click());
    assert.match(xlsx.name, /^compliance-Sam-Patel-\d{2}-\d{2}-\d{4}\.xlsx$/);
    assert.equal(xlsx.bytes.subarray(0, 2).toString(), 'PK');
    const pdf = await downloadOf(page, () => page.getByRole('button', { name: 'Export PDF' }).click());
    assert.match(pdf.name, /^compliance-Sam-Patel-\d{2}-\d{2}-\d{4}\.pdf$/);
    assert.equal(pdf.bytes.subarray(0, 4).toString(), '%PDF');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('works at 375 px, and the legacy layout shows the same figures', async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/reports/compliance`);
    await page
      .getByRole('table', { name: 'Compliance by organisation' })
      .getByText('Oakfield House', { exact: true })
      .waitFor();
    await checkPage(page, 'reports-compliance-375');
    await page.goto(`${BASE}/reports/compliance-legacy`);
    await page
      .getByRole('table', { name: 'Organisations' })
      .getByRole('rowheader', { name: /Oakfield House/ })
      .waitFor();
    await checkPage(page, 'reports-compliance-legacy-375');
    assert.deepEqual(errors, []);
    await context.close();
  });
});

describe('certificate and role reports', () => {
  it('lists certificates and downloads the selected ones as a zip', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/reports/certificate`);
    await page.getByLabel('From').fill('2000-01-01');
    const table = page.getByRole('table', { name: 'Certificates' });
    await table.getByRole('checkbox').nth(1).waitFor();
    await table.getByRole('checkbox').nth(1).check();
    await table.getByRole('checkbox').nth(2).check();
    await checkPage(page, 'reports-certificate');
    const zip = await downloadOf(page, () =>
      page.getByRole('button', { name: /Download selected \(2\)/ }).click(),
    );
    assert.match(zip.name, /^certificates-Sam-Patel-\d{2}-\d{2}-\d{4}\.zip$/);
    assert.equal(zip.bytes.subarray(0, 2).toString(), 'PK');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('shows each role with its staff and score (375 px)', async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/reports/role`);
    await page.getByRole('table', { name: 'Compliance by role' }).getByText('Care Assistant').waitFor();
    await checkPage(page, 'reports-role-375');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
