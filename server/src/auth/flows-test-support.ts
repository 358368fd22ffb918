import { CSRF_COOKIE, SESSION_COOKIE } from '@cc/contracts';
import { sql } from 'kysely';
import { cookiesOf, type Harness, type TestApp } from '../../test/harness';
import { buildApp } from '../app';
import { runDueJobs } from '../jobs/queue';
import { passwordGatePlugin } from './password-gate';

/** A browser that fetched GET /sanctum/csrf-cookie: its cookie jar and the X-XSRF-TOKEN header (spec 1 §7). */
export async function guest(app: TestApp) {
  const res = await app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
  return browser(cookiesOf(res));
}

export function browser(jar: Record<string, string>) {
  return {
    jar,
    cookies: () => ({ [SESSION_COOKIE]: jar[SESSION_COOKIE], [CSRF_COOKIE]: jar[CSRF_COOKIE] }),
    headers: () => ({ 'x-xsrf-token': jar[CSRF_COOKIE] }),
  };
}

/** The newest mail to an address with this template, from the outbox every message goes through. */
export async function lastMail(h: Harness, to: string, template: string) {
  return h.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where(sql`lower(to_address)`, '=', to.toLowerCase())
    .where('template', '=', template)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

export async function mailCount(h: Harness, to: string, template: string): Promise<number> {
  const rows = await h.db
    .selectFrom('mail_outbox')
    .select('id')
    .where(sql`lower(to_address)`, '=', to.toLowerCase())
    .where('template', '=', template)
    .execute();
  return rows.length;
}

/** Reads the token (and e-mail) out of a link in a mail's text, as a person clicking it would. */
export function linkIn(text: string, route: 'reset-password' | 'verify-email' | 'unlock-sign-in') {
  const match = text.match(new RegExp(`(https?://[^\\s]+)/${route}/([^?\\s]+)(?:\\?email=([^\\s]+))?`));
  if (!match) throw new Error(`no /${route}/ link in mail:\n${text}`);
  return {
    origin: match[1],
    token: decodeURIComponent(match[2]),
    email: match[3] ? decodeURIComponent(match[3]) : null,
  };
}

/**
 * The application as app.ts builds it, plus the password gate (until app.ts registers it itself; registering twice
 * is harmless) and a probe route standing for "any other API call".
 */
export async function gatedApp(h: Harness): Promise<TestApp> {
  const app = await buildApp(h.deps);
  await app.register(passwordGatePlugin);
  app.get('/api/probe', async () => ({ data: 'reached' }));
  await app.ready();
  return app;
}

/**
 * Runs the queued jobs, as the server's worker does after each request: account mail whose request must not tell
 * whether the address has an account is written by a job (auth/mail-jobs.ts). Call registerAllJobs() first.
 */
export async function runJobs(h: Harness): Promise<void> {
  await runDueJobs(h.deps);
}
