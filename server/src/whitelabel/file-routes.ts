import { z } from 'zod';
import type { App } from '../http/app-types';
import { readPublicFile } from './service';

/**
 * GET /api/files/{uuid}: uploaded files that are public by purpose (white-label images). The stored type is
 * served with nosniff and a sandboxing CSP, so even a file that slipped past the upload check cannot run script
 * in our origin.
 */
export async function fileRoutes(app: App) {
  app.get(
    '/files/:uuid',
    { config: { auth: false }, schema: { tags: ['files'], params: z.object({ uuid: z.string().max(64) }) } },
    async (request, reply) => {
      const file = await readPublicFile(request.ctx, request.params.uuid);
      return reply
        .header('content-type', file.mimeType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('content-disposition', `inline; filename="${file.filename}"`)
        .header('cache-control', 'public, max-age=86400')
        .send(file.bytes);
    },
  );
}
