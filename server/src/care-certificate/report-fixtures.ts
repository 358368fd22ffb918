import type { Db } from '../db/connect';

/**
 * Test data for the report, exports, dashboards and inspection pack (the tables directly, so these tests do not wait
 * on the assignment and workflow services): a certificate with its standard states, evidence by observation, states.
 */
export async function versionId(db: Db, code: '2015' | '2025'): Promise<number> {
  const v = await db
    .selectFrom('care_certificate_versions')
    .select('id')
    .where('code', '=', code)
    .executeTakeFirstOrThrow();
  return v.id;
}

export async function standardsOf(db: Db, version: number) {
  return db
    .selectFrom('care_certificate_standards')
    .select(['id', 'number', 'title'])
    .where('version_id', '=', version)
    .orderBy('number')
    .execute();
}

export async function insertCertificate(
  db: Db,
  o: {
    userId: number;
    versionId: number;
    startedOn?: string;
    expectedBy?: string | null;
    complete?: string;
    historical?: boolean;
    assignedBy?: number | null;
  },
) {
  const cert = await db
    .insertInto('care_certificates')
    .values({
      user_id: o.userId,
      version_id: o.versionId,
      historical: o.historical ?? false,
      status: o.complete ? 'complete' : 'in_progress',
      completed_on: o.complete ?? null,
      started_on: o.startedOn ?? '2026-01-05',
      expected_by: o.expectedBy === undefined ? '2026-03-30' : o.expectedBy,
      provider: o.historical ? 'Elsewhere' : null,
      assigned_by: o.assignedBy ?? null,
    })
    .returning(['id', 'uuid'])
    .executeTakeFirstOrThrow();
  const standards = await standardsOf(db, o.versionId);
  await db
    .insertInto('care_certificate_standard_states')
    .values(
      standards.map((s) => ({
        certificate_id: cert.id,
        standard_id: s.id,
        state: o.complete ? ('approved' as const) : ('open' as const),
      })),
    )
    .execute();
  return { ...cert, standards };
}

export async function setState(
  db: Db,
  certificateId: number,
  standardId: number,
  state: 'open' | 'awaiting_approval' | 'approved',
  submittedAt: Date = new Date(),
) {
  await db
    .updateTable('care_certificate_standard_states')
    .set({ state, submitted_at: state === 'open' ? null : submittedAt })
    .where('certificate_id', '=', certificateId)
    .where('standard_id', '=', standardId)
    .execute();
}

/** A standard's criteria in the order pages show them (outcome, then criterion position). */
export async function criteriaOf(db: Db, standardId: number) {
  return db
    .selectFrom('care_certificate_criteria as k')
    .innerJoin('care_certificate_outcomes as o', 'o.id', 'k.outcome_id')
    .select(['k.id', 'k.code'])
    .where('k.standard_id', '=', standardId)
    .orderBy('o.position')
    .orderBy('o.id')
    .orderBy('k.position')
    .orderBy('k.id')
    .execute();
}

/** A competent observation linked to the first `n` criteria of a standard (or all): evidence for them. */
export async function observe(db: Db, certificateId: number, standardId: number, n?: number) {
  const criteria = await criteriaOf(db, standardId);
  const chosen = n === undefined ? criteria : criteria.slice(0, n);
  const obs = await db
    .insertInto('care_certificate_observations')
    .values({
      certificate_id: certificateId,
      assessor_name: 'Assessor',
      observed_at: new Date(),
      place: 'Lounge',
      shift: 'day',
      observed: 'Observed at work.',
      outcome: 'competent',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (chosen.length)
    await db
      .insertInto('care_certificate_observation_criteria')
      .values(chosen.map((c) => ({ observation_id: obs.id, criterion_id: c.id })))
      .execute();
  return chosen.map((c) => c.id);
}
