import { TaskMessages } from '@cc/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces } from '../../test/parallel';
import { enqueue, registerJob, runDueJobs } from '../jobs/queue';
import { linkTaskJob, startTask, trackJobTask } from './service';

/** Cancel versus start (PostgreSQL only): a worker's claim and a user's cancel never both win. */
let h: Harness;
const RACE_JOB = 'tasks-race-job';
let ran = 0;
beforeAll(async () => {
  registerJob(RACE_JOB, (job) =>
    trackJobTask(job, async (tracker) => {
      ran += 1;
      await tracker.progress(1, 1);
      return { summary: 'ran' };
    }),
  );
  h = await createHarness();
});
afterAll(async () => h?.close());

describeRaces('tasks races', () => {
  it('20 rounds of DELETE against a worker claiming the job: cancelled and never run, or run and 409', async () => {
    const me = await buildUser(h.db);
    const call = await clientFor(h.app, h.db, me.id);
    const outcomes = new Set<string>();
    for (let round = 0; round < 20; round++) {
      const task = await h.db.transaction().execute(async (trx) => {
        const t = await startTask(trx, {
          userId: me.id,
          entityId: null,
          kind: 'export',
          title: `Round ${round}`,
        });
        await linkTaskJob(trx, t.id, (await enqueue(trx, RACE_JOB, {}, { runAt: new Date() })) as number);
        return t;
      });
      const ranBefore = ran;
      const [res] = await Promise.all([
        call('DELETE', `/api/tasks/${task.uuid}`),
        runDueJobs(h.deps, new Date(Date.now() + 1000), { workerId: `w${round}` }),
      ]);
      const row = await h.db
        .selectFrom('tasks')
        .select(['status', 'result'])
        .where('id', '=', task.id)
        .executeTakeFirst();
      if (!row) {
        // The job ran and finished before the DELETE took the lock: it dismissed a done task.
        expect(res.json().message).toBe(TaskMessages.dismissed);
        expect(ran).toBe(ranBefore + 1);
        outcomes.add('ran, then dismissed');
      } else if (res.statusCode === 200) {
        expect(row.status).toBe('cancelled');
        expect(ran).toBe(ranBefore);
        outcomes.add('cancelled');
      } else {
        expect(res.statusCode).toBe(409);
        expect(row).toEqual({ status: 'done', result: { summary: 'ran' } });
        expect(ran).toBe(ranBefore + 1);
        outcomes.add('ran');
      }
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });
});
