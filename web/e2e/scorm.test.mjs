import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN,
  BASE,
  bearer,
  checkPage,
  client,
  h5pFrame,
  launch,
  login,
  newPage,
  publishScorm,
  scoFrame,
  zip,
} from './lib.mjs';

/**
 * Issue 4 items 2 and 6, the SCORM browser flow: the admin uploads a SCORM 1.2 package built here (through the
 * API), the learner opens the attempt page, the package's own script finds window.API (scorm-again) in the parent
 * page and calls LMSInitialize, LMSSetValue('cmi.core.lesson_status', 'passed'), LMSCommit and LMSFinish; the
 * attempt is then passed on the server with a SCORM result.
 */
const LEARNER = { email: 'learner@demo.test', password: ADMIN.password };
const stamp = Date.now().toString(36);
const COURSE = `SCORM course ${stamp}`;
const CONTENT = `Infection control SCORM ${stamp}`;

const MANIFEST = `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="e2e.sco" version="1" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="o"><organization identifier="o"><title>${CONTENT}</title>
    <item identifier="i" identifierref="r"><title>Lesson</title></item></organization></organizations>
  <resources><resource identifier="r" type="webcontent" adlcp:scormtype="sco" href="index.html">
    <file href="index.html"/></resource></resources>
</manifest>`;
const SCO = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SCO</title><script>
window.addEventListener('load', function () {
  var w = window, n = 0;
  while (w && !w.API && w.parent && w.parent !== w && n++ < 10) w = w.parent;
  var api = w && w.API, state = document.getElementById('state');
  if (!api) { state.textContent = 'No API'; return; }
  api.LMSInitialize('');
  state.textContent = 'Started as ' + api.LMSGetValue('cmi.core.student_id');
  document.getElementById('finish').addEventListener('click', function () {
    api.LMSSetValue('cmi.core.score.raw', '95');
    api.LMSSetValue('cmi.core.lesson_status', 'passed');
    api.LMSCommit('');
    api.LMSFinish('');
    state.textContent = 'Finished';
  });
});
</script></head><body><main><h1 id="state">Loading</h1><button id="finish" type="button">Finish lesson</button></main></body></html>`;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('SCORM: upload, play, pass', () => {
  it("a learner plays a SCORM 1.2 package whose own script reports 'passed' through window.API", async () => {
    const admin = client(await bearer(ADMIN, 'e2e scorm'));
    const { content, pkg } = await publishScorm(admin, {
      course: COURSE,
      title: CONTENT,
      bytes: zip([
        ['imsmanifest.xml', MANIFEST],
        ['index.html', SCO],
      ]),
      file: 'sco.zip',
    });
    assert.equal(pkg.version, '1.2');
    assert.equal(pkg.launch_path, 'index.html');

    const learnerToken = await bearer(LEARNER, 'e2e scorm');
    const learner = client(learnerToken);
    const me = await learner('GET', '/auth/user');
    const attempt = await learner('POST', `/users/${me.id}/attempts`, { content_id: content.id });

    const { page, errors } = await newPage(browser);
    await page.goto(`${BASE}/login`);
    await login(page, LEARNER);
    await page.waitForURL(`${BASE}/`);
    await page.goto(`${BASE}/attempt/${attempt.id}`);
    const frame = scoFrame(page);
    await frame.getByText(`Started as ${me.id}`).waitFor();
    await checkPage(page, 'scorm-player');
    await frame.getByRole('button', { name: 'Finish lesson' }).click();
    // The package's iframe closes as soon as the commit finishes the attempt, so the page (not the frame) is
    // where the end shows; the frame may already be gone when its own 'Finished' line is written.
    await page.getByText('This attempt is finished.', { exact: true }).waitFor();

    let current;
    for (let i = 0; i < 50; i++) {
      current = await learner('GET', `/attempts/${attempt.id}`);
      if (current.status !== 'in_progress') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(current.status, 'passed');
    assert.equal(current.score, 95);
    assert.equal(current.cmi.items.i.cmi.core.lesson_status, 'passed');
    assert.equal(await page.getByRole('alert').count(), 0, 'no error after the package finished');
    assert.deepEqual(errors, []);
  });

  it('the vendored H5P player (h5p-standalone) renders an uploaded .h5p in its sandboxed frame', async () => {
    // A tiny but real H5P library: library.json + its preloaded script, run by the real H5P core in its frame.
    // (The learner page mounts players/H5PPlayer.tsx inside topics; that needs GET /attempts/{id}/structure.)
    const library =
      'H5P.E2EText = function (params) { this.attach = function ($c) { $c.append(H5P.jQuery(\'<p class="e2e-text"></p>\').text(params.text)); }; };';
    const h5p = zip([
      [
        'h5p.json',
        JSON.stringify({
          title: 'E2E text',
          language: 'en',
          mainLibrary: 'H5P.E2EText',
          embedTypes: ['iframe'],
          preloadedDependencies: [{ machineName: 'H5P.E2EText', majorVersion: 1, minorVersion: 0 }],
        }),
      ],
      ['content/content.json', JSON.stringify({ text: 'Hello from a real H5P library' })],
      [
        'H5P.E2EText-1.0/library.json',
        JSON.stringify({
          title: 'E2E Text',
          machineName: 'H5P.E2EText',
          majorVersion: 1,
          minorVersion: 0,
          patchVersion: 0,
          runnable: 1,
          preloadedJs: [{ path: 'text.js' }],
        }),
      ],
      ['H5P.E2EText-1.0/text.js', library],
    ]);
    const admin = client(await bearer(ADMIN, 'e2e scorm'));
    const item = await admin('POST', '/h5ps', { title: `E2E H5P ${stamp}` });
    const form = new FormData();
    form.append('package', new Blob([h5p]), 'e2e.h5p');
    const pkg = await admin('POST', `/h5ps/${item.id}/package`, form);
    assert.equal(pkg.main_library, 'H5P.E2EText 1.0');

    const { page, errors } = await newPage(browser);
    await page.goto(`${BASE}/login`);
    await login(page, ADMIN);
    await page.waitForURL(`${BASE}/`);
    // As players/H5PPlayer.tsx does it (issue 11 finding 1): the player page runs in a sandboxed frame on the package
    // origin under the signed launch URL, never in the app page.
    await page.evaluate(
      ({ launchData, sandbox }) => {
        const holder = document.createElement('div');
        holder.dataset.player = 'h5p';
        const frame = document.createElement('iframe');
        frame.setAttribute('sandbox', sandbox);
        frame.name = `cc-h5p:${JSON.stringify({ origin: location.origin, id: launchData.uuid, base: launchData.base_url, title: 'E2E text' })}`;
        frame.src = new URL(launchData.player_url, location.origin).href;
        holder.append(frame);
        document.body.prepend(holder);
      },
      {
        launchData: pkg,
        sandbox: `allow-scripts allow-forms allow-popups allow-modals${pkg.package_origin ? ' allow-same-origin' : ''}`,
      },
    );
    const text = await h5pFrame(page).locator('.e2e-text').textContent();
    assert.equal(text, 'Hello from a real H5P library');
    assert.deepEqual(errors, []);
  });
});
