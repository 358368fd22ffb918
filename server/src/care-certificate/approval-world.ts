import { randomUUID } from 'node:crypto';
import { CareCertificatePerm as P } from '@cc/contracts';
import type { Kysely } from 'kysely';
import { buildEntity, buildUser } from '../../test/factories';
import type { Db } from '../db/connect';
import { seedVersion } from '../db/migrations/030_care_certificates';

/**
 * Test worlds of the workflow part (observations, approvals, PDF, historical): a version of its own with criteria
 * in every standard (the seeded 2025 version has criteria for Standard 9 only), an organisation with a home, the
 * people who act on certificates, and certificates inserted directly (assignment is the core part's).
 */
export const ALL_CC = [
  P.assign,
  P.report,
  P.download,
  P.observe,
  P.deleteObservation,
  P.historical,
  P.approve,
];

export interface TestVersion {
  id: number;
  /** Standard number → id. */
  standards: Record<number, number>;
  /** Criterion code → id ('1a', '1b' (observation only), '2a'; '3' has no criteria). */
  criteria: Record<string, number>;
}

/** Three standards: 1 with "Describe" 1a and "Demonstrate" 1b, 2 with 2a, and 3 with none (when `empty`). */
export async function buildVersion(db: Db, o: { empty?: boolean } = {}): Promise<TestVersion> {
  const code = `T${randomUUID().slice(0, 8)}`;
  const standards = [
    {
      number: 1,
      title: 'Understand your role',
      outcomes: [
        {
          code: '1.1',
          title: 'Your role',
          criteria: [
            { code: '1a', text: 'Describe your main duties' },
            { code: '1b', text: 'Demonstrate working in agreed ways' },
          ],
        },
      ],
    },
    {
      number: 2,
      title: 'Duty of care',
      outcomes: [{ code: '2.1', title: 'Duty', criteria: [{ code: '2a', text: 'Explain duty of care' }] }],
    },
    ...(o.empty ? [{ number: 3, title: 'Basic life support', outcomes: [] }] : []),
  ];
  const id = await seedVersion(
    db as unknown as Kysely<unknown>,
    { version: code, title: `Test version ${code}`, effective_from: null, standards },
    false,
  );
  const rows = await db
    .selectFrom('care_certificate_standards as s')
    .leftJoin('care_certificate_criteria as k', 'k.standard_id', 's.id')
    .select(['s.id as standard_id', 's.number', 'k.id as criterion_id', 'k.code'])
    .where('s.version_id', '=', id)
    .execute();
  const out: TestVersion = { id, standards: {}, criteria: {} };
  for (const r of rows) {
    out.standards[r.number] = r.standard_id;
    if (r.code && r.criterion_id) out.criteria[r.code] = r.criterion_id;
  }
  return out;
}

/** A certificate of `userId` with its standard_states rows (as assignment makes them). */
export async function buildCertificate(
  db: Db,
  o: { userId: number; versionId: number; startedOn?: string; expectedBy?: string | null },
) {
  const cert = await db
    .insertInto('care_certificates')
    .values({
      user_id: o.userId,
      version_id: o.versionId,
      started_on: o.startedOn ?? '2026-01-05',
      expected_by: o.expectedBy === undefined ? '2026-03-30' : o.expectedBy,
    })
    .returning(['id', 'uuid'])
    .executeTakeFirstOrThrow();
  const standards = await db
    .selectFrom('care_certificate_standards')
    .select('id')
    .where('version_id', '=', o.versionId)
    .execute();
  if (standards.length)
    await db
      .insertInto('care_certificate_standard_states')
      .values(standards.map((s) => ({ certificate_id: cert.id, standard_id: s.id })))
      .execute();
  return cert;
}

/** A competent observation of the certificate on the criteria (inserted directly). */
export async function buildObservation(
  db: Db,
  o: {
    certificateId: number;
    criterionIds: number[];
    outcome?: 'competent' | 'not_yet_competent';
    by?: number;
  },
) {
  const row = await db
    .insertInto('care_certificate_observations')
    .values({
      certificate_id: o.certificateId,
      assessor_id: o.by ?? null,
      assessor_name: 'Ann Assessor',
      observed_at: new Date('2026-02-02T10:00:00Z'),
      place: 'Lounge',
      shift: 'early',
      observed: 'Supported a resident at breakfast.',
      outcome: o.outcome ?? 'competent',
      created_by: o.by ?? null,
    })
    .returning(['id', 'uuid'])
    .executeTakeFirstOrThrow();
  await db
    .insertInto('care_certificate_observation_criteria')
    .values(o.criterionIds.map((criterion_id) => ({ observation_id: row.id, criterion_id })))
    .execute();
  return row;
}

/** An organisation (level A with a home), its people, another organisation's all-permission user. */
export async function buildPeople(db: Db, o: { notifyAllSelected?: boolean } = {}) {
  const org = await buildEntity(db, {
    level: 'A',
    settings: o.notifyAllSelected ? { notify_all_standards_selected: true } : {},
  });
  const home = await buildEntity(db, { level: 'B', parentId: org.id });
  const manager = await buildUser(db, { entityId: org.id, permissions: ALL_CC, name: 'Mia Manager' });
  const observer = await buildUser(db, { entityId: home.id, permissions: [P.observe], name: 'Oli Observer' });
  const approver = await buildUser(db, { entityId: home.id, permissions: [P.approve], name: 'Ava Approver' });
  const assigner = await buildUser(db, { entityId: home.id, permissions: [P.assign] });
  const learner = await buildUser(db, { entityId: home.id, name: 'Lee Learner' });
  const insider = await buildUser(db, { entityId: home.id });
  const outsider = await buildUser(db, { permissions: ALL_CC });
  return { org, home, manager, observer, approver, assigner, learner, insider, outsider };
}

export const observationBody = (criterionIds: number[], extra: Record<string, unknown> = {}) => ({
  observed_at: '2026-02-03T09:30:00+00:00',
  place: 'Dining room',
  shift: 'day',
  observed: 'Helped a resident to eat, explaining each step.',
  outcome: 'competent',
  criterion_ids: criterionIds,
  ...extra,
});
