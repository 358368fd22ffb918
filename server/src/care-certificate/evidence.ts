import {
  type CertificateView,
  EVIDENCE_MAX_BYTES,
  EvidenceFileFields,
  EvidenceResultBody,
  CareCertificateMessages as M,
  CareCertificatePerm as P,
} from '@cc/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { actorOf, type Ctx, can } from '../http/context';
import { conflict, forbidden, HttpError, invalidField, notFound, parseInput } from '../http/errors';
import type { DbOrTrx } from '../jobs/queries';
import { checkEvidence, readUploadForm, storeEvidence, type UploadForm } from '../results/evidence';
import { type CertificateRow, certificateFor, requireOn } from './scope';
import { viewOf } from './view';

/**
 * Evidence of a certificate (issue 16): an uploaded file (multipart, file part `file`: PDF, PNG or JPEG by its bytes,
 * at most EVIDENCE_MAX_BYTES, stored as a files row with purpose care_certificate_evidence and only ever served as an
 * attachment), or a result of the certificate's user linked by hand (JSON). Linked to criteria of the certificate's
 * version. The owner, 86 or 89 add (92 too on a historical certificate); the adder or 86 remove, until a standard it
 * supports is approved.
 */

export type EvidenceForm = UploadForm;

/** Reads JSON, or multipart fields (criterion_ids as a JSON array or repeated fields) and the file part `file`. */
export async function readEvidenceForm(request: FastifyRequest): Promise<EvidenceForm> {
  const criteria: unknown[] = [];
  const form = await readUploadForm(request, {
    fileField: 'file',
    maxBytes: EVIDENCE_MAX_BYTES,
    maxFields: 600,
    onField: (name, raw) => {
      if (name !== 'criterion_ids' && name !== 'criterion_ids[]') return false;
      const value = String(raw ?? '').trim();
      if (value.startsWith('[')) {
        try {
          const parsed = JSON.parse(value);
          criteria.push(...(Array.isArray(parsed) ? parsed : [parsed]));
        } catch {
          criteria.push(value);
        }
      } else if (value !== '') criteria.push(Number(value));
      return true;
    },
  });
  if (!form.multipart) return form;
  form.fields.criterion_ids = criteria;
  if (form.fields.description === '') form.fields.description = null;
  return form;
}

/** 422 criteriaOtherVersion unless every id is a criterion of the certificate's version. */
async function checkCriteria(db: DbOrTrx, cert: CertificateRow, ids: number[]) {
  if (ids.length === 0) return;
  const found = await db
    .selectFrom('care_certificate_criteria as k')
    .innerJoin('care_certificate_standards as s', 's.id', 'k.standard_id')
    .select('k.id')
    .where('k.id', 'in', ids)
    .where('s.version_id', '=', cert.version_id)
    .execute();
  if (found.length !== ids.length) throw invalidField('criterion_ids', M.criteriaOtherVersion);
}

/** POST /care-certificates/{uuid}/evidence. Answers the certificate's view. */
export async function addEvidence(
  ctx: Ctx,
  uuid: string,
  read: () => Promise<EvidenceForm>,
): Promise<CertificateView> {
  const actor = actorOf(ctx);
  const form = await read();
  const cert = await certificateFor(ctx, uuid);
  requireOn(ctx, cert, cert.historical ? [P.assign, P.observe, P.historical] : [P.assign, P.observe], {
    ownAllowed: true,
  });
  const fileFields = cert.historical
    ? EvidenceFileFields.extend({ criterion_ids: z.array(z.number().int().positive()).max(500) })
    : EvidenceFileFields;
  let stored: Awaited<ReturnType<typeof storeEvidence>> | null = null;
  let values: { description: string | null; criterion_ids: number[]; result_id?: number };
  if (form.multipart) {
    values = parseInput(fileFields, form.fields) as { description: string | null; criterion_ids: number[] };
    if (!form.file) throw invalidField('file', 'Choose a file.');
    try {
      checkEvidence(form.file);
    } catch (e) {
      if (e instanceof HttpError && e.errors?.evidence) throw invalidField('file', e.errors.evidence[0]);
      throw e;
    }
  } else {
    values = parseInput(EvidenceResultBody, form.fields);
  }
  const ids = [...new Set(values.criterion_ids)];
  await checkCriteria(ctx.db, cert, ids);
  if (values.result_id !== undefined) {
    const result = await ctx.db
      .selectFrom('results')
      .select('id')
      .where('id', '=', values.result_id)
      .where('user_id', '=', cert.user_id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!result) throw notFound();
  }
  // The bytes are written before the transaction (slow I/O stays out of it) and removed again if it fails.
  if (form.multipart && form.file) stored = await storeEvidence(ctx, form.file);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const locked = await certificateFor(ctx, uuid, { db: trx, forUpdate: true });
      let fileId: number | null = null;
      if (stored) {
        const file = await trx
          .insertInto('files')
          .values({
            ...stored,
            purpose: 'care_certificate_evidence',
            entity_id: locked.user_entity_id,
            created_at: ctx.clock(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        fileId = file.id;
      }
      const evidence = await trx
        .insertInto('care_certificate_evidence')
        .values({
          certificate_id: locked.id,
          kind: stored ? 'file' : 'result',
          file_id: fileId,
          result_id: stored ? null : (values.result_id ?? null),
          description: values.description,
          added_by: actor.userId,
          created_at: ctx.clock(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (ids.length)
        await trx
          .insertInto('care_certificate_evidence_criteria')
          .values(ids.map((criterion_id) => ({ evidence_id: evidence.id, criterion_id })))
          .execute();
    });
  } catch (e) {
    if (stored) await ctx.storage.remove(stored.storage_key).catch(() => undefined);
    throw e;
  }
  return viewOf(ctx, cert);
}

async function evidenceOf(db: DbOrTrx, cert: CertificateRow, id: number) {
  const row = await db
    .selectFrom('care_certificate_evidence as e')
    .leftJoin('files as f', 'f.id', 'e.file_id')
    .select(['e.id', 'e.kind', 'e.file_id', 'e.added_by', 'f.storage_key', 'f.original_name', 'f.mime_type'])
    .where('e.id', '=', id)
    .where('e.certificate_id', '=', cert.id)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/**
 * DELETE /care-certificates/{uuid}/evidence/{id}: its adder or 86; 409 evidenceLocked while a standard it supports is
 * approved. The certificate row is locked, as approvals lock it, so an approval and a removal never cross.
 */
export async function removeEvidence(ctx: Ctx, uuid: string, id: number): Promise<CertificateView> {
  const actor = actorOf(ctx);
  const cert = await certificateFor(ctx, uuid);
  const found = await evidenceOf(ctx.db, cert, id);
  if (found.added_by !== actor.userId && !can(actor, [P.assign])) throw forbidden();
  const storageKey = await ctx.db.transaction().execute(async (trx) => {
    const locked = await certificateFor(ctx, uuid, { db: trx, forUpdate: true });
    const row = await evidenceOf(trx, locked, id);
    const approved = await trx
      .selectFrom('care_certificate_evidence_criteria as ec')
      .innerJoin('care_certificate_criteria as k', 'k.id', 'ec.criterion_id')
      .innerJoin('care_certificate_standard_states as t', (j) =>
        j.onRef('t.standard_id', '=', 'k.standard_id').on('t.certificate_id', '=', locked.id),
      )
      .select('t.standard_id')
      .where('ec.evidence_id', '=', id)
      .where('t.state', '=', 'approved')
      .limit(1)
      .executeTakeFirst();
    if (approved) throw conflict(M.evidenceLocked);
    await trx.deleteFrom('care_certificate_evidence').where('id', '=', id).execute();
    if (row.file_id !== null) await trx.deleteFrom('files').where('id', '=', row.file_id).execute();
    return row.storage_key;
  });
  if (storageKey) await ctx.storage.remove(storageKey).catch(() => undefined);
  return viewOf(ctx, cert);
}

/** GET /care-certificates/{uuid}/evidence/{id}/file: whoever may view the certificate; always an attachment. */
export async function evidenceFile(ctx: Ctx, uuid: string, id: number) {
  const cert = await certificateFor(ctx, uuid);
  const row = await evidenceOf(ctx.db, cert, id);
  if (!row.storage_key) throw notFound();
  const bytes = await ctx.storage.get(row.storage_key);
  if (!bytes) throw notFound();
  return {
    bytes,
    mimeType: row.mime_type ?? 'application/octet-stream',
    filename: row.original_name ?? 'evidence',
  };
}
