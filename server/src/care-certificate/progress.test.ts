import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCourse } from '../../test/content-factories';
import { buildEntity, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { judgeOutcome } from '../learning/verdict';
import {
  criteriaEvidenced,
  criteriaLackingEvidence,
  nmdsStatus,
  standardCounts,
  standardReady,
  standardStatus,
} from './progress';

/** The evidence rule (progress.ts) on the seeded standards. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

async function certificateOf(userId: number, versionCode: string) {
  const version = await h.db
    .selectFrom('care_certificate_versions')
    .select('id')
    .where('code', '=', versionCode)
    .executeTakeFirstOrThrow();
  return h.db
    .insertInto('care_certificates')
    .values({ user_id: userId, version_id: version.id, started_on: '2026-11-01' })
    .returning(['id', 'version_id'])
    .executeTakeFirstOrThrow();
}

async function standard(versionId: number, number: number) {
  const s = await h.db
    .selectFrom('care_certificate_standards')
    .select('id')
    .where('version_id', '=', versionId)
    .where('number', '=', number)
    .executeTakeFirstOrThrow();
  const criteria = await h.db
    .selectFrom('care_certificate_criteria')
    .select(['id', 'code', 'requires_observation'])
    .where('standard_id', '=', s.id)
    .orderBy('position')
    .execute();
  return { id: s.id, criteria };
}

const criteriaEvidencedFor = async (certificateId: number) => ({
  rows: await criteriaEvidenced(h.db, certificateId),
});

describe('seeded standards', () => {
  it('has the 2015 and 2025 versions, 2025 the default', async () => {
    const versions = await h.db
      .selectFrom('care_certificate_versions as v')
      .select(['v.code', 'v.is_default'])
      .select((eb) =>
        eb
          .selectFrom('care_certificate_standards as s')
          .whereRef('s.version_id', '=', 'v.id')
          .select((e) => e.fn.countAll<string>().as('n'))
          .as('standards'),
      )
      .orderBy('v.code')
      .execute();
    expect(versions.map((v) => [v.code, v.is_default, Number(v.standards)])).toEqual([
      ['2015', false, 15],
      ['2025', true, 16],
    ]);
  });
});

describe('evidence rule', () => {
  it('counts mapped passed results, evidence links and competent observations that are not superseded', async () => {
    const entity = await buildEntity(h.db);
    const user = await buildUser(h.db, { entityId: entity.id });
    const cert = await certificateOf(user.id, '2025');
    const s9 = await standard(cert.version_id, 9);
    expect(s9.criteria.length).toBeGreaterThan(2);
    const [a, b, c] = s9.criteria;

    let counts = (await standardCounts(h.db, [cert.id])).get(cert.id)?.get(s9.id);
    expect(counts).toEqual({ standardId: s9.id, total: s9.criteria.length, evidenced: 0 });

    // a: a passed result of a mapped course
    const course = await buildCourse(h.db, entity.id);
    await h.db
      .insertInto('course_care_certificate_criteria')
      .values({ course_id: course.id, criterion_id: a.id })
      .execute();
    await h.db
      .insertInto('results')
      .values({
        user_id: user.id,
        entity_id: entity.id,
        course_id: course.id,
        type: 'historical',
        passed: true,
        completed_at: new Date(),
      })
      .execute();
    // b: a file
    const file = await h.db
      .insertInto('files')
      .values({
        purpose: 'care_certificate_evidence',
        storage_key: 'x/y.pdf',
        original_name: 'y.pdf',
        mime_type: 'application/pdf',
        size_bytes: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ev = await h.db
      .insertInto('care_certificate_evidence')
      .values({ certificate_id: cert.id, kind: 'file', file_id: file.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('care_certificate_evidence_criteria')
      .values({ evidence_id: ev.id, criterion_id: b.id })
      .execute();
    // c: a competent observation, then superseded by a not-yet-competent correction
    const obs = await h.db
      .insertInto('care_certificate_observations')
      .values({
        certificate_id: cert.id,
        assessor_name: 'A',
        observed_at: new Date(),
        place: 'Lounge',
        shift: 'early',
        observed: 'x',
        outcome: 'competent',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('care_certificate_observation_criteria')
      .values({ observation_id: obs.id, criterion_id: c.id })
      .execute();

    counts = (await standardCounts(h.db, [cert.id])).get(cert.id)?.get(s9.id);
    expect(counts?.evidenced).toBe(3);

    const fix = await h.db
      .insertInto('care_certificate_observations')
      .values({
        certificate_id: cert.id,
        assessor_name: 'A',
        observed_at: new Date(),
        place: 'Lounge',
        shift: 'early',
        observed: 'x',
        outcome: 'not_yet_competent',
        supersedes_id: obs.id,
        correction_reason: 'Wrong outcome',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('care_certificate_observation_criteria')
      .values({ observation_id: fix.id, criterion_id: c.id })
      .execute();
    const lacking = await criteriaLackingEvidence(h.db, cert.id, s9.id);
    expect(lacking.lacking).toContain(c.id);
    expect(lacking.lacking).not.toContain(a.id);
    expect(lacking.lacking).not.toContain(b.id);
  });

  it('issue 32 §6: e-learning counts only a pass as the verdict rule judges it; observed criteria only by observation', async () => {
    const entity = await buildEntity(h.db);
    const user = await buildUser(h.db, { entityId: entity.id });
    const cert = await certificateOf(user.id, '2025');
    const s9 = await standard(cert.version_id, 9);
    const knowledge = s9.criteria.find((k) => !k.requires_observation);
    const observed = (await standard(cert.version_id, 1)).criteria.find((k) => k.requires_observation);
    if (!knowledge || !observed) throw new Error('the seeded 2025 data has both kinds');
    const course = await buildCourse(h.db, entity.id);
    await h.db
      .insertInto('course_care_certificate_criteria')
      .values([knowledge, observed].map((k) => ({ course_id: course.id, criterion_id: k.id })))
      .execute();
    const evidenced = async () => {
      const { rows } = await criteriaEvidencedFor(cert.id);
      return { knowledge: rows.get(knowledge.id), observed: rows.get(observed.id) };
    };
    const record = (passed: boolean, status: 'approved' | 'pending' = 'approved') =>
      h.db
        .insertInto('results')
        .values({
          user_id: user.id,
          entity_id: entity.id,
          course_id: course.id,
          type: 'elearning',
          passed,
          status,
          score: 60,
          completed_at: new Date(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    // A result's pass is the verdict rule's (quizzes-service.ts: passed = judgeOutcome(...) === 'passed'): a score
    // under the pass mark fails, an outcome without score or verdict is unjudged; neither evidences.
    const pass = (o: Parameters<typeof judgeOutcome>[0]) => judgeOutcome(o, 80) === 'passed';
    await record(pass({ score: 60 }));
    await record(pass({}));
    await record(pass({ success: false, score: 95 }));
    // A pass still waiting for a manager's approval does not count either.
    await record(pass({ success: true }), 'pending');
    expect(await evidenced()).toEqual({ knowledge: false, observed: false });
    // The pass the rule judges: the knowledge criterion, never the observed one (mapped to the same course).
    await record(pass({ score: 85 }));
    expect(await evidenced()).toEqual({ knowledge: true, observed: false });
    // A file does not evidence an observed criterion either; a competent observation does.
    const file = await h.db
      .insertInto('files')
      .values({
        purpose: 'care_certificate_evidence',
        storage_key: 'x/z.pdf',
        original_name: 'z.pdf',
        mime_type: 'application/pdf',
        size_bytes: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ev = await h.db
      .insertInto('care_certificate_evidence')
      .values({ certificate_id: cert.id, kind: 'file', file_id: file.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('care_certificate_evidence_criteria')
      .values({ evidence_id: ev.id, criterion_id: observed.id })
      .execute();
    expect((await evidenced()).observed).toBe(false);
    const obs = await h.db
      .insertInto('care_certificate_observations')
      .values({
        certificate_id: cert.id,
        assessor_name: 'A',
        observed_at: new Date(),
        place: 'Lounge',
        shift: 'early',
        observed: 'x',
        outcome: 'competent',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('care_certificate_observation_criteria')
      .values({ observation_id: obs.id, criterion_id: observed.id })
      .execute();
    expect(await evidenced()).toEqual({ knowledge: true, observed: true });
  });

  it('refuses any update of an approved observation in the database itself', async () => {
    const entity = await buildEntity(h.db);
    const user = await buildUser(h.db, { entityId: entity.id });
    const cert = await certificateOf(user.id, '2015');
    const obs = await h.db
      .insertInto('care_certificate_observations')
      .values({
        certificate_id: cert.id,
        assessor_name: 'A',
        observed_at: new Date(),
        place: 'Lounge',
        shift: 'night',
        observed: 'x',
        outcome: 'competent',
        approved_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await expect(
      h.db
        .updateTable('care_certificate_observations')
        .set({ place: 'Kitchen' })
        .where('id', '=', obs.id)
        .execute(),
    ).rejects.toThrow(/append-only/);
  });
});

describe('statuses', () => {
  it('derives the shown status, readiness and the workforce data set value', () => {
    expect(standardStatus('open', 0)).toBe('outstanding');
    expect(standardStatus('open', 1)).toBe('working_towards');
    expect(standardStatus('awaiting_approval', 3)).toBe('awaiting_approval');
    expect(standardStatus('approved', 3)).toBe('approved');
    expect(standardReady('open', { total: 0, evidenced: 0 })).toBe(false);
    expect(standardReady('open', { total: 2, evidenced: 2 })).toBe(true);
    expect(standardReady('approved', { total: 2, evidenced: 2 })).toBe(false);
    expect(nmdsStatus([])).toBe('not_started');
    expect(nmdsStatus([{ status: 'in_progress', anyEvidence: false, anyDecision: false }])).toBe(
      'not_started',
    );
    expect(nmdsStatus([{ status: 'in_progress', anyEvidence: true, anyDecision: false }])).toBe(
      'in_progress',
    );
    expect(nmdsStatus([{ status: 'complete', anyEvidence: false, anyDecision: false }])).toBe('completed');
  });
});
