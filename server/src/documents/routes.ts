import {
  AcknowledgeBody,
  AcknowledgementListQuery,
  CreateLibraryBody,
  DocumentListQuery,
  DocumentRequirementsBody,
  DocumentVersionParams,
  IdParams,
  LibraryListQuery,
  DocumentMessages as M,
  UpdateDocumentBody,
  UpdateLibraryBody,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import {
  acknowledgeDocument,
  listAcknowledgements,
  myDocuments,
  remindUnread,
  setRequirements,
} from './acknowledge-service';
import {
  addVersion,
  createDocument,
  deleteDocument,
  documentFile,
  getDocument,
  listDocuments,
  readDocumentForm,
  updateDocument,
} from './document-service';
import { createLibrary, deleteLibrary, getLibrary, listLibraries, updateLibrary } from './library-service';

/**
 * The headers of a document's file: never run in our origin (CSP sandbox without allow-scripts, nosniff, the stored
 * type decided by the bytes); PDFs and images shown inline, framed only by our own pages (/document/{id}); office
 * files always downloaded.
 */
export function documentFileHeaders(file: {
  mimeType: string;
  filename: string;
  display: 'inline' | 'download';
}) {
  const disposition = file.display === 'inline' ? 'inline' : 'attachment';
  return {
    'content-type': file.mimeType,
    'content-disposition': `${disposition}; filename="${file.filename}"`,
    'x-content-type-options': 'nosniff',
    'content-security-policy':
      "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'self'",
    'x-frame-options': 'SAMEORIGIN',
    'cache-control': 'private, no-store',
  };
}

/** Documents and libraries (issue 17; contracts documents.ts). */
export async function documentRoutes(app: App) {
  const tags = ['documents'];
  app.get('/libraries', { schema: { tags, querystring: LibraryListQuery } }, async (r) => {
    const { data, total } = await listLibraries(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.post('/libraries', { schema: { tags, body: CreateLibraryBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createLibrary(r.ctx, r.body), M.libraryCreated)),
  );
  app.get('/libraries/:id', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await getLibrary(r.ctx, r.params.id)),
  );
  app.patch('/libraries/:id', { schema: { tags, params: IdParams, body: UpdateLibraryBody } }, async (r) =>
    ok(await updateLibrary(r.ctx, r.params.id, r.body), M.libraryUpdated),
  );
  app.delete('/libraries/:id', { schema: { tags, params: IdParams } }, async (r) => {
    await deleteLibrary(r.ctx, r.params.id);
    return done(M.libraryDeleted);
  });
  app.get(
    '/libraries/:id/documents',
    { schema: { tags, params: IdParams, querystring: DocumentListQuery } },
    async (r) => {
      const { data, total } = await listDocuments(r.ctx, r.params.id, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  // Multipart (file + CreateDocumentFields): the fields are parsed by the service after the form is read.
  app.post('/libraries/:id/documents', { schema: { tags, params: IdParams } }, async (r, reply) =>
    reply
      .status(201)
      .send(ok(await createDocument(r.ctx, r.params.id, () => readDocumentForm(r)), M.documentCreated)),
  );

  app.get('/documents/mine', { schema: { tags } }, async (r) => ok(await myDocuments(r.ctx)));
  app.get('/documents/:id', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await getDocument(r.ctx, r.params.id)),
  );
  app.patch('/documents/:id', { schema: { tags, params: IdParams, body: UpdateDocumentBody } }, async (r) =>
    ok(await updateDocument(r.ctx, r.params.id, r.body), M.documentUpdated),
  );
  app.delete('/documents/:id', { schema: { tags, params: IdParams } }, async (r) => {
    await deleteDocument(r.ctx, r.params.id);
    return done(M.documentDeleted);
  });
  app.post('/documents/:id/versions', { schema: { tags, params: IdParams } }, async (r, reply) =>
    reply
      .status(201)
      .send(ok(await addVersion(r.ctx, r.params.id, () => readDocumentForm(r)), M.versionAdded)),
  );
  app.get(
    '/documents/:id/versions/:number/file',
    { schema: { tags, params: DocumentVersionParams } },
    async (r, reply) => {
      const file = await documentFile(r.ctx, r.params.id, r.params.number);
      return reply.headers(documentFileHeaders(file)).send(file.bytes);
    },
  );
  app.post(
    '/documents/:id/acknowledge',
    { schema: { tags, params: IdParams, body: AcknowledgeBody } },
    async (r, reply) =>
      reply.status(201).send(ok(await acknowledgeDocument(r.ctx, r.params.id, r.body), M.acknowledged)),
  );
  app.get(
    '/documents/:id/acknowledgements',
    { schema: { tags, params: IdParams, querystring: AcknowledgementListQuery } },
    async (r) => {
      const { data, total } = await listAcknowledgements(r.ctx, r.params.id, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.post('/documents/:id/remind', { schema: { tags, params: IdParams } }, async (r) => {
    const data = await remindUnread(r.ctx, r.params.id);
    return ok(data, M.reminded(data.reminded));
  });
  app.put(
    '/documents/:id/requirements',
    { schema: { tags, params: IdParams, body: DocumentRequirementsBody } },
    async (r) => ok(await setRequirements(r.ctx, r.params.id, r.body), M.requirementsSaved),
  );
}
