import { createReadStream, createWriteStream } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ContentIdParams } from '@cc/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App } from '../http/app-types';
import { ok } from '../http/envelope';
import { notFound } from '../http/errors';
import {
  attemptH5pPackage,
  attemptScormPackage,
  contentPackage,
  h5pPackage,
  packageFolderFor,
  type ReceivedUpload,
  uploadH5pPackage,
  uploadScormPackage,
} from './service';

export const PackageMessages = {
  scormUploaded: 'Package uploaded successfully.',
  h5pUploaded: 'H5P package uploaded successfully.',
} as const;

/**
 * Streams the first file part of a multipart request into `target`, at most `maxBytes` (busboy truncates beyond
 * that and the service answers 422). Further parts are drained. Never buffers the package in memory.
 */
async function receiveFile(
  request: FastifyRequest,
  target: string,
  maxBytes: number,
): Promise<ReceivedUpload | null> {
  if (!request.isMultipart()) return null;
  let received: ReceivedUpload | null = null;
  const options = {
    limits: { fileSize: maxBytes, files: 1 },
    throwFileSizeLimit: false,
  } as Parameters<FastifyRequest['parts']>[0];
  for await (const part of request.parts(options)) {
    if (part.type !== 'file') continue;
    if (received) {
      part.file.resume();
      continue;
    }
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, next) {
        size += chunk.length;
        next(null, chunk);
      },
    });
    await pipeline(part.file, counter, createWriteStream(target, { flags: 'wx' }));
    received = { filename: part.filename ?? '', size, truncated: part.file.truncated };
  }
  return received;
}

const AttemptH5pParams = z.object({
  id: z.coerce.number().int().positive(),
  h5pId: z.coerce.number().int().positive(),
});

/** /api routes: uploads (authors) and launch data (authors and the attempt's owner). HTTP only. */
export async function packageApiRoutes(app: App) {
  const tags = ['packages'];
  app.post('/content/:id/package', { schema: { tags, params: ContentIdParams } }, async (r, reply) =>
    reply
      .status(201)
      .send(
        ok(
          await uploadScormPackage(r.ctx, r.params.id, (file, max) => receiveFile(r, file, max)),
          PackageMessages.scormUploaded,
        ),
      ),
  );
  app.get('/content/:id/package', { schema: { tags, params: ContentIdParams } }, async (r) =>
    ok(await contentPackage(r.ctx, r.params.id)),
  );
  app.post('/h5ps/:id/package', { schema: { tags, params: ContentIdParams } }, async (r, reply) =>
    reply
      .status(201)
      .send(
        ok(
          await uploadH5pPackage(r.ctx, r.params.id, (file, max) => receiveFile(r, file, max)),
          PackageMessages.h5pUploaded,
        ),
      ),
  );
  app.get('/h5ps/:id/package', { schema: { tags, params: ContentIdParams } }, async (r) =>
    ok(await h5pPackage(r.ctx, r.params.id)),
  );
  app.get('/attempts/:id/package', { schema: { tags, params: ContentIdParams } }, async (r) =>
    ok(await attemptScormPackage(r.ctx, r.params.id)),
  );
  app.get('/attempts/:id/h5ps/:h5pId/package', { schema: { tags, params: AttemptH5pParams } }, async (r) =>
    ok(await attemptH5pPackage(r.ctx, r.params.id, r.params.h5pId)),
  );
}

/** What a package may contain and be served as. Anything else is not served (404). */
export const PACKAGE_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.xsd': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.vtt': 'text/vtt; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.bmp': 'image/bmp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.eot': 'application/vnd.ms-fontobject',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.webm': 'video/webm',
  '.ogv': 'video/ogg',
  '.pdf': 'application/pdf',
};

/**
 * Package content runs its own scripts (SCORM calls window.parent.API), so it is same-origin and may script, but
 * it may only be framed by us, only load from us, and never be sniffed into another type.
 */
export const PACKAGE_CSP =
  "default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'";

/**
 * GET /packages/{uuid}/{path}: outside /api on purpose (issue 4 item 5: a separate path; /api never serves HTML).
 * Only files inside that package's folder (resolved, prefix-checked, regular files only), types from an allow-list,
 * for a logged-in caller who may see the content or H5P item; 404 for everyone and everything else.
 */
export async function packageFileRoutes(app: App) {
  app.get(
    '/packages/:uuid/*',
    {
      schema: {
        hide: true,
        params: z.object({ uuid: z.string().max(64), '*': z.string().max(1024) }),
      },
    },
    async (request, reply) => {
      const folder = path.resolve(await packageFolderFor(request.ctx, request.params.uuid));
      const relative = request.params['*'];
      // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
      if (!relative || /[\u0000-\u001f\\]/.test(relative)) throw notFound();
      const file = path.resolve(folder, relative);
      if (!file.startsWith(folder + path.sep)) throw notFound();
      const type = PACKAGE_TYPES[path.extname(file).toLowerCase()];
      if (!type) throw notFound();
      const stat = await lstat(file).catch(() => null);
      if (!stat?.isFile()) throw notFound();
      return reply
        .header('content-type', type)
        .header('content-length', stat.size)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', PACKAGE_CSP)
        .header('cross-origin-resource-policy', 'same-origin')
        .header('x-frame-options', 'SAMEORIGIN')
        .header('referrer-policy', 'same-origin')
        .header('cache-control', 'private, no-cache')
        .send(createReadStream(file));
    },
  );
}
