import type { NmdsStatus, StandardState, StandardStatus } from '@cc/contracts';
import { sql } from 'kysely';
import type { Db } from '../db/connect';
import type { Trx } from '../results/queries';

/**
 * THE evidence rule of the Care Certificate (contracts care-certificate.ts "Model"), in one place: every page, the
 * approval checks, the report and the dashboards read progress through this file, so they can never disagree.
 *
 * A criterion of a certificate is evidenced when any of these exists:
 * - a passed, approved, not deleted result of the certificate's user for a course mapped to the criterion;
 * - an evidence item of the certificate linked to the criterion (a file; or a result linked by hand, not deleted);
 * - an observation of the certificate linked to the criterion, outcome competent, not superseded by a correction.
 * A criterion with `requires_observation` counts the observation only.
 */

/** One row per criterion of each certificate's version: is it evidenced? (SQL, so lists and the report scale.) */
function evidencedCriteriaSql(certificateIds: readonly number[]) {
  return sql<{ certificate_id: number; standard_id: number; criterion_id: number; evidenced: boolean }>`
    SELECT c.id AS certificate_id, k.standard_id, k.id AS criterion_id,
      (
        EXISTS (
          SELECT 1 FROM care_certificate_observation_criteria oc
            JOIN care_certificate_observations o ON o.id = oc.observation_id
           WHERE oc.criterion_id = k.id AND o.certificate_id = c.id AND o.outcome = 'competent'
             AND NOT EXISTS (SELECT 1 FROM care_certificate_observations n WHERE n.supersedes_id = o.id))
        OR (NOT k.requires_observation AND (
          EXISTS (
            SELECT 1 FROM course_care_certificate_criteria m
              JOIN results r ON r.course_id = m.course_id
             WHERE m.criterion_id = k.id AND r.user_id = c.user_id AND r.passed AND r.status = 'approved'
               AND r.deleted_at IS NULL)
          OR EXISTS (
            SELECT 1 FROM care_certificate_evidence_criteria ec
              JOIN care_certificate_evidence e ON e.id = ec.evidence_id
              LEFT JOIN results lr ON lr.id = e.result_id
             WHERE ec.criterion_id = k.id AND e.certificate_id = c.id
               AND (e.kind = 'file' OR (lr.id IS NOT NULL AND lr.deleted_at IS NULL)))))
      ) AS evidenced
      FROM care_certificates c
      JOIN care_certificate_standards s ON s.version_id = c.version_id
      JOIN care_certificate_criteria k ON k.standard_id = s.id
     WHERE c.id = ANY(${sql.val([...certificateIds])}::int[])`;
}

export interface StandardCounts {
  standardId: number;
  total: number;
  evidenced: number;
}

/** certificate id → standard id → criteria total and evidenced (standards without criteria are absent). */
export async function standardCounts(
  db: Db | Trx,
  certificateIds: readonly number[],
): Promise<Map<number, Map<number, StandardCounts>>> {
  const out = new Map<number, Map<number, StandardCounts>>();
  if (certificateIds.length === 0) return out;
  const q = evidencedCriteriaSql(certificateIds);
  const { rows } = await sql<{
    certificate_id: number;
    standard_id: number;
    total: string;
    evidenced: string;
  }>`
    SELECT certificate_id, standard_id, count(*) AS total, count(*) FILTER (WHERE evidenced) AS evidenced
      FROM (${q}) e GROUP BY certificate_id, standard_id`.execute(db);
  for (const r of rows) {
    const byStandard = out.get(r.certificate_id) ?? new Map<number, StandardCounts>();
    out.set(r.certificate_id, byStandard);
    byStandard.set(r.standard_id, {
      standardId: r.standard_id,
      total: Number(r.total),
      evidenced: Number(r.evidenced),
    });
  }
  return out;
}

/** criterion id → evidenced, for one certificate (the detail page and the approval check). */
export async function criteriaEvidenced(db: Db | Trx, certificateId: number): Promise<Map<number, boolean>> {
  const { rows } = await evidencedCriteriaSql([certificateId]).execute(db);
  return new Map(rows.map((r) => [r.criterion_id, r.evidenced]));
}

/** The criteria of one standard of a certificate that still lack evidence (empty = ready, if it has criteria). */
export async function criteriaLackingEvidence(
  db: Db | Trx,
  certificateId: number,
  standardId: number,
): Promise<{ total: number; lacking: number[] }> {
  const { rows } = await evidencedCriteriaSql([certificateId]).execute(db);
  const mine = rows.filter((r) => r.standard_id === standardId);
  return { total: mine.length, lacking: mine.filter((r) => !r.evidenced).map((r) => r.criterion_id) };
}

/** What a standard shows. */
export function standardStatus(state: StandardState, evidenced: number): StandardStatus {
  if (state === 'approved') return 'approved';
  if (state === 'awaiting_approval') return 'awaiting_approval';
  return evidenced > 0 ? 'working_towards' : 'outstanding';
}

/** Can it be selected for approval or approved: at least one criterion, every one evidenced, not yet approved. */
export function standardReady(state: StandardState, counts: { total: number; evidenced: number }): boolean {
  return state !== 'approved' && counts.total > 0 && counts.evidenced === counts.total;
}

/** The national workforce data set's value for a person: their most advanced certificate decides. */
export function nmdsStatus(
  certificates: readonly { status: 'in_progress' | 'complete'; anyEvidence: boolean; anyDecision: boolean }[],
): NmdsStatus {
  if (certificates.some((c) => c.status === 'complete')) return 'completed';
  if (certificates.some((c) => c.anyEvidence || c.anyDecision)) return 'in_progress';
  return 'not_started';
}
