import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { guest, lastMail, linkIn, runJobs } from '../auth/flows-test-support';
import { registerAllJobs } from '../register-jobs';
import { formatMails, lastMails, linksIn } from './last-mails';
import { MASKED } from './mask-links';

/**
 * Issue 31 §8: in development a forgot-password mail only lands in the outbox, whose in-app view masks its link;
 * `npm run mail:last` (src/mail-last.ts) prints the last mails with their links whole, and never in production.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  registerAllJobs();
});
afterAll(async () => h?.close());

async function forgotPassword(email: string) {
  const g = await guest(h.app);
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/auth/forgot-password',
    cookies: g.cookies(),
    headers: g.headers(),
    payload: { email },
  });
  expect(res.statusCode).toBe(200);
  await runJobs(h);
  const row = await lastMail(h, email, 'reset_password');
  return linkIn(row?.text_body ?? '', 'reset-password');
}

/** Runs `npm run mail:last`'s script as the npm script does (tsx), from the repository root. */
function mailLast(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'server/src/mail-last.ts'), ...args],
    {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('the last mails of the outbox (npm run mail:last)', () => {
  it('gives the reset link of a forgot-password mail whole, with recipient and subject', async () => {
    const user = await buildUser(h.db);
    const reset = await forgotPassword(user.email);
    const [mail] = await lastMails(h.db, { count: 1, to: user.email.toUpperCase() });
    expect(mail).toMatchObject({ to: user.email, template: 'reset_password' });
    const link = mail!.links.find((l) => l.includes('/reset-password/'));
    expect(link).toBe(
      `${reset.origin}/reset-password/${encodeURIComponent(reset.token)}?email=${encodeURIComponent(user.email)}`,
    );
    const printed = formatMails([mail!]);
    expect(printed).toContain(`to ${user.email}`);
    expect(printed).toContain(mail!.subject);
    expect(printed).toContain(link);
    expect(printed).not.toContain(MASKED);
  });

  it('takes the last N, oldest first, and reads links out of HTML without its entities', async () => {
    const user = await buildUser(h.db);
    for (const n of [1, 2, 3])
      await h.db
        .insertInto('mail_outbox')
        .values({
          to_address: user.email,
          subject: `Mail ${n}`,
          text_body: `See https://example.test/a/${n}.`,
          html_body: `<a href="https://example.test/b?x=${n}&amp;token=Abc123">go</a>`,
          template: 'test',
        })
        .execute();
    const mails = await lastMails(h.db, { count: 2, to: user.email });
    expect(mails.map((m) => m.subject)).toEqual(['Mail 2', 'Mail 3']);
    expect(mails[1]!.links).toEqual(['https://example.test/a/3', 'https://example.test/b?x=3&token=Abc123']);
    expect(linksIn('no address here', null)).toEqual([]);
    expect(formatMails([])).toBe('The outbox is empty.');
  });

  it('refuses to run with NODE_ENV=production, before opening any database', async () => {
    const run = await mailLast([], {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://nowhere.invalid/x',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('refuses to run with NODE_ENV=production');
    expect(run.stdout).toBe('');
  });

  // Another process reaches the test's database only on a PostgreSQL server (the embedded lane's PGlite is in memory).
  it.skipIf(!process.env.DATABASE_URL)(
    'prints them from the configured database',
    async () => {
      const user = await buildUser(h.db);
      const reset = await forgotPassword(user.email);
      const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-mail-last-'));
      try {
        const run = await mailLast(['1', '--to', user.email], {
          ...process.env,
          NODE_ENV: 'development',
          DATABASE_URL: h.deps.config.databaseUrl,
          DATA_DIR: dataDir,
        });
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        expect(run.stdout).toContain(`to ${user.email}`);
        expect(run.stdout).toContain(`/reset-password/${encodeURIComponent(reset.token)}`);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
