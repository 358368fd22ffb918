import { MAX_IMAGE_BYTES, WHITELABEL_FILE_FIELDS } from '@cc/contracts';
import { actorOf } from '../http/context';
import { invalidField } from '../http/errors';
import { type UploadedFile, updateWhitelabel } from '../whitelabel/service';
import { builder, type UploadedBlob } from './builder';

/** A GraphQL upload as the white-label service's UploadedFile; a file over the limit is not read at all. */
async function toUploadedFile(field: string, file: UploadedBlob): Promise<UploadedFile> {
  if (file.size > MAX_IMAGE_BYTES)
    return { field, filename: file.name, bytes: Buffer.alloc(0), truncated: true };
  return { field, filename: file.name, bytes: Buffer.from(await file.arrayBuffer()), truncated: false };
}

builder.mutationField('updateWhitelabel', (t) =>
  t.field({
    type: 'JSON',
    description:
      'POST /api/entities/{slug}/whitelabel over GraphQL: settings and images (multipart upload: operations + map). ' +
      'Returns the effective white-label settings.',
    args: {
      entity: t.arg.string({ required: true, description: 'The entity’s slug or id.' }),
      settings: t.arg({ type: 'JSON', description: 'The fields of the white-label form.' }),
      logo: t.arg({ type: 'Upload' }),
      loginLogo: t.arg({ type: 'Upload' }),
      favicon: t.arg({ type: 'Upload' }),
    },
    resolve: async (_root, args, ctx) => {
      actorOf(ctx);
      const settings = args.settings ?? {};
      if (typeof settings !== 'object' || Array.isArray(settings))
        throw invalidField('settings', 'The settings must be an object.');
      // Read lazily: the service checks scope and permission before it looks at the files.
      return updateWhitelabel(ctx, args.entity, async () => ({
        fields: settings as Record<string, unknown>,
        files: await Promise.all(
          WHITELABEL_FILE_FIELDS.flatMap((field) => {
            const file = args[field];
            return file ? [toUploadedFile(field, file)] : [];
          }),
        ),
      }));
    },
  }),
);
