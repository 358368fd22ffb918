import {
  type DateFormat,
  DEFAULT_DATE_FORMAT,
  MAX_IMAGE_BYTES,
  Perm,
  WHITELABEL_FILE_FIELDS,
  type Whitelabel,
  WhitelabelBody,
  type WhitelabelFileField,
} from '@cc/contracts';
import { findEntityByRef } from '../entities/queries';
import { assertEntityInScope, entityScope } from '../entities/scope';
import type { Ctx } from '../http/context';
import { actorOf, authorize } from '../http/context';
import { type FieldErrors, fieldErrorsFromZod, invalid, notFound } from '../http/errors';
import { detectImage, type ImageKind, SERVABLE_IMAGE_TYPES, safeFilename } from './images';
import {
  deleteEntityFiles,
  findBrandingById,
  findBrandingBySlug,
  findBrandingBySubdomain,
  findDateFormats,
  findPublicFile,
  insertFile,
  lockBranding,
  saveBranding,
} from './queries';
import {
  applyForm,
  FILE_PURPOSE,
  REMOVE_FLAG,
  readStored,
  resolveWhitelabel,
  type StoredWhitelabel,
  subdomainFromHost,
} from './settings';

type BrandingRow = NonNullable<Awaited<ReturnType<typeof findBrandingById>>>;

/** Own settings over the level A parent's (a level B entity inherits what it does not set). */
async function resolveFor(
  ctx: Pick<Ctx, 'db'>,
  row: BrandingRow,
  own?: StoredWhitelabel,
): Promise<Whitelabel> {
  const layers: StoredWhitelabel[] = [];
  if (row.level === 'B' && row.parent_id !== null) {
    const parent = await findBrandingById(ctx.db, row.parent_id);
    if (parent?.level === 'A') layers.push(withDateFormat(readStored(parent.whitelabel), parent.date_format));
  }
  layers.push(withDateFormat(own ?? readStored(row.whitelabel), row.date_format));
  return resolveWhitelabel(row, layers);
}

const withDateFormat = (layer: StoredWhitelabel, format: DateFormat | null): StoredWhitelabel =>
  format ? { ...layer, dateFormat: format } : layer;

/** The date format of the organisation in view (the acting-as entity, else the caller's own). */
export async function dateFormatOfScope(ctx: Ctx): Promise<DateFormat> {
  return dateFormatOf(ctx, (await entityScope(ctx)).baseId);
}

/**
 * The date format an entity's exports use (PDF, XLSX, e-mails): its own, else its level A parent's, else
 * DD/MM/YYYY. Pass the result to formatDate / formatDateTime from '@cc/contracts'.
 */
export async function dateFormatOf(ctx: Pick<Ctx, 'db'>, entityId: number): Promise<DateFormat> {
  const row = await findDateFormats(ctx.db, entityId);
  return row?.own ?? (row?.level === 'B' ? row.parent : null) ?? DEFAULT_DATE_FORMAT;
}

/** The effective white-label of an entity (used by GET /entities/{id}). */
export async function whitelabelOfEntity(ctx: Pick<Ctx, 'db'>, entityId: number): Promise<Whitelabel> {
  const row = await findBrandingById(ctx.db, entityId);
  if (!row) throw notFound();
  return resolveFor(ctx, row);
}

/**
 * GET /whitelabel (spec 2 §7 "by subdomain or slug"): public, the login page calls it before anyone signs in.
 * Without either parameter the Host header's first label is the sub-domain. Unknown names answer the defaults
 * with `entity: null`, the same 200 as a known entity without settings, so the route tells nothing more.
 */
export async function getWhitelabel(
  ctx: Pick<Ctx, 'db'>,
  q: { subdomain?: string; slug?: string; host?: string },
): Promise<Whitelabel> {
  const slug = q.slug?.trim().toLowerCase();
  const subdomain = q.subdomain?.trim().toLowerCase() || (slug ? null : subdomainFromHost(q.host));
  const row = slug
    ? await findBrandingBySlug(ctx.db, slug)
    : subdomain
      ? await findBrandingBySubdomain(ctx.db, subdomain)
      : undefined;
  if (!row) return resolveWhitelabel(null, []);
  return resolveFor(ctx, row);
}

export interface UploadedFile {
  field: string;
  filename: string;
  bytes: Buffer;
  /** True when the upload went past the size limit and was cut off while streaming. */
  truncated: boolean;
}
export interface WhitelabelInput {
  fields: Record<string, unknown>;
  files: UploadedFile[];
}

const FILE_LABEL: Record<WhitelabelFileField, string> = {
  logo: 'logo',
  loginLogo: 'login logo',
  favicon: 'favicon',
};
const isFileField = (f: string): f is WhitelabelFileField =>
  (WHITELABEL_FILE_FIELDS as readonly string[]).includes(f);

interface AcceptedFile {
  field: WhitelabelFileField;
  filename: string;
  bytes: Buffer;
  kind: ImageKind;
}

/** Validates form fields and uploads together so the client gets every field error at once. */
function validateInput(input: WhitelabelInput): { form: WhitelabelBody; files: AcceptedFile[] } {
  const errors: FieldErrors = {};
  const parsed = WhitelabelBody.safeParse(input.fields);
  if (!parsed.success) Object.assign(errors, fieldErrorsFromZod(parsed.error));
  const method = parsed.success ? parsed.data._method : undefined;
  // spec 2 §7: POST with a method override to PATCH; no other override means anything here.
  if (method !== undefined && method.toUpperCase() !== 'PATCH')
    errors._method = ['The method must be PATCH.'];

  const files: AcceptedFile[] = [];
  for (const file of input.files) {
    if (!isFileField(file.field)) continue; // unknown upload fields are ignored (already drained)
    // A browser sends an empty part for a file input left blank: that is "no new file".
    if (!file.truncated && file.bytes.length === 0 && !file.filename) continue;
    const label = FILE_LABEL[file.field];
    if (file.truncated || file.bytes.length > MAX_IMAGE_BYTES) {
      errors[file.field] = [`The ${label} may not be greater than ${MAX_IMAGE_BYTES / 1024} kilobytes.`];
      continue;
    }
    const kind = detectImage(file.bytes);
    if (!kind) {
      errors[file.field] = [`The ${label} must be an image of type: png, jpg, gif, webp, ico.`];
      continue;
    }
    files.push({ field: file.field, filename: file.filename, bytes: file.bytes, kind });
  }
  if (Object.keys(errors).length) throw invalid(errors);
  return { form: (parsed.success ? parsed.data : {}) as WhitelabelBody, files };
}

/**
 * POST|PATCH /entities/{slug}/whitelabel (spec 2 §7, permission 20). The entity is found within the caller's
 * scope first (404), then the permission (403), and only then is the upload read, so an outsider's bytes are
 * never buffered. Files are written to storage before the transaction (slow I/O stays outside it); the rows and
 * settings change in one transaction; replaced files are removed from storage after it commits.
 */
export async function updateWhitelabel(
  ctx: Ctx,
  ref: string,
  input: WhitelabelInput | (() => Promise<WhitelabelInput>),
): Promise<Whitelabel> {
  actorOf(ctx);
  const entity = await findEntityByRef(ctx.db, ref);
  if (!entity) throw notFound();
  await assertEntityInScope(ctx, entity.id);
  authorize(ctx, [Perm.whiteLabel]);

  const { form, files } = validateInput(typeof input === 'function' ? await input() : input);

  const stored = await Promise.all(
    files.map(async (f) => ({ ...f, key: await ctx.storage.put('whitelabel', f.bytes, f.kind.ext) })),
  );
  let replacedKeys: string[] = [];
  let result: Whitelabel;
  try {
    result = await ctx.db.transaction().execute(async (trx) => {
      const row = await lockBranding(trx, entity.id);
      const before = readStored(row.whitelabel);
      const next = applyForm(before, form);
      // '' clears the organisation's own choice (it follows its parent again); undefined leaves it.
      const dateFormat = form.dateFormat === undefined ? undefined : form.dateFormat || null;
      const rowAfter = dateFormat === undefined ? row : { ...row, date_format: dateFormat };
      const replaced: string[] = [];
      for (const field of WHITELABEL_FILE_FIELDS) {
        const upload = stored.find((f) => f.field === field);
        const old = before[field];
        if (upload) {
          const file = await insertFile(trx, {
            entity_id: entity.id,
            purpose: FILE_PURPOSE[field],
            storage_key: upload.key,
            original_name: safeFilename(upload.filename, upload.kind.ext),
            mime_type: upload.kind.mime,
            size_bytes: upload.bytes.length,
          });
          next[field] = file.uuid;
          if (old) replaced.push(old);
        } else if (form[REMOVE_FLAG[field]] === '1') {
          delete next[field];
          if (old) replaced.push(old);
        }
      }
      const resolved = await resolveFor({ db: trx }, rowAfter, next);
      if (resolved.amberScoreBandLowerMargin >= resolved.greenScoreBandLowerMargin) {
        throw invalid({ amberScoreBandLowerMargin: ['The amber margin must be below the green margin.'] });
      }
      await saveBranding(trx, entity.id, next, ctx.clock(), dateFormat);
      replacedKeys = await deleteEntityFiles(trx, entity.id, replaced);
      return resolved;
    });
  } catch (error) {
    // Nothing refers to the new files: remove them so a failed save leaves no orphans.
    await Promise.allSettled(stored.map((f) => ctx.storage.remove(f.key)));
    throw error;
  }
  for (const key of replacedKeys) {
    await ctx.storage
      .remove(key)
      .catch((err) => ctx.log.warn({ err, key }, 'could not remove replaced file'));
  }
  return result;
}

/**
 * Purposes served to anyone who has the link: white-label images appear on the login page before sign-in, and
 * content images are embedded in lessons that the mobile shell renders without a cookie. The uuid is the secret;
 * private uploads (evidence, documents) use other purposes and are never served here.
 */
export const PUBLIC_FILE_PURPOSES = ['logo', 'login_logo', 'favicon', 'content_image'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GET /api/files/{uuid}: a public image (above); anything else (or nothing) is 404. */
export async function readPublicFile(ctx: Pick<Ctx, 'db' | 'storage'>, uuid: string) {
  if (!UUID.test(uuid)) throw notFound();
  const file = await findPublicFile(ctx.db, uuid.toLowerCase(), PUBLIC_FILE_PURPOSES);
  if (!file) throw notFound();
  const bytes = await ctx.storage.get(file.storage_key);
  if (!bytes) throw notFound();
  const ext = file.storage_key.split('.').pop() ?? 'bin';
  return {
    bytes,
    mimeType: SERVABLE_IMAGE_TYPES.has(file.mime_type) ? file.mime_type : 'application/octet-stream',
    filename: safeFilename(file.original_name, ext),
  };
}
