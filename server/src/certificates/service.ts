import {
  type CertificateBranding,
  type CertificateBrandingBody,
  DEFAULT_CERTIFICATE_ACCENT,
  DEFAULT_CERTIFICATE_TITLE,
  LearningMessages,
  LearningPerm,
} from '@cc/contracts';
import type { z } from 'zod';
import { assertEntityInScope } from '../entities/scope';
import { ancestorIds } from '../entities/tree';
import { authorize, type Ctx, can } from '../http/context';
import { invalidField, notFound } from '../http/errors';
import { loadLearner } from '../learning/learner';
import { findCertificateResult } from '../results/queries';
import { type CertificateFacts, renderCertificate } from './pdf';
import { brandingAlong, findEntityBySlug, findImageFile, findOwnBranding, upsertBranding } from './queries';

const PDF_IMAGE_TYPES = new Set(['image/png', 'image/jpeg']);

/** DD-MM-YYYY in UTC (issue 4: completion date on the certificate and in the filename). */
export function ddmmyyyy(d: Date | string): string {
  const date = new Date(d);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}-${pad(date.getUTCMonth() + 1)}-${date.getUTCFullYear()}`;
}

const slugPart = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-')
    .slice(0, 60) || 'x';

/** certificate-<course>-<learner>-<DD-MM-YYYY>.pdf: a single download and each file of the certificate zip. */
export const certificateFileName = (r: {
  course_short_title: string | null;
  course_title: string;
  user_name: string;
  completed_at: Date | string;
}) =>
  `certificate-${slugPart(r.course_short_title || r.course_title)}-${slugPart(r.user_name)}-${ddmmyyyy(r.completed_at)}.pdf`;

function presentBranding(
  row: Awaited<ReturnType<typeof findOwnBranding>>,
): Omit<CertificateBranding, 'logo_url'> {
  return {
    title: row?.title || DEFAULT_CERTIFICATE_TITLE,
    signatory_name: row?.signatory_name ?? null,
    signatory_role: row?.signatory_role ?? null,
    accent_colour: row?.accent_colour || DEFAULT_CERTIFICATE_ACCENT,
    logo_file_id: row?.logo_file_id ?? null,
  };
}

/** /entities/{slug}/certificate-branding: white label (20) and the entity in scope (404). */
async function brandingEntity(ctx: Ctx, slug: string) {
  const entity = await findEntityBySlug(ctx.db, slug);
  if (!entity) throw notFound();
  await assertEntityInScope(ctx, entity.id);
  authorize(ctx, [LearningPerm.whiteLabel]);
  return entity;
}

/** The settings plus logo_url (/api/files/{uuid}, a public image) so the settings page can show the logo. */
async function presentWithLogo(ctx: Ctx, entityId: number): Promise<CertificateBranding> {
  const branding = presentBranding(await findOwnBranding(ctx.db, entityId));
  const file = branding.logo_file_id ? await findImageFile(ctx.db, { id: branding.logo_file_id }) : undefined;
  return { ...branding, logo_url: file ? `/api/files/${file.uuid}` : null };
}

/** GET /entities/{slug}/certificate-branding: the entity's own settings, defaults filled in. */
export async function getCertificateBranding(ctx: Ctx, slug: string) {
  const entity = await brandingEntity(ctx, slug);
  return presentWithLogo(ctx, entity.id);
}

/**
 * PATCH /entities/{slug}/certificate-branding. The logo must be a PNG or JPEG file of this entity or one of its
 * ancestors (for example its white-label logo), so one organisation cannot print another's files.
 */
export async function updateCertificateBranding(
  ctx: Ctx,
  slug: string,
  body: z.infer<typeof CertificateBrandingBody>,
) {
  const entity = await brandingEntity(ctx, slug);
  if (body.logo_file_id) {
    const file = await findImageFile(ctx.db, { id: body.logo_file_id });
    const owners = await ancestorIds(ctx.db, entity.id);
    if (
      !file ||
      file.entity_id === null ||
      !owners.includes(file.entity_id) ||
      !PDF_IMAGE_TYPES.has(file.mime_type)
    )
      throw invalidField('logo_file_id', LearningMessages.logoNotAvailable);
  }
  await ctx.db.transaction().execute((trx) => upsertBranding(trx, entity.id, body, ctx.clock()));
  return presentWithLogo(ctx, entity.id);
}

/** The branding a certificate uses: the nearest entity on the chain with a setting, field by field. */
async function effectiveBranding(ctx: Ctx, entityId: number) {
  const chain = await ancestorIds(ctx.db, entityId);
  const { branding, entities } = await brandingAlong(ctx.db, chain);
  const rows = chain.map((id) => branding.find((b) => b.entity_id === id)).filter((b) => b !== undefined);
  const first = <K extends 'title' | 'signatory_name' | 'signatory_role' | 'accent_colour' | 'logo_file_id'>(
    k: K,
  ) => rows.find((r) => r[k] !== null && r[k] !== '')?.[k] ?? null;
  let logo: Buffer | null = null;
  const logoFileId = first('logo_file_id');
  const whitelabelLogo = chain
    .map((id) => entities.find((e) => e.id === id)?.whitelabel as { logo?: unknown } | undefined)
    .map((w) => (typeof w?.logo === 'string' ? w.logo : null))
    .find((uuid) => uuid !== null);
  const file = logoFileId
    ? await findImageFile(ctx.db, { id: logoFileId })
    : whitelabelLogo
      ? await findImageFile(ctx.db, { uuid: whitelabelLogo })
      : undefined;
  if (file && PDF_IMAGE_TYPES.has(file.mime_type)) logo = await ctx.storage.get(file.storage_key);
  return {
    title: first('title') ?? DEFAULT_CERTIFICATE_TITLE,
    accentColour: first('accent_colour') ?? DEFAULT_CERTIFICATE_ACCENT,
    signatoryName: first('signatory_name'),
    signatoryRole: first('signatory_role'),
    organisationName: entities.find((e) => e.id === entityId)?.name ?? '',
    logo,
  };
}

/**
 * GET /users/{id}/training-certificate?course_id|result_id (spec 1 §7): a PDF of the latest passed result of the
 * course (or of the given result). Oneself needs 6 (own certificates), someone else 7 (user certificates) and the
 * user in scope. No passed result, or a suppressed certificate (results.certificate_suppressed) for anyone without
 * 124 (suppress certificate), answers 404. Branded by the entity the result was recorded under.
 */
export async function trainingCertificate(
  ctx: Ctx,
  ref: string,
  query: { course_id?: number; result_id?: number },
  opts: { compress?: boolean } = {},
) {
  const { actor, user, self } = await loadLearner(ctx, ref);
  authorize(ctx, [self ? LearningPerm.ownCertificates : LearningPerm.userCertificates]);
  const result = await findCertificateResult(ctx.db, {
    userId: user.id,
    courseId: query.course_id,
    resultId: query.result_id,
  });
  if (!result) throw notFound(LearningMessages.noCertificate);
  if (result.certificate_suppressed && (self || !can(actor, [LearningPerm.suppressCertificate])))
    throw notFound(LearningMessages.noCertificate);

  const branding = await effectiveBranding(ctx, result.entity_id);
  const completedOn = ddmmyyyy(result.completed_at);
  const facts: CertificateFacts = {
    ...branding,
    learnerName: result.user_name,
    courseTitle: result.course_title,
    completedOn,
    resultType: result.type,
    score: result.score === null ? null : Number(result.score),
    expiresOn: result.expires_at ? ddmmyyyy(result.expires_at) : null,
    cpdAccredited: result.cpd_accredited ?? false,
    reference: result.uuid,
  };
  return {
    filename: certificateFileName(result),
    stream: renderCertificate(facts, opts),
  };
}
