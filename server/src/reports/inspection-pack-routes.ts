import { SlugParams } from '@cc/contracts';
import { z } from 'zod';
import type { App } from '../http/app-types';
import { ok } from '../http/envelope';
import {
  inspectionPackFile,
  inspectionPackStatus,
  registerInspectionPackJob,
  requestInspectionPack,
} from './inspection-pack';

const tags = ['reports'];
const PackParams = z.object({ uuid: z.string().min(1).max(64) });
const FileParams = PackParams.extend({ kind: z.enum(['pdf', 'zip']) });

/**
 * The inspection pack (issue 13): POST /entities/{slug}/inspection-pack queues it (202 with its status),
 * GET /inspection-packs/{uuid} answers its progress, GET /inspection-packs/{uuid}/{pdf|zip} downloads it.
 */
export async function inspectionPackRoutes(app: App) {
  registerInspectionPackJob();
  app.post('/entities/:slug/inspection-pack', { schema: { tags, params: SlugParams } }, async (r, reply) =>
    reply.status(202).send(ok(await requestInspectionPack(r.ctx, r.params.slug))),
  );
  app.get('/inspection-packs/:uuid', { schema: { tags, params: PackParams } }, async (r) =>
    ok(await inspectionPackStatus(r.ctx, r.params.uuid)),
  );
  app.get('/inspection-packs/:uuid/:kind', { schema: { tags, params: FileParams } }, async (r, reply) => {
    const file = await inspectionPackFile(r.ctx, r.params.uuid, r.params.kind);
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', `attachment; filename="${file.filename}"`)
      .header('cache-control', 'no-store')
      .send(file.stream);
  });
}
