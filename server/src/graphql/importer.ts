import { Readable } from 'node:stream';
import {
  IMPORT_MAX_BYTES,
  ImportErrorsQuery,
  type ImportErrorView,
  ImportListQuery,
  type ImportPreview,
  ImportUuidParams,
  type ImportView,
} from '@cc/contracts';
import { actorOf, authorize } from '../http/context';
import {
  applyImport,
  getImport,
  listImportErrors,
  listImportRuns,
  planImport,
  resolveImportError,
  undoImport,
} from '../importer/service';
import { newKey } from '../storage/storage';
import { builder } from './builder';
import { parseInput } from './input';
import { pageArgs, pageOf, paginatorOf } from './paging';

/**
 * The importer (issue 18; contracts importer.ts) over GraphQL: queries `imports`, `importRun`, `importErrors`;
 * mutations `planImport` (multipart upload), `applyImport`, `undoImport`, `resolveImportError`. Each calls the REST
 * route's service (importer/service.ts): no rule lives here.
 */
const ImportObject = builder.objectRef<ImportView>('Import').implement({
  description: 'One import run: its kind, file, status and counts.',
  fields: (t) => ({
    uuid: t.exposeString('uuid'),
    kind: t.exposeString('kind', { description: 'users or training.' }),
    file_name: t.exposeString('file_name'),
    status: t.exposeString('status', {
      description: 'planning, planned, applying, applied, failed, undoing, undone.',
    }),
    failure: t.exposeString('failure', { nullable: true }),
    counts: t.field({ type: 'JSON', resolve: (i) => i.counts }),
    progress: t.field({ type: 'JSON', nullable: true, resolve: (i) => i.progress }),
    created_by: t.field({ type: 'JSON', nullable: true, resolve: (i) => i.created_by }),
    entity: t.field({ type: 'JSON', resolve: (i) => i.entity }),
    created_at: t.exposeString('created_at'),
    planned_at: t.exposeString('planned_at', { nullable: true }),
    applied_at: t.exposeString('applied_at', { nullable: true }),
    undone_at: t.exposeString('undone_at', { nullable: true }),
    duration_ms: t.exposeInt('duration_ms', { nullable: true }),
  }),
});

const ImportErrorObject = builder.objectRef<ImportErrorView>('ImportError').implement({
  description: 'A row error of an import, and its resolution.',
  fields: (t) => ({
    id: t.exposeID('id'),
    row_number: t.exposeInt('row_number'),
    column: t.exposeString('column'),
    message: t.exposeString('message'),
    values: t.field({ type: 'JSON', resolve: (e) => e.values }),
    resolved_at: t.exposeString('resolved_at', { nullable: true }),
    resolved_by: t.field({ type: 'JSON', nullable: true, resolve: (e) => e.resolved_by }),
    note: t.exposeString('note', { nullable: true }),
  }),
});

const ImportPreviewObject = builder.objectRef<ImportPreview>('ImportPreview').implement({
  description: 'An import with the first rows of each action (and their changes) and the first errors.',
  fields: (t) => ({
    import: t.field({ type: ImportObject, resolve: (p) => p.import }),
    rows: t.field({ type: 'JSON', resolve: (p) => p.rows }),
    errors: t.field({ type: [ImportErrorObject], resolve: (p) => p.errors }),
  }),
});

const ImportPaginator = paginatorOf(ImportObject, 'Import');
const ImportErrorPaginator = paginatorOf(ImportErrorObject, 'ImportError');
const uuidOf = (uuid: string) => parseInput(ImportUuidParams, { uuid }).uuid;

builder.queryField('imports', (t) =>
  t.field({
    type: ImportPaginator,
    description: 'GET /api/importer/imports (99): runs in scope, newest first.',
    args: { ...pageArgs(t.arg), kind: t.arg.string(), status: t.arg.string(), unresolved: t.arg.boolean() },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      return pageOf(ImportListQuery, args, (q) => listImportRuns(ctx, q));
    },
  }),
);

builder.queryField('importRun', (t) =>
  t.field({
    type: ImportPreviewObject,
    description: 'GET /api/importer/imports/{uuid} (99): the run and its preview.',
    args: { uuid: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => getImport(ctx, uuidOf(args.uuid)),
  }),
);

builder.queryField('importErrors', (t) =>
  t.field({
    type: ImportErrorPaginator,
    description: 'GET /api/importer/imports/{uuid}/errors (99).',
    args: { ...pageArgs(t.arg), uuid: t.arg.string({ required: true }), unresolved: t.arg.boolean() },
    resolve: (_root, args, ctx) => {
      const uuid = uuidOf(args.uuid);
      return pageOf(ImportErrorsQuery, { ...args, uuid: undefined }, (q) => listImportErrors(ctx, uuid, q));
    },
  }),
);

builder.mutationField('planImport', (t) =>
  t.field({
    type: ImportObject,
    description: 'POST /api/importer/imports (99 and 3/18 or 26; multipart upload): plans a CSV.',
    args: { kind: t.arg.string({ required: true }), file: t.arg({ type: 'Upload', required: true }) },
    resolve: async (_r, args, ctx) => {
      authorize(ctx, [99]);
      const key = newKey('imports', 'csv');
      // GraphQL's Upload is read whole (REST streams it): prefer REST for very large files.
      const tooBig = args.file.size > IMPORT_MAX_BYTES;
      const bytes = tooBig ? Buffer.alloc(0) : Buffer.from(await args.file.arrayBuffer());
      const size = tooBig ? args.file.size : await ctx.storage.write(key, Readable.from([bytes]), 'text/csv');
      return planImport(ctx, {
        kind: args.kind,
        fileName: args.file.name || 'import.csv',
        storageKey: key,
        size,
        truncated: tooBig,
      });
    },
  }),
);

builder.mutationField('applyImport', (t) =>
  t.field({
    type: ImportObject,
    description: 'POST /api/importer/imports/{uuid}/apply (99): a planned import, once.',
    args: { uuid: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => applyImport(ctx, uuidOf(args.uuid)),
  }),
);

builder.mutationField('undoImport', (t) =>
  t.field({
    type: ImportObject,
    description: 'POST /api/importer/imports/{uuid}/undo (99): an applied import, once.',
    args: { uuid: t.arg.string({ required: true }) },
    resolve: (_r, args, ctx) => undoImport(ctx, uuidOf(args.uuid)),
  }),
);

builder.mutationField('resolveImportError', (t) =>
  t.field({
    type: ImportErrorObject,
    description: 'POST /api/importer/imports/{uuid}/errors/{id}/resolve (100): a note.',
    args: {
      uuid: t.arg.string({ required: true }),
      id: t.arg.id({ required: true }),
      note: t.arg.string({ required: true }),
    },
    resolve: (_r, args, ctx) =>
      resolveImportError(ctx, uuidOf(args.uuid), Number(args.id), { note: args.note }),
  }),
);
