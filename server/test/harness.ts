import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CSRF_COOKIE, SESSION_COOKIE } from '@cc/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app';
import { openDeps } from '../src/bootstrap';
import { type Config, loadConfig } from '../src/config';
import type { Deps } from '../src/http/context';
import { createTestDatabase } from './test-database';

export type TestApp = Awaited<ReturnType<typeof buildApp>>;

export interface Harness {
  app: TestApp;
  deps: Deps;
  db: Deps['db'];
  close(): Promise<void>;
}

/**
 * A fresh database for each test file (ARCHITECTURE "Tests"): in-memory PGlite by default, or a new database on the
 * PostgreSQL server named by DATABASE_URL (dropped again on close), so the same suite runs on both engines.
 */
/** `config`: settings over the test defaults (e.g. actorCacheMs, which tests keep at 0 unless they test caching). */
export async function createHarness(overrides: Partial<Config> = {}): Promise<Harness> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-test-'));
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (process.env.DATABASE_URL) {
    const database = await createTestDatabase(process.env.DATABASE_URL);
    databaseUrl = database.url;
    dropDatabase = database.drop;
  }
  const config = loadConfig(
    { ...process.env, NODE_ENV: 'test', DATABASE_URL: databaseUrl, SEED_DEMO: 'false' },
    { dataDir, appUrl: 'http://localhost:3000', ...overrides },
  );
  const deps = await openDeps({ ...config, databaseUrl }, { inMemory: !databaseUrl });
  const app = await buildApp(deps);
  await app.ready();
  return {
    app,
    deps,
    db: deps.db,
    async close() {
      await app.close();
      await deps.close();
      await dropDatabase?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Reads cookies set by a response into a name -> value map. */
export function cookiesOf(res: LightMyRequestResponse): Record<string, string> {
  return Object.fromEntries(res.cookies.map((c) => [c.name, c.value]));
}

/** A browser-like client: csrf-cookie, then login, then cookie + X-XSRF-TOKEN on every request (spec 1 §7). */
export async function webLogin(app: TestApp, email: string, password: string) {
  const csrf = await app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
  let jar = cookiesOf(csrf);
  const login = await app.inject({
    method: 'POST',
    url: '/login',
    headers: { 'x-xsrf-token': jar[CSRF_COOKIE] },
    cookies: jar,
    payload: { email, password },
  });
  jar = { ...jar, ...cookiesOf(login) };
  return {
    login,
    jar,
    headers: () => ({ 'x-xsrf-token': jar[CSRF_COOKIE] }),
    cookies: () => ({ [SESSION_COOKIE]: jar[SESSION_COOKIE], [CSRF_COOKIE]: jar[CSRF_COOKIE] }),
  };
}
