import { TaskMessages } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { enqueue, PermanentJobError, registerJob, runDueJobs } from '../jobs/queue';
import { registerAllJobs } from '../register-jobs';
import { finishTask, linkTaskJob, startTask, TASK_FAILED_GENERIC, trackJobTask } from './service';

/** Tasks in progress (issue 18): the routes, and a task's lifecycle through a real job of the durable queue. */
let h: Harness;
beforeAll(async () => {
  registerAllJobs();
  h = await createHarness();
});
afterAll(async () => h?.close());

const as = (userId: number) => clientFor(h.app, h.db, userId);
const missing = '00000000-0000-4000-8000-000000000000';

/** A test job whose work is a task: counts to `steps`, stores a CSV, or fails as told. */
const TEST_JOB = 'tasks-test-job';
registerJob<{ steps: number; fail?: 'permanent' | 'crash' }>(
  TEST_JOB,
  (job, payload) =>
    trackJobTask(job, async (tracker) => {
      for (let i = 1; i <= payload.steps; i++) await tracker.progress(i, payload.steps);
      if (payload.fail === 'permanent') throw new PermanentJobError('The report has no rows to show.');
      if (payload.fail === 'crash') throw new Error('ECONNRESET at socket.js:42');
      const file = await tracker.storeFile(Buffer.from('name,score\nAna,90\n'), {
        filename: 'scores.csv',
        contentType: 'text/csv',
        extension: 'csv',
      });
      return { file, summary: `${payload.steps} rows` };
    }),
  { maxAttempts: 2, backoffMs: () => 60_000 },
);

/**
 * A test job that ends its task inside its own transaction, as the importer's last step does: the task and the
 * job's own row (job.finish) commit together, or the transaction rolls both back.
 */
const IN_TRX_JOB = 'tasks-test-job-in-trx';
type InTrx = { end: 'finish' | 'fail' | 'rollback' };
registerJob<InTrx>(
  IN_TRX_JOB,
  (job, payload) =>
    trackJobTask(job, async (tracker) => {
      await job.db.transaction().execute(async (trx) => {
        if (payload.end === 'fail') await tracker.fail(trx, 'The file could not be read.');
        else await tracker.finish(trx, { summary: 'Recorded with the work' });
        await job.finish(trx);
        if (payload.end === 'rollback') throw new PermanentJobError('The import stopped.');
      });
      return { summary: 'Returned after the work' };
    }),
  { maxAttempts: 1 },
);

async function queueTask(userId: number, payload: { steps: number; fail?: 'permanent' | 'crash' } | InTrx) {
  return h.db.transaction().execute(async (trx) => {
    const task = await startTask(trx, { userId, entityId: null, kind: 'export', title: 'Scores export' });
    const jobId = await enqueue(trx, 'end' in payload ? IN_TRX_JOB : TEST_JOB, payload, {
      runAt: new Date(),
    });
    await linkTaskJob(trx, task.id, jobId as number);
    return { ...task, jobId: jobId as number };
  });
}

const runJobs = (laterMs = 1000) => runDueJobs(h.deps, new Date(Date.now() + laterMs));

describe('GET /api/tasks and /api/tasks/active-count', () => {
  it("401 without a caller, 422 for a bad filter, only the caller's own tasks, newest first", async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/tasks' })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'GET', url: '/api/tasks/active-count' })).statusCode).toBe(401);
    const me = await buildUser(h.db);
    const other = await buildUser(h.db);
    const call = await as(me.id);
    const bad = await call('GET', '/api/tasks?status=sleeping');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.status).toEqual(['Choose active or finished.']);

    const first = await queueTask(me.id, { steps: 1 });
    const second = await queueTask(me.id, { steps: 1 });
    await queueTask(other.id, { steps: 1 });
    await finishTask(h.db, first.id, { summary: 'ok' }, new Date());

    const all = (await call('GET', '/api/tasks')).json();
    expect(all.data.map((t: { uuid: string }) => t.uuid)).toEqual([second.uuid, first.uuid]);
    expect(all.meta.total).toBe(2);
    const active = (await call('GET', '/api/tasks?status=active')).json();
    expect(active.data.map((t: { uuid: string }) => t.uuid)).toEqual([second.uuid]);
    const finished = (await call('GET', '/api/tasks?status=finished&per_page=1')).json();
    expect(finished.data[0]).toMatchObject({ uuid: first.uuid, status: 'done', result: { summary: 'ok' } });
    expect((await call('GET', '/api/tasks/active-count')).json().data).toEqual({ active: 1 });
  });
});

describe('GET /api/tasks/{uuid}, /download and DELETE', () => {
  it("422 for a malformed id; another user's task is 404 like a missing one, and stays", async () => {
    const me = await buildUser(h.db);
    const other = await buildUser(h.db);
    const theirs = await queueTask(other.id, { steps: 1 });
    const call = await as(me.id);
    expect((await call('GET', '/api/tasks/not-a-uuid')).statusCode).toBe(422);
    for (const url of [`/api/tasks/${theirs.uuid}`, `/api/tasks/${missing}`]) {
      expect((await call('GET', url)).statusCode).toBe(404);
      expect((await call('GET', `${url}/download`)).statusCode).toBe(404);
      expect((await call('DELETE', url)).statusCode).toBe(404);
    }
    expect(
      await h.db.selectFrom('tasks').select('status').where('id', '=', theirs.id).executeTakeFirst(),
    ).toEqual({
      status: 'queued',
    });
  });

  it('runs through a real job: queued, progress, done with a file only its owner downloads, then dismissed', async () => {
    const me = await buildUser(h.db);
    const call = await as(me.id);
    const task = await queueTask(me.id, { steps: 3 });
    expect((await call('GET', `/api/tasks/${task.uuid}`)).json().data).toMatchObject({
      status: 'queued',
      progress: { done: 0, total: null },
      result: null,
    });
    expect((await call('GET', `/api/tasks/${task.uuid}/download`)).statusCode).toBe(404);
    await runJobs();
    const view = (await call('GET', `/api/tasks/${task.uuid}`)).json().data;
    expect(view).toMatchObject({
      status: 'done',
      progress: { done: 3, total: 3 },
      error: null,
      result: {
        file: { filename: 'scores.csv', content_type: 'text/csv', size: 18 },
        download_url: `/api/tasks/${task.uuid}/download`,
        summary: '3 rows',
      },
    });
    expect(view.finished_at).not.toBeNull();
    expect(view.result.file).not.toHaveProperty('key'); // the storage key never leaves the server
    const file = await call('GET', view.result.download_url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe('attachment; filename="scores.csv"');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.body).toBe('name,score\nAna,90\n');
    const stranger = await buildUser(h.db, { entityId: me.primary_entity_id, permissions: [1, 2, 3] });
    expect((await (await as(stranger.id))('GET', view.result.download_url)).statusCode).toBe(404);

    const key = (
      await h.db.selectFrom('tasks').select('result').where('id', '=', task.id).executeTakeFirstOrThrow()
    ).result?.file?.key as string;
    expect(await h.deps.storage.head(key)).not.toBeNull();
    const dismissed = await call('DELETE', `/api/tasks/${task.uuid}`);
    expect(dismissed.statusCode).toBe(200);
    expect(dismissed.json().message).toBe(TaskMessages.dismissed);
    expect((await call('GET', `/api/tasks/${task.uuid}`)).statusCode).toBe(404);
    expect(await h.deps.storage.head(key)).toBeNull();
  });

  it('fails with the plain message of a permanent failure, and a generic one (never a stack) after the last retry', async () => {
    const me = await buildUser(h.db);
    const call = await as(me.id);
    const permanent = await queueTask(me.id, { steps: 1, fail: 'permanent' });
    const crash = await queueTask(me.id, { steps: 1, fail: 'crash' });
    await runJobs();
    expect((await call('GET', `/api/tasks/${permanent.uuid}`)).json().data).toMatchObject({
      status: 'failed',
      error: 'The report has no rows to show.',
    });
    // The first crash is retried: the task still runs (one outcome for the user, not one per attempt).
    expect((await call('GET', `/api/tasks/${crash.uuid}`)).json().data.status).toBe('running');
    await runJobs(120_000);
    const failed = (await call('GET', `/api/tasks/${crash.uuid}`)).json().data;
    expect(failed).toMatchObject({ status: 'failed', error: TASK_FAILED_GENERIC });
    expect((await call('GET', '/api/tasks/active-count')).json().data.active).toBe(0);
  });

  it("ends the task in the work's own transaction: with the work's outcome, or not at all when it rolls back", async () => {
    const me = await buildUser(h.db);
    const call = await as(me.id);
    const finished = await queueTask(me.id, { end: 'finish' });
    const failed = await queueTask(me.id, { end: 'fail' });
    const rolledBack = await queueTask(me.id, { end: 'rollback' });
    await runJobs();
    const view = async (task: { uuid: string }) => (await call('GET', `/api/tasks/${task.uuid}`)).json().data;
    const jobOf = (task: { jobId: number }) =>
      h.db.selectFrom('jobs').select('status').where('id', '=', task.jobId).executeTakeFirstOrThrow();
    // What the work returned afterwards does not overwrite the outcome it recorded.
    expect(await view(finished)).toMatchObject({
      status: 'done',
      result: { summary: 'Recorded with the work' },
    });
    expect(await view(failed)).toMatchObject({ status: 'failed', error: 'The file could not be read.' });
    expect(await jobOf(finished)).toEqual({ status: 'done' });
    expect(await jobOf(failed)).toEqual({ status: 'done' });
    // The rolled-back finish left the task open; the failure then ended task and job alike.
    expect(await view(rolledBack)).toMatchObject({
      status: 'failed',
      error: 'The import stopped.',
      result: null,
    });
    expect(await jobOf(rolledBack)).toEqual({ status: 'failed' });
  });

  it('cancels a queued task whose job has not started (the job never runs); refuses a running one with 409', async () => {
    const me = await buildUser(h.db);
    const call = await as(me.id);
    const queued = await queueTask(me.id, { steps: 2 });
    const cancelled = await call('DELETE', `/api/tasks/${queued.uuid}`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({
      message: TaskMessages.cancelled,
      data: { status: 'cancelled' },
    });
    await runJobs();
    expect((await call('GET', `/api/tasks/${queued.uuid}`)).json().data).toMatchObject({
      status: 'cancelled',
      progress: { done: 0 },
      result: null,
    });
    expect(
      await h.db
        .selectFrom('jobs')
        .select(['status', 'attempts'])
        .where('id', '=', queued.jobId)
        .executeTakeFirst(),
    ).toEqual({ status: 'failed', attempts: 0 });

    // A job claimed by a worker (running) cannot be withdrawn.
    const running = await queueTask(me.id, { steps: 2 });
    await h.db
      .updateTable('jobs')
      .set({ status: 'running', locked_by: 'w', locked_at: new Date() })
      .where('id', '=', running.jobId)
      .execute();
    await h.db.updateTable('tasks').set({ status: 'running' }).where('id', '=', running.id).execute();
    const refused = await call('DELETE', `/api/tasks/${running.uuid}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(TaskMessages.stillRunning);
    // A cancelled task is then dismissed like any finished one.
    expect((await call('DELETE', `/api/tasks/${queued.uuid}`)).json().message).toBe(TaskMessages.dismissed);
  });
});

describe('GraphQL tasks', () => {
  it("lists, counts and dismisses through the same services, 404 for another user's task", async () => {
    const me = await buildUser(h.db);
    const other = await buildUser(h.db);
    const mine = await queueTask(me.id, { steps: 1 });
    const theirs = await queueTask(other.id, { steps: 1 });
    await finishTask(h.db, mine.id, { summary: 'All done' }, new Date());
    const headers = await bearer(h.db, me.id);
    const gql = async (query: string, variables: Record<string, unknown> = {}) =>
      (
        await h.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } })
      ).json();
    const list = await gql(
      '{ tasks(first: 10) { data { uuid status result { summary } } paginatorInfo { total } } activeTaskCount }',
    );
    expect(list.data).toEqual({
      tasks: {
        data: [{ uuid: mine.uuid, status: 'done', result: { summary: 'All done' } }],
        paginatorInfo: { total: 1 },
      },
      activeTaskCount: 0,
    });
    const foreign = await gql('mutation ($u: String!) { dismissTask(uuid: $u) { outcome } }', {
      u: theirs.uuid,
    });
    expect(foreign.errors[0].extensions.status).toBe(404);
    const dismissed = await gql('mutation ($u: String!) { dismissTask(uuid: $u) { outcome message } }', {
      u: mine.uuid,
    });
    expect(dismissed.data.dismissTask).toEqual({ outcome: 'dismissed', message: TaskMessages.dismissed });
  });
});
