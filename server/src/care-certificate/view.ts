import {
  type CertificateView,
  type FileEvidence,
  CareCertificatePerm as P,
  type StandardProgress,
} from '@cc/contracts';
import { actorOf, type Ctx, can } from '../http/context';
import type { DbOrTrx } from '../jobs/queries';
import { presentDecision, presentObservation } from './presenters';
import { criteriaEvidenced, standardReady, standardStatus } from './progress';
import { decisionRows, observationRows, summariesOf, versionTree } from './queries';
import { type CertificateRow, certificateFor, isOwn } from './scope';

/**
 * GET /care-certificates/{uuid}'s view (CertificateView): built by the core part (H1). The workflow part's
 * mutations answer with it too, so it lives in its own file. Progress comes from progress.ts only.
 */
export async function certificateView(
  ctx: Ctx,
  uuid: string,
  o: { db?: DbOrTrx } = {},
): Promise<CertificateView> {
  const cert = await certificateFor(ctx, uuid, o.db ? { db: o.db } : {});
  return viewOf(ctx, cert, o.db ?? ctx.db);
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

/** The view of a certificate already reached through scope.ts. */
export async function viewOf(ctx: Ctx, cert: CertificateRow, db: DbOrTrx = ctx.db): Promise<CertificateView> {
  const actor = actorOf(ctx);
  const [summaries, tree, states, evidenced, automatic, evidence, observations, decisions] =
    await Promise.all([
      summariesOf(db, [cert.id], ctx.clock()),
      versionTree(db, cert.version_id),
      db
        .selectFrom('care_certificate_standard_states as t')
        .leftJoin('users as u', 'u.id', 't.decided_by')
        .select([
          't.standard_id',
          't.state',
          't.submitted_at',
          't.decided_at',
          'u.name as decided_by_name',
          't.rejection_reasons',
        ])
        .where('t.certificate_id', '=', cert.id)
        .execute(),
      criteriaEvidenced(db, cert.id),
      db
        .selectFrom('course_care_certificate_criteria as m')
        .innerJoin('results as r', 'r.course_id', 'm.course_id')
        .innerJoin('courses as co', 'co.id', 'r.course_id')
        .innerJoin('care_certificate_criteria as k', 'k.id', 'm.criterion_id')
        .innerJoin('care_certificate_standards as s', 's.id', 'k.standard_id')
        .select(['m.criterion_id', 'r.id as result_id', 'co.title as course_title', 'r.completed_at'])
        .where('s.version_id', '=', cert.version_id)
        .where('r.user_id', '=', cert.user_id)
        .where('r.passed', '=', true)
        .where('r.status', '=', 'approved')
        .where('r.deleted_at', 'is', null)
        .orderBy('r.completed_at', 'desc')
        .execute(),
      db
        .selectFrom('care_certificate_evidence as e')
        .leftJoin('care_certificate_evidence_criteria as ec', 'ec.evidence_id', 'e.id')
        .leftJoin('files as f', 'f.id', 'e.file_id')
        .leftJoin('results as r', (j) => j.onRef('r.id', '=', 'e.result_id').on('r.deleted_at', 'is', null))
        .leftJoin('courses as co', 'co.id', 'r.course_id')
        .leftJoin('users as u', 'u.id', 'e.added_by')
        .select([
          'e.id',
          'e.kind',
          'e.description',
          'e.created_at',
          'e.result_id',
          'ec.criterion_id',
          'f.original_name',
          'f.mime_type',
          'r.id as live_result_id',
          'co.title as course_title',
          'r.completed_at',
          'u.name as added_by_name',
        ])
        .where('e.certificate_id', '=', cert.id)
        .orderBy('e.created_at')
        .orderBy('e.id')
        .execute(),
      observationRows(db, cert.id),
      decisionRows(db, cert.id),
    ]);
  const summary = summaries[0];
  const stateOf = new Map(states.map((s) => [s.standard_id, s]));

  const files = new Map<number, FileEvidence>();
  const filesOf = new Map<number, number[]>();
  const resultsOf = new Map<number, StandardProgress['outcomes'][number]['criteria'][number]['results']>();
  const push = <T>(m: Map<number, T[]>, k: number, v: T) => m.set(k, [...(m.get(k) ?? []), v]);
  for (const a of automatic) {
    push(resultsOf, a.criterion_id, {
      result_id: a.result_id,
      course_title: a.course_title,
      completed_at: iso(a.completed_at),
      automatic: true,
      evidence_id: null,
    });
  }
  for (const e of evidence) {
    if (e.kind === 'file') {
      if (!files.has(e.id))
        files.set(e.id, {
          id: e.id,
          description: e.description,
          original_name: e.original_name ?? '',
          mime_type: e.mime_type ?? '',
          added_by: e.added_by_name,
          created_at: iso(e.created_at),
          download_url: `/api/care-certificates/${cert.uuid}/evidence/${e.id}/file`,
        });
      if (e.criterion_id !== null) push(filesOf, e.criterion_id, e.id);
    } else if (e.criterion_id !== null && e.live_result_id !== null && e.completed_at !== null) {
      push(resultsOf, e.criterion_id, {
        result_id: e.live_result_id,
        course_title: e.course_title ?? '',
        completed_at: iso(e.completed_at),
        automatic: false,
        evidence_id: e.id,
      });
    }
  }
  const observationsOf = new Map<number, number[]>();
  for (const ob of observations) for (const k of ob.criterion_ids) push(observationsOf, k, ob.id);

  const standards: StandardProgress[] = tree.map((s) => {
    const st = stateOf.get(s.id);
    const state = st?.state ?? 'open';
    const outcomes = s.outcomes.map((o) => ({
      ...o,
      criteria: o.criteria.map((k) => ({
        ...k,
        evidenced: evidenced.get(k.id) ?? false,
        results: resultsOf.get(k.id) ?? [],
        file_ids: filesOf.get(k.id) ?? [],
        observation_ids: observationsOf.get(k.id) ?? [],
      })),
    }));
    const all = outcomes.flatMap((o) => o.criteria);
    const counts = { total: all.length, evidenced: all.filter((k) => k.evidenced).length };
    return {
      id: s.id,
      number: s.number,
      title: s.title,
      state,
      status: standardStatus(state, counts.evidenced),
      criteria_total: counts.total,
      criteria_evidenced: counts.evidenced,
      ready: standardReady(state, counts),
      submitted_at: st?.submitted_at ? iso(st.submitted_at) : null,
      decided_at: st?.decided_at ? iso(st.decided_at) : null,
      decided_by: st?.decided_by_name ?? null,
      rejection_reasons: state === 'approved' ? null : (st?.rejection_reasons ?? null),
      outcomes,
    };
  });

  const own = isOwn(actor, cert);
  const live = cert.status === 'in_progress' && !cert.historical;
  const hasAny = evidence.length > 0 || observations.length > 0 || decisions.length > 0;
  return {
    ...summary,
    provider: cert.provider,
    assessor_name: cert.assessor_name,
    notes: cert.notes,
    standards,
    files: [...files.values()],
    observations: observations.map(presentObservation),
    decisions: decisions.map(presentDecision),
    can: {
      upload: cert.historical
        ? can(actor, [P.historical, P.assign], 'any')
        : live && (own || can(actor, [P.assign, P.observe], 'any')),
      observe: live && can(actor, [P.observe]),
      delete_observation: live && can(actor, [P.deleteObservation]),
      submit: live && (own || can(actor, [P.assign, P.observe], 'any')),
      approve: live && can(actor, [P.approve]),
      download: cert.status === 'complete' && (own || can(actor, [P.download])),
      withdraw: !hasAny && can(actor, [P.assign]),
      edit_historical: cert.historical && can(actor, [P.historical]),
    },
  };
}
