import { ContentPerm, MAX_IMAGE_BYTES } from '@cc/contracts';
import { assertCanChange, ownerForNew, visibility } from '../courses/visibility';
import { authorize, type Ctx } from '../http/context';
import { invalidField, notFound } from '../http/errors';
import { detectImage, safeFilename } from '../whitelabel/images';
import { deleteImageFile, findImageFile, insertImageFile } from './queries';

/**
 * POST /content/images and /content/images/delete (spec 2 §7). The upload is identified by its bytes (the white-label
 * module's detector: raster formats only, never SVG), stored through ctx.storage and recorded as a `files` row with
 * purpose content_image owned by the author's entity. Served at /api/files/{uuid}.
 */
export interface ImageUpload {
  filename: string;
  bytes: Buffer;
  truncated: boolean;
}

const CAN_UPLOAD = [ContentPerm.addContent, ContentPerm.editContent];

/** Permission first, then the upload is read (an unauthorised caller's bytes are never buffered). */
export async function uploadContentImage(ctx: Ctx, read: () => Promise<ImageUpload | null>) {
  authorize(ctx, [ContentPerm.contentCreator]);
  authorize(ctx, CAN_UPLOAD, 'any');
  const upload = await read();
  if (!upload || (upload.bytes.length === 0 && !upload.filename))
    throw invalidField('image', 'The image field is required.');
  if (upload.truncated || upload.bytes.length > MAX_IMAGE_BYTES)
    throw invalidField('image', `The image may not be greater than ${MAX_IMAGE_BYTES / 1024} kilobytes.`);
  const kind = detectImage(upload.bytes);
  if (!kind) throw invalidField('image', 'The image must be an image of type: png, jpg, gif, webp, ico.');
  const entityId = await ownerForNew(ctx, false);
  const key = await ctx.storage.put('content', upload.bytes, kind.ext);
  try {
    const file = await insertImageFile(ctx.db, {
      entity_id: entityId,
      storage_key: key,
      original_name: safeFilename(upload.filename, kind.ext),
      mime_type: kind.mime,
      size_bytes: upload.bytes.length,
    });
    return { id: file.id, url: `/api/files/${file.uuid}` };
  } catch (error) {
    await ctx.storage.remove(key).catch(() => undefined);
    throw error;
  }
}

export async function deleteContentImage(ctx: Ctx, id: number): Promise<void> {
  const v = await visibility(ctx);
  const file = await findImageFile(ctx.db, id, v.entityIds);
  if (!file) throw notFound();
  authorize(ctx, [ContentPerm.contentCreator, ContentPerm.editContent]);
  await assertCanChange(ctx, file.entity_id);
  await deleteImageFile(ctx.db, id);
  // After the row is gone (no reader can reach the key any more); a failure only leaves an orphan on disk.
  await ctx.storage
    .remove(file.storage_key)
    .catch((err) => ctx.log.warn({ err }, 'could not remove content image'));
}
