import { formatDate, CareCertificateMessages as M, CareCertificatePerm as P } from '@cc/contracts';
import { findImageFile } from '../certificates/queries';
import { ancestorIds } from '../entities/tree';
import type { Ctx } from '../http/context';
import { conflict } from '../http/errors';
import { dateFormatOf } from '../whitelabel/service';
import { type CareCertificateFacts, renderCareCertificate } from './pdf';
import { certificateFor, requireOn } from './scope';

const PDF_IMAGE_TYPES = new Set(['image/png', 'image/jpeg']);

const slugPart = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '-')
    .slice(0, 60) || 'x';

/**
 * The organisation's logo for the certificate: the white-label logo of the person's organisation or the nearest
 * one above it, else the certificate branding's logo along the same chain (PNG or JPEG only; none otherwise).
 */
async function logoOf(ctx: Ctx, entityId: number): Promise<Buffer | null> {
  const chain = await ancestorIds(ctx.db, entityId);
  const entities = await ctx.db
    .selectFrom('entities')
    .select(['id', 'whitelabel'])
    .where('id', 'in', chain)
    .execute();
  const whitelabelLogo = chain
    .map((id) => entities.find((e) => e.id === id)?.whitelabel as { logo?: unknown } | undefined)
    .map((w) => (typeof w?.logo === 'string' ? w.logo : null))
    .find((uuid) => uuid !== null);
  let file = whitelabelLogo ? await findImageFile(ctx.db, { uuid: whitelabelLogo }) : undefined;
  if (!file) {
    const branding = await ctx.db
      .selectFrom('certificate_branding')
      .select(['entity_id', 'logo_file_id'])
      .where('entity_id', 'in', chain)
      .where('logo_file_id', 'is not', null)
      .execute();
    const nearest = chain.map((id) => branding.find((b) => b.entity_id === id)).find((b) => b !== undefined);
    if (nearest?.logo_file_id) file = await findImageFile(ctx.db, { id: nearest.logo_file_id });
  }
  if (!file || !PDF_IMAGE_TYPES.has(file.mime_type)) return null;
  try {
    return await ctx.storage.get(file.storage_key);
  } catch {
    return null;
  }
}

/** The facts of a complete certificate (by id): what the PDF prints. */
export async function certificateFacts(ctx: Ctx, certificateId: number): Promise<CareCertificateFacts> {
  const cert = await ctx.db
    .selectFrom('care_certificates as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .innerJoin('care_certificate_versions as v', 'v.id', 'c.version_id')
    .select([
      'c.id',
      'c.uuid',
      'c.version_id',
      'c.completed_on',
      'c.provider',
      'c.assessor_name',
      'c.historical',
      'u.name as person_name',
      'e.id as entity_id',
      'e.name as entity_name',
      'v.title as version_title',
    ])
    .where('c.id', '=', certificateId)
    .executeTakeFirstOrThrow();
  const [standards, assessors, approvers, format, logo] = await Promise.all([
    ctx.db
      .selectFrom('care_certificate_standards')
      .select(['number', 'title'])
      .where('version_id', '=', cert.version_id)
      .orderBy('number')
      .execute(),
    ctx.db
      .selectFrom('care_certificate_observations as o')
      .select('o.assessor_name')
      .distinct()
      .where('o.certificate_id', '=', cert.id)
      .where('o.outcome', '=', 'competent')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('care_certificate_observations as n')
              .select('n.id')
              .whereRef('n.supersedes_id', '=', 'o.id'),
          ),
        ),
      )
      .orderBy('o.assessor_name')
      .execute(),
    ctx.db
      .selectFrom('care_certificate_standard_states as s')
      .innerJoin('users as u', 'u.id', 's.decided_by')
      .select('u.name')
      .distinct()
      .where('s.certificate_id', '=', cert.id)
      .where('s.state', '=', 'approved')
      .orderBy('u.name')
      .execute(),
    dateFormatOf(ctx, cert.entity_id),
    logoOf(ctx, cert.entity_id),
  ]);
  const assessorNames = assessors.map((a) => a.assessor_name);
  if (cert.assessor_name && !assessorNames.includes(cert.assessor_name))
    assessorNames.unshift(cert.assessor_name);
  return {
    personName: cert.person_name,
    versionTitle: cert.version_title,
    standards,
    completedOn: formatDate(cert.completed_on, format),
    assessors: assessorNames,
    // A historical certificate's standards were approved elsewhere: whoever recorded it here approved nothing.
    approvers: cert.historical ? [] : approvers.map((a) => a.name),
    provider: cert.historical ? cert.provider : null,
    organisationName: cert.entity_name,
    logo,
    reference: cert.uuid,
  };
}

/**
 * GET /care-certificates/{uuid}/pdf: the certificate's owner, or download (88) with the person in scope (404
 * otherwise, scope.ts); 409 notComplete until every standard is approved.
 */
export async function certificatePdf(ctx: Ctx, uuid: string, opts: { compress?: boolean } = {}) {
  const cert = await certificateFor(ctx, uuid);
  requireOn(ctx, cert, [P.download], { ownAllowed: true });
  if (cert.status !== 'complete') throw conflict(M.notComplete);
  const facts = await certificateFacts(ctx, cert.id);
  return {
    filename: `care-certificate-${slugPart(facts.personName)}-${cert.completed_on ?? ''}.pdf`,
    stream: renderCareCertificate(facts, opts),
  };
}
