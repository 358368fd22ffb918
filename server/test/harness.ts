import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CSRF_COOKIE, SESSION_COOKIE } from '@cc/contracts';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import type { LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
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

/** The migrated snapshot while a harness is opening its database, else null. */
let openingFrom: { snapshot: Blob; harnesses: number } | null = null;
let createWrapped = false;

/**
 * While `open` runs, an in-memory PGlite starts from the migrated data folder test/global-setup.ts made for this run
 * instead of an empty one. db/connect.ts (product code) has no such option and the harness must not bypass openDeps,
 * so PGlite.create is wrapped (once per process: harnesses opened side by side cannot undo each other's wrapping);
 * outside createHarness it behaves as before. openDeps still runs migrate(), which finds nothing left to do.
 */
async function withMigratedPglite<T>(snapshotFile: string | null, open: () => Promise<T>): Promise<T> {
  if (!snapshotFile) return open();
  if (!createWrapped) {
    // connect.ts calls the options-object form; a call naming a dataDir opens that folder as asked.
    const create = PGlite.create.bind(PGlite) as (options?: PGliteOptions) => Promise<PGlite>;
    PGlite.create = ((options?: PGliteOptions) =>
      create(
        openingFrom && !options?.dataDir ? { ...options, loadDataDir: openingFrom.snapshot } : options,
      )) as unknown as typeof PGlite.create;
    createWrapped = true;
  }
  openingFrom ??= { snapshot: new Blob([readFileSync(snapshotFile)]), harnesses: 0 };
  openingFrom.harnesses += 1;
  try {
    return await open();
  } finally {
    openingFrom.harnesses -= 1;
    if (openingFrom.harnesses === 0) openingFrom = null;
  }
}

/**
 * A fresh database for each test file (ARCHITECTURE "Tests"): in-memory PGlite by default, or a new database on the
 * PostgreSQL server named by DATABASE_URL (dropped again on close), so the same suite runs on both engines. Both
 * start from the schema test/global-setup.ts migrated once for the run.
 */
/** `config`: settings over the test defaults (e.g. actorCacheMs, which tests keep at 0 unless they test caching). */
export async function createHarness(overrides: Partial<Config> = {}): Promise<Harness> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-test-'));
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (process.env.DATABASE_URL) {
    const template = inject('templateDatabase') ?? undefined;
    const database = await createTestDatabase(process.env.DATABASE_URL, 'cc_test', template);
    databaseUrl = database.url;
    dropDatabase = database.drop;
  }
  const config = loadConfig(
    { ...process.env, NODE_ENV: 'test', DATABASE_URL: databaseUrl, SEED_DEMO: 'false' },
    { dataDir, appUrl: 'http://localhost:3000', ...overrides },
  );
  const deps = await withMigratedPglite(databaseUrl ? null : inject('pgliteSnapshot'), () =>
    openDeps({ ...config, databaseUrl }, { inMemory: !databaseUrl }),
  );
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
