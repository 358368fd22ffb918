import { CareCertificatePerm as P } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { seedDemo } from '../demo/seed';
import { DEMO_ASSESSOR_EMAIL } from './demo';
import { DEMO_VERSION_CODE } from './demo-finished';

/** The Care Certificate demo: people at every stage, read back through the API as the demo manager sees them. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await seedDemo(h.db, null, h.deps);
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
    const live = list.filter((c) => !c.historical && c.version.code !== DEMO_VERSION_CODE);
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

  it('one learner finished her whole certificate through the real steps, and can print it (issue 32 §3)', async () => {
    const manager = await clientFor(h.app, h.db, await userId('manager@demo.test'));
    const list = (await manager('GET', '/api/care-certificates?per_page=100')).json().data as Summary[];
    const finished = list.filter((c) => c.version.code === DEMO_VERSION_CODE);
    expect(finished).toHaveLength(1);
    const summary = finished[0] as Summary;
    expect(summary).toMatchObject({ status: 'complete', historical: false });
    const view = (await manager('GET', `/api/care-certificates/${summary.uuid}`)).json().data;
    // Every standard that has criteria in 2025 (the demo copy holds only those), each approved with every criterion
    // evidenced as its kind requires: files for knowledge, a competent observation for observed criteria.
    const v2025 = (await manager('GET', '/api/care-certificate-versions'))
      .json()
      .data.find((v: { code: string }) => v.code === '2025');
    const gaps = (await manager('GET', `/api/care-certificate-versions/${v2025.id}/gaps`)).json().data;
    expect(view.standards.map((s: { number: number }) => s.number)).toEqual(
      gaps.standards
        .filter((s: { criteria_count: number }) => s.criteria_count > 0)
        .map((s: { number: number }) => s.number),
    );
    expect(view.standards.length).toBeGreaterThanOrEqual(10);
    for (const s of view.standards) {
      expect(s.state, `Standard ${s.number}`).toBe('approved');
      expect(s.criteria_evidenced).toBe(s.criteria_total);
      for (const c of s.outcomes.flatMap((o: { criteria: unknown[] }) => o.criteria) as {
        requires_observation: boolean;
        observation_ids: number[];
        file_ids: number[];
      }[])
        expect(c.requires_observation ? c.observation_ids.length : c.file_ids.length).toBeGreaterThan(0);
    }
    // Through the workflow: the learner sent each standard, the manager approved it.
    const learnerName = view.user.name;
    const decisions = view.decisions as { action: string; by: string | null; standard_number: number }[];
    for (const s of view.standards) {
      expect(decisions.filter((d) => d.standard_number === s.number).map((d) => [d.action, d.by])).toEqual([
        ['submitted', learnerName],
        ['approved', 'Sam Patel'],
      ]);
    }
    expect(view.observations.every((o: { approved_at: string | null }) => o.approved_at !== null)).toBe(true);
    expect(view.completed_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const learner = await clientFor(h.app, h.db, view.user.id);
    const pdf = await learner('GET', `/api/care-certificates/${summary.uuid}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The official 2025 version is untouched and still the default.
    expect(v2025).toMatchObject({ is_default: true });
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
