import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { createTestDatabase } from '../../test/test-database';
import { openDeps } from '../bootstrap';
import { loadConfig } from '../config';
import { claimJobs, findJob, startJob } from './queries';
import { enqueue, PermanentJobError, registerJob, registerRecurring, runDueJobs, startWorker } from './queue';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

let n = 0;
const uniqueName = (base: string) => `test-${base}-${++n}-${Math.random().toString(36).slice(2, 7)}`;
const at = (iso: string) => new Date(iso);

describe('enqueue and run', () => {
  it('runs a due job once with its payload and marks it done', async () => {
    const name = uniqueName('basic');
    const seen: unknown[] = [];
    registerJob<{ x: number }>(name, async (_ctx, payload) => {
      seen.push(payload);
    });
    const id = await enqueue(h.db, name, { x: 1 }, { runAt: at('2030-01-01T10:00:00Z') });
    expect(id).toBeTypeOf('number');

    await runDueJobs(h.deps, at('2030-01-01T09:59:59Z'));
    expect(seen).toEqual([]);

    await runDueJobs(h.deps, at('2030-01-01T10:00:00Z'));
    await runDueJobs(h.deps, at('2030-01-01T10:05:00Z'));
    expect(seen).toEqual([{ x: 1 }]);
    const job = await findJob(h.db, id as number);
    expect(job?.status).toBe('done');
    expect(job?.attempts).toBe(1);
  });

  it('records nothing when the enqueuing transaction rolls back', async () => {
    const name = uniqueName('rollback');
    registerJob(name, async () => {});
    await expect(
      h.db.transaction().execute(async (trx) => {
        await enqueue(trx, name, {});
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const rows = await h.db.selectFrom('jobs').select('id').where('name', '=', name).execute();
    expect(rows).toEqual([]);
  });

  it('ignores a second enqueue with the same unique key', async () => {
    const name = uniqueName('unique');
    registerJob(name, async () => {});
    const first = await enqueue(h.db, name, {}, { uniqueKey: `${name}:a` });
    const second = await enqueue(h.db, name, {}, { uniqueKey: `${name}:a` });
    expect(first).not.toBeNull();
    expect(second).toBeNull();
  });
});

describe('retries', () => {
  it('retries a failing job with growing backoff, then succeeds', async () => {
    const name = uniqueName('retry');
    let calls = 0;
    registerJob(
      name,
      async () => {
        calls += 1;
        if (calls < 3) throw new Error(`failure ${calls}`);
      },
      { backoffMs: (attempt) => 60_000 * 2 ** (attempt - 1) },
    );
    const t0 = at('2031-01-01T00:00:00Z');
    const id = (await enqueue(h.db, name, {}, { runAt: t0 })) as number;

    await runDueJobs(h.deps, t0);
    let job = await findJob(h.db, id);
    expect(job).toMatchObject({ status: 'queued', attempts: 1, last_error: 'failure 1' });
    expect(job?.run_at.toISOString()).toBe('2031-01-01T00:01:00.000Z');

    await runDueJobs(h.deps, at('2031-01-01T00:00:59Z'));
    expect(calls).toBe(1);
    await runDueJobs(h.deps, at('2031-01-01T00:01:00Z'));
    job = await findJob(h.db, id);
    expect(job).toMatchObject({ status: 'queued', attempts: 2, last_error: 'failure 2' });
    expect(job?.run_at.toISOString()).toBe('2031-01-01T00:03:00.000Z');

    await runDueJobs(h.deps, at('2031-01-01T00:03:00Z'));
    job = await findJob(h.db, id);
    expect(job).toMatchObject({ status: 'done', attempts: 3, last_error: null });
  });

  it('marks the job failed after max attempts, keeping the error', async () => {
    const name = uniqueName('exhaust');
    registerJob(
      name,
      async () => {
        throw new Error('always');
      },
      { maxAttempts: 2, backoffMs: () => 1000 },
    );
    const t0 = at('2032-01-01T00:00:00Z');
    const id = (await enqueue(h.db, name, {}, { runAt: t0 })) as number;
    await runDueJobs(h.deps, t0);
    await runDueJobs(h.deps, at('2032-01-01T00:00:01Z'));
    await runDueJobs(h.deps, at('2032-01-01T01:00:00Z'));
    const job = await findJob(h.db, id);
    expect(job).toMatchObject({ status: 'failed', attempts: 2, last_error: 'always' });
    expect(job?.finished_at).not.toBeNull();
  });

  it('does not retry a permanent error', async () => {
    const name = uniqueName('permanent');
    registerJob(name, async () => {
      throw new PermanentJobError('cannot be done');
    });
    const t0 = at('2033-01-01T00:00:00Z');
    const id = (await enqueue(h.db, name, {}, { runAt: t0 })) as number;
    await runDueJobs(h.deps, t0);
    expect(await findJob(h.db, id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: 'cannot be done',
    });
  });

  it('fails a job no handler is registered for, instead of losing it', async () => {
    const t0 = at('2033-06-01T00:00:00Z');
    const id = (await enqueue(h.db, uniqueName('unregistered'), {}, { runAt: t0 })) as number;
    await runDueJobs(h.deps, t0);
    const job = await findJob(h.db, id);
    expect(job?.status).toBe('failed');
    expect(job?.last_error).toMatch(/No handler is registered/);
  });
});

describe('concurrency', () => {
  it('never hands the same job to two claimers', async () => {
    const name = uniqueName('claim');
    registerJob(name, async () => {});
    const t0 = at('2034-01-01T00:00:00Z');
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) ids.push((await enqueue(h.db, name, { i }, { runAt: t0 })) as number);
    const claims = await Promise.all(
      Array.from({ length: 6 }, (_, w) => claimJobs(h.db, `worker-${w}`, t0, 5)),
    );
    const claimed = claims.flat().map((j) => j.id);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.sort((a, b) => a - b)).toEqual(ids.filter((id) => claimed.includes(id)));
    // All 20 were available and 6 × 5 slots were asked for: every job was claimed exactly once.
    expect(claimed.length).toBe(20);
  });

  it('runs each job exactly once when several workers run at the same time', async () => {
    const name = uniqueName('workers');
    const runs = new Map<number, number>();
    registerJob<{ i: number }>(name, async (_ctx, { i }) => {
      runs.set(i, (runs.get(i) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 2));
    });
    const t0 = at('2035-01-01T00:00:00Z');
    for (let i = 0; i < 15; i++) await enqueue(h.db, name, { i }, { runAt: t0 });
    await Promise.all(
      Array.from({ length: 4 }, (_, w) => runDueJobs(h.deps, t0, { workerId: `parallel-${w}` })),
    );
    expect([...runs.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, i) => i));
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
  });
});

describe('crashed workers', () => {
  it('reclaims a job left running past its timeout, and not before', async () => {
    const name = uniqueName('stale');
    let calls = 0;
    registerJob(
      name,
      async () => {
        calls += 1;
      },
      { timeoutSeconds: 60 },
    );
    const t0 = at('2036-01-01T00:00:00Z');
    const id = (await enqueue(h.db, name, {}, { runAt: t0 })) as number;
    // A process claims it and dies before finishing.
    const [claimed] = await claimJobs(h.db, 'crashed-process', t0, 1);
    expect(claimed?.id).toBe(id);

    await runDueJobs(h.deps, at('2036-01-01T00:00:59Z'), { workerId: 'survivor' });
    expect(calls).toBe(0);
    expect((await findJob(h.db, id))?.status).toBe('running');

    await runDueJobs(h.deps, at('2036-01-01T00:01:01Z'), { workerId: 'survivor' });
    expect(calls).toBe(1);
    // The crashed claim never started the job: it is no attempt.
    expect(await findJob(h.db, id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('re-runs (never fails) a job whose claim expired before it ran, even on its only attempt (issue 28 §1)', async () => {
    const name = uniqueName('never-ran');
    let calls = 0;
    registerJob(
      name,
      async () => {
        calls += 1;
      },
      { maxAttempts: 1, timeoutSeconds: 60 },
    );
    const t0 = at('2036-02-01T00:00:00Z');
    const id = (await enqueue(h.db, name, {}, { runAt: t0 })) as number;
    await claimJobs(h.db, 'claimed-and-died', t0, 1);
    await runDueJobs(h.deps, at('2036-02-01T00:01:01Z'), { workerId: 'survivor' });
    expect(calls).toBe(1);
    expect(await findJob(h.db, id)).toMatchObject({ status: 'done', attempts: 1, last_error: null });
  });

  it('counts a run that started and died: on its last attempt the job is failed, not run again', async () => {
    const name = uniqueName('died-running');
    let calls = 0;
    registerJob(
      name,
      async () => {
        calls += 1;
      },
      { maxAttempts: 1, timeoutSeconds: 60 },
    );
    const t0 = at('2036-03-01T00:00:00Z');
    const id = (await enqueue(h.db, name, {}, { runAt: t0 })) as number;
    await claimJobs(h.db, 'started-and-died', t0, 1);
    await startJob(h.db, id, 'started-and-died', t0);
    await runDueJobs(h.deps, at('2036-03-01T00:01:01Z'), { workerId: 'survivor' });
    expect(calls).toBe(0);
    expect(await findJob(h.db, id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: 'The job did not finish in time.',
    });
  });

  it('ignores a late completion from the worker that lost the job', async () => {
    const name = uniqueName('late');
    registerJob(name, async () => {}, { timeoutSeconds: 10 });
    const t0 = at('2037-01-01T00:00:00Z');
    const id = (await enqueue(h.db, name, {}, { runAt: t0 })) as number;
    await claimJobs(h.db, 'slow', t0, 1);
    const [again] = await claimJobs(h.db, 'fast', at('2037-01-01T00:00:11Z'), 1);
    expect(again?.id).toBe(id);
    const { completeJob } = await import('./queries');
    await completeJob(h.db, id, 'slow', at('2037-01-01T00:00:12Z'));
    expect((await findJob(h.db, id))?.status).toBe('running');
    await completeJob(h.db, id, 'fast', at('2037-01-01T00:00:12Z'));
    expect((await findJob(h.db, id))?.status).toBe('done');
  });

  it("reclaims sooner with JOB_RECLAIM_AFTER_SECONDS, never later than the job's own timeout (issue 30 §5)", async () => {
    const name = uniqueName('reclaim-after');
    registerJob(name, async () => {}, { timeoutSeconds: 60 });
    const t0 = at('2037-06-01T00:00:00Z');
    const id = (await enqueue(h.db, name, {}, { runAt: t0 })) as number;
    await claimJobs(h.db, 'killed', t0, 1);
    expect(await claimJobs(h.db, 'survivor', at('2037-06-01T00:00:04Z'), 1, 5)).toEqual([]);
    const [again] = await claimJobs(h.db, 'survivor', at('2037-06-01T00:00:06Z'), 1, 5);
    expect(again).toMatchObject({ id, locked_by: 'survivor' });
    // A cap above the job's timeout changes nothing.
    expect(await claimJobs(h.db, 'third', at('2037-06-01T00:00:30Z'), 1, 600)).toEqual([]);
    const [third] = await claimJobs(h.db, 'third', at('2037-06-01T00:01:07Z'), 1, 600);
    expect(third).toMatchObject({ id, locked_by: 'third' });
  });
});

describe('recurring jobs', () => {
  it('runs one job per slot even when two processes tick together', async () => {
    const name = uniqueName('recurring');
    const slots: string[] = [];
    registerJob<{ slot: string }>(name, async (_ctx, { slot }) => {
      slots.push(slot);
    });
    registerRecurring(name, 60_000);
    const t = at('2038-01-01T08:00:30Z');
    await Promise.all([runDueJobs(h.deps, t, { workerId: 'a' }), runDueJobs(h.deps, t, { workerId: 'b' })]);
    await runDueJobs(h.deps, at('2038-01-01T08:00:59Z'));
    await runDueJobs(h.deps, at('2038-01-01T08:01:00Z'));
    expect(slots.filter((s) => s.startsWith('2038'))).toEqual([
      '2038-01-01T08:00:00.000Z',
      '2038-01-01T08:01:00.000Z',
    ]);
  });
});

describe('the worker loop', () => {
  it('polls, runs due jobs and stops gracefully', async () => {
    const name = uniqueName('loop');
    const done: number[] = [];
    registerJob<{ i: number }>(name, async (_ctx, { i }) => {
      done.push(i);
    });
    await enqueue(h.db, name, { i: 1 }, { runAt: new Date(Date.now() - 1000) });
    const worker = startWorker(h.deps, { pollMs: 20 });
    await expect.poll(() => done, { timeout: 5000 }).toEqual([1]);
    await enqueue(h.db, name, { i: 2 }, { runAt: new Date(Date.now() - 1000) });
    worker.wake();
    await expect.poll(() => done, { timeout: 5000 }).toEqual([1, 2]);
    await worker.stop();
    await enqueue(h.db, name, { i: 3 }, { runAt: new Date(Date.now() - 1000) });
    await new Promise((r) => setTimeout(r, 100));
    expect(done).toEqual([1, 2]);
  });
});

describe('the worker loop in a shutdown (issue 12 §3)', () => {
  it('finishes the job in hand and claims no other', async () => {
    const name = uniqueName('in-hand');
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started: number[] = [];
    const done: number[] = [];
    registerJob<{ i: number }>(name, async (_ctx, { i }) => {
      started.push(i);
      await gate;
      done.push(i);
    });
    const first = await enqueue(h.db, name, { i: 1 }, { runAt: new Date(Date.now() - 1000) });
    const worker = startWorker(h.deps, { pollMs: 20 });
    await expect.poll(() => started, { timeout: 5000 }).toEqual([1]);
    const stopped = worker.stop();
    const second = await enqueue(h.db, name, { i: 2 }, { runAt: new Date(Date.now() - 1000) });
    release();
    await stopped;
    expect(done).toEqual([1]);
    expect((await findJob(h.db, first as number))?.status).toBe('done');
    expect((await findJob(h.db, second as number))?.status).toBe('queued');
  });
});

describe('durability', () => {
  // Two starts of the embedded engine on one data folder: seconds each on a loaded two-core machine.
  it('a job enqueued before a restart is run by a new worker on the same database', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-jobs-'));
    let databaseUrl: string | undefined;
    let drop: (() => Promise<void>) | undefined;
    if (process.env.DATABASE_URL) {
      const database = await createTestDatabase(process.env.DATABASE_URL, 'cc_jobs');
      databaseUrl = database.url;
      drop = database.drop;
    }
    const config = {
      ...loadConfig({ NODE_ENV: 'test', SEED_DEMO: 'false' }, { dataDir, appUrl: 'http://localhost:3000' }),
      databaseUrl,
    };
    const name = uniqueName('restart');
    const seen: unknown[] = [];
    registerJob(name, async (_ctx, payload) => {
      seen.push(payload);
    });
    try {
      const first = await openDeps(config);
      const id = (await enqueue(
        first.db,
        name,
        { survived: true },
        { runAt: at('2039-01-01T00:00:00Z') },
      )) as number;
      await first.close(); // the process stops before the job is due

      const second = await openDeps(config);
      try {
        await runDueJobs(second, at('2039-01-01T00:00:00Z'));
        expect(seen).toEqual([{ survived: true }]);
        expect((await findJob(second.db, id))?.status).toBe('done');
      } finally {
        await second.close();
      }
    } finally {
      await drop?.();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
