import { PERMISSIONS } from '@cc/contracts';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { crashOnce, removeCrashes } from '../../test/crash';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { runDueJobs } from '../jobs/queue';
import { registerAllJobs } from '../register-jobs';

/**
 * An e-mailed compliance report (POST /reports/compliance with emailFormat) is one job: its mail and "job done"
 * commit together and the mail has a key (the job + the recipient), so a crash after the mail was recorded does not
 * send it again when the job is retried (issue 10 §3; crashes: test/crash.ts).
 */
let h: Harness;
beforeAll(async () => {
  registerAllJobs();
  h = await createHarness();
});
afterAll(async () => h?.close());
afterEach(async () => removeCrashes(h.db));

it('a crash before the e-mailed report’s job is marked done sends the report once, with its file', async () => {
  const org = await buildEntity(h.db, { level: 'A' });
  const manager = await buildUser(h.db, { entityId: org.id, permissions: PERMISSIONS.map((p) => p.id) });
  const as = await clientFor(h.app, h.db, manager.id);
  const queued = await as('POST', '/api/reports/compliance', { emailFormat: 'XLSX' });
  expect(queued.statusCode, queued.body).toBe(200);
  await crashOnce(h.db, 'jobs', 1, `NEW.status = 'done' AND NEW.name = 'email-report'`);
  const now = Date.now();
  await runDueJobs(h.deps, new Date(now + 1000));
  // The retry, after the job's backoff.
  await runDueJobs(h.deps, new Date(now + 5 * 60_000));
  const mails = await h.db
    .selectFrom('mail_outbox as m')
    .leftJoin('mail_attachments as a', 'a.mail_id', 'm.id')
    .select(['m.id', 'a.filename'])
    .where('m.to_address', '=', manager.email)
    .execute();
  expect(mails).toEqual([{ id: expect.any(Number), filename: expect.stringMatching(/\.xlsx$/) }]);
});
