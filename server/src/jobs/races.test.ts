import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';
import { claimJobs } from './queries';
import { enqueue, registerJob, runDueJobs } from './queue';

/** The job queue under concurrency (issue 28 §1, issue 30 §5; PostgreSQL only). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

let n = 0;
const uniqueName = (base: string) => `race-${base}-${++n}-${Math.random().toString(36).slice(2, 7)}`;

async function enqueueMany(name: string, count: number, runAt: Date): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push((await enqueue(h.db, name, { i }, { runAt })) as number);
  return ids;
}

const statusesOf = (name: string) =>
  h.db.selectFrom('jobs').select(['status', 'attempts']).where('name', '=', name).execute();

describeRaces('job queue races', () => {
  it('4 workers x 200 due jobs: every job runs exactly once, none is left waiting for a timeout', async () => {
    const name = uniqueName('workers');
    const runs = new Map<number, number>();
    registerJob<{ i: number }>(name, async (_ctx, { i }) => {
      runs.set(i, (runs.get(i) ?? 0) + 1);
    });
    const t0 = new Date('2040-01-01T00:00:00Z');
    await enqueueMany(name, 200, t0);
    // Four workers, each on its own pooled connection, claiming side by side.
    const results = await parallel(4, (w) => runDueJobs(h.deps, t0, { workerId: `worker-${w}` }));
    // Every run counted is a job that ran: these 200, plus any recurring job this process has registered (the
    // PostgreSQL lane runs many files in one process, and runDueJobs enqueues the recurring ones it knows).
    const recurringRan = await h.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('name', '!=', name)
      .where('status', 'in', ['done', 'failed'])
      .executeTakeFirstOrThrow();
    expect(results.reduce((sum, r) => sum + r.ran, 0)).toBe(200 + Number(recurringRan.n));
    expect(runs.size).toBe(200);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    // Nothing claimed and left running (it would wait for its lock timeout): all done, each attempted once.
    const rows = await statusesOf(name);
    expect(rows.filter((r) => r.status !== 'done')).toEqual([]);
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
  });

  it('a claim of n takes n rows at most, whatever the plan (hash and merge joins off)', async () => {
    const name = uniqueName('exact');
    registerJob(name, async () => {});
    const t0 = new Date('2041-01-01T00:00:00Z');
    await enqueueMany(name, 300, t0);
    const claimed = await h.db.transaction().execute(async (trx) => {
      // Issue 30 saw one claim take 300 rows under a forced plan: the pick is evaluated once, whatever the plan.
      await sql`SET LOCAL enable_hashjoin = off`.execute(trx);
      await sql`SET LOCAL enable_mergejoin = off`.execute(trx);
      return claimJobs(trx, 'forced-plan', t0, 1);
    });
    expect(claimed).toHaveLength(1);
    const running = (await statusesOf(name)).filter((r) => r.status === 'running');
    expect(running).toHaveLength(1);
    // 16 claims of 5 at once: 80 distinct rows, no more.
    const many = await parallel(16, (w) => claimJobs(h.db, `claimer-${w}`, t0, 5));
    const ids = many.flat().map((j) => j.id);
    expect(many.map((c) => c.length)).toEqual(Array(16).fill(5));
    expect(new Set(ids).size).toBe(ids.length);
    expect((await statusesOf(name)).filter((r) => r.status === 'running')).toHaveLength(1 + ids.length);
  });
});
