import { CareCertificateMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';
import {
  buildCertificate,
  buildObservation,
  buildPeople,
  buildVersion,
  observationBody,
  type TestVersion,
} from './approval-world';

/** Concurrency of the workflow (PostgreSQL only): completion, corrections, the all-selected notice, approval vs edit. */
let h: Harness;
let v: TestVersion;
beforeAll(async () => {
  h = await createHarness();
  v = await buildVersion(h.db);
});
afterAll(async () => h?.close());

const as = (userId: number) => clientFor(h.app, h.db, userId);

async function world(o: { notifyAllSelected?: boolean } = {}) {
  const people = await buildPeople(h.db, o);
  const cert = await buildCertificate(h.db, { userId: people.learner.id, versionId: v.id });
  const url = (standard: number, action: string) =>
    `/api/care-certificates/${cert.uuid}/standards/${v.standards[standard]}/${action}`;
  const o1 = await buildObservation(h.db, {
    certificateId: cert.id,
    criterionIds: [v.criteria['1a'], v.criteria['1b'], v.criteria['2a']],
  });
  return { ...people, cert, url, observationId: o1.id };
}

describeRaces('workflow races', () => {
  it('two approvals of the last two standards at once complete the certificate (exactly once)', async () => {
    for (let round = 0; round < 5; round++) {
      const w = await world();
      const [a, m] = [await as(w.approver.id), await as(w.manager.id)];
      const res = await parallel(2, (i) => (i === 0 ? a : m)('POST', w.url(i + 1, 'approve')));
      expect(res.map((r) => r.statusCode)).toEqual([200, 200]);
      const row = await h.db
        .selectFrom('care_certificates')
        .select(['status', 'completed_on'])
        .where('id', '=', w.cert.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('complete');
      const approvals = await h.db
        .selectFrom('care_certificate_decisions')
        .select('id')
        .where('certificate_id', '=', w.cert.id)
        .where('action', '=', 'approved')
        .execute();
      expect(approvals).toHaveLength(2);
      // The person hears of one approval and, once, that the certificate is complete.
      const notices = await h.db
        .selectFrom('notifications')
        .select('title')
        .where('user_id', '=', w.learner.id)
        .where('channel', '=', 'in_app')
        .execute();
      expect(notices.filter((n) => n.title === 'Your certificate is complete')).toHaveLength(1);
      expect(notices).toHaveLength(2);
    }
  });

  it('the same standard approved twice at once: one approval, one 409', async () => {
    const w = await world();
    const [a, m] = [await as(w.approver.id), await as(w.manager.id)];
    const res = await parallel(2, (i) => (i === 0 ? a : m)('POST', w.url(1, 'approve')));
    expect(res.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(res.find((r) => r.statusCode === 409)?.json().message).toBe(M.standardApprovedAlready);
  });

  it('parallel corrections of one observation: one is recorded, the rest answer 409', async () => {
    const w = await world();
    const c = await as(w.manager.id);
    const res = await parallel(5, (i) =>
      c(
        'POST',
        `/api/care-certificates/${w.cert.uuid}/observations`,
        observationBody([v.criteria['1a']], {
          supersedes_id: w.observationId,
          correction_reason: `Reason ${i}`,
        }),
      ),
    );
    expect(res.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const r of res.filter((x) => x.statusCode === 409))
      expect(r.json().message).toBe(M.observationSuperseded);
  });

  it('editing and approving an observation at once: the edit lands first or answers 409, never a 500', async () => {
    for (let round = 0; round < 5; round++) {
      const w = await world();
      const [m, a] = [await as(w.manager.id), await as(w.approver.id)];
      const base = `/api/care-certificates/${w.cert.uuid}/observations/${w.observationId}`;
      const [edit, approve] = await Promise.all([
        m('PATCH', base, { place: 'Garden' }),
        a('POST', `${base}/approve`),
      ]);
      expect(approve.statusCode).toBe(200);
      expect([200, 409]).toContain(edit.statusCode);
      const del = await m('DELETE', base);
      expect(del.statusCode).toBe(409);
    }
  });

  it('the last two standards selected at once tell each approver once', async () => {
    const w = await world({ notifyAllSelected: true });
    const c = await as(w.learner.id);
    const res = await parallel(2, (i) => c('POST', w.url(i + 1, 'submit')));
    expect(res.map((r) => r.statusCode)).toEqual([200, 200]);
    const notices = await h.db
      .selectFrom('notifications')
      .select(['channel'])
      .where('user_id', '=', w.approver.id)
      .where('kind', '=', 'care_certificate')
      .execute();
    expect(notices.map((n) => n.channel).sort()).toEqual(['email', 'in_app']);
  });
});
