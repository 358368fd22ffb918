import {
  AcknowledgeBody,
  AcknowledgementListQuery,
  type AcknowledgementRow,
  ContentIdParams,
  CreateLibraryBody,
  DOCUMENT_MAX_BYTES,
  DocumentListQuery,
  type DocumentSummary,
  type DocumentVersionView,
  LibraryListQuery,
  type LibraryView,
  type MyDocument,
  UpdateLibraryBody,
} from '@cc/contracts';
import { acknowledgeDocument, listAcknowledgements, myDocuments } from '../documents/acknowledge-service';
import {
  addVersion,
  createDocument,
  type DocumentForm,
  getDocument,
  listDocuments,
} from '../documents/document-service';
import type { AnyDocumentView } from '../documents/document-views';
import { createLibrary, getLibrary, listLibraries, updateLibrary } from '../documents/library-service';
import { actorOf } from '../http/context';
import { EntityRefRef, NamedRef } from './auth';
import { PersonObject } from './bookings-sessions';
import { builder, type UploadedBlob } from './builder';
import { defined, parseInput } from './input';
import { pageArgs, pageOf, paginatorOf } from './paging';

/**
 * Documents and libraries (issue 17; contracts documents.ts) over GraphQL: queries `libraries`, `library`,
 * `documents`, `document`, `myDocuments`, `documentAcknowledgements`; mutations `createLibrary`, `updateLibrary`,
 * `createDocument` and `addDocumentVersion` (multipart uploads: operations + map), `acknowledgeDocument`. Every
 * resolver parses its input with the REST route's schema and calls the same service (documents/*-service.ts).
 */

const idOf = (id: string | number) => parseInput(ContentIdParams, { id }).id;

const LibraryObject = builder.objectRef<LibraryView>('Library').implement({
  description:
    "An organisation's shelf of documents, visible to it and its children (GET /api/libraries/{id}).",
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    entity: t.field({ type: EntityRefRef, resolve: (l) => l.entity }),
    document_count: t.exposeInt('document_count'),
    updated_at: t.exposeString('updated_at'),
    can_manage: t.boolean({ resolve: (l) => l.can.manage }),
  }),
});

const DocumentVersionObject = builder.objectRef<DocumentVersionView>('DocumentVersion').implement({
  description: 'One version of a document and its file (served sandboxed from file_url).',
  fields: (t) => ({
    id: t.exposeID('id'),
    number: t.exposeInt('number'),
    change_note: t.exposeString('change_note', { nullable: true }),
    file_name: t.exposeString('file_name'),
    mime_type: t.exposeString('mime_type'),
    size_bytes: t.exposeInt('size_bytes'),
    display: t.exposeString('display', { description: 'inline (shown in the page) or download.' }),
    file_url: t.exposeString('file_url'),
    created_by: t.field({ type: PersonObject, nullable: true, resolve: (v) => v.created_by }),
    created_at: t.exposeString('created_at'),
  }),
});

type Summary = DocumentSummary;
const summaryFields = (
  t: PothosSchemaTypes.ObjectFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<object>, Summary>,
) => ({
  id: t.exposeID('id'),
  uuid: t.exposeString('uuid'),
  title: t.exposeString('title'),
  description: t.exposeString('description', { nullable: true }),
  library: t.field({ type: NamedRef, resolve: (d: Summary) => d.library }),
  entity: t.field({ type: EntityRefRef, resolve: (d: Summary) => d.entity }),
  course_id: t.exposeInt('course_id'),
  version: t.exposeInt('version'),
  updated_at: t.exposeString('updated_at'),
  my_status: t.exposeString('my_status', {
    description: 'not_required, to_read, acknowledged or new_version.',
  }),
});

const DocumentSummaryObject = builder.objectRef<DocumentSummary>('DocumentSummary').implement({
  description: 'A document of a library, with the caller’s own status.',
  // biome-ignore lint/suspicious/noExplicitAny: the shared field list is typed by the summary's shape.
  fields: (t) => summaryFields(t as any),
});

type Question = { question: string; options: string[]; correct?: number };
const CheckQuestionObject = builder.objectRef<Question>('DocumentCheckQuestion').implement({
  description: 'The short question answered before acknowledging (`correct` only for those who manage it).',
  fields: (t) => ({
    question: t.exposeString('question'),
    options: t.exposeStringList('options'),
    correct: t.int({ nullable: true, resolve: (q) => q.correct ?? null }),
  }),
});

type Ack = NonNullable<AnyDocumentView['my_acknowledgement']>;
const MyAcknowledgementObject = builder.objectRef<Ack>('DocumentAcknowledgement').implement({
  fields: (t) => ({
    version: t.exposeInt('version'),
    typed_name: t.exposeString('typed_name'),
    acknowledged_at: t.exposeString('acknowledged_at'),
  }),
});

type Requirement = AnyDocumentView['required_for'][number];
const RequirementObject = builder.objectRef<Requirement>('DocumentRequirement').implement({
  description:
    'A job role of an organisation that must read the document (Mandatory: primary, Required: secondary).',
  fields: (t) => ({
    entity: t.field({ type: EntityRefRef, resolve: (r) => r.entity }),
    role: t.field({ type: NamedRef, resolve: (r) => r.role }),
    type: t.exposeString('type'),
  }),
});

const DocumentObject = builder.objectRef<AnyDocumentView>('Document').implement({
  description:
    'A document with its current version, history and the caller’s acknowledgement (GET /api/documents/{id}).',
  fields: (t) => ({
    // biome-ignore lint/suspicious/noExplicitAny: the shared field list is typed by the summary's shape.
    ...summaryFields(t as any),
    current: t.field({ type: DocumentVersionObject, resolve: (d) => d.current }),
    versions: t.field({ type: [DocumentVersionObject], resolve: (d) => d.versions }),
    check_question: t.field({
      type: CheckQuestionObject,
      nullable: true,
      resolve: (d) => ('check_question_full' in d ? d.check_question_full : d.check_question),
    }),
    my_acknowledgement: t.field({
      type: MyAcknowledgementObject,
      nullable: true,
      resolve: (d) => d.my_acknowledgement,
    }),
    required_for: t.field({ type: [RequirementObject], resolve: (d) => d.required_for }),
    can_manage: t.boolean({ resolve: (d) => d.can.manage }),
    can_see_acknowledgements: t.boolean({ resolve: (d) => d.can.acknowledgements }),
  }),
});

const AcknowledgementRowObject = builder
  .objectRef<AcknowledgementRow>('DocumentAcknowledgementRow')
  .implement({
    description: 'A person who must read the document, with their latest acknowledged version.',
    fields: (t) => ({
      user: t.field({ type: PersonObject, resolve: (r) => r.user }),
      entity: t.field({ type: EntityRefRef, resolve: (r) => r.entity }),
      role: t.exposeString('role', { nullable: true }),
      acknowledged_version: t.exposeInt('acknowledged_version', { nullable: true }),
      acknowledged_at: t.exposeString('acknowledged_at', { nullable: true }),
      current: t.exposeBoolean('current'),
    }),
  });

const MyDocumentObject = builder.objectRef<MyDocument>('MyDocument').implement({
  description: 'A document the caller must read, with its status and the new version’s note.',
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    version: t.exposeInt('version'),
    status: t.exposeString('status'),
    change_note: t.exposeString('change_note', { nullable: true }),
    type: t.exposeString('type'),
  }),
});

const LibraryPaginator = paginatorOf(LibraryObject, 'Library');
const DocumentPaginator = paginatorOf(DocumentSummaryObject, 'DocumentSummary');
const AcknowledgementPaginator = paginatorOf(AcknowledgementRowObject, 'DocumentAcknowledgementRow');

builder.queryField('libraries', (t) =>
  t.field({
    type: LibraryPaginator,
    description: 'GET /api/libraries (134 or 135): the libraries the caller sees.',
    args: { ...pageArgs(t.arg), search: t.arg.string(), entity: t.arg.string() },
    resolve: (_r, args, ctx) => {
      actorOf(ctx);
      return pageOf(LibraryListQuery, args, (q) => listLibraries(ctx, q));
    },
  }),
);

builder.queryField('library', (t) =>
  t.field({
    type: LibraryObject,
    description: 'GET /api/libraries/{id}.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => {
      actorOf(ctx);
      return getLibrary(ctx, idOf(id));
    },
  }),
);

builder.queryField('documents', (t) =>
  t.field({
    type: DocumentPaginator,
    description: "GET /api/libraries/{id}/documents (134 or 135): a library's documents, by title.",
    args: { libraryId: t.arg.id({ required: true }), ...pageArgs(t.arg), search: t.arg.string() },
    resolve: (_r, { libraryId, ...args }, ctx) => {
      actorOf(ctx);
      return pageOf(DocumentListQuery, args, (q) => listDocuments(ctx, idOf(libraryId), q));
    },
  }),
);

builder.queryField('document', (t) =>
  t.field({
    type: DocumentObject,
    description: 'GET /api/documents/{id}.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => {
      actorOf(ctx);
      return getDocument(ctx, idOf(id));
    },
  }),
);

builder.queryField('myDocuments', (t) =>
  t.field({
    type: [MyDocumentObject],
    description: 'GET /api/documents/mine: the documents the caller must read.',
    resolve: (_r, _a, ctx) => myDocuments(ctx),
  }),
);

builder.queryField('documentAcknowledgements', (t) =>
  t.field({
    type: AcknowledgementPaginator,
    description: 'GET /api/documents/{id}/acknowledgements (136): who has and has not acknowledged it.',
    args: {
      id: t.arg.id({ required: true }),
      ...pageArgs(t.arg),
      search: t.arg.string(),
      status: t.arg.string({ description: 'acknowledged or outstanding.' }),
      entity: t.arg.string(),
    },
    resolve: (_r, { id, ...args }, ctx) => {
      actorOf(ctx);
      return pageOf(AcknowledgementListQuery, args, (q) => listAcknowledgements(ctx, idOf(id), q));
    },
  }),
);

const LibraryInput = builder.inputType('LibraryInput', {
  fields: (t) => ({
    entity: t.string({
      description: 'The owning organisation (slug); the caller’s own when left out. Create only.',
    }),
    name: t.string(),
    description: t.string(),
  }),
});

builder.mutationField('createLibrary', (t) =>
  t.field({
    type: LibraryObject,
    description: 'POST /api/libraries (135).',
    args: { input: t.arg({ type: LibraryInput, required: true }) },
    resolve: (_r, { input }, ctx) => {
      actorOf(ctx);
      return createLibrary(
        ctx,
        parseInput(CreateLibraryBody, defined({ ...input, entity: input.entity ?? undefined })),
      );
    },
  }),
);

builder.mutationField('updateLibrary', (t) =>
  t.field({
    type: LibraryObject,
    description: 'PATCH /api/libraries/{id} (135): only the fields sent change.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: LibraryInput, required: true }) },
    resolve: (_r, { id, input }, ctx) => {
      actorOf(ctx);
      const { entity: _e, ...rest } = input;
      return updateLibrary(ctx, idOf(id), parseInput(UpdateLibraryBody, defined({ ...rest })));
    },
  }),
);

/** A GraphQL upload as the form the REST route reads; a file over the limit is not read at all. */
async function formOf(
  fields: Record<string, unknown>,
  file: UploadedBlob | null | undefined,
): Promise<DocumentForm> {
  if (!file) return { fields, file: null };
  if (file.size > DOCUMENT_MAX_BYTES)
    return { fields, file: { filename: file.name, bytes: Buffer.alloc(0), truncated: true } };
  return {
    fields,
    file: { filename: file.name, bytes: Buffer.from(await file.arrayBuffer()), truncated: false },
  };
}

builder.mutationField('createDocument', (t) =>
  t.field({
    type: DocumentObject,
    description:
      'POST /api/libraries/{id}/documents (135, multipart upload: operations + map): the document and its version 1.',
    args: {
      libraryId: t.arg.id({ required: true }),
      title: t.arg.string({ required: true }),
      description: t.arg.string(),
      check_question: t.arg({ type: 'JSON', description: '{question, options[], correct}: optional.' }),
      file: t.arg({ type: 'Upload', required: true }),
    },
    resolve: (_r, args, ctx) => {
      actorOf(ctx);
      const fields = defined({
        title: args.title,
        description: args.description ?? undefined,
        check_question: args.check_question == null ? undefined : JSON.stringify(args.check_question),
      });
      // Read lazily: the service checks scope and permission before it looks at the file.
      return createDocument(ctx, idOf(args.libraryId), () => formOf(fields, args.file));
    },
  }),
);

builder.mutationField('addDocumentVersion', (t) =>
  t.field({
    type: DocumentObject,
    description:
      'POST /api/documents/{id}/versions (135, multipart upload): staff are asked to read it again.',
    args: {
      id: t.arg.id({ required: true }),
      change_note: t.arg.string({ required: true }),
      file: t.arg({ type: 'Upload', required: true }),
    },
    resolve: (_r, args, ctx) => {
      actorOf(ctx);
      // The service parses the fields (AddVersionFields) after scope and permission, as for the REST form.
      const fields = { change_note: args.change_note };
      return addVersion(ctx, idOf(args.id), () => formOf(fields, args.file));
    },
  }),
);

const AcknowledgeInput = builder.inputType('AcknowledgeDocumentInput', {
  fields: (t) => ({
    typed_name: t.string({ required: true }),
    answer: t.int({ description: 'The chosen option, when the document has a check question.' }),
    version: t.int({ required: true, description: 'The version read.' }),
  }),
});

builder.mutationField('acknowledgeDocument', (t) =>
  t.field({
    type: DocumentObject,
    description: 'POST /api/documents/{id}/acknowledge: the current version, after opening it.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: AcknowledgeInput, required: true }) },
    resolve: (_r, { id, input }, ctx) => {
      actorOf(ctx);
      return acknowledgeDocument(ctx, idOf(id), parseInput(AcknowledgeBody, defined({ ...input })));
    },
  }),
);
