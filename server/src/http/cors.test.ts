/**
 * Issue 19: the mobile shell's page (capacitor://localhost on iOS, https://localhost on Android) calls the API with
 * its bearer token from another origin. CORS allows those origins without credentials; a separate web host
 * (CORS_ORIGINS) keeps credentials; any other origin gets no CORS headers; never a wildcard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser } from '../../test/factories';
import { createHarness, type Harness, type TestApp } from '../../test/harness';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { corsOptionsFor } from './cors';

let h: Harness;
let withWebHost: TestApp;
let noMobile: TestApp;
let auth: Record<string, string>;
beforeAll(async () => {
  h = await createHarness();
  withWebHost = await buildApp({
    ...h.deps,
    config: { ...h.deps.config, corsOrigins: ['https://web.example.test'] },
  });
  await withWebHost.ready();
  noMobile = await buildApp({ ...h.deps, config: { ...h.deps.config, mobileOrigins: [] } });
  await noMobile.ready();
  auth = await bearer(h.db, (await buildUser(h.db)).id);
});
afterAll(async () => {
  await withWebHost?.close();
  await noMobile?.close();
  await h?.close();
});

const preflight = (app: TestApp, origin: string) =>
  app.inject({
    method: 'OPTIONS',
    url: '/api/auth/user',
    headers: {
      origin,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization,x-acting-as',
    },
  });

describe('CORS for the mobile shell', () => {
  it('MOBILE_ORIGINS defaults to the Capacitor origins; "none" turns it off; a bad origin stops the start', () => {
    expect(loadConfig({}).mobileOrigins).toEqual(['capacitor://localhost', 'https://localhost']);
    expect(loadConfig({ MOBILE_ORIGINS: 'none' }).mobileOrigins).toEqual([]);
    expect(
      loadConfig({ MOBILE_ORIGINS: 'ionic://localhost, https://localhost:8100/' }).mobileOrigins,
    ).toEqual(['ionic://localhost', 'https://localhost:8100']);
    expect(() => loadConfig({ MOBILE_ORIGINS: 'capacitor://localhost/app' })).toThrow(/MOBILE_ORIGINS/);
    expect(() => loadConfig({ MOBILE_ORIGINS: '*' })).toThrow(/MOBILE_ORIGINS/);
  });

  it.each(['capacitor://localhost', 'https://localhost'])(
    'a preflight from %s is allowed for the bearer header, without credentials',
    async (origin) => {
      const res = await preflight(h.app, origin);
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(String(res.headers['access-control-allow-headers'])).toMatch(/authorization/i);
      expect(String(res.headers['access-control-allow-methods'])).toContain('GET');
    },
  );

  it("a bearer call from the shell is readable by it, with the downloads' file name exposed", async () => {
    const res = await h.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { ...auth, origin: 'capacitor://localhost' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('capacitor://localhost');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(res.headers['access-control-expose-headers'])).toMatch(/content-disposition/i);
    expect(String(res.headers.vary)).toMatch(/origin/i);
  });

  it('another origin gets no CORS headers, never a wildcard', async () => {
    for (const origin of ['https://evil.example.test', 'capacitor://evil', 'null']) {
      const res = await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: { ...auth, origin } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect((await preflight(h.app, origin)).headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('a separate web host keeps credentials; the shell beside it still has none', async () => {
    const web = await preflight(withWebHost, 'https://web.example.test');
    expect(web.headers['access-control-allow-origin']).toBe('https://web.example.test');
    expect(web.headers['access-control-allow-credentials']).toBe('true');
    const shell = await preflight(withWebHost, 'capacitor://localhost');
    expect(shell.headers['access-control-allow-origin']).toBe('capacitor://localhost');
    expect(shell.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('with MOBILE_ORIGINS=none the shell origins are refused too', async () => {
    const res = await preflight(noMobile, 'capacitor://localhost');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('the per-request policy never allows credentials with a wildcard or for a mobile origin', () => {
    const config = { corsOrigins: ['https://web.example.test'], mobileOrigins: ['capacitor://localhost'] };
    expect(corsOptionsFor(config, undefined)).toEqual({ origin: false });
    expect(corsOptionsFor(config, 'capacitor://localhost')).toMatchObject({
      origin: 'capacitor://localhost',
      credentials: false,
    });
    expect(corsOptionsFor(config, 'https://web.example.test')).toMatchObject({ credentials: true });
  });
});
