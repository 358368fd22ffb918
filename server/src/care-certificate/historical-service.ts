import {
  type CertificateSummary,
  type CertificateView,
  type HistoricalBody,
  type HistoricalUpdate,
  CareCertificateMessages as M,
  CareCertificatePerm as P,
} from '@cc/contracts';
import { sql } from 'kysely';
import { londonDate } from '../bookings/session-service';
import { entityScope } from '../entities/scope';
import { actorOf, authorize, type Ctx } from '../http/context';
import { conflict, type FieldErrors, invalid, invalidField } from '../http/errors';
import type { Trx } from '../results/queries';
import { summariesOf } from './queries';
import { certificateFor, personInScope, requireOn, scopedEntityIds } from './scope';
import { certificateView } from './view';

/**
 * Historical care certificates (92; contracts care-certificate.ts "Historical certificates"): a certificate completed
 * elsewhere, recorded as a care_certificates row with historical = true, status complete, and every standard of its
 * version approved as of completed_on (decided by whoever recorded it). People in the actor's scope only
 * (scope.ts). Evidence files go through the core's POST /care-certificates/{uuid}/evidence.
 */
export const HistoricalErrors = {
  startAfterCompletion: 'The start cannot be after the completion.',
  future: 'Enter a date that is not in the future.',
  version: 'Choose a version.',
} as const;

const decidedAt = (day: string) => new Date(`${day}T12:00:00Z`);

async function transaction<T>(ctx: Ctx, work: (trx: Trx) => Promise<T>): Promise<T> {
  await entityScope(ctx);
  return ctx.db.transaction().execute(work);
}

function checkDates(ctx: Ctx, started: string, completed: string) {
  const errors: FieldErrors = {};
  if (completed > londonDate(ctx.clock())) errors.completed_on = [HistoricalErrors.future];
  if (started > completed) errors.started_on = [HistoricalErrors.startAfterCompletion];
  if (Object.keys(errors).length) throw invalid(errors);
}

async function assertVersion(db: Ctx['db'] | Trx, versionId: number) {
  const v = await db
    .selectFrom('care_certificate_versions')
    .select('id')
    .where('id', '=', versionId)
    .executeTakeFirst();
  if (!v) throw invalidField('version_id', HistoricalErrors.version);
}

/** Every standard of the version approved as of the completion day. */
async function approveAll(
  trx: Trx,
  certificateId: number,
  versionId: number,
  completedOn: string,
  by: number,
) {
  await trx
    .deleteFrom('care_certificate_standard_states')
    .where('certificate_id', '=', certificateId)
    .execute();
  await sql`
    INSERT INTO care_certificate_standard_states (certificate_id, standard_id, state, decided_at, decided_by)
    SELECT ${certificateId}, s.id, 'approved', ${decidedAt(completedOn)}, ${by}
      FROM care_certificate_standards s WHERE s.version_id = ${versionId}`.execute(trx);
}

/** POST /historical-care-certificates. */
export async function createHistorical(ctx: Ctx, body: HistoricalBody): Promise<CertificateView> {
  const actor = authorize(ctx, [P.historical]);
  await personInScope(ctx, body.user_id);
  await assertVersion(ctx.db, body.version_id);
  const started = body.started_on ?? body.completed_on;
  checkDates(ctx, started, body.completed_on);
  const now = ctx.clock();
  const uuid = await transaction(ctx, async (trx) => {
    const row = await trx
      .insertInto('care_certificates')
      .values({
        user_id: body.user_id,
        version_id: body.version_id,
        historical: true,
        status: 'complete',
        started_on: started,
        expected_by: null,
        completed_on: body.completed_on,
        provider: body.provider,
        assessor_name: body.assessor_name,
        notes: body.notes,
        assigned_by: actor.userId,
        created_at: now,
        updated_at: now,
      })
      .returning(['id', 'uuid'])
      .executeTakeFirstOrThrow();
    await approveAll(trx, row.id, body.version_id, body.completed_on, actor.userId);
    return row.uuid;
  });
  return certificateView(ctx, uuid);
}

/** The historical certificate by uuid: 404 out of scope (scope.ts), 403 without 92, 409 when not historical. */
async function historicalFor(ctx: Ctx, uuid: string, o: { db?: Trx; forUpdate?: boolean } = {}) {
  const cert = await certificateFor(ctx, uuid, o);
  requireOn(ctx, cert, [P.historical]);
  if (!cert.historical) throw conflict(M.historicalOnly);
  return cert;
}

/** GET /historical-care-certificates/{uuid}. */
export async function getHistorical(ctx: Ctx, uuid: string): Promise<CertificateView> {
  await historicalFor(ctx, uuid);
  return certificateView(ctx, uuid);
}

/** PATCH /historical-care-certificates/{uuid}: only the fields sent. */
export async function patchHistorical(
  ctx: Ctx,
  uuid: string,
  body: HistoricalUpdate,
): Promise<CertificateView> {
  await historicalFor(ctx, uuid);
  const actor = actorOf(ctx);
  if (body.version_id !== undefined) await assertVersion(ctx.db, body.version_id);
  const now = ctx.clock();
  await transaction(ctx, async (trx) => {
    const cert = await historicalFor(ctx, uuid, { db: trx, forUpdate: true });
    const completed = body.completed_on ?? (cert.completed_on as string);
    const started = body.started_on === undefined ? cert.started_on : (body.started_on ?? completed);
    if (body.completed_on !== undefined || body.started_on !== undefined) checkDates(ctx, started, completed);
    const set: Record<string, unknown> = { updated_at: now };
    if (body.version_id !== undefined) set.version_id = body.version_id;
    if (body.completed_on !== undefined) set.completed_on = body.completed_on;
    if (body.started_on !== undefined) set.started_on = started;
    if (body.provider !== undefined) set.provider = body.provider;
    if (body.assessor_name !== undefined) set.assessor_name = body.assessor_name;
    if (body.notes !== undefined) set.notes = body.notes;
    await trx.updateTable('care_certificates').set(set).where('id', '=', cert.id).execute();
    if (body.version_id !== undefined && body.version_id !== cert.version_id)
      await approveAll(trx, cert.id, body.version_id, completed, actor.userId);
    else if (body.completed_on !== undefined)
      await trx
        .updateTable('care_certificate_standard_states')
        .set({ decided_at: decidedAt(completed) })
        .where('certificate_id', '=', cert.id)
        .execute();
  });
  return certificateView(ctx, uuid);
}

/** GET /historical-care-certificates: the historical certificates of people in scope, latest completion first. */
export async function listHistorical(
  ctx: Ctx,
  q: { page: number; per_page: number; user_id?: number; search?: string },
): Promise<{ data: CertificateSummary[]; total: number }> {
  authorize(ctx, [P.historical]);
  const entityIds = await scopedEntityIds(ctx);
  let base = ctx.db
    .selectFrom('care_certificates as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .where('c.historical', '=', true);
  if (entityIds !== null) base = base.where('u.primary_entity_id', 'in', entityIds.length ? entityIds : [0]);
  if (q.user_id) base = base.where('c.user_id', '=', q.user_id);
  if (q.search) base = base.where('u.name', 'ilike', `%${q.search.replace(/[%_\\]/g, '\\$&')}%`);
  const total = Number(
    (await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n,
  );
  const rows = await base
    .select('c.id')
    .orderBy('c.completed_on', 'desc')
    .orderBy('c.id', 'desc')
    .limit(q.per_page)
    .offset((q.page - 1) * q.per_page)
    .execute();
  const data = await summariesOf(
    ctx.db,
    rows.map((r) => r.id),
    ctx.clock(),
  );
  return { data, total };
}
