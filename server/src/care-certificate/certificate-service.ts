import {
  type AssignBody,
  CARE_CERTIFICATE_VIEW_PERMS,
  type CareCertificatesQuery,
  type CertificateSummary,
  type CertificateView,
  CareCertificateMessages as M,
  CareCertificatePerm as P,
} from '@cc/contracts';
import { sql } from 'kysely';
import { londonDate } from '../bookings/session-service';
import { actorOf, authorize, type Ctx } from '../http/context';
import { conflict, invalidField } from '../http/errors';
import type { DbOrTrx } from '../jobs/queries';
import { listCertificateIds, summariesOf } from './queries';
import { certificateFor, personInScope, requireOn, scopedEntityIds } from './scope';
import { appliedSettingsOf } from './settings';
import { certificateView, viewOf } from './view';

/** Assigning, listing, viewing and withdrawing certificates (issue 16; contracts care-certificate.ts). */

const isUnique = (e: unknown) => (e as { code?: string } | null)?.code === '23505';

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * POST /care-certificates (86): a person in scope (404 otherwise), a version that exists (422), started today in
 * Europe/London unless given, expected by the start plus the person's organisation's expected weeks. The standard
 * states are made in the same transaction; the unique index answers a second live assignment (even a concurrent
 * one) with 409.
 */
export async function assignCertificate(ctx: Ctx, body: AssignBody): Promise<CertificateView> {
  const actor = authorize(ctx, [P.assign]);
  const person = await personInScope(ctx, body.user_id);
  let uuid: string;
  try {
    uuid = await ctx.db.transaction().execute(async (trx) => {
      const cert = await insertCertificate(trx, {
        userId: person.id,
        entityId: person.primary_entity_id,
        versionId: body.version_id,
        startedOn: body.started_on ?? londonDate(ctx.clock()),
        assignedBy: actor.userId,
      });
      if (!cert) throw invalidField('version_id', 'Choose a version.');
      return cert.uuid;
    });
  } catch (e) {
    if (isUnique(e)) throw conflict(M.alreadyAssigned);
    throw e;
  }
  return certificateView(ctx, uuid);
}

/**
 * The certificate row and its standard states, inside the caller's transaction (assignCertificate above, and a
 * sign-up link that assigns one: signup-links/). Undefined when the version does not exist; a second live
 * assignment is the unique index's error, for the caller to answer.
 */
export async function insertCertificate(
  trx: DbOrTrx,
  o: { userId: number; entityId: number; versionId: number; startedOn: string; assignedBy: number | null },
): Promise<{ id: number; uuid: string } | undefined> {
  const settings = await appliedSettingsOf(trx, o.entityId);
  // A share lock on the version: a standard added meanwhile waits, then adds its state to this certificate.
  const version = await trx
    .selectFrom('care_certificate_versions')
    .select('id')
    .where('id', '=', o.versionId)
    .forShare()
    .executeTakeFirst();
  if (!version) return undefined;
  const cert = await trx
    .insertInto('care_certificates')
    .values({
      user_id: o.userId,
      version_id: version.id,
      started_on: o.startedOn,
      expected_by: addDays(o.startedOn, settings.expected_weeks * 7),
      assigned_by: o.assignedBy,
    })
    .returning(['id', 'uuid'])
    .executeTakeFirstOrThrow();
  await sql`INSERT INTO care_certificate_standard_states (certificate_id, standard_id)
    SELECT ${cert.id}, id FROM care_certificate_standards WHERE version_id = ${version.id}`.execute(trx);
  return cert;
}

/** GET /care-certificates: certificates of people in scope (any view permission), newest first. */
export async function listCertificates(
  ctx: Ctx,
  q: CareCertificatesQuery,
): Promise<{ data: CertificateSummary[]; total: number }> {
  authorize(ctx, CARE_CERTIFICATE_VIEW_PERMS, 'any');
  const { ids, total } = await listCertificateIds(
    ctx.db,
    {
      entityIds: await scopedEntityIds(ctx),
      userId: q.user_id,
      versionId: q.version_id,
      status: q.status,
      historical: q.historical,
      awaitingApproval: q.awaiting_approval,
      overdue: q.overdue,
      search: q.search || undefined,
      today: londonDate(ctx.clock()),
    },
    { page: q.page, perPage: q.per_page },
  );
  return { data: await summariesOf(ctx.db, ids, ctx.clock()), total };
}

/** GET /care-certificates/mine: the caller's own, newest first. */
export async function myCertificates(ctx: Ctx): Promise<CertificateSummary[]> {
  const actor = actorOf(ctx);
  const rows = await ctx.db
    .selectFrom('care_certificates')
    .select('id')
    .where('user_id', '=', actor.userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return summariesOf(
    ctx.db,
    rows.map((r) => r.id),
    ctx.clock(),
  );
}

export async function getCertificate(ctx: Ctx, uuid: string): Promise<CertificateView> {
  const cert = await certificateFor(ctx, uuid);
  return viewOf(ctx, cert);
}

/**
 * DELETE /care-certificates/{uuid} (86): only while nothing has been recorded on it (409 hasEvidence). The row is
 * locked first, so evidence added at the same moment (which locks it too) either lands first (409) or not at all.
 */
export async function withdrawCertificate(ctx: Ctx, uuid: string): Promise<void> {
  const cert = await certificateFor(ctx, uuid);
  requireOn(ctx, cert, [P.assign]);
  await ctx.db.transaction().execute(async (trx) => {
    const locked = await certificateFor(ctx, uuid, { db: trx, forUpdate: true });
    const any = await trx
      .selectFrom('care_certificate_evidence')
      .select('id')
      .where('certificate_id', '=', locked.id)
      .union(
        trx.selectFrom('care_certificate_observations').select('id').where('certificate_id', '=', locked.id),
      )
      .union(
        trx.selectFrom('care_certificate_decisions').select('id').where('certificate_id', '=', locked.id),
      )
      .limit(1)
      .executeTakeFirst();
    if (any) throw conflict(M.hasEvidence);
    await trx.deleteFrom('care_certificates').where('id', '=', locked.id).execute();
  });
}
