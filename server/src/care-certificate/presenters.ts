import type { CertificateSummary, DecisionView, ObservationView } from '@cc/contracts';
import { nmdsStatus, type StandardCounts } from './progress';

/**
 * Rows → the contract's shapes (contracts care-certificate.ts). Shared by the core part (lists, the view) and the
 * workflow part (observations, approvals), so a certificate reads the same everywhere. The rows come from
 * queries.ts (observationRows, decisionRows, summaryRows).
 */

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

export interface ObservationRow {
  id: number;
  uuid: string;
  assessor_id: number | null;
  assessor_name: string;
  observed_at: Date;
  place: string;
  shift: ObservationView['shift'];
  observed: string;
  outcome: ObservationView['outcome'];
  approved_at: Date | null;
  approved_by_name: string | null;
  supersedes_id: number | null;
  correction_reason: string | null;
  superseded_by_id: number | null;
  created_by_name: string | null;
  created_at: Date;
  criterion_ids: number[];
}

export function presentObservation(row: ObservationRow): ObservationView {
  return {
    id: row.id,
    uuid: row.uuid,
    assessor: { id: row.assessor_id, name: row.assessor_name },
    observed_at: iso(row.observed_at),
    place: row.place,
    shift: row.shift,
    observed: row.observed,
    outcome: row.outcome,
    criterion_ids: [...row.criterion_ids].sort((a, b) => a - b),
    approved_at: isoOrNull(row.approved_at),
    approved_by: row.approved_by_name,
    supersedes_id: row.supersedes_id,
    correction_reason: row.correction_reason,
    superseded_by_id: row.superseded_by_id,
    created_by: row.created_by_name,
    created_at: iso(row.created_at),
  };
}

export interface DecisionRow {
  id: number;
  standard_id: number;
  standard_number: number;
  action: DecisionView['action'];
  reasons: string | null;
  actor_name: string | null;
  created_at: Date;
}

export function presentDecision(row: DecisionRow): DecisionView {
  return {
    id: row.id,
    standard_id: row.standard_id,
    standard_number: row.standard_number,
    action: row.action,
    reasons: row.reasons,
    by: row.actor_name,
    created_at: iso(row.created_at),
  };
}

export interface SummaryRow {
  id: number;
  uuid: string;
  user_id: number;
  user_uuid: string;
  user_name: string;
  entity_id: number;
  entity_slug: string;
  entity_name: string;
  version_id: number;
  version_code: string;
  version_title: string;
  status: 'in_progress' | 'complete';
  historical: boolean;
  started_on: string;
  expected_by: string | null;
  completed_on: string | null;
  assigned_by_name: string | null;
  created_at: Date;
  standards_total: number;
  standards_approved: number;
  standards_awaiting: number;
  any_decision: boolean;
}

/**
 * A certificate's summary. `counts`: its standards' criteria counts from progress.ts standardCounts (absent = no
 * criteria); `today`: 'YYYY-MM-DD' in Europe/London (overdue = in progress past expected_by).
 */
export function presentSummary(
  row: SummaryRow,
  counts: Map<number, StandardCounts> | undefined,
  today: string,
): CertificateSummary {
  let criteriaTotal = 0;
  let criteriaEvidenced = 0;
  for (const c of counts?.values() ?? []) {
    criteriaTotal += c.total;
    criteriaEvidenced += c.evidenced;
  }
  return {
    uuid: row.uuid,
    user: {
      id: row.user_id,
      uuid: row.user_uuid,
      name: row.user_name,
      entity: { id: row.entity_id, slug: row.entity_slug, name: row.entity_name },
    },
    version: { id: row.version_id, code: row.version_code, title: row.version_title },
    status: row.status,
    historical: row.historical,
    started_on: row.started_on,
    expected_by: row.expected_by,
    completed_on: row.completed_on,
    overdue: row.status === 'in_progress' && row.expected_by !== null && row.expected_by < today,
    nmds: nmdsStatus([
      { status: row.status, anyEvidence: criteriaEvidenced > 0, anyDecision: row.any_decision },
    ]),
    standards_total: Number(row.standards_total),
    standards_approved: Number(row.standards_approved),
    standards_awaiting_approval: Number(row.standards_awaiting),
    criteria_total: criteriaTotal,
    criteria_evidenced: criteriaEvidenced,
    assigned_by: row.assigned_by_name,
    created_at: iso(row.created_at),
  };
}
