import { createReadStream, createWriteStream } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ContentIdParams } from '@cc/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Config } from '../config';
import type { App } from '../http/app-types';
import { ok } from '../http/envelope';
import { notFound } from '../http/errors';
import { parseRange } from '../http/range';
import type { Storage } from '../storage/storage';
import { WEB_DIST } from '../web-dist';
import {
  attemptH5pPackage,
  attemptScormPackage,
  contentPackage,
  h5pPackage,
  launchFolderFor,
  PACKAGE_RUNTIME_PATH,
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
 * Issue 11 finding 1: package content is untrusted code. Every package file (and the player runtime beside it) is
 * served as a sandboxed document: without allow-same-origin it runs in an opaque origin, so it can read none of the
 * app's cookies or storage, its requests carry no session, and it cannot script the app page that frames it. With
 * PACKAGE_ORIGIN configured it runs in that origin instead (allow-same-origin then means the package origin, never
 * the app's: config.ts refuses the app's own origin), so a package whose frames script each other keeps working.
 * Dialogs are allowed (allow-modals). allow-top-navigation is never given: a package cannot navigate the app away.
 *
 * No frame-ancestors (and no X-Frame-Options): the web app and the mobile shell (capacitor://localhost,
 * https://localhost, issue 19) both frame these files, and a package's own frames nest below an opaque sandboxed
 * origin that no frame-ancestors source can name, so a list would break multi-frame packages. Framing grants
 * nothing: the signed token in the path is the capability, and the sandbox keeps the framed code from the framer.
 */
export function packageCsp(config: Pick<Config, 'packageOrigin'>): string {
  // allow-modals: packages ask with alert / confirm (the golf examples' "resume where you left off?", issue 28).
  return `sandbox allow-scripts allow-forms allow-popups allow-modals${config.packageOrigin ? ' allow-same-origin' : ''}`;
}

/**
 * The headers of every /packages response: the sandbox; nosniff; readable from the sandbox's origin (opaque or the
 * package origin) by fetch / XHR and fonts, which is safe because the path's launch token, not a cookie, is the
 * credential; and no Referer, so the token does not leave with a package's link to another site.
 */
function packageHeaders(reply: FastifyReply, config: Config, type: string, size: number) {
  return reply
    .header('content-type', type)
    .header('content-length', size)
    .header('accept-ranges', 'bytes')
    .header('content-security-policy', packageCsp(config))
    .header('x-content-type-options', 'nosniff')
    .header('access-control-allow-origin', '*')
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'private, no-cache');
}

/** With a package origin, package files are served only there: the same file on the app's host would be same-origin. */
function onPackageHost(request: FastifyRequest, config: Config): boolean {
  if (!config.packageOrigin) return true;
  return request.host.toLowerCase() === new URL(config.packageOrigin).host;
}

/** The file `relative` inside the local `folder` (the player runtime), or null: resolved, prefix-checked, a regular
 * file, a type we serve. */
async function fileInside(folder: string, relative: string) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (!relative || /[\u0000-\u001f\\]/.test(relative)) return null;
  const root = path.resolve(folder);
  const file = path.resolve(root, relative);
  if (!file.startsWith(root + path.sep)) return null;
  const type = PACKAGE_TYPES[path.extname(file).toLowerCase()];
  if (!type) return null;
  const stat = await lstat(file).catch(() => null);
  if (!stat?.isFile()) return null;
  return { file, type, size: stat.size };
}

/**
 * The store key of `relative` inside the package folder `prefix`, and the type it is served as; null for a path that
 * leaves the folder (resolved like a file path, then prefix-checked), holds control characters or backslashes, or
 * has a type we do not serve.
 */
function packageKey(prefix: string, relative: string) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (!relative || /[\u0000-\u001f\\]/.test(relative)) return null;
  const resolved = path.posix.resolve('/root', relative);
  if (!resolved.startsWith('/root/')) return null;
  const type = PACKAGE_TYPES[path.posix.extname(resolved).toLowerCase()];
  if (!type) return null;
  return { key: prefix + resolved.slice('/root/'.length), type };
}

/**
 * Streams a package file from the store (never whole in memory), honouring one `Range: bytes=…` (media seeking):
 * 206 with the part, 416 for a range past the end.
 */
async function sendPackageFile(
  reply: FastifyReply,
  config: Config,
  storage: Storage,
  file: { key: string; type: string },
  rangeHeader: string | undefined,
) {
  if (rangeHeader) {
    const found = await storage.head(file.key);
    if (!found) throw notFound();
    const range = parseRange(rangeHeader, found.size);
    if (range === 'unsatisfiable')
      return packageHeaders(reply, config, file.type, 0)
        .status(416)
        .header('content-range', `bytes */${found.size}`)
        .send();
    if (range) {
      const part = await storage.read(file.key, range);
      if (!part) throw notFound();
      return packageHeaders(reply, config, file.type, part.size)
        .status(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${found.size}`)
        .send(part.body);
    }
  }
  const whole = await storage.read(file.key);
  if (!whole) throw notFound();
  return packageHeaders(reply, config, file.type, whole.size).send(whole.body);
}

/** A small file of a stream, whole (a SCORM page, to put the bridge in). */
async function bufferOf(body: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The frame side of the SCORM bridge (web/public/package-runtime/scorm-frame.js), first thing in a SCORM page. */
export const SCORM_BRIDGE_TAG = `<script src="${PACKAGE_RUNTIME_PATH}/scorm-frame.js"></script>`;

/**
 * A SCORM page with the bridge script put in before any of its own: after <head>, else after <html>, else after the
 * doctype, else at the start. The bridge gives the page window.API / window.API_1484_11 (a SCO looks on its own
 * window first), answering from values the player seeded and passing each call to the player by postMessage.
 */
export function withScormBridge(html: string): string {
  for (const tag of [/<head(\s[^>]*)?>/i, /<html(\s[^>]*)?>/i, /<!doctype[^>]*>/i]) {
    const match = tag.exec(html);
    if (match) {
      const at = match.index + match[0].length;
      return `${html.slice(0, at)}${SCORM_BRIDGE_TAG}${html.slice(at)}`;
    }
  }
  return SCORM_BRIDGE_TAG + html;
}

const TokenParams = z.object({
  token: z.string().max(128),
  uuid: z.string().max(64),
  '*': z.string().max(1024),
});

/**
 * GET /packages/{token}/{uuid}/{path}: outside /api on purpose (issue 4 item 5: a separate path; /api never serves
 * HTML). Authorized by the signed launch token alone (launch.ts; the session is not consulted, it is not sent from
 * the sandbox). Only files inside that package's folder (resolved, prefix-checked, regular files only), types from an
 * allow-list; 404 for everyone and everything else. SCORM HTML gets the bridge script (withScormBridge).
 *
 * GET /packages/runtime/{path}: the trusted player runtime the sandbox loads (the SCORM bridge, the H5P player page
 * and h5p-standalone), from the built web app, under the same headers: it runs in the sandbox too.
 */
export async function packageFileRoutes(app: App) {
  app.get(
    `${PACKAGE_RUNTIME_PATH}/*`,
    {
      config: { ownsSecurityHeaders: true },
      schema: { hide: true, params: z.object({ '*': z.string().max(1024) }) },
    },
    async (request, reply) => {
      const config = request.ctx.config;
      if (!onPackageHost(request, config)) throw notFound();
      const relative = request.params['*'];
      // h5p-standalone keeps its vendored folder (web/public/h5p-player); the rest is web/public/package-runtime.
      const found = relative.startsWith('h5p-player/')
        ? await fileInside(WEB_DIST, relative)
        : await fileInside(path.join(WEB_DIST, 'package-runtime'), relative);
      if (!found) throw notFound();
      return packageHeaders(reply, config, found.type, found.size).send(createReadStream(found.file));
    },
  );
  app.get(
    '/packages/:token/:uuid/*',
    { config: { ownsSecurityHeaders: true }, schema: { hide: true, params: TokenParams } },
    async (request, reply) => {
      const { ctx } = request;
      if (!onPackageHost(request, ctx.config)) throw notFound();
      const { prefix, kind } = await launchFolderFor(ctx, request.params.token, request.params.uuid);
      const file = packageKey(prefix, request.params['*']);
      if (!file) throw notFound();
      if (kind === 'scorm' && file.type.startsWith('text/html')) {
        const page = await ctx.storage.read(file.key);
        if (!page) throw notFound();
        // latin1 maps bytes one to one: the page's own bytes pass unchanged whatever its encoding.
        const html = Buffer.from(withScormBridge((await bufferOf(page.body)).toString('latin1')), 'latin1');
        return packageHeaders(reply, ctx.config, file.type, html.length).send(html);
      }
      return sendPackageFile(reply, ctx.config, ctx.storage, file, request.headers.range);
    },
  );
}
