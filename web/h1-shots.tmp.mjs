import { chromium } from 'playwright-core';
const BASE = process.env.BASE ?? 'http://127.0.0.1:47131';
const OUT = '/work/notes/shots/h1';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
async function shoot(who, paths) {
  for (const width of [1280, 375]) {
    const ctx = await browser.newContext({ viewport: { width, height: width === 375 ? 740 : 800 } });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => console.log('pageerror', e.message));
    await page.goto(`${BASE}/login`);
    await page.getByLabel(/^E-mail address/).fill(`${who}@demo.test`);
    await page.getByLabel(/^Password/).fill('demo-Password1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${BASE}/`);
    for (const p of paths) {
      await page.goto(`${BASE}${p}`);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(1500);
      const name = `${who}${p === '/' ? '-home' : p.replace(/\//g, '-')}-${width}.png`;
      await page.screenshot({ path: `${OUT}/${name}`, fullPage: true });
      if (width === 375) await page.screenshot({ path: `${OUT}/${name.replace(".png", "-top.png")}` });
      console.log(name, page.url());
    }
    await ctx.close();
  }
}
await shoot(process.argv[2] ?? 'learner', (process.argv[3] ?? '/,/learner-dashboard').split(','));
await browser.close();
