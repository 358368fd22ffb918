import { EntityRefParams, Messages, WhitelabelQuery } from '@cc/contracts';
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/app-types';
import { ok } from '../http/envelope';
import { assertCleanInput } from '../http/input-guard';
import { getWhitelabel, type UploadedFile, updateWhitelabel, type WhitelabelInput } from './service';

/**
 * Reads the settings form: multipart fields and files (spec 2 §7 "multipart, method override to patch"), or a
 * JSON body when no file is sent. Files are buffered up to the limit; a bigger one is marked truncated so the
 * service can answer a field error instead of a bare 413.
 */
async function readForm(request: FastifyRequest): Promise<WhitelabelInput> {
  if (!request.isMultipart()) {
    const body = request.body;
    return { fields: body && typeof body === 'object' ? (body as Record<string, unknown>) : {}, files: [] };
  }
  const fields: Record<string, unknown> = {};
  const files: UploadedFile[] = [];
  // The option is honoured at runtime but missing from parts()'s type declaration.
  const options = { throwFileSizeLimit: false } as Parameters<FastifyRequest['parts']>[0];
  for await (const part of request.parts(options)) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      files.push({
        field: part.fieldname,
        filename: part.filename ?? '',
        bytes,
        truncated: part.file.truncated,
      });
    } else {
      fields[part.fieldname] = part.value;
    }
  }
  assertCleanInput(fields); // multipart text fields skip the JSON body guard (http/input-guard.ts)
  return { fields, files };
}

export async function whitelabelRoutes(app: App) {
  // Public (spec 2 §7): the login page asks before anyone has signed in.
  app.get(
    '/whitelabel',
    {
      config: { auth: false, readCache: true },
      schema: { tags: ['whitelabel'], querystring: WhitelabelQuery },
    },
    async (request) => ok(await getWhitelabel(request.ctx, { ...request.query, host: request.host })),
  );

  // POST with `_method=PATCH` is what the client sends; a real PATCH is accepted on the same path.
  for (const method of ['POST', 'PATCH'] as const) {
    app.route({
      method,
      url: '/entities/:id/whitelabel',
      schema: { tags: ['whitelabel'], params: EntityRefParams },
      handler: async (request) => {
        const data = await updateWhitelabel(request.ctx, request.params.id, () => readForm(request));
        return ok(data, Messages.whitelabelUpdated);
      },
    });
  }
}
