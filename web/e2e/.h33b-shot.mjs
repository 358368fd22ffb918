import { chromium } from 'playwright-core';
const BASE = 'http://127.0.0.1:4857';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
const book = process.argv[2] === 'book';
for (const [w, h] of [[1280, 900], [375, 740]]) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h } });
  const page = await ctx.newPage();
  page.on('console', (m) => { if (m.type() === 'error') console.log('console error', m.text()); });
  await page.goto(`${BASE}/login`);
  await page.getByLabel(/^E-mail address/).fill('manager@demo.test');
  await page.getByLabel(/^Password/).fill('demo-Password1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${BASE}/`);
  await page.goto(`${BASE}/manager-dashboard`);
  const card = page.getByTestId('bookings-widget');
  await card.getByRole('heading', { name: 'Gaps a session would close' }).waitFor();
  await page.waitForTimeout(800);
  await card.screenshot({ path: `/tmp/h33b-shots/widget-${w}.png` });
  console.log(await card.getByTestId('bookings-gaps').innerText().catch(() => 'no gaps'));
  const link = card.getByRole('link', { name: /to book on Moving/ }).first();
  await link.click();
  await page.waitForURL(/\/manage-bookings\/gaps\//);
  await page.getByTestId('gap-people').waitFor();
  await page.waitForTimeout(800);
  console.log(page.url());
  await page.screenshot({ path: `/tmp/h33b-shots/gap-${w}.png`, fullPage: true });
  if (book && w === 1280) {
    await page.getByRole('button', { name: /^Book/ }).click();
    await page.getByTestId('gap-result').waitFor();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `/tmp/h33b-shots/gap-booked-${w}.png`, fullPage: true });
    console.log(await page.getByTestId('gap-result').innerText());
  }
  await ctx.close();
}
await browser.close();
