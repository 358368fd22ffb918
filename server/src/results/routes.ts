import {
  BulkAddEventsBody,
  CoursePickerQuery,
  ExemptResultBody,
  PageQuery,
  PendingIdParams,
  PendingTypeParams,
  ResultIdParams,
  ResultListQuery,
  ResultsMessages,
  SuppressCertificateBody,
  UpdateExemptResultBody,
  UserRefParams,
  UserResultsQuery,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import {
  createExempt,
  createHistorical,
  deleteExempt,
  listExempt,
  updateExempt,
  updateHistorical,
} from './admin-service';
import { bulkAddEvents, bulkHistory, deleteBulkEvents } from './bulk-service';
import { readResultForm } from './evidence';
import {
  approvePending,
  deletePending,
  deleteResult,
  evidenceDownload,
  getResult,
  listPending,
  listUserResults,
  pickCourses,
  suppressCertificate,
} from './records-service';

/**
 * Results of every kind (spec 2 §2 /results/..., spec 1 §2 /users/bulk-add-events...; issue 5 item 1). HTTP only:
 * rules, permissions and scope live in the services. Historical results take JSON or multipart (file part
 * `evidence`), so their bodies are parsed by the service after the form is read.
 */
export async function resultRoutes(app: App) {
  const tags = ['results'];

  app.post('/results/historical/create', { schema: { tags } }, async (r, reply) => {
    const { result, pending } = await createHistorical(r.ctx, () => readResultForm(r));
    return reply
      .status(201)
      .send(ok(result, pending ? ResultsMessages.historicalSubmitted : ResultsMessages.historicalCreated));
  });
  app.patch('/results/historical/:id', { schema: { tags, params: ResultIdParams } }, async (r) =>
    ok(
      await updateHistorical(r.ctx, r.params.id, () => readResultForm(r)),
      ResultsMessages.historicalUpdated,
    ),
  );

  app.get('/results/exempt', { schema: { tags, querystring: ResultListQuery } }, async (r) => {
    const { data, total } = await listExempt(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.post('/results/exempt', { schema: { tags, body: ExemptResultBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createExempt(r.ctx, r.body), ResultsMessages.exemptCreated)),
  );
  app.patch(
    '/results/exempt/:id',
    { schema: { tags, params: ResultIdParams, body: UpdateExemptResultBody } },
    async (r) => ok(await updateExempt(r.ctx, r.params.id, r.body), ResultsMessages.exemptUpdated),
  );
  app.delete('/results/exempt/:id', { schema: { tags, params: ResultIdParams } }, async (r) => {
    await deleteExempt(r.ctx, r.params.id);
    return done(ResultsMessages.exemptDeleted);
  });

  app.get(
    '/results/pending/:type',
    { schema: { tags, params: PendingTypeParams, querystring: ResultListQuery } },
    async (r) => {
      const { data, total } = await listPending(r.ctx, r.params.type, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.post('/results/pending/:id/approve', { schema: { tags, params: PendingIdParams } }, async (r) =>
    ok(await approvePending(r.ctx, r.params.id), ResultsMessages.resultApproved),
  );
  app.delete('/results/pending/:id', { schema: { tags, params: PendingIdParams } }, async (r) => {
    await deletePending(r.ctx, r.params.id);
    return done(ResultsMessages.resultDeleted);
  });

  app.get('/results/courses', { schema: { tags, querystring: CoursePickerQuery } }, async (r) => {
    const { data, total } = await pickCourses(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });

  app.get('/results/:id', { schema: { tags, params: ResultIdParams } }, async (r) =>
    ok(await getResult(r.ctx, r.params.id)),
  );
  app.delete('/results/:id', { schema: { tags, params: ResultIdParams } }, async (r) => {
    await deleteResult(r.ctx, r.params.id);
    return done(ResultsMessages.resultDeleted);
  });
  app.patch(
    '/results/:id/suppress-certificate',
    { schema: { tags, params: ResultIdParams, body: SuppressCertificateBody } },
    async (r) => {
      const data = await suppressCertificate(r.ctx, r.params.id, r.body.suppressed);
      return ok(
        data,
        r.body.suppressed ? ResultsMessages.certificateSuppressed : ResultsMessages.certificateRestored,
      );
    },
  );
  app.get('/results/:id/evidence', { schema: { tags, params: ResultIdParams } }, async (r, reply) => {
    const file = await evidenceDownload(r.ctx, r.params.id);
    return reply
      .header('content-type', file.mimeType)
      .header('content-disposition', `attachment; filename="${file.filename}"`)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'private, no-store')
      .send(file.bytes);
  });

  app.get(
    '/users/:id/results',
    { schema: { tags, params: UserRefParams, querystring: UserResultsQuery } },
    async (r) => {
      const { data, total } = await listUserResults(r.ctx, r.params.id, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );

  const btags = ['bulk events'];
  app.post('/users/bulk-add-events', { schema: { tags: btags, body: BulkAddEventsBody } }, async (r, reply) =>
    reply.status(201).send(ok(await bulkAddEvents(r.ctx, r.body), ResultsMessages.bulkAdded)),
  );
  app.get(
    '/users/bulk-add-events-history',
    { schema: { tags: btags, querystring: PageQuery } },
    async (r) => {
      const { data, total } = await bulkHistory(r.ctx, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.delete('/users/bulk-add-events/:id', { schema: { tags: btags, params: ResultIdParams } }, async (r) =>
    ok(await deleteBulkEvents(r.ctx, r.params.id), ResultsMessages.bulkDeleted),
  );
}
