import { CareCertificatePerm as P } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { seedDemo } from '../demo/seed';
import { DEMO_ASSESSOR_EMAIL } from './demo';

/** The Care Certificate demo: people at every stage, read back through the API as the demo manager sees them. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await seedDemo(h.db);
}, 180_000);
afterAll(async () => h?.close());

const userId = async (email: string) =>
  (await h.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

interface Summary {
  uuid: string;
  user: { name: string };
  version: { code: string };
  status: string;
  historical: boolean;
  overdue: boolean;
  standards_awaiting_approval: number;
  standards_approved: number;
  criteria_evidenced: number;
}

describe('Care Certificate demo data', () => {
  it('the demo manager holds 86–93 and there is an assessor who may observe', async () => {
    const manager = await clientFor(h.app, h.db, await userId('manager@demo.test'));
    const perms = (await manager('GET', '/api/auth/permissions')).json().data as number[] | { id: number }[];
    const ids = (perms as (number | { id: number })[]).map((p) => (typeof p === 'number' ? p : p.id));
    for (const p of Object.values(P)) expect(ids, `permission ${p}`).toContain(p);
    const assessor = await clientFor(h.app, h.db, await userId(DEMO_ASSESSOR_EMAIL));
    const theirs = (await assessor('GET', '/api/auth/permissions')).json().data as (
      | number
      | { id: number }
    )[];
    expect(theirs.map((p) => (typeof p === 'number' ? p : p.id))).toContain(P.observe);
  });

  it('people at every stage on the 2025 version, an overdue one, and a historical certificate', async () => {
    const manager = await clientFor(h.app, h.db, await userId('manager@demo.test'));
    const res = await manager('GET', '/api/care-certificates?per_page=100');
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json().data as Summary[];
    const live = list.filter((c) => !c.historical);
    expect(live.every((c) => c.version.code === '2025')).toBe(true);
    expect(live.some((c) => c.criteria_evidenced === 0 && !c.overdue)).toBe(true);
    expect(
      live.some(
        (c) => c.criteria_evidenced > 0 && c.standards_awaiting_approval === 0 && c.standards_approved === 0,
      ),
    ).toBe(true);
    expect(live.filter((c) => c.standards_awaiting_approval === 1)).toHaveLength(1);
    expect(live.filter((c) => c.standards_approved === 1)).toHaveLength(1);
    expect(live.filter((c) => c.overdue)).toHaveLength(1);
    const historical = list.filter((c) => c.historical);
    expect(historical).toHaveLength(1);
    expect(historical[0]).toMatchObject({ status: 'complete', version: { code: '2015' } });
    expect(list.map((c) => c.user.name)).toContain('Casey Lee');
  });

  it('Casey Lee works towards Standard 9 through the e-learning course mapped to its criteria', async () => {
    const casey = await clientFor(h.app, h.db, await userId('learner@demo.test'));
    const mine = await casey('GET', '/api/care-certificates/mine');
    expect(mine.statusCode, mine.body).toBe(200);
    const uuid = (mine.json().data as Summary[])[0]?.uuid;
    const view = (await casey('GET', `/api/care-certificates/${uuid}`)).json().data;
    const s9 = view.standards.find((s: { number: number }) => s.number === 9);
    expect(s9.status).toBe('working_towards');
    expect(s9.criteria_evidenced).toBeGreaterThan(0);
    expect(s9.criteria_evidenced).toBeLessThan(s9.criteria_total);
  });

  it('the awaiting one can be approved by the demo manager, and its observation is then approved', async () => {
    const manager = await clientFor(h.app, h.db, await userId('manager@demo.test'));
    const list = (await manager('GET', '/api/care-certificates?per_page=100&awaiting_approval=true')).json()
      .data as Summary[];
    expect(list).toHaveLength(1);
    const view = (await manager('GET', `/api/care-certificates/${list[0]?.uuid}`)).json().data;
    const s9 = view.standards.find((s: { number: number }) => s.number === 9);
    expect(s9.ready).toBe(true);
    expect(s9.state).toBe('awaiting_approval');
    const res = await manager('POST', `/api/care-certificates/${list[0]?.uuid}/standards/${s9.id}/approve`);
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res.json().data.observations.every((o: { approved_at: string | null }) => o.approved_at !== null),
    ).toBe(true);
  });
});
