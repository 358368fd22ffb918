import {
  CareCertificateMessages as M,
  type ObservationBody,
  type ObservationUpdate,
  type ObservationView,
  CareCertificatePerm as P,
} from '@cc/contracts';
import { entityScope, inScope } from '../entities/scope';
import type { Actor, Ctx } from '../http/context';
import { conflict, type FieldErrors, invalid, invalidField, notFound } from '../http/errors';
import type { Trx } from '../results/queries';
import {
  approveObservationRow,
  correctionOf,
  criteriaOfVersion,
  deleteObservationRow,
  findUserName,
  insertObservation,
  lockObservation,
  setObservationCriteria,
  updateObservation,
} from './observation-queries';
import { presentObservation } from './presenters';
import { observationRows } from './queries';
import { type CertificateRow, certificateFor, requireOn } from './scope';

/**
 * Observations of a care certificate (contracts care-certificate.ts "Observations"; 89 record and update, 90 delete,
 * 93 approve). Append-only once approved: every change locks the observation's row (FOR UPDATE) and re-reads
 * approved_at under the lock, so a PATCH or DELETE racing an approval either lands first or answers 409
 * observationLocked; the database trigger (migration 030) refuses any other path. A correction is a new observation
 * with supersedes_id (UNIQUE): the superseded row is locked first, so of two corrections of one observation the
 * second answers 409 observationSuperseded, and the unique index backs that up.
 */
export const ObservationErrors = {
  assessor: 'Choose an assessor you manage, or enter the name of an assessor from elsewhere.',
  assessorName: 'Enter the assessor’s name.',
  supersedes: 'Choose an observation of this certificate.',
  correctionReason: 'Give the reason for the correction.',
  supersedesMissing: 'Choose the observation this corrects.',
} as const;

const transaction = <T>(ctx: Ctx, work: (trx: Trx) => Promise<T>) => ctx.db.transaction().execute(work);

async function viewOf(db: Ctx['db'] | Trx, certificateId: number, id: number): Promise<ObservationView> {
  const [row] = await observationRows(db, certificateId, [id]);
  if (!row) throw notFound();
  return presentObservation(row);
}

/** 422 on criterion_ids unless every id is a criterion of the certificate's version. */
async function checkCriteria(db: Ctx['db'] | Trx, cert: CertificateRow, ids: readonly number[]) {
  const known = await criteriaOfVersion(db, cert.version_id, ids);
  if (ids.some((id) => !known.has(id))) throw invalidField('criterion_ids', M.criteriaOtherVersion);
}

/**
 * The assessor: a user in the actor's scope by id (their name is kept as it is now), an assessor from elsewhere by
 * name, or the caller.
 */
async function assessorOf(
  ctx: Ctx,
  db: Trx,
  actor: Actor,
  o: { assessor_id?: number | null; assessor_name?: string | null },
): Promise<{ assessor_id: number | null; assessor_name: string }> {
  if (typeof o.assessor_id === 'number') {
    if (o.assessor_id === actor.userId) return { assessor_id: actor.userId, assessor_name: actor.name };
    const user = await findUserName(db, o.assessor_id);
    if (!user || !inScope(await entityScope(ctx), user.primary_entity_id))
      throw invalidField('assessor_id', ObservationErrors.assessor);
    return { assessor_id: user.id, assessor_name: user.name };
  }
  const name = o.assessor_name?.trim();
  if (name) return { assessor_id: null, assessor_name: name };
  if (o.assessor_id === null) throw invalidField('assessor_name', ObservationErrors.assessorName);
  return { assessor_id: actor.userId, assessor_name: actor.name };
}

/** POST /care-certificates/{uuid}/observations (89): a new observation, or a correction of one. */
export async function createObservation(
  ctx: Ctx,
  uuid: string,
  body: ObservationBody,
): Promise<ObservationView> {
  const cert = await certificateFor(ctx, uuid);
  const actor = requireOn(ctx, cert, [P.observe]);
  const errors: FieldErrors = {};
  if (body.supersedes_id !== null && !body.correction_reason)
    errors.correction_reason = [ObservationErrors.correctionReason];
  if (body.supersedes_id === null && body.correction_reason)
    errors.supersedes_id = [ObservationErrors.supersedesMissing];
  if (Object.keys(errors).length) throw invalid(errors);
  await checkCriteria(ctx.db, cert, body.criterion_ids);
  const now = ctx.clock();
  try {
    const id = await transaction(ctx, async (trx) => {
      if (body.supersedes_id !== null) {
        const old = await lockObservation(trx, cert.id, body.supersedes_id);
        if (!old) throw invalidField('supersedes_id', ObservationErrors.supersedes);
        if (await correctionOf(trx, old.id)) throw conflict(M.observationSuperseded);
      }
      const assessor = await assessorOf(ctx, trx, actor, body);
      return insertObservation(
        trx,
        {
          certificate_id: cert.id,
          ...assessor,
          observed_at: new Date(body.observed_at),
          place: body.place,
          shift: body.shift,
          observed: body.observed,
          outcome: body.outcome,
          supersedes_id: body.supersedes_id,
          correction_reason: body.supersedes_id === null ? null : body.correction_reason,
          created_by: actor.userId,
          created_at: now,
          updated_at: now,
        },
        body.criterion_ids,
      );
    });
    return viewOf(ctx.db, cert.id, id);
  } catch (error) {
    // Two corrections of one observation at once: the unique supersedes_id lets one in.
    if ((error as { code?: string })?.code === '23505') throw conflict(M.observationSuperseded);
    throw error;
  }
}

/** PATCH /care-certificates/{uuid}/observations/{id} (89): only the fields sent, only while not approved. */
export async function patchObservation(
  ctx: Ctx,
  uuid: string,
  id: number,
  body: ObservationUpdate,
): Promise<ObservationView> {
  const cert = await certificateFor(ctx, uuid);
  const actor = requireOn(ctx, cert, [P.observe]);
  if (body.criterion_ids !== undefined) await checkCriteria(ctx.db, cert, body.criterion_ids);
  const now = ctx.clock();
  await transaction(ctx, async (trx) => {
    const row = await lockObservation(trx, cert.id, id);
    if (!row) throw notFound();
    if (row.approved_at !== null) throw conflict(M.observationLocked);
    const set: Parameters<typeof updateObservation>[2] = { updated_at: now };
    if (body.assessor_id !== undefined || body.assessor_name !== undefined) {
      const assessor = await assessorOf(ctx, trx, actor, {
        assessor_id: body.assessor_id,
        // A new assessor user by id takes their name; an id of null keeps the stored name unless one is sent.
        assessor_name: body.assessor_name ?? (body.assessor_id === null ? row.assessor_name : undefined),
      });
      Object.assign(set, assessor);
    }
    if (body.observed_at !== undefined) set.observed_at = new Date(body.observed_at);
    if (body.place !== undefined) set.place = body.place;
    if (body.shift !== undefined) set.shift = body.shift;
    if (body.observed !== undefined) set.observed = body.observed;
    if (body.outcome !== undefined) set.outcome = body.outcome;
    if (!(await updateObservation(trx, id, set))) throw conflict(M.observationLocked);
    if (body.criterion_ids !== undefined) await setObservationCriteria(trx, id, body.criterion_ids);
  });
  return viewOf(ctx.db, cert.id, id);
}

/** DELETE /care-certificates/{uuid}/observations/{id} (90): not approved, and not corrected by another. */
export async function deleteObservation(ctx: Ctx, uuid: string, id: number): Promise<void> {
  const cert = await certificateFor(ctx, uuid);
  requireOn(ctx, cert, [P.deleteObservation]);
  await transaction(ctx, async (trx) => {
    const row = await lockObservation(trx, cert.id, id);
    if (!row) throw notFound();
    if (row.approved_at !== null) throw conflict(M.observationLocked);
    if (await correctionOf(trx, id)) throw conflict(M.observationSuperseded);
    if (!(await deleteObservationRow(trx, id))) throw conflict(M.observationLocked);
  });
}

/** POST /care-certificates/{uuid}/observations/{id}/approve (93): once; approving again changes nothing. */
export async function approveObservation(ctx: Ctx, uuid: string, id: number): Promise<ObservationView> {
  const cert = await certificateFor(ctx, uuid);
  const actor = requireOn(ctx, cert, [P.approve]);
  const now = ctx.clock();
  await transaction(ctx, async (trx) => {
    const row = await lockObservation(trx, cert.id, id);
    if (!row) throw notFound();
    if (row.approved_at === null) await approveObservationRow(trx, id, actor.userId, now);
  });
  return viewOf(ctx.db, cert.id, id);
}
