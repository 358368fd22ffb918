import {
  type CertificateView,
  CareCertificateMessages as M,
  CareCertificatePerm as P,
  type RejectBody,
} from '@cc/contracts';
import { londonDate } from '../bookings/session-service';
import { entityScope } from '../entities/scope';
import type { Ctx } from '../http/context';
import { conflict, invalidField, notFound } from '../http/errors';
import type { Trx } from '../results/queries';
import { emitWebhookEvent } from '../webhooks/events';
import { notifyAllStandardsSelected, notifyLearner } from './notify';
import { approveObservationsOfStandard } from './observation-queries';
import { criteriaLackingEvidence } from './progress';
import { type CertificateRow, certificateFor, requireOn } from './scope';
import { certificateView } from './view';

/**
 * The standards workflow (contracts care-certificate.ts "Model"): select for approval (owner, 86, 89), approve and
 * reject (93). Every action runs in one transaction that first locks the certificate's row (scope.ts certificateFor
 * forUpdate), so actions on one certificate run one after another: two approvals of its last two standards cannot
 * both miss that the other completed it, and it is completed exactly once. The state moves only in a guarded UPDATE
 * (WHERE state = the expected one), and every action leaves a care_certificate_decisions row. Readiness is
 * progress.ts's rule (criteriaLackingEvidence), read inside the transaction. Approving and returning tell the person
 * in the same transaction (notify.ts notifyLearner; the last approval tells them the certificate is complete).
 */
type StateRow = { state: 'open' | 'awaiting_approval' | 'approved' };

/**
 * The actor's scope is read (and memoised) before the transaction: the embedded engine has one connection, so a
 * query outside the transaction while it is open would wait for it forever.
 */
async function transaction<T>(ctx: Ctx, work: (trx: Trx) => Promise<T>): Promise<T> {
  if (ctx.actor) await entityScope(ctx);
  return ctx.db.transaction().execute(work);
}

async function stateOf(trx: Trx, certificateId: number, standardId: number): Promise<StateRow> {
  const row = await trx
    .selectFrom('care_certificate_standard_states')
    .select('state')
    .where('certificate_id', '=', certificateId)
    .where('standard_id', '=', standardId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** 422 on `standard` unless it has criteria and every one is evidenced. */
async function assertReady(trx: Trx, certificateId: number, standardId: number) {
  const { total, lacking } = await criteriaLackingEvidence(trx, certificateId, standardId);
  if (total === 0) throw invalidField('standard', M.noCriteria);
  if (lacking.length > 0) throw invalidField('standard', M.criteriaMissingEvidence);
}

async function decide(
  trx: Trx,
  cert: CertificateRow,
  standardId: number,
  action: 'submitted' | 'approved' | 'rejected',
  actorId: number,
  now: Date,
  reasons: string | null = null,
) {
  await trx
    .insertInto('care_certificate_decisions')
    .values({
      certificate_id: cert.id,
      standard_id: standardId,
      action,
      reasons,
      actor_id: actorId,
      created_at: now,
    })
    .execute();
}

/** The states of every standard of the certificate. */
async function statesOf(trx: Trx, certificateId: number) {
  return trx
    .selectFrom('care_certificate_standard_states')
    .select(['standard_id', 'state'])
    .where('certificate_id', '=', certificateId)
    .execute();
}

/** POST /care-certificates/{uuid}/standards/{id}/submit: select for approval. Again while awaiting: no change. */
export async function submitStandard(ctx: Ctx, uuid: string, standardId: number): Promise<CertificateView> {
  const now = ctx.clock();
  await transaction(ctx, async (trx) => {
    const cert = await certificateFor(ctx, uuid, { db: trx, forUpdate: true });
    const actor = requireOn(ctx, cert, [P.assign, P.observe], { ownAllowed: true });
    const { state } = await stateOf(trx, cert.id, standardId);
    if (state === 'approved') throw conflict(M.standardApprovedAlready);
    if (state === 'awaiting_approval') return;
    await assertReady(trx, cert.id, standardId);
    const moved = await trx
      .updateTable('care_certificate_standard_states')
      .set({ state: 'awaiting_approval', submitted_at: now, submitted_by: actor.userId })
      .where('certificate_id', '=', cert.id)
      .where('standard_id', '=', standardId)
      .where('state', '=', 'open')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return;
    await decide(trx, cert, standardId, 'submitted', actor.userId, now);
    const states = await statesOf(trx, cert.id);
    if (states.every((s) => s.state !== 'open')) await notifyAllStandardsSelected(trx, cert, now);
  });
  return certificateView(ctx, uuid);
}

/** POST …/standards/{id}/approve (93): from open or awaiting approval, when ready; completes the certificate. */
export async function approveStandard(ctx: Ctx, uuid: string, standardId: number): Promise<CertificateView> {
  const now = ctx.clock();
  await transaction(ctx, async (trx) => {
    const cert = await certificateFor(ctx, uuid, { db: trx, forUpdate: true });
    const actor = requireOn(ctx, cert, [P.approve]);
    const { state } = await stateOf(trx, cert.id, standardId);
    if (state === 'approved') throw conflict(M.standardApprovedAlready);
    await assertReady(trx, cert.id, standardId);
    const moved = await trx
      .updateTable('care_certificate_standard_states')
      .set({ state: 'approved', decided_at: now, decided_by: actor.userId, rejection_reasons: null })
      .where('certificate_id', '=', cert.id)
      .where('standard_id', '=', standardId)
      .where('state', 'in', ['open', 'awaiting_approval'])
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) throw conflict(M.standardApprovedAlready);
    await decide(trx, cert, standardId, 'approved', actor.userId, now);
    await approveObservationsOfStandard(trx, cert.id, standardId, actor.userId, now);
    const states = await statesOf(trx, cert.id);
    let completed = false;
    if (cert.status !== 'complete' && states.length > 0 && states.every((s) => s.state === 'approved')) {
      const done = await trx
        .updateTable('care_certificates')
        .set({ status: 'complete', completed_on: londonDate(now), updated_at: now })
        .where('id', '=', cert.id)
        .where('status', '=', 'in_progress')
        .executeTakeFirst();
      completed = Number(done.numUpdatedRows) > 0;
    }
    const approved = { user_id: cert.user_id, care_certificate_uuid: cert.uuid, standard_id: standardId };
    await emitWebhookEvent(
      trx,
      {
        entityId: cert.user_entity_id,
        type: 'care_certificate.approved',
        data: { ...approved, certificate_completed: completed },
      },
      now,
    );
    await notifyLearner(
      trx,
      cert,
      { event: completed ? 'complete' : 'approved', standardId },
      actor.userId,
      now,
    );
  });
  return certificateView(ctx, uuid);
}

/** POST …/standards/{id}/reject (93): from awaiting approval back to open, with the reasons kept. */
export async function rejectStandard(
  ctx: Ctx,
  uuid: string,
  standardId: number,
  body: RejectBody,
): Promise<CertificateView> {
  const now = ctx.clock();
  await transaction(ctx, async (trx) => {
    const cert = await certificateFor(ctx, uuid, { db: trx, forUpdate: true });
    const actor = requireOn(ctx, cert, [P.approve]);
    await stateOf(trx, cert.id, standardId);
    const moved = await trx
      .updateTable('care_certificate_standard_states')
      .set({ state: 'open', decided_at: now, decided_by: actor.userId, rejection_reasons: body.reasons })
      .where('certificate_id', '=', cert.id)
      .where('standard_id', '=', standardId)
      .where('state', '=', 'awaiting_approval')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) throw conflict(M.notAwaitingApproval);
    await decide(trx, cert, standardId, 'rejected', actor.userId, now, body.reasons);
    await notifyLearner(
      trx,
      cert,
      { event: 'returned', standardId, reasons: body.reasons },
      actor.userId,
      now,
    );
  });
  return certificateView(ctx, uuid);
}
