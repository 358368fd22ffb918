import assert from 'node:assert/strict';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium } from 'playwright-core';

/** Shared helpers for the browser flows. Env comes from run.mjs. */
export const BASE = process.env.E2E_BASE_URL;
export const MOBILE = process.env.E2E_MOBILE_URL;
export const ADMIN = { email: 'admin@demo.test', password: 'demo-Password1' };
const ARTIFACTS = process.env.E2E_ARTIFACTS;

export async function launch() {
  return chromium.launch({
    executablePath: process.env.E2E_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function newPage(browser, { width = 1280, height = 800 } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

let shot = 0;
/**
 * Every visited page: wait until settled, save a full-page screenshot and run axe-core; no serious or
 * critical violations are allowed.
 */
export async function checkPage(page, name) {
  await page.waitForLoadState('networkidle');
  await page.waitForSelector('[role=progressbar][data-active=false]');
  const width = page.viewportSize()?.width ?? 0;
  shot += 1;
  await page.screenshot({
    path: path.join(ARTIFACTS, 'screenshots', `${String(shot).padStart(2, '0')}-${name}-${width}.png`),
    fullPage: true,
  });
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    [],
    `axe violations on ${name}`,
  );
}

export async function login(page, { email, password } = ADMIN) {
  await page.getByLabel(/^E-mail address/).fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
