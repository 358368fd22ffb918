import {
  AssignBody,
  CareCertificateSettingsUpdate,
  CareCertificatesQuery,
  CareCertificateMessages as M,
  UuidIdParams,
  UuidParams,
} from '@cc/contracts';
import { z } from 'zod';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import {
  assignCertificate,
  getCertificate,
  listCertificates,
  myCertificates,
  withdrawCertificate,
} from './certificate-service';
import { addEvidence, evidenceFile, readEvidenceForm, removeEvidence } from './evidence';
import { getSettings, updateSettings } from './settings';

const ActingAsQuery = z.object({ actingAs: z.string().max(120).optional() });

/** Assigning, listing, viewing certificates, evidence and settings (H1). Issue 16; contracts care-certificate.ts. */
export async function certificateRoutes(app: App) {
  const tags = ['care-certificate'];
  app.get('/care-certificate-settings', { schema: { tags, querystring: ActingAsQuery } }, async (r) =>
    ok(await getSettings(r.ctx)),
  );
  app.patch(
    '/care-certificate-settings',
    { schema: { tags, querystring: ActingAsQuery, body: CareCertificateSettingsUpdate } },
    async (r) => ok(await updateSettings(r.ctx, r.body), M.settingsUpdated),
  );
  app.post('/care-certificates', { schema: { tags, body: AssignBody } }, async (r, reply) =>
    reply.status(201).send(ok(await assignCertificate(r.ctx, r.body), M.assigned)),
  );
  app.get('/care-certificates', { schema: { tags, querystring: CareCertificatesQuery } }, async (r) => {
    const { data, total } = await listCertificates(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.get('/care-certificates/mine', { schema: { tags } }, async (r) => ok(await myCertificates(r.ctx)));
  app.get('/care-certificates/:uuid', { schema: { tags, params: UuidParams } }, async (r) =>
    ok(await getCertificate(r.ctx, r.params.uuid)),
  );
  app.delete('/care-certificates/:uuid', { schema: { tags, params: UuidParams } }, async (r) => {
    await withdrawCertificate(r.ctx, r.params.uuid);
    return done(M.withdrawn);
  });
  // JSON (a result linked by hand) or multipart (a file): the body is parsed by the service after the form is read.
  app.post('/care-certificates/:uuid/evidence', { schema: { tags, params: UuidParams } }, async (r, reply) =>
    reply
      .status(201)
      .send(ok(await addEvidence(r.ctx, r.params.uuid, () => readEvidenceForm(r)), M.evidenceAdded)),
  );
  app.delete('/care-certificates/:uuid/evidence/:id', { schema: { tags, params: UuidIdParams } }, async (r) =>
    ok(await removeEvidence(r.ctx, r.params.uuid, r.params.id), M.evidenceRemoved),
  );
  app.get(
    '/care-certificates/:uuid/evidence/:id/file',
    { schema: { tags, params: UuidIdParams } },
    async (r, reply) => {
      const file = await evidenceFile(r.ctx, r.params.uuid, r.params.id);
      return reply
        .header('content-type', file.mimeType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, no-store')
        .send(file.bytes);
    },
  );
}
