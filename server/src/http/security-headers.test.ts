/**
 * Issue 11 §6: security headers on every answer (API JSON, the web app's files and its client routes, errors,
 * GraphQL), HSTS only over https, and package files (/packages/*) left with the headers their route sets.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildUser, contentAuthor } from '../../test/factories';
import { createHarness, type Harness, type TestApp } from '../../test/harness';
import { buildContent } from '../../test/learning-factories';
import { multipart, scorm12Package } from '../../test/package-factories';
import { buildApp } from '../app';

let h: Harness;
let web: TestApp;
let overHttps: TestApp;
let webRoot: string;
let signedIn: Record<string, string>;
beforeAll(async () => {
  h = await createHarness();
  // A stand-in for web/dist, so the test does not depend on a build.
  webRoot = mkdtempSync(path.join(tmpdir(), 'cc-web-'));
  mkdirSync(path.join(webRoot, 'assets'));
  writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(webRoot, 'assets', 'app.js'), 'console.log(1)');
  web = await buildApp(h.deps, { serveWeb: true, webRoot });
  await web.ready();
  overHttps = await buildApp({
    ...h.deps,
    config: { ...h.deps.config, appUrl: 'https://training.example.test' },
  });
  await overHttps.ready();
  signedIn = await bearer(h.db, (await buildUser(h.db)).id);
});
afterAll(async () => {
  await web?.close();
  await overHttps?.close();
  await h?.close();
  rmSync(webRoot, { recursive: true, force: true });
});

function expectSecurityHeaders(res: LightMyRequestResponse) {
  const csp = res.headers['content-security-policy'] as string;
  expect(csp).toContain("default-src 'self'");
  expect(csp).toMatch(/script-src 'self'( 'sha256-[^']+')*;/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("form-action 'self'");
  expect(csp).toContain("frame-src 'self'");
  expect(csp).toContain("connect-src 'self' ws://localhost:3000");
  expect(csp).toContain("img-src 'self' data: blob:");
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['x-powered-by']).toBeUndefined();
  // Served over http here: no HSTS (it would be ignored, and must not pin a plain-http host).
  expect(res.headers['strict-transport-security']).toBeUndefined();
}

describe('security headers', () => {
  it.each([
    ['API JSON', 'GET', '/api/version', undefined, 200],
    ['API JSON of a signed-in call', 'GET', '/api/auth/user', 'signed-in', 200],
    ['401', 'GET', '/api/users', undefined, 401],
    ['404 of an unknown API route', 'GET', '/api/no-such-thing', undefined, 404],
    ['404 of a missing row', 'GET', '/api/users/00000000-0000-0000-0000-000000000000', 'signed-in', 404],
    ['422', 'GET', '/api/users?per_page=100000', 'signed-in', 422],
    ['419 (XSRF)', 'POST', '/api/logout', 'cookie', 419],
    ['GraphQL', 'POST', '/graphql', undefined, 200],
    ['GraphQL at /api/graphql', 'POST', '/api/graphql', 'signed-in', 200],
  ] as const)('on %s', async (_name, method, url, who, status) => {
    const res = await h.app.inject({
      method,
      url,
      headers: who === 'signed-in' ? signedIn : {},
      ...(who === 'cookie' ? { cookies: { cc_session: 'not-a-session' } } : {}),
      ...(url.endsWith('graphql') ? { payload: { query: '{ __typename }' } } : {}),
    });
    expect(res.statusCode, res.body).toBe(status);
    expectSecurityHeaders(res);
  });

  it('on a 500', async () => {
    const app = await buildApp(h.deps);
    app.get('/api/test-crash', { config: { auth: false } }, async () => {
      throw new Error('boom');
    });
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/api/test-crash' });
    await app.close();
    expect(res.statusCode).toBe(500);
    expectSecurityHeaders(res);
  });

  it.each([
    ['a static file', '/assets/app.js'],
    ['a client route (index.html)', '/matrix'],
    ['the app page itself', '/'],
  ])('on the web app: %s', async (_name, url) => {
    const res = await web.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expectSecurityHeaders(res);
  });

  it('adds HSTS and upgrade-insecure-requests when the app is served over https', async () => {
    const res = await overHttps.inject({ method: 'GET', url: '/api/version' });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    expect(res.headers['content-security-policy']).toContain(
      "connect-src 'self' wss://training.example.test",
    );
  });
});

describe('package files keep the headers of their own route', () => {
  it('serves a package file without the app policy replacing or adding to its own', async () => {
    const org = await buildEntity(h.db, { level: 'A' });
    const author = await contentAuthor(h.db, org.id);
    const content = await buildContent(h.db, org.id, { type: 'scorm' });
    const body = multipart('package', 'package.zip', scorm12Package());
    const uploaded = await h.app.inject({
      method: 'POST',
      url: `/api/content/${content.id}/package`,
      headers: { ...author, ...body.headers },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const launch = await h.app.inject({
      method: 'GET',
      url: `/api/content/${content.id}/package`,
      headers: author,
    });
    const file = await h.app.inject({ method: 'GET', url: launch.json().data.launch_url, headers: author });
    expect(file.statusCode).toBe(200);
    const csp = file.headers['content-security-policy'] as string;
    // The route's own policy, not the app's: it never says frame-ancestors 'none' (the player frames it).
    expect(csp).toBeTruthy();
    expect(csp).not.toContain("frame-ancestors 'none'");
    // Headers only helmet would add are absent.
    expect(file.headers['cross-origin-opener-policy']).toBeUndefined();
    expect(file.headers['origin-agent-cluster']).toBeUndefined();
    expect(file.headers['x-dns-prefetch-control']).toBeUndefined();
  });
});

describe('everything else under /packages/ answers as the app does (issue 29 §3)', () => {
  it.each([
    ['an address that is no package file', '/packages/anything'],
    ['a made-up launch token', '/packages/not-a-token/00000000-0000-0000-0000-000000000000/index.html'],
    ['the runtime folder without a file', '/packages/runtime/no-such-file.js'],
  ])('%s: a 404 with the app headers, never the app page', async (_name, url) => {
    const res = await web.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<div id="root">');
    expectSecurityHeaders(res);
  });
});

describe('API answers are not stored by browsers or proxies (issue 29 §12)', () => {
  it('says no-store on JSON, errors and GraphQL', async () => {
    for (const [url, headers] of [
      ['/api/auth/user', signedIn],
      ['/api/users', {}],
      ['/api/version', {}],
    ] as const) {
      const res = await h.app.inject({ method: 'GET', url, headers });
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const gql = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: signedIn,
      payload: { query: '{ __typename }' },
    });
    expect(gql.headers['cache-control']).toBe('no-store');
  });

  it("keeps a route's own choice (the web app's page is not an API answer)", async () => {
    const page = await web.inject({ method: 'GET', url: '/matrix' });
    expect(page.headers['cache-control']).toBe('no-cache');
  });
});
