import {
  HistoricalBody,
  HistoricalQuery,
  HistoricalUpdate,
  CareCertificateMessages as M,
  UuidParams,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { ok, paginate } from '../http/envelope';
import { createHistorical, getHistorical, listHistorical, patchHistorical } from './historical-service';

/** Historical certificates (92) (H2). Issue 16; contracts care-certificate.ts. */
export async function historicalRoutes(app: App) {
  const tags = ['care-certificate'];
  app.get('/historical-care-certificates', { schema: { tags, querystring: HistoricalQuery } }, async (r) => {
    const { data, total } = await listHistorical(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.post('/historical-care-certificates', { schema: { tags, body: HistoricalBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createHistorical(r.ctx, r.body), M.historicalSaved)),
  );
  app.get('/historical-care-certificates/:uuid', { schema: { tags, params: UuidParams } }, async (r) =>
    ok(await getHistorical(r.ctx, r.params.uuid)),
  );
  app.patch(
    '/historical-care-certificates/:uuid',
    { schema: { tags, params: UuidParams, body: HistoricalUpdate } },
    async (r) => ok(await patchHistorical(r.ctx, r.params.uuid, r.body), M.historicalSaved),
  );
}
