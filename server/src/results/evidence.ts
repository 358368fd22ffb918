import { EVIDENCE_MAX_BYTES, ResultsMessages } from '@cc/contracts';
import type { FastifyRequest } from 'fastify';
import type { Ctx } from '../http/context';
import { invalidField } from '../http/errors';
import { assertCleanInput } from '../http/input-guard';
import { safeFilename } from '../whitelabel/images';

/**
 * Evidence files of training records (issue 5 item 1). The type is decided by the bytes, never by the name or the
 * browser's claim: PDF, PNG or JPEG only, at most EVIDENCE_MAX_BYTES. Stored through ctx.storage (local disk or
 * S3-compatible) and recorded as a `files` row with purpose result_evidence, which /api/files never serves: the
 * evidence is downloaded through GET /results/{id}/evidence, as an attachment.
 */
export interface EvidenceUpload {
  filename: string;
  bytes: Buffer;
  truncated: boolean;
}

export interface FormInput {
  fields: Record<string, unknown>;
  evidence: EvidenceUpload | null;
}

const KINDS = [
  {
    mime: 'application/pdf',
    ext: 'pdf',
    test: (b: Buffer) => b.subarray(0, 5).toString('latin1') === '%PDF-',
  },
  {
    mime: 'image/png',
    ext: 'png',
    test: (b: Buffer) =>
      b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  {
    mime: 'image/jpeg',
    ext: 'jpg',
    test: (b: Buffer) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  },
] as const;

export function detectEvidence(bytes: Buffer) {
  return KINDS.find((k) => k.test(bytes)) ?? null;
}

/** A browser sends an empty part for a file input left blank: that is "no file". */
export const isBlank = (u: EvidenceUpload | null): boolean =>
  !u || (!u.truncated && u.bytes.length === 0 && !u.filename);

/** The upload's kind, or the `evidence` field's message (too big, not a PDF, PNG or JPEG). */
function judgeEvidence(upload: EvidenceUpload) {
  if (upload.truncated || upload.bytes.length > EVIDENCE_MAX_BYTES)
    return { ok: false, error: ResultsMessages.evidenceSize } as const;
  const kind = detectEvidence(upload.bytes);
  return kind ? ({ ok: true, kind } as const) : ({ ok: false, error: ResultsMessages.evidenceType } as const);
}

/** Checks the upload (422 on `evidence`) and returns its kind. */
export function checkEvidence(upload: EvidenceUpload) {
  const judged = judgeEvidence(upload);
  if (!judged.ok) throw invalidField('evidence', judged.error);
  return judged.kind;
}

/** The `evidence` field's errors, for a form that gathers every field's errors before one 422; null when fine. */
export function evidenceErrors(upload: EvidenceUpload): string[] | null {
  const judged = judgeEvidence(upload);
  return judged.ok ? null : [judged.error];
}

/** Writes the bytes to storage (before the transaction: slow I/O stays out of it). Returns what the files row needs. */
export async function storeEvidence(ctx: Ctx, upload: EvidenceUpload) {
  const kind = checkEvidence(upload);
  const key = await ctx.storage.put('evidence', upload.bytes, kind.ext);
  return {
    storage_key: key,
    original_name: safeFilename(upload.filename, kind.ext),
    mime_type: kind.mime,
    size_bytes: upload.bytes.length,
  };
}

export interface UploadForm {
  multipart: boolean;
  fields: Record<string, unknown>;
  file: EvidenceUpload | null;
}

/**
 * THE reader of an upload form: a JSON body, or multipart text fields plus one file part named `fileField` (other
 * file parts are drained and ignored). The file is buffered up to `maxBytes`; a bigger one is marked truncated so
 * the answer is a field error, not a dropped connection. `onField` may take a text field itself (true: handled).
 */
export async function readUploadForm(
  request: FastifyRequest,
  o: {
    fileField: string;
    maxBytes: number;
    maxFields: number;
    onField?: (name: string, value: unknown) => boolean;
  },
): Promise<UploadForm> {
  if (!request.isMultipart()) {
    const body = request.body;
    return {
      multipart: false,
      fields: body && typeof body === 'object' ? (body as Record<string, unknown>) : {},
      file: null,
    };
  }
  const fields: Record<string, unknown> = {};
  let file: EvidenceUpload | null = null;
  const options = {
    limits: { fileSize: o.maxBytes, files: 2, fields: o.maxFields },
    throwFileSizeLimit: false,
  } as Parameters<FastifyRequest['parts']>[0];
  for await (const part of request.parts(options)) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      if (part.fieldname === o.fileField && !file)
        file = { filename: part.filename ?? '', bytes, truncated: part.file.truncated };
    } else if (!o.onField?.(part.fieldname, part.value)) {
      fields[part.fieldname] = part.value;
    }
  }
  assertCleanInput(fields); // multipart text fields skip the JSON body guard (http/input-guard.ts)
  return { multipart: true, fields, file: isBlank(file) ? null : file };
}

/** Reads a result's form: JSON, or multipart fields plus the file part `evidence`. */
export async function readResultForm(request: FastifyRequest): Promise<FormInput> {
  const form = await readUploadForm(request, {
    fileField: 'evidence',
    maxBytes: EVIDENCE_MAX_BYTES,
    maxFields: 30,
  });
  return { fields: form.fields, evidence: form.file };
}
