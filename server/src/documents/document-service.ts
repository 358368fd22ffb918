import {
  AddVersionFields,
  CheckQuestion,
  CreateDocumentFields,
  DOCUMENT_MAX_BYTES,
  type DocumentListQuery,
  type DocumentSummary,
  LibraryPerm as P,
  type UpdateDocumentBody,
} from '@cc/contracts';
import type { FastifyRequest } from 'fastify';
import { type SqlBool, sql } from 'kysely';
import type { z } from 'zod';
import { pageWithTotal } from '../db/paged';
import { actorOf, type Ctx } from '../http/context';
import { fieldErrorsFromZod, invalid, invalidField, notFound, parseInput } from '../http/errors';
import { type EvidenceUpload, readUploadForm, type UploadForm } from '../results/evidence';
import type { Trx } from '../results/queries';
import { type AnyDocumentView, presentDocument } from './document-views';
import { expireAcknowledgements } from './expiry';
import { checkDocumentFile, type DocumentKind, displayOf, documentFilename } from './file-check';
import { documentSummary } from './presenters';
import { documentsQuery, escapeLike } from './queries';
import { documentFor, libraryFor, requireManage, requirePerm } from './scope';

/**
 * Documents (contracts documents.ts): list a library's documents (134 or 135), add one with its first version, edit,
 * delete and publish new versions (135 on the library's organisation in scope), and serve a version's file (anyone
 * who may see the document; the first opening is recorded, acknowledging needs it).
 */

export type DocumentForm = Pick<UploadForm, 'fields' | 'file'>;

/** Reads multipart fields and the file part `file` (buffered up to the limit; bigger is marked truncated → 422). */
export async function readDocumentForm(request: FastifyRequest): Promise<DocumentForm> {
  return readUploadForm(request, { fileField: 'file', maxBytes: DOCUMENT_MAX_BYTES, maxFields: 20 });
}

/** The multipart `check_question` field: JSON of CheckQuestion, or empty for none. 422 on `check_question`. */
function parseQuestion(raw: string | null | undefined): CheckQuestion | null {
  if (raw === undefined || raw === null || raw.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalidField('check_question', 'Enter the question, its answers and the right one.');
  }
  const r = CheckQuestion.safeParse(value);
  if (!r.success) {
    const errors = fieldErrorsFromZod(r.error);
    throw invalid(Object.fromEntries(Object.entries(errors).map(([k, v]) => [`check_question.${k}`, v])));
  }
  return r.data;
}

/** GET /libraries/{id}/documents (134 or 135): paged, by title, with the caller's status of each. */
export async function listDocuments(
  ctx: Ctx,
  libraryId: number,
  query: z.infer<typeof DocumentListQuery>,
): Promise<{ data: DocumentSummary[]; total: number }> {
  const actor = actorOf(ctx);
  const library = await libraryFor(ctx, libraryId);
  requirePerm(ctx, [P.view, P.manage]);
  let base = documentsQuery(ctx.db, actor.userId).where('d.library_id', '=', library.id);
  if (query.search) base = base.where(sql<SqlBool>`d.title ILIKE ${`%${escapeLike(query.search)}%`}`);
  const { rows, total } = await pageWithTotal(
    base,
    (filtered) => filtered.orderBy(sql`lower(d.title)`).orderBy('d.id'),
    { page: query.page, perPage: query.per_page },
  );
  return { data: rows.map(documentSummary), total };
}

/** Writes the bytes to storage (before the transaction: slow I/O stays out of it). */
async function storeDocument(ctx: Ctx, file: EvidenceUpload, kind: DocumentKind) {
  const key = await ctx.storage.put('documents', file.bytes, kind.ext);
  return {
    storage_key: key,
    original_name: documentFilename(file.filename, kind),
    mime_type: kind.mime,
    size_bytes: file.bytes.length,
  };
}
type Stored = Awaited<ReturnType<typeof storeDocument>>;

/** Runs `write` with the stored file, removing the bytes again when the transaction fails. */
async function withStored<T>(ctx: Ctx, stored: Stored, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (e) {
    await ctx.storage.remove(stored.storage_key).catch(() => undefined);
    throw e;
  }
}

async function insertVersion(
  trx: Trx,
  o: {
    documentId: number;
    entityId: number;
    number: number;
    stored: Stored;
    note: string | null;
    by: number;
  },
) {
  const file = await trx
    .insertInto('files')
    .values({ ...o.stored, purpose: 'document', entity_id: o.entityId })
    .returning('id')
    .executeTakeFirstOrThrow();
  const version = await trx
    .insertInto('document_versions')
    .values({
      document_id: o.documentId,
      number: o.number,
      file_id: file.id,
      change_note: o.note,
      created_by: o.by,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('documents')
    .set({ current_version_id: version.id, updated_at: new Date() })
    .where('id', '=', o.documentId)
    .execute();
  return version.id;
}

/**
 * POST /libraries/{id}/documents (135, multipart): the backing course (kind 'document', owned by the library's
 * organisation), the document and version 1, in one transaction. The library row is held (FOR SHARE) so a delete of
 * the library cannot pass meanwhile.
 */
export async function createDocument(
  ctx: Ctx,
  libraryId: number,
  read: () => Promise<DocumentForm>,
): Promise<AnyDocumentView> {
  const actor = actorOf(ctx);
  const form = await read();
  const library = await libraryFor(ctx, libraryId);
  await requireManage(ctx, library.entity_id);
  const fields = parseInput(CreateDocumentFields, form.fields);
  const question = parseQuestion(fields.check_question);
  const kind = checkDocumentFile(form.file);
  const file = form.file as EvidenceUpload;
  const stored = await storeDocument(ctx, file, kind);
  const id = await withStored(ctx, stored, () =>
    ctx.db.transaction().execute(async (trx) => {
      const locked = await libraryFor(ctx, libraryId, { db: trx, forShare: true });
      const course = await trx
        .insertInto('courses')
        .values({ entity_id: locked.entity_id, title: fields.title, kind: 'document', published: true })
        .returning('id')
        .executeTakeFirstOrThrow();
      const doc = await trx
        .insertInto('documents')
        .values({
          library_id: locked.id,
          entity_id: locked.entity_id,
          course_id: course.id,
          title: fields.title,
          description: fields.description ?? null,
          check_question: question === null ? null : JSON.stringify(question),
          created_by: actor.userId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await insertVersion(trx, {
        documentId: doc.id,
        entityId: locked.entity_id,
        number: 1,
        stored,
        note: null,
        by: actor.userId,
      });
      return doc.id;
    }),
  );
  return presentDocument(ctx, id);
}

/** GET /documents/{id}. */
export async function getDocument(ctx: Ctx, id: number): Promise<AnyDocumentView> {
  const doc = await documentFor(ctx, id);
  return presentDocument(ctx, doc.id);
}

/** PATCH /documents/{id} (135): only the fields sent; the backing course keeps the title (its matrix column). */
export async function updateDocument(
  ctx: Ctx,
  id: number,
  body: z.infer<typeof UpdateDocumentBody>,
): Promise<AnyDocumentView> {
  const doc = await documentFor(ctx, id);
  await requireManage(ctx, doc.entity_id);
  await ctx.db.transaction().execute(async (trx) => {
    const locked = await documentFor(ctx, id, { db: trx, lock: 'update' });
    const set: Record<string, unknown> = { updated_at: ctx.clock() };
    if (body.title !== undefined) set.title = body.title;
    if (body.description !== undefined) set.description = body.description ?? null;
    if (body.check_question !== undefined)
      set.check_question = body.check_question ? JSON.stringify(body.check_question) : null;
    await trx.updateTable('documents').set(set).where('id', '=', locked.id).execute();
    if (body.title !== undefined)
      await trx
        .updateTable('courses')
        .set({ title: body.title, updated_at: ctx.clock() })
        .where('id', '=', locked.course_id)
        .execute();
  });
  return presentDocument(ctx, doc.id);
}

/**
 * DELETE /documents/{id} (135): the document leaves its library and nobody must read it any more (its compliance
 * rules go, so user_requirements and the matrix drop the column); acknowledgements and results stay as history.
 */
export async function deleteDocument(ctx: Ctx, id: number): Promise<void> {
  const doc = await documentFor(ctx, id);
  await requireManage(ctx, doc.entity_id);
  await ctx.db.transaction().execute(async (trx) => {
    const locked = await documentFor(ctx, id, { db: trx, lock: 'update' });
    await trx.updateTable('documents').set({ deleted_at: ctx.clock() }).where('id', '=', locked.id).execute();
    await trx.deleteFrom('compliance_rules').where('course_id', '=', locked.course_id).execute();
    await trx.updateTable('courses').set({ published: false }).where('id', '=', locked.course_id).execute();
  });
}

/**
 * POST /documents/{id}/versions (135, multipart file + change_note): the next number under the document's row lock
 * (two at once get distinct numbers), made current; every earlier acknowledgement's result expires now, so people
 * are asked again (expiry.ts moves latest_results and user_requirements in the same transaction).
 */
export async function addVersion(
  ctx: Ctx,
  id: number,
  read: () => Promise<DocumentForm>,
): Promise<AnyDocumentView> {
  const actor = actorOf(ctx);
  const form = await read();
  const doc = await documentFor(ctx, id);
  await requireManage(ctx, doc.entity_id);
  const fields = parseInput(AddVersionFields, form.fields);
  const kind = checkDocumentFile(form.file);
  const stored = await storeDocument(ctx, form.file as EvidenceUpload, kind);
  await withStored(ctx, stored, () =>
    ctx.db.transaction().execute(async (trx) => {
      const locked = await documentFor(ctx, id, { db: trx, lock: 'update' });
      const last = await trx
        .selectFrom('document_versions')
        .select((eb) => eb.fn.max('number').as('n'))
        .where('document_id', '=', locked.id)
        .executeTakeFirst();
      await insertVersion(trx, {
        documentId: locked.id,
        entityId: locked.entity_id,
        number: Number(last?.n ?? 0) + 1,
        stored,
        note: fields.change_note,
        by: actor.userId,
      });
      await expireAcknowledgements(trx, locked.course_id, ctx.clock());
    }),
  );
  return presentDocument(ctx, doc.id);
}

/**
 * GET /documents/{id}/versions/{number}/file: the version's bytes for whoever may see the document, with the first
 * opening recorded for the caller (acknowledging needs it).
 */
export async function documentFile(ctx: Ctx, id: number, number: number) {
  const actor = actorOf(ctx);
  const doc = await documentFor(ctx, id);
  const version = await ctx.db
    .selectFrom('document_versions as v')
    .innerJoin('files as f', 'f.id', 'v.file_id')
    .select(['v.id', 'f.storage_key', 'f.original_name', 'f.mime_type'])
    .where('v.document_id', '=', doc.id)
    .where('v.number', '=', number)
    .executeTakeFirst();
  if (!version) throw notFound();
  const bytes = await ctx.storage.get(version.storage_key);
  if (!bytes) throw notFound();
  await ctx.db
    .insertInto('document_views')
    .values({ version_id: version.id, user_id: actor.userId })
    .onConflict((oc) => oc.columns(['version_id', 'user_id']).doNothing())
    .execute();
  return {
    bytes,
    mimeType: version.mime_type,
    filename: version.original_name,
    display: displayOf(version.mime_type),
  };
}
