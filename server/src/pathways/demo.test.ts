import { PathwayPerm as P } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { seedDemo } from '../demo/seed';
import { DEMO_PATHWAY_TITLE, DEMO_SIGN_OFF_TITLE } from './demo';

/** The pathways demo, read back through the API as the demo learner and manager see it. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await seedDemo(h.db);
}, 180_000);
afterAll(async () => h?.close());

const userId = async (email: string) =>
  (await h.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

describe('pathways demo data', () => {
  it('the demo learner has the induction in progress with the first step done', async () => {
    const learner = await clientFor(h.app, h.db, await userId('learner@demo.test'));
    const mine = await learner('GET', '/api/pathways/mine');
    expect(mine.statusCode).toBe(200);
    const [induction] = mine.json().data;
    expect(induction).toMatchObject({
      pathway: { title: DEMO_PATHWAY_TITLE },
      status: 'in_progress',
      sequential: true,
      steps_done: 1,
      steps_total: 3,
      via_role: { role: { name: 'Care Assistant' } },
    });
    expect(induction.steps.map((s: { status: string }) => s.status)).toEqual(['done', 'to_do', 'locked']);
    expect(induction.steps[2].title).toBe(DEMO_SIGN_OFF_TITLE);
  });

  it('the demo manager may view, edit, allocate and sign off', async () => {
    const manager = await clientFor(h.app, h.db, await userId('manager@demo.test'));
    const list = await manager('GET', '/api/pathways');
    expect(list.statusCode).toBe(200);
    const [p] = list.json().data;
    expect(p.title).toBe(DEMO_PATHWAY_TITLE);
    expect(p.counts.in_progress).toBeGreaterThan(1);
    const view = await manager('GET', `/api/pathways/${p.id}`);
    expect(view.json().data.can).toEqual({ edit: true, allocate: true, sign_off: true });
    const perms = (await manager('GET', '/api/auth/permissions')).json().data as (number | { id: number })[];
    const ids = perms.map((x) => (typeof x === 'number' ? x : x.id));
    for (const perm of [...P.manage, P.allocate, P.signOff]) expect(ids).toContain(perm);
  });
});
