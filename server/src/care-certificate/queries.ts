import type { CertificateSummary } from '@cc/contracts';
import { sql } from 'kysely';
import { londonDate } from '../bookings/session-service';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';
import type { DbOrTrx } from '../jobs/queries';
import { type DecisionRow, type ObservationRow, presentSummary, type SummaryRow } from './presenters';
import { standardCounts } from './progress';

/** SQL of certificates, their observations, decisions and summaries (STYLE.md "SQL in one place"). */

/** Criterion ids linked to each observation (observation id → ids). */
async function observationCriteria(db: DbOrTrx, observationIds: number[]) {
  const out = new Map<number, number[]>();
  if (observationIds.length === 0) return out;
  const rows = await db
    .selectFrom('care_certificate_observation_criteria')
    .select(['observation_id', 'criterion_id'])
    .where('observation_id', 'in', observationIds)
    .execute();
  for (const r of rows) out.set(r.observation_id, [...(out.get(r.observation_id) ?? []), r.criterion_id]);
  return out;
}

/** A certificate's observations (or only `ids`), oldest first, with names and the id of any correction. */
export async function observationRows(
  db: DbOrTrx,
  certificateId: number,
  ids?: number[],
): Promise<ObservationRow[]> {
  let q = db
    .selectFrom('care_certificate_observations as o')
    .leftJoin('users as ab', 'ab.id', 'o.approved_by')
    .leftJoin('users as cb', 'cb.id', 'o.created_by')
    .leftJoin('care_certificate_observations as n', 'n.supersedes_id', 'o.id')
    .select([
      'o.id',
      'o.uuid',
      'o.assessor_id',
      'o.assessor_name',
      'o.observed_at',
      'o.place',
      'o.shift',
      'o.observed',
      'o.outcome',
      'o.approved_at',
      'ab.name as approved_by_name',
      'o.supersedes_id',
      'o.correction_reason',
      'n.id as superseded_by_id',
      'cb.name as created_by_name',
      'o.created_at',
    ])
    .where('o.certificate_id', '=', certificateId);
  if (ids) {
    if (ids.length === 0) return [];
    q = q.where('o.id', 'in', ids);
  }
  const rows = await q.orderBy('o.observed_at').orderBy('o.id').execute();
  const criteria = await observationCriteria(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, criterion_ids: criteria.get(r.id) ?? [] }));
}

/** A certificate's approval history, oldest first. */
export async function decisionRows(db: DbOrTrx, certificateId: number): Promise<DecisionRow[]> {
  return db
    .selectFrom('care_certificate_decisions as d')
    .innerJoin('care_certificate_standards as s', 's.id', 'd.standard_id')
    .leftJoin('users as u', 'u.id', 'd.actor_id')
    .select([
      'd.id',
      'd.standard_id',
      's.number as standard_number',
      'd.action',
      'd.reasons',
      'u.name as actor_name',
      'd.created_at',
    ])
    .where('d.certificate_id', '=', certificateId)
    .orderBy('d.created_at')
    .orderBy('d.id')
    .execute();
}

/** The summary rows of certificates (in no order): one query whatever the number. */
export async function summaryRows(db: DbOrTrx, certificateIds: readonly number[]): Promise<SummaryRow[]> {
  if (certificateIds.length === 0) return [];
  return db
    .selectFrom('care_certificates as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .innerJoin('care_certificate_versions as v', 'v.id', 'c.version_id')
    .leftJoin('users as ab', 'ab.id', 'c.assigned_by')
    .select([
      'c.id',
      'c.uuid',
      'c.user_id',
      'u.uuid as user_uuid',
      'u.name as user_name',
      'e.id as entity_id',
      'e.slug as entity_slug',
      'e.name as entity_name',
      'c.version_id',
      'v.code as version_code',
      'v.title as version_title',
      'c.status',
      'c.historical',
      'c.started_on',
      'c.expected_by',
      'c.completed_on',
      'ab.name as assigned_by_name',
      'c.created_at',
    ])
    .select([
      sql<number>`(SELECT count(*) FROM care_certificate_standards s WHERE s.version_id = c.version_id)::int`.as(
        'standards_total',
      ),
      sql<number>`(SELECT count(*) FROM care_certificate_standard_states t
        WHERE t.certificate_id = c.id AND t.state = 'approved')::int`.as('standards_approved'),
      sql<number>`(SELECT count(*) FROM care_certificate_standard_states t
        WHERE t.certificate_id = c.id AND t.state = 'awaiting_approval')::int`.as('standards_awaiting'),
      sql<boolean>`EXISTS (SELECT 1 FROM care_certificate_decisions d WHERE d.certificate_id = c.id)`.as(
        'any_decision',
      ),
    ])
    .where('c.id', 'in', [...certificateIds])
    .execute();
}

export interface CertificateFilter {
  /** null = every organisation (super admin without acting-as). */
  entityIds: number[] | null;
  userId?: number;
  versionId?: number;
  status?: 'in_progress' | 'complete';
  historical?: boolean;
  awaitingApproval?: boolean;
  overdue?: boolean;
  search?: string;
  today: string;
}

/** One page of certificate ids (newest first) and the total, for GET /care-certificates. */
export async function listCertificateIds(
  db: Db,
  f: CertificateFilter,
  page: { page: number; perPage: number },
): Promise<{ ids: number[]; total: number }> {
  let q = db.selectFrom('care_certificates as c').innerJoin('users as u', 'u.id', 'c.user_id');
  if (f.entityIds !== null) {
    if (f.entityIds.length === 0) return { ids: [], total: 0 };
    q = q.where('u.primary_entity_id', 'in', f.entityIds);
  }
  if (f.userId !== undefined) q = q.where('c.user_id', '=', f.userId);
  if (f.versionId !== undefined) q = q.where('c.version_id', '=', f.versionId);
  if (f.status !== undefined) q = q.where('c.status', '=', f.status);
  if (f.historical !== undefined) q = q.where('c.historical', '=', f.historical);
  if (f.awaitingApproval !== undefined) {
    const exists = sql<boolean>`EXISTS (SELECT 1 FROM care_certificate_standard_states t
      WHERE t.certificate_id = c.id AND t.state = 'awaiting_approval')`;
    q = q.where(f.awaitingApproval ? exists : sql<boolean>`NOT ${exists}`);
  }
  if (f.overdue !== undefined) {
    const overdue = sql<boolean>`(c.status = 'in_progress' AND c.expected_by IS NOT NULL AND c.expected_by < ${f.today}::date)`;
    q = q.where(f.overdue ? overdue : sql<boolean>`NOT ${overdue}`);
  }
  if (f.search) {
    const like = `%${f.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    q = q.where((eb) => eb.or([eb('u.name', 'ilike', like), eb('u.email', 'ilike', like)]));
  }
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) => filtered.select('c.id').orderBy('c.created_at', 'desc').orderBy('c.id', 'desc'),
    page,
  );
  return { ids: rows.map((r) => r.id), total };
}

/** The standards → outcomes → criteria of a version, in number / position order. */
export async function versionTree(db: DbOrTrx, versionId: number) {
  const standards = await db
    .selectFrom('care_certificate_standards')
    .select(['id', 'number', 'title'])
    .where('version_id', '=', versionId)
    .orderBy('number')
    .execute();
  const standardIds = standards.map((s) => s.id);
  const outcomes = standardIds.length
    ? await db
        .selectFrom('care_certificate_outcomes')
        .select(['id', 'standard_id', 'code', 'title', 'position'])
        .where('standard_id', 'in', standardIds)
        .orderBy('position')
        .orderBy('id')
        .execute()
    : [];
  const criteria = standardIds.length
    ? await db
        .selectFrom('care_certificate_criteria')
        .select(['id', 'standard_id', 'outcome_id', 'code', 'text', 'requires_observation', 'position'])
        .where('standard_id', 'in', standardIds)
        .orderBy('position')
        .orderBy('id')
        .execute()
    : [];
  return standards.map((s) => ({
    ...s,
    outcomes: outcomes
      .filter((o) => o.standard_id === s.id)
      .map(({ standard_id: _s, ...o }) => ({
        ...o,
        criteria: criteria
          .filter((c) => c.outcome_id === o.id)
          .map(({ standard_id: _a, outcome_id: _b, ...c }) => c),
      })),
  }));
}

/** Today's date where the certificates are kept (Europe/London), 'YYYY-MM-DD'. */

/**
 * The summaries of certificates in the order of `certificateIds`: two queries for a whole page (the rows, and
 * progress.ts standardCounts for every certificate at once), never one per certificate.
 */
export async function summariesOf(
  db: DbOrTrx,
  certificateIds: readonly number[],
  now: Date,
): Promise<CertificateSummary[]> {
  if (certificateIds.length === 0) return [];
  const [rows, counts] = await Promise.all([
    summaryRows(db, certificateIds),
    standardCounts(db, certificateIds),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const today = londonDate(now);
  return certificateIds.flatMap((id) => {
    const row = byId.get(id);
    return row ? [presentSummary(row, counts.get(id), today)] : [];
  });
}
