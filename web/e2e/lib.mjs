import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
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

/**
 * A page whose `errors` collect uncaught errors and every Content-Security-Policy violation (issue 11 §6), in the
 * page or any of its frames, so each test that expects no errors also proves the app runs under its policy.
 */
export async function newPage(browser, { width = 1280, height = 800 } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(
        `CSP violation: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`,
      ),
    );
  });
  const page = await context.newPage();
  // CI runs this suite beside the server suite on two cores: a wait that takes 5 s alone can take 40 s there.
  page.setDefaultTimeout(60_000);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // A page that ends under a test says so ("Target page closed" alone does not tell a renderer crash).
  page.on('crash', () => console.error(`[e2e] the page crashed at ${page.url()}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /CSP violation|Content Security Policy/.test(m.text())) errors.push(m.text());
  });
  return { context, page, errors };
}

let shot = 0;
/**
 * Full-page screenshots of every checked page, for a person to look at (README "Tests"): on by default, off under CI
 * (nobody looks at them there, and each costs about 0.4 CPU-seconds of Chromium); E2E_SCREENSHOTS=1 or 0 decides.
 */
const SCREENSHOTS = (process.env.E2E_SCREENSHOTS ?? (process.env.CI === 'true' ? '0' : '1')) === '1';

/**
 * What axe checks once per run: the page's address with its ids as ":id", its width, and the dialogs open on it. The
 * same page in the same state, visited again by another test, holds the same markup; axe costs 1 to 2 CPU-seconds of
 * Chromium a page (colour contrast most of it), about a tenth of the browser suite.
 */
async function pageState(page) {
  const { pathname, search, dialogs } = await page.evaluate(() => ({
    pathname: location.pathname,
    search: location.search,
    dialogs: [...document.querySelectorAll('[role=dialog],[role=alertdialog],dialog[open]')].map(
      (d) => d.getAttribute('aria-label') || d.querySelector('h1,h2,h3')?.textContent?.trim() || 'dialog',
    ),
  }));
  const id = (segment) => (/^(\d+|[0-9a-f-]{20,}|[A-Za-z0-9_-]{32,})$/i.test(segment) ? ':id' : segment);
  const address = pathname.split('/').map(id).join('/');
  const query = [...new URLSearchParams(search).entries()].map(([k, v]) => `${k}=${id(v)}`).sort();
  const width = page.viewportSize()?.width ?? 0;
  return JSON.stringify([address, query, width, dialogs.sort()]);
}

/** True for the first test of the run (every shard, every file) to check this page state: it runs axe there. */
function firstToCheck(state) {
  const dir = path.join(ARTIFACTS, 'axe-checked');
  mkdirSync(dir, { recursive: true });
  const marker = path.join(dir, createHash('sha1').update(state).digest('hex'));
  try {
    closeSync(openSync(marker, 'wx'));
    return true;
  } catch (error) {
    if (error.code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Every visited page: wait until settled, save a full-page screenshot (see SCREENSHOTS) and run axe-core on each page
 * state the run has not checked yet; no serious or critical violations are allowed.
 */
export async function checkPage(page, name) {
  await page.waitForLoadState('networkidle');
  await page.waitForSelector('[role=progressbar][data-active=false]');
  const width = page.viewportSize()?.width ?? 0;
  shot += 1;
  if (SCREENSHOTS)
    await page.screenshot({
      path: path.join(ARTIFACTS, 'screenshots', `${String(shot).padStart(2, '0')}-${name}-${width}.png`),
      fullPage: true,
    });
  if (!firstToCheck(await pageState(page))) return;
  // Only violations are read, so axe skips building the passes' node lists; legacy mode runs axe once in the page
  // (iframes reached by axe's own messaging) instead of per frame and then again in a blank page opened for every
  // check. Together about a fifth of the default's time on a large page (2.9 s to 0.6 s per check), with the same rules.
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] })
    .analyze();
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

export const MANAGER = { email: 'manager@demo.test', password: ADMIN.password };
export const NARROW = { width: 375, height: 740 };
export const WIDE = { width: 1280, height: 800 };

/**
 * checkPage at both widths (WIDE, NARROW), the page reloaded at each as a phone or a desktop would open it (the side
 * navigation is a drawer, closed, on a phone; open on a desktop). The page's own width comes last: it is then left
 * there, freshly reloaded, without a third load to put it back. `noOverflow`: the app must not scroll sideways at
 * either width.
 */
export async function checkAtBothWidths(page, name, { noOverflow = false } = {}) {
  const size = page.viewportSize();
  for (const viewport of size.width === WIDE.width ? [NARROW, WIDE] : [WIDE, NARROW]) {
    await page.setViewportSize(viewport);
    await page.reload();
    await checkPage(page, name);
    if (!noOverflow) continue;
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    assert.equal(overflow, false, `${name} overflows at ${viewport.width} px`);
  }
  const now = page.viewportSize();
  if (now.width !== size.width || now.height !== size.height) {
    await page.setViewportSize(size);
    await page.reload();
  }
}

/** From the login page to the signed-in home page, its header showing who is signed in. */
export async function signIn(page, who = ADMIN) {
  await page.goto(`${BASE}/login`);
  await login(page, who);
  await page.waitForURL(`${BASE}/`);
  await page.getByTestId('who-am-i').waitFor();
}

let outboxReader;

/**
 * The newest mail to `to` (after mail `newerThan`) whose text holds a link matching `pattern`, read from the outbox
 * (GET /api/mail/outbox, super admin) and waited for, as mail is sent after commit: its id and the link.
 */
export async function mailedLink(to, pattern, { newerThan = 0 } = {}) {
  outboxReader ??= bearer(ADMIN, 'e2e outbox').then(client);
  const admin = await outboxReader;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    for (const mail of await admin('GET', `/mail/outbox?to=${encodeURIComponent(to)}`)) {
      if (mail.id <= newerThan) continue;
      const match = pattern.exec(mail.text_body ?? '');
      if (match) return { id: mail.id, url: new URL(match[0]) };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to} matching ${pattern}`);
}

export const VERIFY_LINK = /https?:\/\/\S+\/verify-email\/[^\s?]+/;

/**
 * A new organisation through the page: /register/{plan} filled in and sent, until "Check your e-mail" (nobody is
 * signed in before the address is confirmed; confirmAndSignIn does that).
 */
export async function registerOrganisation(page, { name, organisation, email, password, plan = 'free' }) {
  await page.goto(`${BASE}/register/${plan}`);
  await page.getByLabel(/^Your name/).fill(name);
  await page.getByLabel(/^Organisation name/).fill(organisation);
  await page.getByLabel(/^E-mail address/).fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByLabel(/^Confirm the password/).fill(password);
  await page.getByRole('button', { name: 'Create the account' }).click();
  await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
}

/**
 * Follows the confirm link mailed after registering (which creates the organisation), then signs its administrator
 * in from the page it lands on; `confirmed` runs on the "your account is ready" page. Answers the link.
 */
export async function confirmAndSignIn(page, { email, password }, confirmed = async () => {}) {
  const { url } = await mailedLink(email, VERIFY_LINK);
  await page.goto(`${BASE}${url.pathname}`);
  await page.getByRole('status').filter({ hasText: 'your account is ready' }).waitFor();
  await confirmed();
  await page.getByRole('link', { name: 'Go to sign in' }).click();
  await page.waitForURL(/\/login/);
  await login(page, { email, password });
  await page.waitForURL(`${BASE}/`);
  return url;
}

/** Waits for a notification (role status) with this text. */
export async function toast(page, text) {
  await page.getByRole('status').filter({ hasText: text }).first().waitFor();
}

/** GET through the signed-in page (same origin, session cookie), as the app would. */
export async function apiGet(page, path) {
  return page.evaluate(async (p) => {
    const res = await fetch(`/api${p}`, { headers: { Accept: 'application/json' } });
    return { status: res.status, body: await res.json() };
  }, path);
}

/**
 * A published course with one published SCORM content holding `bytes` (a zip) as its package, made through the API by
 * `api` (a `client`): the content and the package as the server answered.
 */
export async function publishScorm(api, { course, title, bytes, file }) {
  const { id: courseId } = await api('POST', '/courses', { title: course, published: true });
  const content = await api('POST', '/content', {
    course_id: courseId,
    type: 'scorm',
    title,
    published: true,
  });
  const form = new FormData();
  form.append('package', new Blob([bytes]), file);
  const pkg = await api('POST', `/content/${content.id}/package`, form);
  return { content, pkg };
}

/** A zip of stored entries (enough for a SCORM or H5P package; the server tests cover deflate and hostile zips). */
export function zip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, text] of entries) {
    const data = Buffer.from(text, 'utf8');
    const fileName = Buffer.from(name, 'utf8');
    const crc = zlib.crc32(data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A bearer token for a demo user (the mobile login). */
export async function bearer(who, deviceName = 'e2e') {
  const res = await fetch(`${BASE}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ email: who.email, password: who.password, device_name: deviceName }),
  });
  assert.equal(res.status, 200, `login ${who.email}`);
  return (await res.json()).data.token;
}

/** An API caller with that token: `await api('POST', '/courses', body)` answers `data`, asserting a 2xx. */
export function client(token) {
  return async (method, path, body) => {
    const form = body instanceof FormData;
    const res = await fetch(`${BASE}/api${path}`, {
      method,
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${token}`,
        ...(body && !form ? { 'content-type': 'application/json' } : {}),
      },
      body: form ? body : body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json().catch(() => null);
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
}

/**
 * Authors and publishes, as `call` (a client()): course → e-learning content → a lesson with one topic → an optional
 * quiz of one question whose first answer is right. Answers every record made.
 */
export async function authorElearningCourse(
  call,
  { course, content, lesson, topic, quiz, estimatedDuration },
) {
  const made = {};
  made.course = await call('POST', '/courses', { title: course, published: true });
  made.content = await call('POST', '/content', {
    course_id: made.course.id,
    type: 'elearning',
    title: content,
    published: true,
    ...(estimatedDuration ? { estimated_duration: estimatedDuration } : {}),
  });
  made.lesson = await call('POST', '/lessons', { title: lesson });
  made.topic = await call('POST', '/topics', { title: topic.title, body_html: topic.html });
  await call('POST', `/lessons/${made.lesson.id}/topics`, { action: 'add', topic_id: made.topic.id });
  await call('POST', `/content/${made.content.id}/lessons`, { action: 'add', lesson_id: made.lesson.id });
  if (quiz) {
    made.quiz = await call('POST', '/quizzes', {
      title: quiz.title,
      published: true,
      pass_mark: 100,
      questions: [
        {
          text: quiz.question,
          answers: [
            { text: quiz.right, is_correct: true },
            { text: quiz.wrong, is_correct: false },
          ],
        },
      ],
    });
    await call('POST', `/content/${made.content.id}/quizzes`, { action: 'add', quiz_id: made.quiz.id });
  }
  return made;
}

/**
 * The text of a PDF as a reader would copy it (Mozilla's pdf.js, which reads embedded fonts through their ToUnicode
 * maps, as server/test/pdf-text.ts does for the server suite).
 */
export async function pdfText(bytes) {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  }).promise;
  const pages = [];
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      pages.push(
        content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''),
      );
    }
  } finally {
    await doc.destroy();
  }
  return pages.join('\n');
}

/**
 * The SCO's frame on a SCORM player page. With a package origin (the e2e server's default: APP_URL on 127.0.0.1
 * gives packages.localhost), the player frames the launcher page, which frames the SCO (issue 11 finding 1).
 */
export function scoFrame(page) {
  return page.frameLocator('section[data-player=scorm] iframe').frameLocator('iframe');
}

/**
 * Opens an item of a multi-SCO package from its contents and returns the new SCO's frame. The player first closes
 * the SCO on show (its frame goes to about:blank), then frames the next one in a new iframe: a locator taken in
 * between would reach into the closing frame and fail with "Target closed", so the old frame is marked and the
 * new one awaited.
 */
export async function openScormItem(page, button) {
  const frames = page.locator('section[data-player=scorm] iframe');
  await frames.evaluateAll((all) => {
    for (const frame of all) frame.setAttribute('data-e2e-left', '');
  });
  await button.click();
  const fresh = 'section[data-player=scorm] iframe:not([data-e2e-left])';
  await page.locator(fresh).waitFor();
  const sco = page.frameLocator(fresh).frameLocator('iframe');
  // The SCO initialises on load: a learner who moves on before that has not attempted it.
  await sco
    .locator('body')
    .evaluate(
      () => new Promise((r) => (document.readyState === 'complete' ? r() : addEventListener('load', r))),
    );
  return sco;
}

/** rectanglePdf's resources for text: the standard Helvetica as /F1 (`BT /F1 14 Tf 60 560 Td (words) Tj ET`). */
export const PDF_HELVETICA = '<</Font<</F1<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>>>>>';

/** The H5P content's frame: h5p-standalone's iframe inside the sandboxed player page (issue 11 finding 1). */
export function h5pFrame(page) {
  return page.frameLocator('[data-player="h5p"] iframe').frameLocator('iframe');
}

/**
 * A small valid PDF: one A4 page drawn with `stream` (PDF drawing operators, filled rectangles by default), correct
 * xref offsets and no font, enough for pdf.js to draw pixels and for the upload check to know it by its bytes.
 * `resources` names what the stream uses (PDF_HELVETICA: text as /F1, for pdf.js's text layer).
 */
export function rectanglePdf(stream = '0.1 0.5 0.3 rg 60 600 475 160 re f', resources = '<<>>') {
  const objects = [
    '<</Type/Catalog/Pages 2 0 R>>',
    '<</Type/Pages/Kids[3 0 R]/Count 1>>',
    `<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Contents 4 0 R/Resources${resources}>>`,
    `<</Length ${stream.length}>>\nstream\n${stream}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets = objects.map((object, i) => {
    const at = body.length;
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return at;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) body += `${String(at).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
