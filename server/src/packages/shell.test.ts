/**
 * Issue 19: SCORM and H5P played from the mobile shell, whose page (capacitor://localhost, https://localhost) is on
 * neither the API's origin nor the package origin. The shell signs in with a bearer token; package content is
 * reached only through the signed, short-lived launch URLs (launch.ts), so the bearer token never appears in a URL
 * (URLs end up in logs, the webview's history and the package's own Referer), and package files can be framed and
 * read from the shell's page.
 */
import { ContentPerm as P } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildUser, TEST_PASSWORD } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent } from '../../test/learning-factories';
import { h5pPackage, multipart, scorm12Package } from '../../test/package-factories';
import { LAUNCH_TTL_SECONDS, verifyLaunch } from './launch';

const SHELLS = ['capacitor://localhost', 'https://localhost'];

let h: Harness;
let shellToken: string;
let shell: Record<string, string>;
let author: Record<string, string>;
let learnerId: number;
let orgId: number;

/** The shell's login (spec 1 §7): a bearer token for the device, from the shell's origin. */
async function shellLogin(email: string): Promise<string> {
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { origin: SHELLS[0] as string },
    payload: { email, password: TEST_PASSWORD, device_name: 'Google Pixel 8' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.token as string;
}

beforeAll(async () => {
  h = await createHarness({ packageOrigin: undefined });
  orgId = (await buildEntity(h.db, { level: 'A' })).id;
  const authorUser = await buildUser(h.db, {
    entityId: orgId,
    permissions: [P.contentCreator, P.addContent, P.editContent, P.addCourses, P.editCourses],
  });
  author = { authorization: `Bearer ${await shellLogin(authorUser.email)}` };
  const learner = await buildUser(h.db, { entityId: orgId, permissions: [] });
  learnerId = learner.id;
  shellToken = await shellLogin(learner.email);
  shell = { authorization: `Bearer ${shellToken}`, origin: SHELLS[0] as string };
});
afterAll(async () => h?.close());

const get = (url: string, headers: Record<string, string>) => h.app.inject({ method: 'GET', url, headers });

/** Every string in the launch data that is an address. */
function urlsIn(data: unknown): string[] {
  if (typeof data === 'string') return /^(\/|https?:)/.test(data) ? [data] : [];
  if (Array.isArray(data)) return data.flatMap(urlsIn);
  if (data && typeof data === 'object') return Object.values(data).flatMap(urlsIn);
  return [];
}

/** No piece of the bearer token ("id|secret", either half, URL-encoded or not) is in the address. */
function expectNoBearer(url: string) {
  const [id, secret] = shellToken.split('|') as [string, string];
  expect(secret.length).toBeGreaterThan(20);
  for (const piece of [shellToken, encodeURIComponent(shellToken), secret, `${id}|`, `${id}%7C`])
    expect(url).not.toContain(piece);
  expect(url).not.toMatch(/bearer|token=|access_token|authorization/i);
}

async function scormAttemptLaunch() {
  const content = await buildContent(h.db, orgId, { type: 'scorm' });
  const body = multipart('package', 'package.zip', scorm12Package());
  const up = await h.app.inject({
    method: 'POST',
    url: `/api/content/${content.id}/package`,
    headers: { ...author, ...body.headers },
    payload: body.payload,
  });
  expect(up.statusCode, up.body).toBe(201);
  const attempt = await h.app.inject({
    method: 'POST',
    url: `/api/users/${learnerId}/attempts`,
    headers: shell,
    payload: { content_id: content.id },
  });
  expect(attempt.statusCode, attempt.body).toBe(201);
  const launch = await get(`/api/attempts/${attempt.json().data.id}/package`, shell);
  expect(launch.statusCode, launch.body).toBe(200);
  return launch;
}

describe('packages in the mobile shell', () => {
  it('the launch data reaches the shell (CORS without credentials) and none of its URLs holds the bearer token', async () => {
    const launch = await scormAttemptLaunch();
    expect(launch.headers['access-control-allow-origin']).toBe('capacitor://localhost');
    expect(launch.headers['access-control-allow-credentials']).toBeUndefined();
    const data = launch.json().data;
    const urls = urlsIn(data);
    expect(urls.length).toBeGreaterThanOrEqual(2);
    for (const url of urls) expectNoBearer(url);

    // The capability in the path is the signed launch token: this learner, this package, hours not days.
    const [, , token, uuid] = (data.launch_url as string).split('/');
    expect(uuid).toBe(data.uuid);
    const [userId, expires] = (token as string).split('.').map(Number);
    expect(userId).toBe(learnerId);
    expect((expires as number) * 1000 - Date.now()).toBeLessThanOrEqual(LAUNCH_TTL_SECONDS * 1000);
    expect(await verifyLaunch({ db: h.db, clock: () => new Date() }, token as string, data.uuid)).toBe(true);
    expect(
      await verifyLaunch(
        { db: h.db, clock: () => new Date(Date.now() + (LAUNCH_TTL_SECONDS + 1) * 1000) },
        token as string,
        data.uuid,
      ),
    ).toBe(false);
  });

  it.each(SHELLS)(
    'a package file framed by the shell at %s: no bearer, framing allowed, sandboxed, readable without credentials',
    async (origin) => {
      const data = (await scormAttemptLaunch()).json().data;
      // The frame's request carries no Authorization header and no cookie: the path is the capability.
      const res = await get(data.launch_url, { origin });
      expect(res.statusCode).toBe(200);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toBe('sandbox allow-scripts allow-forms allow-popups allow-modals');
      // Framed by whichever page holds the URL (the web app, the shell): no frame-ancestors, no X-Frame-Options.
      expect(csp).not.toContain('frame-ancestors');
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(['*', origin]).toContain(res.headers['access-control-allow-origin']);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    },
  );

  it('the H5P launch data for the shell holds no bearer token either', async () => {
    const item = await h.db
      .insertInto('h5ps')
      .values({ entity_id: orgId, title: 'Quiz' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const body = multipart('package', 'quiz.h5p', h5pPackage());
    const up = await h.app.inject({
      method: 'POST',
      url: `/api/h5ps/${item.id}/package`,
      headers: { ...author, ...body.headers },
      payload: body.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const data = up.json().data;
    for (const url of urlsIn(data)) expect(url).not.toContain(author.authorization?.split('|')[1] as string);
    const served = await get(`${data.base_url}/h5p.json`, { origin: 'https://localhost' });
    expect(served.statusCode).toBe(200);
    expect(served.headers['access-control-allow-credentials']).toBeUndefined();
  });
});
