import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN, BASE, bearer, client, launch, newPage, publishScorm, scoFrame, signIn, zip } from './lib.mjs';

/**
 * Issue 11 finding 1: package content is untrusted code. A hostile SCORM 1.2 package (built here) is uploaded and
 * played by the super admin. On load it tries what a package uploaded by anyone could once do as its viewer: read
 * the app's cookies (the XSRF token), call /api with the viewer's credentials (a read of every user, and a write
 * with the XSRF header), read the player page (window.parent.document, window.top.location) and navigate the top
 * window away. It reports what it achieved through the SCORM API (cmi.suspend_data, committed to the attempt), and
 * this test asserts it achieved none of it, that its write created nothing, and that the page stayed on the player.
 */
const stamp = Date.now().toString(36);
const TITLE = `Hostile package ${stamp}`;
const PLANTED = `HOSTILE-${stamp}`;

const MANIFEST = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="hostile" version="1" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="o"><organization identifier="o"><title>${TITLE}</title>
    <item identifier="i" identifierref="r"><title>Lesson</title></item></organization></organizations>
  <resources><resource identifier="r" type="webcontent" adlcp:scormtype="sco" href="index.html">
    <file href="index.html"/></resource></resources>
</manifest>`;

const HOSTILE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hostile</title><script>
function attempt(fn) { try { return fn(); } catch (e) { return 'threw: ' + (e && e.name); } }
async function request(url, init) {
  try {
    var res = await fetch(url, init);
    var text = await res.text();
    return res.status + ' ' + text.slice(0, 300);
  } catch (e) {
    return 'threw: ' + (e && e.name);
  }
}
window.addEventListener('load', async function () {
  var report = {};
  report.cookie = attempt(function () { return document.cookie; });
  var xsrf = /XSRF-TOKEN=([^;]+)/.exec(String(report.cookie));
  report.users = await request('/api/users', { credentials: 'include', headers: { accept: 'application/json' } });
  report.write = await request('/api/courses', {
    method: 'POST',
    credentials: 'include',
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      'x-xsrf-token': xsrf ? decodeURIComponent(xsrf[1]) : '',
    },
    body: JSON.stringify({ title: '${PLANTED}', published: true }),
  });
  report.simpleWrite = await request('/api/courses', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ title: '${PLANTED}-simple' }),
  });
  // The player page: the parent of a SCO framed directly, the top window of one framed by the launcher.
  report.appDocument = attempt(function () { return String(window.top.document.title); });
  report.appRuntime = attempt(function () { return typeof window.top.API + typeof window.top.API_1484_11; });
  report.topLocation = attempt(function () { return String(window.top.location.href); });
  report.storage = attempt(function () { return String(window.localStorage.length); });
  report.navigate = attempt(function () { window.top.location.href = '${BASE}/hijacked'; return 'no error'; });
  var w = window;
  while (!w.API && w.parent !== w) w = w.parent; // the SCORM API discovery: the launcher is its parent
  var api = w.API;
  api.LMSInitialize('');
  api.LMSSetValue('cmi.suspend_data', JSON.stringify(report));
  api.LMSCommit('');
  document.getElementById('state').textContent = 'Reported';
});
</script></head><body><main><h1 id="state">Loading</h1></main></body></html>`;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('package isolation (issue 11 finding 1)', () => {
  it('a hostile package played by the super admin reads no cookie, calls no API as them, cannot reach or move the page', async () => {
    const admin = client(await bearer(ADMIN, 'e2e package isolation'));
    const me = await admin('GET', '/auth/user');
    const { content } = await publishScorm(admin, {
      course: `Isolation ${stamp}`,
      title: TITLE,
      bytes: zip([
        ['imsmanifest.xml', MANIFEST],
        ['index.html', HOSTILE],
      ]),
      file: 'hostile.zip',
    });
    const attempt = await admin('POST', `/users/${me.id}/attempts`, { content_id: content.id });

    const { page } = await newPage(browser);
    await signIn(page, ADMIN);
    // The app's own page does hold the cookies the package goes after.
    const appCookies = await page.evaluate(() => document.cookie);
    assert.match(appCookies, /XSRF-TOKEN=/);
    const playerUrl = `${BASE}/attempt/${attempt.id}`;
    await page.goto(playerUrl);
    const frame = page.locator('section[data-player=scorm] iframe');
    await frame.waitFor();
    assert.match((await frame.getAttribute('sandbox')) ?? '', /^allow-scripts allow-forms allow-popups/);
    assert.doesNotMatch((await frame.getAttribute('sandbox')) ?? '', /allow-top-navigation/);
    await scoFrame(page).getByText('Reported').waitFor();

    // What it reported, as committed through the SCORM API to the attempt.
    let report;
    for (let i = 0; i < 50 && !report; i++) {
      const saved = await admin('GET', `/attempts/${attempt.id}`);
      const suspend = JSON.stringify(saved.cmi).match(/"suspend_data":"((?:[^"\\]|\\.)*)"/)?.[1];
      if (suspend) report = JSON.parse(JSON.parse(`"${suspend}"`));
      else await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(report, 'the package reported through the SCORM bridge');
    // An opaque origin may not read cookies at all (it throws); a package origin has none of the app's.
    assert.ok(report.cookie === '' || /^threw/.test(report.cookie), `no cookie: ${report.cookie}`);
    assert.doesNotMatch(report.cookie, /XSRF|cc_session/);
    assert.doesNotMatch(report.users, /^200/, `no user list: ${report.users}`);
    assert.doesNotMatch(report.users, /admin@demo\.test/);
    assert.doesNotMatch(report.write, /^20/, `no write: ${report.write}`);
    assert.doesNotMatch(report.simpleWrite, /^20/, `no write: ${report.simpleWrite}`);
    assert.match(report.appDocument, /^threw/, 'the player page is out of reach');
    assert.match(report.appRuntime, /^threw/, 'and so is the runtime on it');
    assert.match(report.topLocation, /^threw/);
    assert.equal(page.url(), playerUrl, 'the top window stayed on the player');
    await page.getByRole('button', { name: 'Close the package' }).waitFor();

    // Nothing the package sent was done: no course with its title exists.
    const courses = await admin('GET', `/courses?search=${encodeURIComponent(PLANTED)}&per_page=100`);
    const list = Array.isArray(courses) ? courses : (courses?.data ?? []);
    assert.equal(list.filter((c) => String(c.title).startsWith(PLANTED)).length, 0);
  });

  it('a hostile package that plants cookies for every domain it can name leaves the viewer signed in as themselves (issue 29 §1)', async () => {
    // Cookie tossing: cc_session and XSRF-TOKEN written with Domain= the app's host, its parent, the package's own
    // host and none, on / and on /api. On the supported http set-up (a package origin on another site, here
    // packages.localhost beside 127.0.0.1; config.ts refuses a sibling subdomain on http) none reaches the app.
    const TOSSER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tosser</title><script>
window.addEventListener('load', function () {
  var host = location.hostname;
  var domains = ['', host, host.split('.').slice(1).join('.'), '127.0.0.1', 'localhost'];
  domains.forEach(function (d) {
    ['/', '/api'].forEach(function (p) {
      var attrs = (d ? '; domain=' + d : '') + '; path=' + p + '; max-age=3600';
      try { document.cookie = 'cc_session=planted' + attrs; document.cookie = 'XSRF-TOKEN=planted' + attrs; } catch (e) {}
    });
  });
  var w = window;
  while (!w.API && w.parent !== w) w = w.parent;
  w.API.LMSInitialize('');
  w.API.LMSSetValue('cmi.suspend_data', String(document.cookie).slice(0, 200));
  w.API.LMSCommit('');
  document.getElementById('state').textContent = 'Planted';
});
</script></head><body><main><h1 id="state">Loading</h1></main></body></html>`;
    const admin = client(await bearer(ADMIN, 'e2e cookie tossing'));
    const me = await admin('GET', '/auth/user');
    const { content } = await publishScorm(admin, {
      course: `Tossing ${stamp}`,
      title: `Cookie tosser ${stamp}`,
      bytes: zip([
        ['imsmanifest.xml', MANIFEST.replaceAll(TITLE, `Cookie tosser ${stamp}`)],
        ['index.html', TOSSER],
      ]),
      file: 'tosser.zip',
    });
    const attempt = await admin('POST', `/users/${me.id}/attempts`, { content_id: content.id });

    const { page } = await newPage(browser);
    await signIn(page, ADMIN);
    const before = await page.context().cookies(BASE);
    await page.goto(`${BASE}/attempt/${attempt.id}`);
    await scoFrame(page).getByText('Planted').waitFor();

    // The package's writes landed on its own origin at most, never on the app's.
    const after = await page.context().cookies(BASE);
    assert.equal(after.filter((c) => c.value === 'planted').length, 0, JSON.stringify(after));
    assert.deepEqual(
      after.map((c) => `${c.name}=${c.value}`).sort(),
      before.map((c) => `${c.name}=${c.value}`).sort(),
    );
    // After a reload the viewer is still themselves, and a write with the app's XSRF token still passes.
    await page.reload();
    const check = await page.evaluate(async () => {
      const user = await fetch('/api/auth/user', { headers: { accept: 'application/json' } });
      const xsrf = /(?:^|; )XSRF-TOKEN=([^;]+)/.exec(document.cookie)?.[1] ?? '';
      // An empty course: 422 once past the XSRF check (419 had the token been replaced).
      const write = await fetch('/api/courses', {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          'x-xsrf-token': decodeURIComponent(xsrf),
        },
        body: '{}',
      });
      return { user: user.status, email: (await user.json()).data?.email, write: write.status };
    });
    assert.equal(check.user, 200);
    assert.equal(check.email, ADMIN.email);
    assert.equal(check.write, 422, 'the XSRF token was not replaced');
  });
});
