import {
  ImportErrorParams,
  ImportErrorsQuery,
  ImportKind,
  ImportListQuery,
  ImportRowsQuery,
  ImportUuidParams,
  ImporterMessages as M,
  ResolveImportErrorBody,
} from '@cc/contracts';
import { z } from 'zod';
import type { App } from '../http/app-types';
import { ok, paginate } from '../http/envelope';
import {
  applyImport,
  errorsCsv,
  getImport,
  listImportErrors,
  listImportRows,
  listImportRuns,
  planImport,
  readImportUpload,
  resolveImportError,
  templateCsv,
  undoImport,
} from './service';

const TemplateParams = z.object({ kind: ImportKind });
const attachment = (name: string) => `attachment; filename="${name}"`;

/** The importer (issue 18; contracts importer.ts): HTTP only, the rules live in service.ts. */
export async function importerRoutes(app: App): Promise<void> {
  const tags = ['importer'];
  app.get('/importer/imports', { schema: { tags, querystring: ImportListQuery } }, async (r) => {
    const { data, total } = await listImportRuns(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.post('/importer/imports', { schema: { tags } }, async (r, reply) => {
    const view = await planImport(r.ctx, await readImportUpload(r.ctx, r));
    return reply
      .status(view.status === 'planning' ? 202 : 201)
      .send(ok(view, view.status === 'planning' ? M.planning : M.planned));
  });
  app.get('/importer/imports/:uuid', { schema: { tags, params: ImportUuidParams } }, async (r) =>
    ok(await getImport(r.ctx, r.params.uuid)),
  );
  app.get(
    '/importer/imports/:uuid/rows',
    { schema: { tags, params: ImportUuidParams, querystring: ImportRowsQuery } },
    async (r) => {
      const { data, total } = await listImportRows(r.ctx, r.params.uuid, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.get(
    '/importer/imports/:uuid/errors',
    { schema: { tags, params: ImportUuidParams, querystring: ImportErrorsQuery } },
    async (r) => {
      const { data, total } = await listImportErrors(r.ctx, r.params.uuid, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.get(
    '/importer/imports/:uuid/errors.csv',
    { schema: { tags, params: ImportUuidParams } },
    async (r, reply) => {
      const file = await errorsCsv(r.ctx, r.params.uuid);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachment(file.filename))
        .header('x-content-type-options', 'nosniff')
        .send(file.body);
    },
  );
  app.post(
    '/importer/imports/:uuid/apply',
    { schema: { tags, params: ImportUuidParams } },
    async (r, reply) => reply.status(202).send(ok(await applyImport(r.ctx, r.params.uuid), M.applying)),
  );
  app.post('/importer/imports/:uuid/undo', { schema: { tags, params: ImportUuidParams } }, async (r, reply) =>
    reply.status(202).send(ok(await undoImport(r.ctx, r.params.uuid), M.undoing)),
  );
  app.post(
    '/importer/imports/:uuid/errors/:id/resolve',
    { schema: { tags, params: ImportErrorParams, body: ResolveImportErrorBody } },
    async (r) => ok(await resolveImportError(r.ctx, r.params.uuid, r.params.id, r.body), M.resolved),
  );
  app.get('/importer/templates/:kind', { schema: { tags, params: TemplateParams } }, async (r, reply) => {
    const file = templateCsv(r.ctx, r.params.kind);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', attachment(file.filename))
      .send(file.body);
  });
}
