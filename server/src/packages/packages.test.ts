import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ContentPerm as P, PERMISSIONS, SESSION_COOKIE } from '@cc/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildUser, contentAuthor, TEST_PASSWORD } from '../../test/factories';
import { createHarness, type Harness, webLogin } from '../../test/harness';
import { buildContent } from '../../test/learning-factories';
import {
  buildZip,
  h5pPackage,
  multipart,
  scorm12Package,
  scorm2004Package,
  scormMultiScoManifest,
  scormMultiScoPackage,
} from '../../test/package-factories';
import {
  rollupScos,
  SCO_NOT_IN_PACKAGE,
  savedItems,
  scoOutcome,
  scoreFraction,
  scormOutcome,
} from '../learning/scorm-completion';
import { signLaunch, verifyLaunch } from './launch';
import { parseScormManifest } from './manifest';
import { SCORM_BRIDGE_TAG } from './routes';
import { scormLearnerName } from './service';

let h: Harness;
let org: { id: number };
let author: Record<string, string>;
let learnerId: number;
let learner: Record<string, string>;
let outsider: Record<string, string>;
let viewer: Record<string, string>;

beforeAll(async () => {
  // The opaque sandbox (no package origin); the package origin has its own describe below.
  h = await createHarness({ packageOrigin: undefined });
  org = await buildEntity(h.db, { level: 'A' });
  const authorUser = await buildUser(h.db, {
    entityId: org.id,
    permissions: [P.contentCreator, P.addContent, P.editContent, P.addCourses, P.editCourses],
  });
  author = await bearer(h.db, authorUser.id);
  viewer = await bearer(
    h.db,
    (await buildUser(h.db, { entityId: org.id, permissions: [P.contentCreator] })).id,
  );
  const learnerUser = await buildUser(h.db, { entityId: org.id, permissions: [] });
  learnerId = learnerUser.id;
  learner = await bearer(h.db, learnerUser.id);
  outsider = await bearer(h.db, (await buildUser(h.db, { permissions: PERMISSIONS.map((p) => p.id) })).id);
});
afterAll(async () => h?.close());
afterEach(() => {
  delete process.env.PACKAGE_MAX_BYTES;
});

const packagesDir = () => path.join(h.deps.config.dataDir, 'files', 'packages');
const upload = (url: string, headers: Record<string, string>, bytes: Buffer, name = 'package.zip') => {
  const body = multipart('package', name, bytes);
  return h.app.inject({
    method: 'POST',
    url,
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
};
const get = (url: string, headers: Record<string, string>) => h.app.inject({ method: 'GET', url, headers });
const call = (
  method: 'POST' | 'PATCH' | 'GET',
  url: string,
  headers: Record<string, string>,
  payload?: object,
) => h.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

async function scormContent() {
  return buildContent(h.db, org.id, { type: 'scorm' });
}

describe('SCORM upload', () => {
  it('answers 401 without a caller, 404 to another organisation, 403 without permission 30', async () => {
    const content = await scormContent();
    const url = `/api/content/${content.id}/package`;
    expect((await upload(url, {}, scorm12Package())).statusCode).toBe(401);
    expect((await upload(url, outsider, scorm12Package())).statusCode).toBe(404);
    expect((await upload(url, viewer, scorm12Package())).statusCode).toBe(403);
    expect((await upload('/api/content/99999999/package', author, scorm12Package())).statusCode).toBe(404);
  });

  it('parses a SCORM 1.2 manifest: version, title, launch file, mastery score', async () => {
    const content = await scormContent();
    const res = await upload(
      `/api/content/${content.id}/package`,
      author,
      scorm12Package({ masteryScore: 80 }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      version: '1.2',
      title: 'Handwashing (SCORM 1.2)',
      launch_path: 'sco/index.html',
      mastery_score: 80,
      content_id: content.id,
    });
    expect(data.launch_url).toMatch(new RegExp(`^/packages/[^/]+/${data.uuid}/sco/index\\.html$`));
    expect(existsSync(path.join(packagesDir(), data.uuid, 'sco', 'sco.js'))).toBe(true);
    expect((await get(`/api/content/${content.id}/package`, author)).json().data.uuid).toBe(data.uuid);
    expect((await get(`/api/content/${content.id}/package`, outsider)).statusCode).toBe(404);

    // A new upload replaces the old package and its folder.
    const again = await upload(`/api/content/${content.id}/package`, author, scorm12Package());
    expect(again.statusCode).toBe(201);
    expect(existsSync(path.join(packagesDir(), data.uuid))).toBe(false);
    expect(again.json().data.mastery_score).toBeNull();
  });

  it('parses a SCORM 2004 manifest with launch parameters', async () => {
    const content = await scormContent();
    const res = await upload(`/api/content/${content.id}/package`, author, scorm2004Package());
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      version: '2004',
      title: 'Fire safety (SCORM 2004)',
      launch_path: 'launch.html?lang=en',
    });
  });

  it('refuses what is not SCORM content, not a zip, or has no launch file', async () => {
    const elearning = await buildContent(h.db, org.id);
    const notScorm = await upload(`/api/content/${elearning.id}/package`, author, scorm12Package());
    expect(notScorm.statusCode).toBe(422);
    const content = await scormContent();
    const url = `/api/content/${content.id}/package`;
    const garbage = await upload(url, author, Buffer.from('not a zip at all'));
    expect(garbage.statusCode).toBe(422);
    expect(garbage.json().message).toBe('The package is not a valid zip file.');
    const noManifest = await upload(url, author, buildZip([{ name: 'index.html', data: '<p>hi</p>' }]));
    expect(noManifest.json().message).toMatch(/imsmanifest\.xml is missing/);
    const manifest = `<?xml version="1.0"?><manifest identifier="x"><metadata><schemaversion>1.2</schemaversion></metadata>
      <organizations default="o"><organization identifier="o"><title>T</title><item identifier="i" identifierref="r"/></organization></organizations>
      <resources><resource identifier="r" type="webcontent" href="missing.html"/></resources></manifest>`;
    const missing = await upload(url, author, buildZip([{ name: 'imsmanifest.xml', data: manifest }]));
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toBe('The SCORM launch file missing.html is not in the package.');
    const noItem = manifest.replace('identifierref="r"', '');
    const none = await upload(url, author, buildZip([{ name: 'imsmanifest.xml', data: noItem }]));
    expect(none.json().message).toMatch(/no launch file/);
    const empty = await h.app.inject({ method: 'POST', url, headers: author });
    expect(empty.statusCode).toBe(422);
    expect(await h.db.selectFrom('scorm_packages').where('content_id', '=', content.id).execute()).toEqual(
      [],
    );
  });
});

describe('package safety', () => {
  const base = [
    { name: 'imsmanifest.xml', data: scormManifestFor('index.html') },
    { name: 'index.html', data: '<p>SCO</p>' },
  ];
  function scormManifestFor(href: string) {
    return `<?xml version="1.0"?><manifest identifier="x"><metadata><schemaversion>1.2</schemaversion></metadata>
      <organizations default="o"><organization identifier="o"><title>T</title><item identifier="i" identifierref="r"/></organization></organizations>
      <resources><resource identifier="r" type="webcontent" href="${href}"/></resources></manifest>`;
  }
  const listPackages = () => readdirSync(packagesDir()).sort();

  it.each([
    ['a zip-slip entry', '../evil.html', /unsafe path: \.\.\/evil\.html/],
    ['a nested zip-slip entry', 'sco/../../evil.html', /unsafe path/],
    ['an absolute path', '/etc/evil.html', /unsafe path: \/etc\/evil\.html/],
    ['a backslash path', '..\\evil.html', /unsafe path/],
    ['a drive letter', 'C:/evil.html', /unsafe path/],
  ])('refuses %s with 422 and writes nothing', async (_label, name, message) => {
    const content = await scormContent();
    await upload(`/api/content/${content.id}/package`, author, scorm12Package()); // the folder exists
    const listing = listPackages();
    const res = await upload(
      `/api/content/${content.id}/package`,
      author,
      buildZip([...base, { name, data: '<script>alert(1)</script>' }]),
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toMatch(message);
    expect(res.json().errors.package).toBeDefined();
    expect(listPackages()).toEqual(listing);
    expect(existsSync(path.join(h.deps.config.dataDir, 'files', 'evil.html'))).toBe(false);
  });

  it('refuses a path too long for an object store key', async () => {
    const content = await scormContent();
    const res = await upload(
      `/api/content/${content.id}/package`,
      author,
      buildZip([...base, { name: `${'a'.repeat(800)}.html`, data: 'x' }]),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/^The package contains a path longer than 768 bytes: a{80}…$/);
  });

  it('refuses symbolic links', async () => {
    const content = await scormContent();
    const res = await upload(
      `/api/content/${content.id}/package`,
      author,
      buildZip([...base, { name: 'link.html', data: '/etc/passwd', store: true, mode: 0o120777 }]),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('The package may not contain links: link.html');
  });

  it('refuses a zip bomb (an entry that expands far beyond its compressed size)', async () => {
    const content = await scormContent();
    const bomb = buildZip([...base, { name: 'zeros.js', data: Buffer.alloc(20 * 1024 * 1024) }]);
    expect(bomb.length).toBeLessThan(100 * 1024);
    const res = await upload(`/api/content/${content.id}/package`, author, bomb);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/zip bomb: zeros\.js expands \d+ times/);
  });

  it('refuses an upload over the size limit (PACKAGE_MAX_BYTES)', async () => {
    process.env.PACKAGE_MAX_BYTES = String(64 * 1024);
    const content = await scormContent();
    const random = Buffer.from(Array.from({ length: 200 * 1024 }, () => Math.floor(Math.random() * 256)));
    const big = buildZip([...base, { name: 'big.bin', data: random, store: true }]);
    const res = await upload(`/api/content/${content.id}/package`, author, big);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('The package may not be greater than 64 kilobytes.');
    // The received upload is removed too (it waits in DATA_DIR/tmp, local to the process, while it is extracted).
    expect(
      readdirSync(path.join(h.deps.config.dataDir, 'tmp')).filter((n) => n.startsWith('.upload-')),
    ).toEqual([]);
  });
});

describe('serving /packages/{token}/{uuid}/… (issue 11 finding 1: package content is untrusted code)', () => {
  let uuid: string;
  let contentId: number;
  /** The signed base the learner's launch data hands out: /packages/{token}/{uuid}. */
  let base: string;
  beforeAll(async () => {
    const content = await scormContent();
    contentId = content.id;
    const res = await upload(`/api/content/${content.id}/package`, author, scorm12Package());
    uuid = res.json().data.uuid;
    const attempt = await call('POST', `/api/users/${learnerId}/attempts`, learner, {
      content_id: contentId,
    });
    const launch = (await get(`/api/attempts/${attempt.json().data.id}/package`, learner)).json().data;
    base = launch.launch_url.replace(/\/sco\/index\.html$/, '');
  });
  const HOUR = 3600_000;
  const at = (offset: number) => ({ db: h.db, clock: () => new Date(Date.now() + offset) });

  it('hands out a signed launch URL holding neither the session nor a bearer token', async () => {
    expect(base).toMatch(new RegExp(`^/packages/\\d+\\.\\d+\\.[A-Za-z0-9_-]{43}/${uuid}$`));
    const [token] = base.split('/').slice(2);
    expect(token?.startsWith(`${learnerId}.`)).toBe(true);
    expect(base).not.toContain(learner.authorization?.replace('Bearer ', '').split('|')[1] ?? '-');
    const authoring = (await get(`/api/content/${contentId}/package`, author)).json().data;
    expect(authoring.launch_url).toMatch(new RegExp(`^/packages/[^/]+/${uuid}/sco/index\\.html$`));
    expect(authoring.package_origin).toBeNull();
  });

  it('serves the files as sandboxed documents in an opaque origin (no allow-same-origin), with safe headers', async () => {
    const res = await get(`${base}/sco/index.html`, {});
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(
      'sandbox allow-scripts allow-forms allow-popups allow-modals',
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    // The SCORM bridge comes first, before the page's own scripts.
    expect(res.body).toContain('sco.js');
    expect(res.body.indexOf(SCORM_BRIDGE_TAG)).toBeGreaterThan(-1);
    expect(res.body.indexOf(SCORM_BRIDGE_TAG)).toBeLessThan(res.body.indexOf('sco.js'));
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
    const js = await get(`${base}/sco/sco.js`, {});
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['content-security-policy']).toBe(
      'sandbox allow-scripts allow-forms allow-popups allow-modals',
    );
    expect(js.body).toContain('LMSInitialize');
    expect(js.body).not.toContain(SCORM_BRIDGE_TAG);
  });

  it('serves one byte range of a file (media seeking): 206 with the part, 416 past the end', async () => {
    const whole = await get(`${base}/sco/sco.js`, {});
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const part = await get(`${base}/sco/sco.js`, { range: 'bytes=2-9' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 2-9/${whole.rawPayload.length}`);
    expect(part.rawPayload.equals(whole.rawPayload.subarray(2, 10))).toBe(true);
    const suffix = await get(`${base}/sco/sco.js`, { range: 'bytes=-4' });
    expect(suffix.rawPayload.equals(whole.rawPayload.subarray(-4))).toBe(true);
    const past = await get(`${base}/sco/sco.js`, { range: `bytes=${whole.rawPayload.length}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${whole.rawPayload.length}`);
    // Not one single byte range: the whole file, as HTTP allows.
    expect((await get(`${base}/sco/sco.js`, { range: 'bytes=0-1,4-5' })).statusCode).toBe(200);
  });

  it("answers 404 without a token, with a wrong, expired or other package's token, and to the session cookie alone", async () => {
    const [, , token] = base.split('/');
    const sig = token?.split('.')[2] ?? '';
    const flipped = `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    const otherContent = await scormContent();
    const other = (await upload(`/api/content/${otherContent.id}/package`, author, scorm12Package())).json()
      .data;
    const expired = await signLaunch(at(-5 * HOUR), uuid, learnerId);
    const user = await buildUser(h.db, { entityId: org.id, permissions: [] });
    const web = await webLogin(h.app, user.email, TEST_PASSWORD);
    const cookies = { [SESSION_COOKIE]: web.jar[SESSION_COOKIE] as string };
    for (const url of [
      `/packages/${uuid}/sco/index.html`, // the old, session-authorized address
      `/packages/x/${uuid}/sco/index.html`,
      `/packages/${token?.replace(/\.[^.]+$/, `.${flipped}`)}/${uuid}/sco/index.html`,
      `/packages/${expired}/${uuid}/sco/index.html`,
      `/packages/${token}/${other.uuid}/sco/index.html`, // this package's token on another package
      `/packages/${(Number(token?.split('.')[0]) + 1).toString()}.${token?.split('.').slice(1).join('.')}/${uuid}/sco/index.html`,
    ]) {
      expect((await get(url, learner)).statusCode, url).toBe(404);
      expect((await h.app.inject({ method: 'GET', url, cookies })).statusCode, url).toBe(404);
    }
    expect(await verifyLaunch(at(0), token as string, uuid)).toBe(true);
    expect(await verifyLaunch(at(5 * HOUR), token as string, uuid)).toBe(false);
    expect(await verifyLaunch(at(0), token as string, other.uuid)).toBe(false);
  });

  it("never opens another organisation's package files, whatever token the caller holds", async () => {
    const elsewhere = await buildEntity(h.db, { level: 'A' });
    const theirAuthor = await contentAuthor(h.db, elsewhere.id);
    const theirs = await buildContent(h.db, elsewhere.id, { type: 'scorm' });
    const pkg = (await upload(`/api/content/${theirs.id}/package`, theirAuthor, scorm12Package())).json()
      .data;
    const [, , ourToken] = base.split('/');
    expect((await get(`/packages/${ourToken}/${pkg.uuid}/sco/index.html`, learner)).statusCode).toBe(404);
    expect((await get(`/api/content/${theirs.id}/package`, author)).statusCode).toBe(404);
    const theirBase = pkg.launch_url.replace(/\/sco\/index\.html$/, '');
    expect((await get(`${theirBase}/sco/index.html`, {})).statusCode).toBe(200);
    expect((await get(`${theirBase.replace(pkg.uuid, uuid)}/sco/index.html`, {})).statusCode).toBe(404);
  });

  it('answers 404 to unknown files and paths outside the folder', async () => {
    expect((await get(`${base}/sco/nope.html`, {})).statusCode).toBe(404);
    expect((await get(`${base}/imsmanifest.xml`, {})).statusCode).toBe(200);
    for (const evil of [
      `${base}/%2e%2e/%2e%2e/%2e%2e/etc/passwd`,
      `${base}/sco/..%2f..%2f..%2fpackages.test.ts`,
      `${base}/sco%5c..%5cindex.html`,
      `${base}/`,
      `${base.replace(uuid, 'not-a-uuid')}/sco/index.html`,
      `${base.replace(uuid, '00000000-0000-4000-8000-000000000000')}/sco/index.html`,
    ]) {
      const res = await get(evil, learner);
      expect(res.statusCode, evil).toBe(404);
    }
  });

  it('hands the launch URL only to callers who may open the package: unpublished content, its authors only', async () => {
    await h.db.updateTable('contents').set({ published: false }).where('id', '=', contentId).execute();
    expect((await get(`/api/content/${contentId}/package`, learner)).statusCode).not.toBe(200);
    expect((await get(`/api/content/${contentId}/package`, author)).statusCode).toBe(200);
    await h.db.updateTable('contents').set({ published: true }).where('id', '=', contentId).execute();
  });

  it('never serves package HTML under /api', async () => {
    const res = await get(`/api${base}/sco/index.html`, learner);
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
  });
});

describe('a configured package origin (PACKAGE_ORIGIN)', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await createHarness({ packageOrigin: 'http://packages.localhost:3000' });
  });
  afterAll(async () => p?.close());

  it('serves package files only on the package origin, sandboxed in it; the package origin serves nothing else', async () => {
    const entity = await buildEntity(p.db, { level: 'A' });
    const who = await bearer(
      p.db,
      (
        await buildUser(p.db, {
          entityId: entity.id,
          permissions: [P.contentCreator, P.addContent, P.editContent],
        })
      ).id,
    );
    const content = await buildContent(p.db, entity.id, { type: 'scorm' });
    const body = multipart('package', 'package.zip', scorm12Package());
    const res = await p.app.inject({
      method: 'POST',
      url: `/api/content/${content.id}/package`,
      headers: { ...who, ...body.headers },
      payload: body.payload,
    });
    const data = res.json().data;
    expect(data.package_origin).toBe('http://packages.localhost:3000');
    const url = new URL(data.launch_url);
    expect(url.origin).toBe('http://packages.localhost:3000');
    const onPackageHost = await p.app.inject({
      method: 'GET',
      url: url.pathname,
      headers: { host: 'packages.localhost:3000' },
    });
    expect(onPackageHost.statusCode).toBe(200);
    expect(onPackageHost.headers['content-security-policy']).toBe(
      'sandbox allow-scripts allow-forms allow-popups allow-modals allow-same-origin',
    );
    const onAppHost = await p.app.inject({
      method: 'GET',
      url: url.pathname,
      headers: { host: 'localhost:3000' },
    });
    expect(onAppHost.statusCode).toBe(404);
    const api = await p.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { ...who, host: 'packages.localhost:3000' },
    });
    expect(api.statusCode).toBe(404);
  });
});

describe('playing SCORM through to a result', () => {
  async function startAttempt(contentId: number) {
    const res = await call('POST', `/api/users/${learnerId}/attempts`, learner, { content_id: contentId });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; version: number };
  }
  const latest = (courseId: number) =>
    h.db
      .selectFrom('latest_results')
      .selectAll()
      .where('user_id', '=', learnerId)
      .where('course_id', '=', courseId)
      .executeTakeFirst();

  it('SCORM 1.2: incomplete keeps the attempt open, passed writes a scorm result and latest_results', async () => {
    const content = await scormContent();
    await upload(`/api/content/${content.id}/package`, author, scorm12Package());
    const attempt = await startAttempt(content.id);
    const pkg = await get(`/api/attempts/${attempt.id}/package`, learner);
    expect(pkg.json().data).toMatchObject({ version: '1.2', launch_path: 'sco/index.html' });
    expect((await get(`/api/attempts/${attempt.id}/package`, outsider)).statusCode).toBe(404);
    expect((await get(`/api/attempts/${attempt.id}/package`, author)).statusCode).toBe(404);

    const url = `/api/attempts/${attempt.id}`;
    const first = await call('PATCH', url, learner, {
      version: 1,
      cmi: { cmi: { core: { lesson_status: 'incomplete', lesson_location: 'page-2' } } },
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ status: 'in_progress', version: 2 });
    expect(first.json().data.cmi.items.item1.cmi.core.lesson_location).toBe('page-2');
    expect(first.json().data.cmi.items.item1.outcome).toEqual({ status: null, score: null });
    const stale = await call('PATCH', url, learner, {
      version: 1,
      cmi: { cmi: { core: { lesson_status: 'passed' } } },
    });
    expect(stale.statusCode).toBe(409);

    const done = await call('PATCH', url, learner, {
      version: 2,
      cmi: { cmi: { core: { lesson_status: 'passed', score: { raw: '85' } } } },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({ status: 'passed', score: 85 });
    const results = await h.db
      .selectFrom('results')
      .selectAll()
      .where('attempt_id', '=', attempt.id)
      .execute();
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      type: 'scorm',
      passed: true,
      content_id: content.id,
      user_id: learnerId,
    });
    expect(Number(results[0]?.score)).toBe(85);
    expect(await latest(content.course_id)).toMatchObject({
      result_id: results[0]?.id,
      passed: true,
      type: 'scorm',
    });
    // Finished: no more commits.
    expect((await call('PATCH', url, learner, { version: 3, cmi: {} })).statusCode).toBe(422);
  });

  it('SCORM 1.2 with a mastery score: a raw score below it fails the attempt', async () => {
    const content = await scormContent();
    await upload(`/api/content/${content.id}/package`, author, scorm12Package({ masteryScore: 80 }));
    const attempt = await startAttempt(content.id);
    const res = await call('PATCH', `/api/attempts/${attempt.id}`, learner, {
      version: attempt.version,
      cmi: { 'cmi.core.lesson_status': 'completed', 'cmi.core.score.raw': '60' },
    });
    expect(res.json().data).toMatchObject({ status: 'failed', score: 60 });
    expect(await latest(content.course_id)).toMatchObject({ passed: false, type: 'scorm' });
  });

  it('SCORM 2004: completed + passed writes a passed result with the scaled score', async () => {
    const content = await scormContent();
    await upload(`/api/content/${content.id}/package`, author, scorm2004Package());
    const attempt = await startAttempt(content.id);
    const url = `/api/attempts/${attempt.id}`;
    const partial = await call('PATCH', url, learner, {
      version: 1,
      cmi: { cmi: { completion_status: 'incomplete', success_status: 'unknown', location: '3' } },
    });
    expect(partial.json().data.status).toBe('in_progress');
    const res = await call('PATCH', url, learner, {
      version: 2,
      cmi: { cmi: { completion_status: 'completed', success_status: 'passed', score: { scaled: '0.9' } } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'passed', score: 90 });
    const result = await h.db
      .selectFrom('results')
      .selectAll()
      .where('attempt_id', '=', attempt.id)
      .executeTakeFirstOrThrow();
    expect(result).toMatchObject({ type: 'scorm', passed: true });
    expect(await latest(content.course_id)).toMatchObject({
      result_id: result.id,
      type: 'scorm',
      passed: true,
    });
  });
});

describe('scormOutcome', () => {
  it('maps the CMI of both versions', () => {
    expect(scormOutcome('1.2', { cmi: { core: { lesson_status: 'browsed' } } })).toBeNull();
    expect(scormOutcome('1.2', { core: { lesson_status: 'completed' } })).toEqual({
      status: 'completed',
      passed: true,
      score: null,
    });
    expect(
      scormOutcome('1.2', { 'cmi.core.lesson_status': 'passed', 'cmi.core.score.raw': 79 }, 80),
    ).toMatchObject({
      status: 'failed',
      passed: false,
    });
    expect(
      scormOutcome('2004', { cmi: { completion_status: 'completed', success_status: 'unknown' } }),
    ).toMatchObject({ status: 'completed', passed: true });
    expect(
      scormOutcome('2004', { cmi: { completion_status: 'completed', success_status: 'failed' } }),
    ).toMatchObject({
      status: 'failed',
      passed: false,
    });
    expect(scormOutcome('2004', { cmi: { completion_status: 'incomplete' } })).toBeNull();
  });
});

describe('SCORM manifest items (issue 10 item 1)', () => {
  const files = new Set(['quiz.html', 'reading.html', 'handout.html']);

  it('reads every item of the first organisation when the default names none, depth first', () => {
    const m = parseScormManifest(scormMultiScoManifest(), files);
    expect(m.version).toBe('1.2');
    expect(m.title).toBe('Golf in parts');
    expect(m.launchPath).toBe('quiz.html');
    expect(m.masteryScore).toBe(70);
    expect(
      m.items.map((i) => [i.identifier, i.depth, i.parent, i.launch_path, i.scorm_type, i.visible]),
    ).toEqual([
      ['part1', 0, null, null, null, true],
      ['quiz', 1, 'part1', 'quiz.html', 'sco', true],
      ['reading', 1, 'part1', 'reading.html?page=2', 'sco', true],
      ['sheet', 0, null, 'handout.html', 'asset', true],
      ['hidden', 0, null, 'reading.html', 'sco', false],
    ]);
    expect(m.items[1]).toMatchObject({ mastery_score: 70, data_from_lms: 'lang=en', objective_ids: [] });
  });

  it('reads SCORM 2004 objectives and the passing score of a primary objective satisfied by measure', () => {
    const xml = scormMultiScoManifest({ version: '2004' });
    const m = parseScormManifest(xml, files);
    expect(m.version).toBe('2004');
    expect(m.items[1]).toMatchObject({
      identifier: 'quiz',
      objective_ids: ['PRIMARY', 'obj_a', 'obj_b'],
      scaled_passing_score: 0.8,
      completion_set_by_content: false,
    });
    expect(m.items[2]).toMatchObject({ scaled_passing_score: null, objective_ids: [] });
    // Not satisfied by measure: the measure is no pass mark (the SCO's success_status decides).
    const notByMeasure = parseScormManifest(xml.replace('satisfiedByMeasure="true"', ''), files);
    expect(notByMeasure.items[1]?.scaled_passing_score).toBeNull();
    // Satisfied by measure without a measure: IMS SS's default 1.0.
    const noMeasure = parseScormManifest(
      xml.replace('<imsss:minNormalizedMeasure>0.8</imsss:minNormalizedMeasure>', ''),
      files,
    );
    expect(noMeasure.items[1]?.scaled_passing_score).toBe(1);
    const byContent = parseScormManifest(
      xml.replace(
        '<imsss:objectives>',
        '<imsss:deliveryControls completionSetByContent="true"/><imsss:objectives>',
      ),
      files,
    );
    expect(byContent.items[1]?.completion_set_by_content).toBe(true);
  });

  it('refuses an item whose launch file is missing from the package', () => {
    const xml = scormMultiScoManifest();
    expect(() => parseScormManifest(xml, new Set(['quiz.html', 'reading.html']))).toThrow(
      expect.objectContaining({ message: 'The SCORM launch file handout.html is not in the package.' }),
    );
  });
});

describe('SCORM scores, verdicts and rollup', () => {
  it('reads a score relative to its range, never the raw number as a percentage', () => {
    expect(scoreFraction({ raw: '8', min: '0', max: '10' })).toBe(0.8);
    expect(scoreFraction({ raw: '15', min: '10', max: '20' })).toBe(0.5);
    expect(scoreFraction({ raw: '85' })).toBe(0.85); // 1.2's default range 0..100
    expect(scoreFraction({ scaled: '0.07', raw: '7', max: '100' })).toBe(0.07);
    expect(scoreFraction({ scaled: '-0.5' })).toBe(0);
    expect(scoreFraction({ raw: '' })).toBeNull();
    const complex = { core: { lesson_status: 'passed', score: { raw: '8', min: '0', max: '10' } } };
    expect(scoOutcome('1.2', complex, { mastery_score: null, scaled_passing_score: null })).toEqual({
      status: 'passed',
      score: 80,
    });
  });

  it('SCORM 2004: a SCO that only completes with a score below the passing score is not passed', () => {
    const rules = { mastery_score: null, scaled_passing_score: 0.8 };
    const low = { cmi: { completion_status: 'completed', score: { scaled: '0.07' } } };
    expect(scoOutcome('2004', low, rules)).toEqual({ status: 'failed', score: 7 });
    const high = { cmi: { completion_status: 'completed', score: { raw: '9', min: '0', max: '10' } } };
    expect(scoOutcome('2004', high, rules)).toEqual({ status: 'passed', score: 90 });
    // The LMS judges against the passing score even over the SCO's own verdict (RTE 4.2.22).
    const claimed = { cmi: { success_status: 'passed', score: { scaled: '0.5' } } };
    expect(scoOutcome('2004', claimed, rules)).toEqual({ status: 'failed', score: 50 });
    // Without a score the SCO's completion stays a completion (no verdict, never a pass).
    expect(scoOutcome('2004', { cmi: { completion_status: 'completed' } }, rules)).toEqual({
      status: 'completed',
      score: null,
    });
    // Without a passing score, a score is not judged: the SCO's own statuses count.
    expect(scormOutcome('2004', low)).toEqual({ status: 'completed', passed: true, score: 7 });
    expect(scormOutcome('2004', low, null, 0.8)).toEqual({ status: 'failed', passed: false, score: 7 });
    expect(
      scormOutcome('2004', { cmi: { completion_status: 'completed', success_status: 'passed' } }),
    ).toEqual({ status: 'passed', passed: true, score: null });
  });

  it('SCORM 1.2: the mastery score judges a raw score; incomplete, browsed and not attempted stay open', () => {
    const rules = { mastery_score: 70, scaled_passing_score: null };
    expect(scoOutcome('1.2', { core: { lesson_status: 'completed', score: { raw: '60' } } }, rules)).toEqual({
      status: 'failed',
      score: 60,
    });
    expect(scoOutcome('1.2', { core: { lesson_status: 'completed' } }, rules)).toEqual({
      status: 'completed',
      score: null,
    });
    for (const lesson_status of ['incomplete', 'browsed', 'not attempted'])
      expect(scoOutcome('1.2', { core: { lesson_status } }, rules).status).toBeNull();
    expect(scoOutcome('1.2', {}, { ...rules, scorm_type: 'asset' })).toEqual({
      status: 'completed',
      score: null,
    });
  });

  it('rolls SCOs up: done when all are done, failed when one failed, the mean of the scores', () => {
    const passed = { status: 'passed' as const, score: 90 };
    const completed = { status: 'completed' as const, score: null };
    const failed = { status: 'failed' as const, score: 40 };
    expect(rollupScos([passed, undefined])).toBeNull();
    expect(rollupScos([passed, { status: null, score: 10 }])).toBeNull();
    expect(rollupScos([])).toBeNull();
    expect(rollupScos([completed, completed])).toEqual({ status: 'completed', passed: true, score: null });
    expect(rollupScos([passed, completed])).toEqual({ status: 'passed', passed: true, score: 90 });
    expect(rollupScos([passed, failed, completed])).toEqual({ status: 'failed', passed: false, score: 65 });
  });

  it("keeps each SCO's data; an attempt saved before multi-SCO holds the first SCO's CMI", () => {
    expect(savedItems({}, 'a')).toEqual({});
    expect(savedItems({ cmi: { location: '2' } }, 'a')).toEqual({ a: { cmi: { location: '2' } } });
    expect(savedItems({ items: { b: { cmi: {} } } }, 'a')).toEqual({ b: { cmi: {} } });
  });

  it('gives the learner name in SCORM\'s "Last, First" form', () => {
    expect(scormLearnerName('Jane Doe')).toBe('Doe, Jane');
    expect(scormLearnerName(' Mary  Ann  Smith ')).toBe('Smith, Mary Ann');
    expect(scormLearnerName('Cher')).toBe('Cher');
  });
});

describe('multi-SCO attempts (issue 10 item 1)', () => {
  async function start(zip: Buffer) {
    const content = await scormContent();
    const up = await upload(`/api/content/${content.id}/package`, author, zip);
    expect(up.statusCode, up.body).toBe(201);
    const res = await call('POST', `/api/users/${learnerId}/attempts`, learner, { content_id: content.id });
    const attempt = res.json().data as { id: number; version: number };
    let version = attempt.version;
    const commit = async (sco: string | undefined, cmi: Record<string, unknown>, status = 200) => {
      const r = await call('PATCH', `/api/attempts/${attempt.id}`, learner, {
        version,
        cmi,
        ...(sco ? { sco } : {}),
      });
      expect(r.statusCode, r.body).toBe(status);
      if (status === 200) version = r.json().data.version;
      return r.json().data;
    };
    return { content, attempt, commit };
  }

  it('presents every item with its launch URL and the learner as SCORM names them', async () => {
    const { attempt } = await start(scormMultiScoPackage());
    const pkg = (await get(`/api/attempts/${attempt.id}/package`, learner)).json().data;
    expect(pkg.items.map((i: { identifier: string }) => i.identifier)).toEqual([
      'part1',
      'quiz',
      'reading',
      'sheet',
      'hidden',
    ]);
    expect(pkg.items[0].launch_url).toBeNull();
    expect(pkg.items[2].launch_url).toMatch(
      new RegExp(`^/packages/[^/]+/${pkg.uuid}/reading\\.html\\?page=2$`),
    );
    const me = await h.db
      .selectFrom('users')
      .select('name')
      .where('id', '=', learnerId)
      .executeTakeFirstOrThrow();
    expect(pkg.learner).toEqual({ id: String(learnerId), name: scormLearnerName(me.name) });
  });

  it('keeps data per SCO and finishes when every shown SCO is done: failed when one failed, mean score', async () => {
    const { attempt, commit } = await start(scormMultiScoPackage());
    await commit('nowhere', { cmi: { core: { lesson_status: 'passed' } } }, 422);
    const bad = await call('PATCH', `/api/attempts/${attempt.id}`, learner, {
      version: 1,
      sco: 'part1', // a heading: nothing to launch
      cmi: {},
    });
    expect(bad.json().errors.sco).toEqual([SCO_NOT_IN_PACKAGE]);

    // The quiz's raw score is judged against its mastery score (70): 60 fails it.
    let a = await commit('quiz', { cmi: { core: { lesson_status: 'completed', score: { raw: '60' } } } });
    expect(a.status).toBe('in_progress');
    expect(a.cmi.items.quiz.outcome).toEqual({ status: 'failed', score: 60 });
    // A failed SCO may be taken again inside the attempt: 90 passes it.
    a = await commit('quiz', { cmi: { core: { lesson_status: 'completed', score: { raw: '90' } } } });
    expect(a.cmi.items.quiz.outcome).toEqual({ status: 'passed', score: 90 });
    a = await commit('reading', { cmi: { core: { lesson_status: 'incomplete', lesson_location: '3' } } });
    expect(a.status).toBe('in_progress');
    expect(a.cmi.items.quiz.cmi.core.score.raw).toBe('90');
    a = await commit('reading', {
      cmi: { core: { lesson_status: 'failed', score: { raw: '4', max: '10' } } },
    });
    expect(a.status).toBe('in_progress'); // the handout (an asset) is not opened yet; the hidden SCO is not required
    a = await commit('sheet', {});
    expect(a).toMatchObject({ status: 'failed', score: 65 });
    const result = await h.db
      .selectFrom('results')
      .selectAll()
      .where('attempt_id', '=', attempt.id)
      .executeTakeFirstOrThrow();
    expect(result).toMatchObject({ type: 'scorm', passed: false });
    expect(Number(result.score)).toBe(65);
  });

  it('SCORM 2004: completed with 7 % against a passing score of 0.8 is recorded as failed, 90 % as passed', async () => {
    const low = await start(scormMultiScoPackage({ version: '2004' }));
    await low.commit('quiz', { cmi: { completion_status: 'completed', score: { scaled: '0.07' } } });
    await low.commit('reading', { cmi: { completion_status: 'completed' } });
    expect(await low.commit('sheet', {})).toMatchObject({ status: 'failed', score: 7 });

    const high = await start(scormMultiScoPackage({ version: '2004' }));
    await high.commit('quiz', {
      cmi: { completion_status: 'completed', success_status: 'passed', score: { scaled: '0.9' } },
    });
    await high.commit('sheet', {});
    expect(await high.commit('reading', { cmi: { completion_status: 'completed' } })).toMatchObject({
      status: 'passed',
      score: 90,
    });
  });
});

describe('H5P packages', () => {
  it('uploads an .h5p, records the main library and serves its files to authors and to learners of content using it', async () => {
    const item = await h.db
      .insertInto('h5ps')
      .values({ entity_id: org.id, title: 'Quiz' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const url = `/api/h5ps/${item.id}/package`;
    expect((await upload(url, outsider, h5pPackage(), 'quiz.h5p')).statusCode).toBe(404);
    expect((await upload(url, viewer, h5pPackage(), 'quiz.h5p')).statusCode).toBe(403);
    const res = await upload(url, author, h5pPackage(), 'quiz.h5p');
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({ title: 'Hand hygiene quiz', main_library: 'H5P.TrueFalse 1.8' });
    expect(data.base_url).toMatch(new RegExp(`^/packages/[^/]+/${data.uuid}$`));
    expect(data.player_url).toBe('/packages/runtime/h5p.html');
    const row = await h.db.selectFrom('h5ps').selectAll().where('id', '=', item.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ package_dir: data.uuid, library: 'H5P.TrueFalse 1.8' });
    expect((await get(url, author)).json().data.uuid).toBe(data.uuid);

    const file = `${data.base_url}/h5p.json`;
    const served = await get(file, {});
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(served.headers['content-security-policy']).toBe(
      'sandbox allow-scripts allow-forms allow-popups allow-modals',
    );
    expect((await get(`${data.base_url}/content/content.json`, {})).json().correct).toBe('true');
    expect((await get(`/api/h5ps/${item.id}/package`, outsider)).statusCode).toBe(404);
    expect((await get(`/api/h5ps/${item.id}/package`, learner)).statusCode).toBe(403);

    // Used by a topic of published content the learner may take: the learner reaches it.
    const content = await buildContent(h.db, org.id);
    const lesson = await h.db
      .insertInto('lessons')
      .values({ entity_id: org.id, title: 'L' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('content_lessons')
      .values({ content_id: content.id, lesson_id: lesson.id, position: 0 })
      .execute();
    const topic = await h.db
      .insertInto('topics')
      .values({ entity_id: org.id, title: 'T', h5p_id: item.id, resources: '[]' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('lesson_topics')
      .values({ lesson_id: lesson.id, topic_id: topic.id, position: 0 })
      .execute();
    const attempt = await call('POST', `/api/users/${learnerId}/attempts`, learner, {
      content_id: content.id,
    });
    const info = await get(`/api/attempts/${attempt.json().data.id}/h5ps/${item.id}/package`, learner);
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json().data.uuid).toBe(data.uuid);
    expect((await get(`${info.json().data.base_url}/h5p.json`, {})).statusCode).toBe(200);
    expect(
      (await get(`/api/attempts/${attempt.json().data.id}/h5ps/${item.id}/package`, outsider)).statusCode,
    ).toBe(404);
  });

  it('refuses an .h5p without h5p.json or content.json', async () => {
    const item = await h.db
      .insertInto('h5ps')
      .values({ entity_id: org.id, title: 'Broken' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const url = `/api/h5ps/${item.id}/package`;
    const noMeta = await upload(
      url,
      author,
      buildZip([{ name: 'content/content.json', data: '{}' }]),
      'x.h5p',
    );
    expect(noMeta.json().message).toBe('The package is not an H5P package: h5p.json is missing.');
    const noContent = await upload(
      url,
      author,
      buildZip([{ name: 'h5p.json', data: '{"mainLibrary":"H5P.X"}' }]),
    );
    expect(noContent.json().message).toBe(
      'The package is not an H5P package: content/content.json is missing.',
    );
    const badJson = await upload(
      url,
      author,
      buildZip([
        { name: 'h5p.json', data: '{oops' },
        { name: 'content/content.json', data: '{}' },
      ]),
    );
    expect(badJson.json().message).toBe('The H5P file h5p.json is not valid JSON.');
  });
});

describe('saving a SCO as the learner leaves (issue 28 item 4)', () => {
  /** A web learner (session cookie + X-XSRF-TOKEN, as the player's fetch keepalive sends) on a fresh attempt. */
  async function leaving() {
    const content = await scormContent();
    const up = await upload(`/api/content/${content.id}/package`, author, scormMultiScoPackage());
    expect(up.statusCode, up.body).toBe(201);
    const user = await buildUser(h.db, { entityId: org.id, permissions: [] });
    const web = await webLogin(h.app, user.email, TEST_PASSWORD);
    const patch = (id: number, payload: object) =>
      h.app.inject({
        method: 'PATCH',
        url: `/api/attempts/${id}`,
        headers: web.headers(),
        cookies: web.cookies(),
        payload,
      });
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/users/${user.id}/attempts`,
      headers: web.headers(),
      cookies: web.cookies(),
      payload: { content_id: content.id },
    });
    expect(res.statusCode, res.body).toBe(201);
    const attempt = res.json().data as { id: number; version: number };
    const page = (n: number) => ({
      cmi: { core: { lesson_status: 'incomplete', lesson_location: String(n) } },
    });
    const read = async () =>
      (await h.db
        .selectFrom('attempts')
        .select(['cmi', 'version'])
        .where('id', '=', attempt.id)
        .executeTakeFirstOrThrow()) as {
        cmi: {
          items: Record<string, { cmi: { core: { lesson_location: string } }; commit: { seq: number } }>;
        };
        version: number;
      };
    return { attempt, patch, page, read };
  }
  const session = 'launch-0001';

  it('takes a later commit of the same session on a stale version; a resent or older one changes nothing', async () => {
    const { attempt, patch, page, read } = await leaving();
    const first = await patch(attempt.id, {
      version: attempt.version,
      sco: 'reading',
      cmi: page(1),
      commit: { session, seq: 1 },
    });
    expect(first.statusCode, first.body).toBe(200);
    // The save sent as the learner leaves overtakes the commit under way: it carries the version before that one.
    const left = await patch(attempt.id, {
      version: attempt.version,
      sco: 'reading',
      cmi: page(3),
      commit: { session, seq: 3 },
    });
    expect(left.statusCode, left.body).toBe(200);
    expect(left.json().data.cmi.items.reading.cmi.core.lesson_location).toBe('3');
    const after = await read();
    // The commit it overtook arrives late, and the save is sent again: neither replaces page 3 nor bumps the version.
    for (const late of [
      { cmi: page(2), commit: { session, seq: 2 } },
      { cmi: page(3), commit: { session, seq: 3 } },
    ]) {
      const r = await patch(attempt.id, { version: attempt.version, sco: 'reading', ...late });
      expect(r.statusCode, r.body).toBe(200);
    }
    expect(await read()).toEqual(after);
    expect(after.cmi.items.reading.commit).toEqual({ session, seq: 3 });
  });

  it('keeps the 409 for a stale version from another session or without an order', async () => {
    const { attempt, patch, page } = await leaving();
    const ok = await patch(attempt.id, {
      version: attempt.version,
      sco: 'reading',
      cmi: page(1),
      commit: { session, seq: 1 },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const other = await patch(attempt.id, {
      version: attempt.version,
      sco: 'reading',
      cmi: page(5),
      commit: { session: 'launch-0002', seq: 9 },
    });
    expect(other.statusCode).toBe(409);
    const plain = await patch(attempt.id, { version: attempt.version, sco: 'reading', cmi: page(5) });
    expect(plain.statusCode).toBe(409);
    // The order is per SCO: the session's commit to another SCO on a stale version is a conflict too.
    const elsewhere = await patch(attempt.id, {
      version: attempt.version,
      sco: 'quiz',
      cmi: page(5),
      commit: { session, seq: 2 },
    });
    expect(elsewhere.statusCode).toBe(409);
    const bad = await patch(attempt.id, {
      version: attempt.version,
      sco: 'reading',
      cmi: page(5),
      commit: { session, seq: 0 },
    });
    expect(bad.statusCode).toBe(422);
  });

  it('ends on the newest commit whatever order simultaneous saves of a session arrive in', async () => {
    const { attempt, patch, page, read } = await leaving();
    const first = await patch(attempt.id, {
      version: attempt.version,
      sco: 'reading',
      cmi: page(1),
      commit: { session, seq: 1 },
    });
    expect(first.statusCode, first.body).toBe(200);
    const seqs = [4, 2, 6, 3, 5];
    const answers = await Promise.all(
      seqs.map((seq) =>
        patch(attempt.id, {
          version: attempt.version,
          sco: 'reading',
          cmi: page(seq),
          commit: { session, seq },
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(seqs.map(() => 200));
    const saved = await read();
    expect(saved.cmi.items.reading.cmi.core.lesson_location).toBe('6');
    expect(saved.cmi.items.reading.commit.seq).toBe(6);
  });
});
